"""Progress of model calls: time every call of a role's client and report it, with a heartbeat.

:class:`ObservedClient` calls ``on_call(CallReport)`` when a call ends (tokens, seconds, tokens
per second, and the time to the first chunk when the call streamed) and ``on_wait(role, elapsed)``
every ``heartbeat`` seconds while one is running, so a user waiting on a slow local model sees
progress, never a silent minute. ``seconds`` is the whole call as the agent waited for it:
retries and their waits included (each retry is reported on its own by the retrying client).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage

from .client import CallOptions
from .delegate import DelegatingClient

HEARTBEAT = 20.0  # seconds between "still working" reports of one call


@dataclass(frozen=True)
class CallReport:
    """One finished model call of ``role``."""

    role: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    ttft: float | None = None  # seconds to the first streamed chunk; None for a call that did not stream

    @property
    def tokens_per_s(self) -> float:
        """Completion tokens per second of wall time (prompt evaluation included)."""
        return round(self.completion_tokens / self.seconds, 1) if self.seconds > 0 else 0.0

    def payload(self) -> dict[str, Any]:
        return {"role": self.role, "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "seconds": round(self.seconds, 3), "tokens_per_s": self.tokens_per_s,
                "ttft": None if self.ttft is None else round(self.ttft, 3)}


class ObservedClient(DelegatingClient):
    """Times each ``create`` of ``inner`` for ``role``; see the module docstring."""

    def __init__(self, inner: ChatCompletionClient, role: str, *, on_call: Callable[[CallReport], None],
                 on_wait: Callable[[str, float], None] | None = None, heartbeat: float = HEARTBEAT) -> None:
        super().__init__(inner)
        self.role = role
        self._on_call = on_call
        self._on_wait = on_wait
        self._heartbeat = heartbeat

    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        started = time.monotonic()
        beat = asyncio.ensure_future(self._beat(started)) if self._on_wait is not None else None
        try:
            result = await self.inner.create(messages, **options.kwargs())
        finally:
            if beat is not None:
                beat.cancel()
        self._on_call(CallReport(self.role, result.usage.prompt_tokens, result.usage.completion_tokens,
                                 time.monotonic() - started))
        return result

    async def _stream(self, messages: Sequence[LLMMessage], options: CallOptions
                      ) -> AsyncGenerator[str | CreateResult, None]:
        """``inner.create_stream``, timed: the report has the time to the first chunk (``ttft``)."""
        started = time.monotonic()
        first: float | None = None
        beat = asyncio.ensure_future(self._beat(started)) if self._on_wait is not None else None
        try:
            async for chunk in self.inner.create_stream(messages, **options.kwargs()):
                if first is None:
                    first = time.monotonic() - started
                if isinstance(chunk, CreateResult):
                    self._on_call(CallReport(self.role, chunk.usage.prompt_tokens, chunk.usage.completion_tokens,
                                             time.monotonic() - started, ttft=first))
                yield chunk
        finally:
            if beat is not None:
                beat.cancel()

    async def _beat(self, started: float) -> None:
        assert self._on_wait is not None
        while True:
            await asyncio.sleep(self._heartbeat)
            self._on_wait(self.role, time.monotonic() - started)
