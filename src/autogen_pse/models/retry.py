"""Retries for model calls: :class:`RetryingClient` wraps any ``ChatCompletionClient``.

Retried (transient): ``openai.APIConnectionError``, ``openai.APITimeoutError``, ``asyncio`` /
``httpx`` timeouts and transport errors, ``openai.RateLimitError`` (HTTP 429: the server's
``Retry-After`` / ``retry-after-ms`` header is honoured, capped at ``max_delay``) and any
``openai.APIStatusError`` with status >= 500. Waits grow exponentially from ``base_delay`` with
jitter, capped at ``max_delay``. Never retried: other 4xx errors (raised at once as
:class:`~autogen_pse.errors.ModelError`) and anything that is not a provider error (bugs, caller
errors, cancellation propagate unchanged).

When the attempts run out: ``ModelError("model call failed after N attempts: <kind>; <hint>")``.
Messages never contain the API key (provider messages are scrubbed of the secrets given).
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import re
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from typing import Any

from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from ..errors import ModelError
from .client import CallOptions
from .delegate import DelegatingClient

logger = logging.getLogger(__name__)

DEFAULT_HINT = "check OPENAI_BASE_URL / the server"
_KEY_PATTERN = re.compile(r"\b(sk-[A-Za-z0-9_\-*]{4,})")

_EMPTY = object()  # marker: the stream ended before its first chunk
SleepFn = Callable[[float], Awaitable[None]]
RetryCallback = Callable[[int, str, float], None]


def classify(exc: BaseException) -> str | None:
    """A short description of a *transient* failure (``"rate limit (HTTP 429)"``), or ``None``
    when ``exc`` must not be retried."""
    import httpx
    import openai  # a core dependency (autogen-ext[openai])

    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection error"
    if isinstance(exc, openai.RateLimitError):
        return "rate limit (HTTP 429)"
    if isinstance(exc, openai.APIStatusError):
        return f"server error (HTTP {exc.status_code})" if exc.status_code >= 500 else None
    if isinstance(exc, asyncio.TimeoutError | TimeoutError | httpx.TimeoutException):
        return "timeout"
    if isinstance(exc, httpx.TransportError):
        return "connection error"
    return None


def retry_after_seconds(exc: BaseException) -> float | None:
    """Seconds asked for by a 429/5xx response's ``retry-after-ms`` or ``Retry-After`` header
    (delta-seconds or an HTTP date), or ``None`` when absent/unparseable."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000.0)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def redact(text: str, secrets: Sequence[str] = ()) -> str:
    """``text`` with every given secret and anything shaped like an API key replaced by ``***``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return _KEY_PATTERN.sub("sk-***", text)


class RetryingClient(DelegatingClient):
    """A ``ChatCompletionClient`` that retries transient failures of ``inner`` (usage, token
    counting, capabilities and provider-specific helpers come from ``inner``).

    Args:
        inner: the client doing the work; every method not about retrying is delegated to it.
        max_retries: retries after the first attempt (attempts = ``max_retries + 1``).
        base_delay: first backoff wait in seconds; attempt n waits about
            ``base_delay * 2**(n-1)`` (equal jitter: between half and all of it).
        max_delay: cap on any single wait, including a server's ``Retry-After``.
        sleep: the coroutine that waits (injectable: tests pass a recorder).
        rng: ``() -> float in [0, 1)`` for the jitter (injectable for deterministic tests).
        hint: the fix named in the final error message.
        secrets: strings scrubbed from every error message (the API key).
        on_retry: called as ``on_retry(attempt, kind, delay_seconds)`` before each wait.
        close_inner: whether :meth:`close` closes ``inner`` (providers pass ``False`` and close
            it themselves through :meth:`aclose_inner`).
        retry_timeouts: whether a timed-out call is retried (a slow server may still be working
            on it: the retry would queue behind the abandoned request).

    Attributes:
        retries: retries made so far (all calls); ``waits``: the delays waited, in order.
        on_retry: the callback above; may be set after construction (e.g. by the cycle loop to
            turn retries into ``warning`` events).
    """

    def __init__(
        self,
        inner: ChatCompletionClient,
        max_retries: int = 4,
        base_delay: float = 1.0,
        max_delay: float = 30.0,
        *,
        sleep: SleepFn = asyncio.sleep,
        rng: Callable[[], float] = random.random,
        hint: str = DEFAULT_HINT,
        secrets: Sequence[str] = (),
        on_retry: RetryCallback | None = None,
        close_inner: bool = True,
        retry_timeouts: bool = True,
    ) -> None:
        if max_retries < 0 or base_delay < 0 or max_delay < 0:
            raise ValueError("max_retries, base_delay and max_delay must be >= 0")
        super().__init__(inner)
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._sleep = sleep
        self._rng = rng
        self._hint = hint
        self._secrets = tuple(s for s in secrets if s)
        self.on_retry = on_retry
        self._close_inner = close_inner
        self._retry_timeouts = retry_timeouts
        self.retries = 0
        self.waits: list[float] = []

    # --- retry policy ---------------------------------------------------------------------
    def _wait(self, state: RetryCallState) -> float:
        """Delay before the next attempt (tenacity computes it before checking the stop rule)."""
        exc = state.outcome.exception() if state.outcome is not None else None
        asked = retry_after_seconds(exc) if exc is not None else None
        if asked is not None:
            return min(asked, self.max_delay)
        ceiling = min(self.max_delay, self.base_delay * (2 ** (state.attempt_number - 1)))
        return ceiling / 2 + self._rng() * ceiling / 2

    def _before_sleep(self, state: RetryCallState) -> None:
        """Bookkeeping for a retry that will happen (called only when tenacity is about to wait)."""
        exc = state.outcome.exception() if state.outcome is not None else None
        kind = (classify(exc) if exc is not None else None) or "unknown"
        delay = state.upcoming_sleep
        self.retries += 1
        self.waits.append(delay)
        logger.warning("model call attempt %d failed (%s); retrying in %.2fs", state.attempt_number, kind, delay)
        if self.on_retry is not None:
            self.on_retry(state.attempt_number, kind, delay)

    def _retrying(self) -> AsyncRetrying:
        return AsyncRetrying(
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception(self._transient),
            sleep=self._sleep,
            before_sleep=self._before_sleep,
            reraise=True,
        )

    def _transient(self, exc: BaseException) -> bool:
        kind = classify(exc)
        return kind is not None and (kind != "timeout" or self._retry_timeouts)

    def _final_error(self, exc: BaseException) -> BaseException:
        """The error to raise once retrying stops on ``exc``."""
        kind = classify(exc)
        if kind == "timeout" and not self._retry_timeouts:
            return ModelError(f"model call timed out (not retried: the server may still be working on it); "
                              f"{self._hint}")
        if kind is not None:
            attempts = self.max_retries + 1
            return ModelError(f"model call failed after {attempts} attempts: {kind}; {self._hint}")
        try:
            import openai
        except ImportError:  # pragma: no cover
            return exc
        if isinstance(exc, openai.APIStatusError):
            detail = redact(str(getattr(exc, "message", "") or exc), self._secrets)[:300]
            return ModelError(
                f"model call rejected (HTTP {exc.status_code} {type(exc).__name__}): {detail}; {self._hint}"
            )
        return exc

    # --- ChatCompletionClient -------------------------------------------------------------
    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        """``inner.create`` with retries. Raises :class:`ModelError` as described above; a
        cancelled ``cancellation_token`` ends the call and any wait between attempts at once."""
        token = options.cancellation_token
        if token is not None:
            call = asyncio.ensure_future(self._create(messages, options.but(cancellation_token=None)))
            token.link_future(call)
            return await call
        try:
            async for attempt in self._retrying():
                with attempt:
                    return await self.inner.create(messages, **options.kwargs())
        except Exception as exc:
            final = self._final_error(exc)
            if final is exc:
                raise
            raise final from exc
        raise AssertionError("unreachable: tenacity neither returned nor raised")  # pragma: no cover

    async def _stream(self, messages: Sequence[LLMMessage], options: CallOptions
                      ) -> AsyncGenerator[str | CreateResult, None]:
        """``inner.create_stream`` with retries until the first chunk arrives; a failure after
        that cannot be replayed and raises :class:`ModelError` at once."""
        stream: Any = None
        first: Any = None
        try:
            async for attempt in self._retrying():
                with attempt:
                    stream = self.inner.create_stream(messages, **options.kwargs())
                    try:
                        first = await stream.__anext__()
                    except StopAsyncIteration:  # must not escape into tenacity's async-for
                        first = _EMPTY
                    except BaseException:
                        await stream.aclose()
                        raise
        except Exception as exc:
            final = self._final_error(exc)
            if final is exc:
                raise
            raise final from exc
        if first is _EMPTY:
            return
        yield first
        try:
            async for chunk in stream:
                yield chunk
        except Exception as exc:
            kind = classify(exc)
            if kind is None:
                raise
            raise ModelError(f"model stream interrupted: {kind}; {self._hint}") from exc

    async def close(self) -> None:
        """Close ``inner`` unless this wrapper was built with ``close_inner=False``."""
        if self._close_inner:
            await self.inner.close()

    async def aclose_inner(self) -> None:
        """Close ``inner`` regardless of ``close_inner`` (used by the owning provider)."""
        await self.inner.close()
