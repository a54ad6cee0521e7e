"""Issue 10, defects 9 and 10 (OpenAI-compatible endpoints), against a real HTTP server on
loopback: a completion cap per role is sent; a reply cut at the length limit is recorded as a
warning; a timed-out call is not retried by default (a slow server is still working on it) and the
error names the URL and the timeout; "nothing listening" names the URL; PSE_OPENAI_STREAM streams."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, run_task
from tests.defects.test_remote_provider import _answer
from tests.hardening.helpers import base_env, cli_proc

Reply = Callable[[dict[str, Any]], tuple[int, dict[str, Any], float]]


class Server:
    """``POST /v1/chat/completions`` on 127.0.0.1: JSON, or SSE chunks when the request streams."""

    def __init__(self, reply: Reply) -> None:
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                outer.requests.append(body)
                status, data, delay = reply(body)
                time.sleep(delay)
                try:
                    if body.get("stream"):
                        self._stream(data)
                    else:
                        raw = json.dumps(data).encode()
                        self.send_response(status)
                        self.send_header("content-type", "application/json")
                        self.send_header("content-length", str(len(raw)))
                        self.end_headers()
                        self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout)

            def _stream(self, data: dict[str, Any]) -> None:
                choice = data["choices"][0]
                chunks = [{"delta": {"role": "assistant", "content": choice["message"]["content"]}, "finish_reason": None},
                          {"delta": {}, "finish_reason": choice["finish_reason"]}]
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for n, c in enumerate(chunks):
                    frame = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": data["model"],
                             "choices": [{"index": 0, **c}]}
                    if n == len(chunks) - 1:
                        frame["usage"] = data["usage"]
                    self.wfile.write(f"data: {json.dumps(frame)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def role_of(body: dict[str, Any]) -> str:
    system = str(body["messages"][0]["content"])
    return next(r for r in ("planner", "specialist", "evaluator") if system.startswith(f"You are the {r}"))


def answering(delay: float = 0.0, finish: str = "stop") -> Reply:
    def reply(body: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
        status, data = _answer(body)
        data["choices"][0]["finish_reason"] = finish if role_of(body) == "planner" else "stop"
        return status, data, delay
    return reply


@pytest.fixture
def openai_settings(settings: Settings) -> Iterator[Callable[..., Settings]]:
    def make(url: str, **over: Any) -> Settings:
        return settings.model_copy(update={"openai_base_url": url, "openai_api_key": SecretStr("sk-test"),
                                           "max_cycles": 1, **over})
    yield make


def _events(result: Any) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]


async def test_a_completion_cap_is_sent_per_role(openai_settings: Callable[..., Settings]) -> None:
    with Server(answering()) as srv:
        s = openai_settings(srv.url, openai_max_tokens={"specialist": 8192})
        result = await run_task(RunRequest(task="resume-tailor", model="openai:gpt-4o-mini"), s)
    assert result.status == "finished", result.error
    caps = {role_of(b): b.get("max_tokens", b.get("max_completion_tokens")) for b in srv.requests}
    assert caps == {"planner": 1024, "specialist": 8192, "evaluator": 1024}


async def test_a_reply_cut_at_the_length_limit_is_recorded(openai_settings: Callable[..., Settings]) -> None:
    with Server(answering(finish="length")) as srv:
        result = await run_task(RunRequest(task="resume-tailor", model="openai:gpt-4o-mini"), openai_settings(srv.url))
    warnings = [e["payload"]["message"] for e in _events(result) if e["kind"] == "warning"]
    assert any("planner's reply was cut at the completion limit" in w and "max_tokens=1024" in w for w in warnings)


async def test_a_timeout_is_not_retried_and_names_url_and_timeout(openai_settings: Callable[..., Settings]) -> None:
    with Server(answering(delay=2.0)) as srv:
        s = openai_settings(srv.url, openai_timeout=0.5, openai_max_retries=3)
        result = await run_task(RunRequest(task="resume-tailor", model="openai:gpt-4o-mini"), s)
        sent = len(srv.requests)
    assert result.status == "error" and sent == 1, (result.error, sent)
    assert "timed out" in (result.error or "") and srv.url in (result.error or "")
    assert "PSE_OPENAI_TIMEOUT=0.5 s" in (result.error or "")


async def test_timeouts_are_retried_when_asked(openai_settings: Callable[..., Settings]) -> None:
    with Server(answering(delay=1.0)) as srv:
        s = openai_settings(srv.url, openai_timeout=0.3, openai_max_retries=2, openai_retry_timeouts=True)
        result = await run_task(RunRequest(task="resume-tailor", model="openai:gpt-4o-mini"), s)
        time.sleep(0.2)
        sent = len(srv.requests)
    assert result.status == "error" and sent == 3


def test_nothing_listening_names_the_url(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    proc = cli_proc(tmp_path, "run", "resume-tailor", "--model", "openai:gpt-4o-mini", "--max-cycles", "1",
                    env=base_env(tmp_path, OPENAI_BASE_URL=url, OPENAI_API_KEY="sk-test", PSE_OPENAI_MAX_RETRIES="1"))
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert "connection error" in proc.stdout + proc.stderr and url in proc.stdout + proc.stderr


async def test_stream_setting_streams_the_requests(openai_settings: Callable[..., Settings]) -> None:
    with Server(answering()) as srv:
        result = await run_task(RunRequest(task="resume-tailor", model="openai:gpt-4o-mini"),
                                openai_settings(srv.url, openai_stream=True))
    assert result.status == "finished", result.error
    assert srv.requests and all(b.get("stream") is True for b in srv.requests)
    assert all(b.get("stream_options", {}).get("include_usage") for b in srv.requests)
    assert result.usage["completion_tokens"] == 20 * len(srv.requests)  # the streamed usage, not an estimate
