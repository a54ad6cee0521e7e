"""A ``ChatCompletionClient`` that hands everything to an inner client; wrappers override ``create``.

Wrappers built per cycle (progress observation, constrained artifact output) never own the inner
client: :meth:`DelegatingClient.close` does nothing, the provider closes its clients.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any

from autogen_core import CancellationToken
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, ModelCapabilities, ModelInfo
from autogen_core.models import RequestUsage as _RequestUsage


class DelegatingClient(ChatCompletionClient):
    """Delegates every call to ``inner``; ``create_stream`` goes through :meth:`create` (one chunk)."""

    def __init__(self, inner: ChatCompletionClient) -> None:
        self.inner = inner

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Any] = [],
        tool_choice: Any = "auto",
        json_output: Any = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        return await self.inner.create(messages, tools=tools, tool_choice=tool_choice, json_output=json_output,
                                       extra_create_args=extra_create_args, cancellation_token=cancellation_token)

    async def create_stream(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Any] = [],
        tool_choice: Any = "auto",
        json_output: Any = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        result = await self.create(messages, tools=tools, tool_choice=tool_choice, json_output=json_output,
                                   extra_create_args=extra_create_args, cancellation_token=cancellation_token)
        if isinstance(result.content, str) and result.content:
            yield result.content
        yield result

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
