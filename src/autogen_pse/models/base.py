"""Shared pieces of the model providers: roles, the provider base class, a client base class.

A :class:`ModelProvider` is opened once per run by :func:`autogen_pse.models.open_provider`. It
hands each agent role a ``ChatCompletionClient`` (:meth:`ModelProvider.client_for`); the clients
belong to the provider: callers never close them, :meth:`ModelProvider.close` does.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

from autogen_core.models import ChatCompletionClient, ModelCapabilities, ModelInfo, RequestUsage

from ..names import ROLES
from .client import ChatClient
from .tokens import count_prompt_tokens


def check_role(role: str) -> str:
    """Return ``role`` if it is one of :data:`ROLES`, else raise ``ValueError`` (a caller bug)."""
    if role not in ROLES:
        raise ValueError(f"unknown agent role {role!r}; expected one of {', '.join(ROLES)}")
    return role


class ModelProvider(abc.ABC):
    """One model backend for one run.

    Attributes:
        name: model id used for pricing and traces, e.g. ``"local:SmolLM2-135M-Instruct"``,
            ``"openai:gpt-4o-mini"``, ``"scripted:demo_pass.json"``.
        supports_tools: whether agents may be given tools (the model can emit tool calls).
        output_strategy / compact_prompts: see the class attributes.
        remote: whether prompts leave this machine (PII redaction is decided by this, never by
            how the spec was spelled). Defaults to True: a provider that does not say is remote.
        priced: whether calls cost money (False: cost 0.0; True: looked up in the price table).
    """

    name: str
    supports_tools: bool
    #: how an artifact object of a schema is asked for (see :mod:`autogen_pse.artifacts.constrained`):
    #: ``grammar`` | ``json_schema`` | ``json_object`` | ``validate``.
    output_strategy: str = "validate"
    #: whether the model needs compact prompts (a small local model with a prompt-token budget).
    compact_prompts: bool = False
    remote: bool = True
    priced: bool = True

    def __init__(self) -> None:
        self._clients: dict[str, ChatCompletionClient] = {}
        self._notices: list[str] = []

    def client_for(self, role: str) -> ChatCompletionClient:
        """The client for ``role`` (planner | specialist | evaluator); the same object on every
        call, so per-role state (scripted cursors, usage totals) survives agent rebuilds.

        Raises:
            ValueError: ``role`` is not one of :data:`ROLES`.
        """
        check_role(role)
        client = self._clients.get(role)
        if client is None:
            client = self._clients[role] = self._make_client(role)
        return client

    @abc.abstractmethod
    def _make_client(self, role: str) -> ChatCompletionClient:
        """Build the client for ``role`` (called once per role)."""

    def use_compact_prompts(self, on: bool) -> None:  # noqa: B027 - optional hook, deliberately not abstract
        """Told by the runner, before any client exists, whether this run is compact (a schema and
        compact prompts); a provider may then apply its per-call prompt budget. Default: nothing."""
    def take_notices(self) -> list[str]:
        """Warnings about model calls since the last call (e.g. a reply cut at the completion
        limit), each once; the cycle loop records them as ``warning`` events."""
        taken, self._notices = self._notices, []
        return taken

    def notice(self, text: str) -> None:
        """Queue a warning for :meth:`take_notices`."""
        self._notices.append(text)

    def abort(self) -> None:  # noqa: B027 - optional hook, deliberately not abstract
        """Stop model calls in progress as soon as the backend allows (a run is being stopped).
        Default: nothing to do (remote calls end with their timeout)."""

    async def close(self) -> None:
        """Release the provider's resources (HTTP connections); idempotent."""
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            aclose = getattr(client, "aclose_inner", None)
            await (aclose() if aclose is not None else client.close())


class TextClientBase(ChatClient):
    """Bookkeeping shared by the in-house clients: usage totals, capabilities, token counting."""

    def __init__(self, model_info: ModelInfo, context_tokens: int) -> None:
        self._model_info = model_info
        self._context_tokens = context_tokens
        self._total = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self._actual = RequestUsage(prompt_tokens=0, completion_tokens=0)

    def _record(self, usage: RequestUsage) -> None:
        self._total = RequestUsage(
            prompt_tokens=self._total.prompt_tokens + usage.prompt_tokens,
            completion_tokens=self._total.completion_tokens + usage.completion_tokens,
        )
        self._actual = RequestUsage(
            prompt_tokens=self._actual.prompt_tokens + usage.prompt_tokens,
            completion_tokens=self._actual.completion_tokens + usage.completion_tokens,
        )

    def actual_usage(self) -> RequestUsage:
        return self._actual

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
        """Prompt tokens of ``messages`` + ``tools`` with the repo's offline tokenizer."""
        return count_prompt_tokens(messages, tools)

    def remaining_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
        return max(0, self._context_tokens - self.count_tokens(messages, tools=tools))

    @property
    def capabilities(self) -> ModelCapabilities:  # deprecated upstream
        return {
            "vision": self._model_info["vision"],
            "function_calling": self._model_info["function_calling"],
            "json_output": self._model_info["json_output"],
        }

    @property
    def model_info(self) -> ModelInfo:
        return self._model_info
