"""One place for the ``ChatCompletionClient`` call signature.

Every in-house client (the scripted and local ones) and every wrapper (retries, progress
observation, constrained artifact output) extends :class:`ChatClient`: its ``create`` and
``create_stream`` take AutoGen's keyword arguments once, bundle them in :class:`CallOptions` and
call :meth:`ChatClient._create` / :meth:`ChatClient._stream`, which subclasses override.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from autogen_core import CancellationToken
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage

__all__ = ["CallOptions", "ChatClient"]


@dataclass(frozen=True)
class CallOptions:
    """The keyword arguments of one ``create`` / ``create_stream`` call."""

    tools: Sequence[Any] = ()
    tool_choice: Any = "auto"
    json_output: Any = None
    extra_create_args: Mapping[str, Any] = field(default_factory=dict)
    cancellation_token: CancellationToken | None = None

    def kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments of another client's ``create`` / ``create_stream``."""
        return {"tools": self.tools, "tool_choice": self.tool_choice, "json_output": self.json_output,
                "extra_create_args": self.extra_create_args, "cancellation_token": self.cancellation_token}

    def but(self, **changes: Any) -> CallOptions:
        """These options with ``changes`` (e.g. ``cancellation_token=None``)."""
        return replace(self, **changes)


class ChatClient(ChatCompletionClient):
    """A ``ChatCompletionClient`` whose entry points are written once; subclasses override
    :meth:`_create` (and :meth:`_stream` when they stream)."""

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
        return await self._create(messages, CallOptions(tools, tool_choice, json_output, extra_create_args,
                                                        cancellation_token))

    def create_stream(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Any] = [],
        tool_choice: Any = "auto",
        json_output: Any = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        return self._stream(messages, CallOptions(tools, tool_choice, json_output, extra_create_args,
                                                  cancellation_token))

    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        """One completion (subclasses implement it)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _create")

    async def _stream(self, messages: Sequence[LLMMessage], options: CallOptions
                      ) -> AsyncGenerator[str | CreateResult, None]:
        """Default stream: one ``create``, then its text (if any) and the :class:`CreateResult`."""
        result = await self.create(messages, **options.kwargs())
        if isinstance(result.content, str) and result.content:
            yield result.content
        yield result
