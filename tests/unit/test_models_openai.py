"""The openai provider over real HTTP against a fake OpenAI server on 127.0.0.1.

The component under test is the real one (autogen's OpenAIChatCompletionClient + the openai SDK +
httpx + our RetryingClient); only the server is fake: a ``http.server`` thread answering
``POST /v1/chat/completions`` from a queue of canned responses and recording every request.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from autogen_core.models import SystemMessage, UserMessage

from autogen_pse.config import Settings
from autogen_pse.errors import ModelError, UserError
from autogen_pse.models import open_provider
from autogen_pse.models.openai_compat import DEFAULT_UNKNOWN_MODEL_INFO, OpenAIProvider, resolve_model_info

KEY = "sk-test-0123456789abcdefSECRET"
MSGS = [SystemMessage(content="You are terse."), UserMessage(content="Say hello.", source="user")]


def completion(content: str = "hello", usage: dict[str, int] | None = None, finish: str = "stop") -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "tiny-test",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
    }
    if usage is not None:
        body["usage"] = {**usage, "total_tokens": sum(usage.values())}
    return body


class FakeOpenAI:
    """Canned responses: (status, headers, json body | list of SSE json events, delay seconds)."""

    def __init__(self) -> None:
        self.responses: list[tuple[int, dict[str, str], Any, float]] = []
        self.requests: list[dict[str, Any]] = []
        self.times: list[float] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                fake.times.append(time.perf_counter())
                fake.requests.append(
                    {
                        "path": self.path,
                        "auth": self.headers.get("authorization"),
                        "body": json.loads(self.rfile.read(length) or b"{}"),
                    }
                )
                status, headers, body, delay = fake.responses.pop(0)
                if delay:
                    time.sleep(delay)
                if isinstance(body, list):  # server-sent events
                    payload = "".join(f"data: {json.dumps(e)}\n\n" for e in body) + "data: [DONE]\n\n"
                    ctype = "text/event-stream"
                else:
                    payload, ctype = json.dumps(body), "application/json"
                data = payload.encode()
                try:
                    self.send_response(status)
                    for name, value in {"content-type": ctype, **headers}.items():
                        self.send_header(name, value)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # client gave up (timeout test)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def add(self, status: int, body: Any, headers: dict[str, str] | None = None, delay: float = 0.0) -> None:
        self.responses.append((status, headers or {}, body, delay))


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    server.thread.start()
    try:
        yield server
    finally:
        server.server.shutdown()
        server.server.server_close()


def settings(url: str | None, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "openai_base_url": url,
        "openai_api_key": KEY,
        "openai_timeout": 5.0,
        "openai_max_retries": 3,
        "retry_base_delay": 0.001,
        "retry_max_delay": 1.0,
        "openai_model_info": None,
        "openai_stream": False,
    }
    base.update(kw)
    return Settings(_env_file=None, **base)  # type: ignore[call-arg]


async def test_500_then_429_retry_after_then_success(fake: FakeOpenAI) -> None:
    fake.add(500, {"error": {"message": "internal"}})
    fake.add(429, {"error": {"message": "slow down"}}, headers={"retry-after": "0.3"})
    fake.add(200, completion("hello there", {"prompt_tokens": 21, "completion_tokens": 4}))
    provider = open_provider("openai:tiny-test", settings(fake.url))
    assert provider.name == "openai:tiny-test" and provider.supports_tools is True
    client = provider.client_for("specialist")
    result = await client.create(MSGS)
    await provider.close()

    assert result.content == "hello there" and result.finish_reason == "stop"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (21, 4)
    assert client.total_usage().prompt_tokens == 21
    assert len(fake.requests) == 3 and client.retries == 2
    assert client.waits[0] < 0.01  # exponential backoff from base 0.001
    assert client.waits[1] == pytest.approx(0.3)  # Retry-After honoured
    assert fake.times[2] - fake.times[1] >= 0.28  # ... really waited, between requests
    assert fake.requests[0]["auth"] == f"Bearer {KEY}"
    assert fake.requests[0]["path"] == "/v1/chat/completions"
    body = fake.requests[0]["body"]
    assert body["model"] == "tiny-test" and body["messages"][0] == {
        "role": "system",
        "content": "You are terse.",
    }


async def test_retry_after_is_capped_by_max_delay(fake: FakeOpenAI) -> None:
    fake.add(429, {"error": {"message": "slow"}}, headers={"retry-after": "3600"})
    fake.add(200, completion(usage={"prompt_tokens": 1, "completion_tokens": 1}))
    provider = open_provider("openai:tiny-test", settings(fake.url, retry_max_delay=0.05))
    client = provider.client_for("planner")
    start = time.perf_counter()
    await client.create(MSGS)
    assert time.perf_counter() - start < 10.0  # not the 3600 s asked for
    assert client.waits == [pytest.approx(0.05)]
    await provider.close()


async def test_server_errors_exhaust_retries(fake: FakeOpenAI) -> None:
    for _ in range(3):
        fake.add(503, {"error": {"message": "overloaded"}})
    provider = open_provider("openai:tiny-test", settings(fake.url, openai_max_retries=2))
    with pytest.raises(ModelError) as info:
        await provider.client_for("planner").create(MSGS)
    assert str(info.value) == (
        "model call failed after 3 attempts: server error (HTTP 503); is an OpenAI-compatible server answering "
        f"at {fake.url}? (OPENAI_BASE_URL; per-call timeout PSE_OPENAI_TIMEOUT=5 s)"
    )
    assert len(fake.requests) == 3  # the SDK itself did not retry (max_retries=0 inside)
    await provider.close()


async def test_401_is_not_retried_and_the_key_never_shows(fake: FakeOpenAI) -> None:
    fake.add(401, {"error": {"message": f"Incorrect API key provided: {KEY}", "code": "invalid_api_key"}})
    fake.add(200, completion(usage={"prompt_tokens": 1, "completion_tokens": 1}))
    provider = open_provider("openai:tiny-test", settings(fake.url))
    with pytest.raises(ModelError, match=r"rejected \(HTTP 401 AuthenticationError\)") as info:
        await provider.client_for("planner").create(MSGS)
    assert KEY not in str(info.value) and "SECRET" not in str(info.value)
    assert len(fake.requests) == 1
    await provider.close()


async def test_timeouts_are_retried_then_reported(fake: FakeOpenAI) -> None:
    fake.add(200, completion(usage={"prompt_tokens": 1, "completion_tokens": 1}), delay=1.0)
    fake.add(200, completion(usage={"prompt_tokens": 1, "completion_tokens": 1}), delay=1.0)
    provider = open_provider("openai:tiny-test", settings(fake.url, openai_timeout=0.2, openai_max_retries=1,
                                                          openai_retry_timeouts=True))  # off by default (issue 10)
    with pytest.raises(ModelError, match=r"^model call failed after 2 attempts: timeout"):
        await provider.client_for("evaluator").create(MSGS)
    await provider.close()


async def test_connection_refused_is_retried_then_reported() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    provider = open_provider("openai:tiny-test", settings(f"http://127.0.0.1:{port}/v1", openai_max_retries=2))
    client = provider.client_for("planner")
    with pytest.raises(
        ModelError, match=rf"^model call failed after 3 attempts: connection error; is an OpenAI-compatible server "
                          rf"answering at http://127.0.0.1:{port}/v1\?"
    ):
        await client.create(MSGS)
    assert client.retries == 2
    await provider.close()


async def test_missing_usage_is_estimated_and_odd_finish_reason_normalised(fake: FakeOpenAI) -> None:
    fake.add(200, completion("a reply of several words", usage=None, finish="eos_token"))
    provider = open_provider("openai:tiny-test", settings(fake.url))
    result = await provider.client_for("planner").create(MSGS)
    assert result.finish_reason == "unknown"
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
    await provider.close()


async def test_stream_requests_usage_when_enabled(fake: FakeOpenAI) -> None:
    base = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "tiny-test"}
    events = [
        {
            **base,
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": "hel"}, "finish_reason": None}],
        },
        {**base, "choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}]},
        {**base, "choices": [], "usage": {"prompt_tokens": 17, "completion_tokens": 2, "total_tokens": 19}},
    ]
    fake.add(200, events)
    provider = open_provider("openai:tiny-test", settings(fake.url, openai_stream=True))
    chunks = [c async for c in provider.client_for("specialist").create_stream(MSGS)]
    assert "".join(c for c in chunks if isinstance(c, str)) == "hello"
    final = chunks[-1]
    assert (final.usage.prompt_tokens, final.usage.completion_tokens) == (17, 2)  # type: ignore[union-attr]
    assert fake.requests[0]["body"]["stream_options"] == {"include_usage": True}
    assert fake.requests[0]["body"]["stream"] is True
    await provider.close()


async def test_non_stream_call_sends_no_stream_options(fake: FakeOpenAI) -> None:
    fake.add(200, completion(usage={"prompt_tokens": 2, "completion_tokens": 1}))
    provider = open_provider("openai:tiny-test", settings(fake.url, openai_stream=False))
    await provider.client_for("planner").create(MSGS)
    assert "stream_options" not in fake.requests[0]["body"] and not fake.requests[0]["body"].get("stream")
    await provider.close()


def test_no_key_is_a_user_error() -> None:
    with pytest.raises(UserError) as info:
        open_provider("openai:gpt-4o-mini", settings(None, openai_api_key=None))
    assert str(info.value) == "OPENAI_API_KEY is not set; put it in .env or use --model local"
    with pytest.raises(UserError, match="needs a model name"):
        open_provider("openai:", settings(None))


def test_model_info_resolution() -> None:
    assert resolve_model_info("gpt-4o-mini", None) is None  # autogen knows it
    assert resolve_model_info("llama-3-local", None) == DEFAULT_UNKNOWN_MODEL_INFO
    custom = resolve_model_info("x", '{"function_calling": false, "family": "llama"}')
    assert custom is not None and custom["function_calling"] is False and custom["json_output"] is True
    with pytest.raises(UserError, match="PSE_OPENAI_MODEL_INFO"):
        resolve_model_info("x", "{not json")
    with pytest.raises(UserError, match="PSE_OPENAI_MODEL_INFO"):
        resolve_model_info("x", '{"colour": "blue"}')
    p = OpenAIProvider("x", settings(None, openai_model_info='{"function_calling": false}'))
    assert p.supports_tools is False
    assert p.client_for("planner").model_info["function_calling"] is False


def test_count_tokens_works_offline() -> None:
    """autogen's own count_tokens needs tiktoken's download; ours must not."""
    client = open_provider("openai:gpt-4o-mini", settings(None)).client_for("planner")
    assert client.count_tokens(MSGS) > 0
    assert client.remaining_tokens(MSGS) > 1000
