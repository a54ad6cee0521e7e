"""RetryingClient: what is retried, how long it waits, what it raises, what it delegates."""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import AsyncGenerator, Sequence
from typing import Any

import httpx
import openai
import pytest
from autogen_core.models import CreateResult, RequestUsage, UserMessage

from autogen_pse.errors import ModelError
from autogen_pse.models.base import TextClientBase
from autogen_pse.models.retry import RetryingClient, classify, redact, retry_after_seconds

MSGS = [UserMessage(content="hi", source="user")]
KEY = "sk-live-SECRET1234567890abcdef"
REQ = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
INFO = {
    "function_calling": True,
    "json_output": False,
    "structured_output": False,
    "vision": False,
    "family": "unknown",
}


def status_error(status: int, headers: dict[str, str] | None = None, message: str = "boom") -> openai.APIStatusError:
    response = httpx.Response(status, headers=headers or {}, request=REQ)
    cls = {
        429: openai.RateLimitError,
        500: openai.InternalServerError,
        400: openai.BadRequestError,
        401: openai.AuthenticationError,
        404: openai.NotFoundError,
    }.get(status, openai.APIStatusError)
    return cls(message, response=response, body=None)


def ok(text: str = "done") -> CreateResult:
    return CreateResult(content=text, finish_reason="stop", usage=RequestUsage(3, 2), cached=False)


class FakeClient(TextClientBase):
    """Plays a list of outcomes: exceptions are raised, results returned; counts calls."""

    def __init__(self, outcomes: list[Any]) -> None:
        super().__init__(INFO, context_tokens=1000)  # type: ignore[arg-type]
        self.outcomes = list(outcomes)
        self.calls = 0
        self.closed = False
        self.extra_attribute = "from inner"

    async def create(self, messages: Sequence[Any], **kwargs: Any) -> CreateResult:
        self.calls += 1
        item = self.outcomes.pop(0)
        if isinstance(item, BaseException):
            raise item
        self._record(item.usage)
        return item

    async def create_stream(self, messages: Sequence[Any], **kwargs: Any) -> AsyncGenerator[Any, None]:  # type: ignore[override]
        self.calls += 1
        item = self.outcomes.pop(0)
        if isinstance(item, BaseException):
            raise item
        for part in item:
            if isinstance(part, BaseException):
                raise part
            yield part

    async def close(self) -> None:
        self.closed = True


class Recorder:
    def __init__(self) -> None:
        self.slept: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.slept.append(seconds)


def wrap(outcomes: list[Any], **kw: Any) -> tuple[RetryingClient, FakeClient, Recorder]:
    inner, rec = FakeClient(outcomes), Recorder()
    options = {"max_retries": 3, "base_delay": 0.1, "max_delay": 1.0, "sleep": rec, "rng": lambda: 1.0}
    options.update(kw)
    return RetryingClient(inner, **options), inner, rec


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (openai.APIConnectionError(request=REQ), "connection error"),
        (openai.APITimeoutError(request=REQ), "timeout"),
        (status_error(429), "rate limit (HTTP 429)"),
        (status_error(500), "server error (HTTP 500)"),
        (status_error(503), "server error (HTTP 503)"),
        (TimeoutError(), "timeout"),
        (httpx.ReadTimeout("slow", request=REQ), "timeout"),
        (httpx.ConnectError("refused", request=REQ), "connection error"),
        (status_error(400), None),
        (status_error(401), None),
        (status_error(404), None),
        (ValueError("bug"), None),
    ],
)
def test_classify(exc: BaseException, kind: str | None) -> None:
    assert classify(exc) == kind


async def test_transient_errors_are_retried_with_exponential_backoff() -> None:
    errors = [openai.APIConnectionError(request=REQ), status_error(502), openai.APITimeoutError(request=REQ)]
    client, inner, rec = wrap([*errors, ok()], base_delay=0.1, max_delay=0.3)
    result = await client.create(MSGS)
    assert result.content == "done"
    assert inner.calls == 4 and client.retries == 3
    assert rec.slept == pytest.approx([0.1, 0.2, 0.3])  # rng=1.0: full ceiling, capped at max_delay


async def test_jitter_keeps_waits_between_half_and_full_ceiling() -> None:
    client, _, rec = wrap([status_error(500)] * 3 + [ok()], rng=lambda: 0.0, base_delay=0.4, max_delay=10)
    await client.create(MSGS)
    assert rec.slept == pytest.approx([0.2, 0.4, 0.8])


async def test_retries_exhausted_raise_model_error_with_attempts_and_hint() -> None:
    client, inner, _ = wrap([status_error(503)] * 3, max_retries=2)
    with pytest.raises(ModelError) as info:
        await client.create(MSGS)
    assert str(info.value) == (
        "model call failed after 3 attempts: server error (HTTP 503); check OPENAI_BASE_URL / the server"
    )
    assert inner.calls == 3
    assert isinstance(info.value.__cause__, openai.APIStatusError)
    assert info.value.__cause__.status_code == 503


@pytest.mark.parametrize("status", [400, 401, 404, 422])
async def test_client_errors_other_than_429_are_never_retried(status: int) -> None:
    client, inner, rec = wrap(
        [status_error(status, message=f"Incorrect API key provided: {KEY}"), ok()], secrets=(KEY,)
    )
    with pytest.raises(ModelError, match=f"rejected \\(HTTP {status}") as info:
        await client.create(MSGS)
    assert inner.calls == 1 and rec.slept == []
    assert KEY not in str(info.value) and "SECRET" not in str(info.value)


async def test_non_provider_errors_propagate_unchanged() -> None:
    client, inner, _ = wrap([ValueError("caller bug"), ok()])
    with pytest.raises(ValueError, match="caller bug"):
        await client.create(MSGS)
    assert inner.calls == 1


async def test_cancellation_is_not_retried() -> None:
    client, inner, _ = wrap([asyncio.CancelledError(), ok()])
    with pytest.raises(asyncio.CancelledError):
        await client.create(MSGS)
    assert inner.calls == 1


async def test_retry_after_header_is_honoured_and_capped() -> None:
    client, _, rec = wrap(
        [status_error(429, {"retry-after": "0.7"}), status_error(429, {"retry-after": "120"}), ok()],
        max_delay=2.0,
        base_delay=0.01,
    )
    await client.create(MSGS)
    assert rec.slept == pytest.approx([0.7, 2.0])


def test_retry_after_forms() -> None:
    assert retry_after_seconds(status_error(429, {"retry-after-ms": "250"})) == pytest.approx(0.25)
    assert retry_after_seconds(status_error(429, {"retry-after": "3"})) == 3.0
    future = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= retry_after_seconds(status_error(429, {"retry-after": future})) <= 31  # type: ignore[operator]
    assert retry_after_seconds(status_error(429, {"retry-after": "soon"})) is None
    assert retry_after_seconds(status_error(429)) is None
    assert retry_after_seconds(ValueError()) is None


async def test_on_retry_callback_and_real_sleep_are_used() -> None:
    seen: list[tuple[int, str, float]] = []
    inner = FakeClient([status_error(500), ok()])
    client = RetryingClient(
        inner,
        max_retries=1,
        base_delay=0.02,
        max_delay=0.02,
        rng=lambda: 1.0,
        on_retry=lambda a, k, d: seen.append((a, k, d)),
    )
    start = time.perf_counter()
    await client.create(MSGS)
    assert time.perf_counter() - start >= 0.018
    assert seen == [(1, "server error (HTTP 500)", pytest.approx(0.02))]


async def test_stream_retries_before_first_chunk_only() -> None:
    client, inner, _ = wrap([openai.APIConnectionError(request=REQ), ["a", "b", ok("ab")]])
    chunks = [c async for c in client.create_stream(MSGS)]
    assert chunks[:2] == ["a", "b"] and inner.calls == 2

    client, inner, _ = wrap([["a", status_error(500)], ["never"]])
    with pytest.raises(ModelError, match="model stream interrupted: server error"):
        _ = [c async for c in client.create_stream(MSGS)]
    assert inner.calls == 1

    client, _, _ = wrap([[]])
    assert [c async for c in client.create_stream(MSGS)] == []


async def test_everything_else_is_delegated() -> None:
    client, inner, _ = wrap([ok()])
    await client.create(MSGS)
    assert client.total_usage() == inner.total_usage() == RequestUsage(3, 2)
    assert client.actual_usage() == inner.actual_usage()
    assert client.model_info is inner.model_info
    assert client.capabilities == inner.capabilities
    assert client.count_tokens(MSGS) == inner.count_tokens(MSGS) > 0
    assert client.remaining_tokens(MSGS) == inner.remaining_tokens(MSGS)
    assert client.extra_attribute == "from inner"
    await client.close()
    assert inner.closed

    owned, inner2, _ = wrap([], close_inner=False)
    await owned.close()
    assert not inner2.closed
    await owned.aclose_inner()
    assert inner2.closed


def test_redact() -> None:
    assert KEY not in redact(f"bad key {KEY}", (KEY,))
    assert redact("Incorrect API key provided: sk-abc123****wxyz.") == "Incorrect API key provided: sk-***."
    with pytest.raises(ValueError):
        RetryingClient(FakeClient([]), max_retries=-1)
