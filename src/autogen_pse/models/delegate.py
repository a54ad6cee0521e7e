"""A ``ChatCompletionClient`` that hands everything to an inner client; wrappers override ``_create``
(and ``_stream``), see :mod:`autogen_pse.models.client`.

Wrappers built per cycle (progress observation, constrained artifact output) never own the inner
client: :meth:`DelegatingClient.close` does nothing, the provider closes its clients.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, ModelCapabilities, ModelInfo
from autogen_core.models import RequestUsage as _RequestUsage

from .client import CallOptions, ChatClient


class DelegatingClient(ChatClient):
    """Delegates every call to ``inner``; ``create_stream`` goes through :meth:`create` (one chunk)."""

    def __init__(self, inner: ChatCompletionClient) -> None:
        self.inner = inner

    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        return await self.inner.create(messages, **options.kwargs())

    async def close(self) -> None:
        """Nothing: the provider owns and closes the inner client."""

    def actual_usage(self) -> _RequestUsage:
        return self.inner.actual_usage()

    def total_usage(self) -> _RequestUsage:
        return self.inner.total_usage()

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Any] = []) -> int:
        return self.inner.count_tokens(messages, tools=tools)

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Any] = []) -> int:
        return self.inner.remaining_tokens(messages, tools=tools)

    @property
    def capabilities(self) -> ModelCapabilities:
        return self.inner.capabilities

    @property
    def model_info(self) -> ModelInfo:
        return self.inner.model_info

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
