"""Helpers for the web tests: settings, a real uvicorn server in a thread, an SSE frame parser."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from autogen_pse.config import Settings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "s3cret-token-for-tests-0123456789"


def make_settings(tmp_path: Path, **over: Any) -> Settings:
    """Settings isolated in ``tmp_path`` (never the developer's .env)."""
    values: dict[str, Any] = {
        "traces_dir": tmp_path / "traces", "state_dir": tmp_path / "state",
        "retry_base_delay": 0.001, "retry_max_delay": 5.0, "web_concurrency": 2,
    }
    values.update(over)
    return Settings(_env_file=None, **values)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerThread:
    """``app`` served by a real uvicorn on a free loopback port, in a background thread."""

    def __init__(self, app: FastAPI) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on", timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name=f"uvicorn-{self.port}", daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@dataclass
class Frame:
    event: str = "message"
    id: str | None = None
    data: str = ""
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    def json(self) -> Any:
        import json

        return json.loads(self.data)


async def iter_frames(response: httpx.Response) -> AsyncIterator[Frame]:
    """Parse an SSE body into frames (comments-only frames are yielded too, event ``""``)."""
    frame, data_lines, seen = Frame(), [], False
    async for line in response.aiter_lines():
        if line == "":
            if seen:
                frame.data = "\n".join(data_lines)
                if not data_lines and frame.retry is None and frame.id is None:
                    frame.event = "" if frame.event == "message" else frame.event
                yield frame
            frame, data_lines, seen = Frame(), [], False
            continue
        seen = True
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "":
            frame.comments.append(value)
        elif name == "event":
            frame.event = value
        elif name == "id":
            frame.id = value
        elif name == "data":
            data_lines.append(value)
        elif name == "retry":
            frame.retry = int(value)


async def collect(client: httpx.AsyncClient, url: str, *, headers: dict[str, str] | None = None,
                  stop_after: int | None = None, timeout: float = 30.0) -> list[Frame]:
    """Frames of one SSE request until the server closes it (or ``stop_after`` event frames)."""
    frames: list[Frame] = []

    async def run() -> None:
        async with client.stream("GET", url, headers=headers or {}) as response:
            assert response.status_code == 200, response.status_code
            async for frame in iter_frames(response):
                frames.append(frame)
                if stop_after is not None and len(events_of(frames)) >= stop_after:
                    return

    await asyncio.wait_for(run(), timeout)
    return frames


def events_of(frames: list[Frame]) -> list[Frame]:
    """Frames that carry a RunEvent (have an id)."""
    return [f for f in frames if f.id is not None]


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str]
    body: bytes
    chunks_read: int = 0

    def json(self) -> Any:
        import json

        return json.loads(self.body)


async def asgi_raw(app: Any, method: str, raw_path: bytes, *, headers: list[tuple[bytes, bytes]] | None = None,
                   body: bytes = b"", chunks: Any = None, query: bytes = b"",
                   client: tuple[str, int] = ("127.0.0.1", 50000)) -> RawResponse:
    """One request straight into an ASGI app, with the raw path exactly as given (no client-side
    normalisation). ``path`` is decoded the way uvicorn does it. ``chunks`` (an iterator of bytes)
    streams the body without Content-Length; ``chunks_read`` counts how many the app pulled."""
    from urllib.parse import unquote

    hdrs = [(b"host", b"127.0.0.1"), *list(headers or [])]
    if chunks is None and body:
        hdrs.append((b"content-length", str(len(body)).encode()))
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": unquote(raw_path.decode("ascii")), "raw_path": raw_path, "query_string": query,
        "root_path": "", "headers": hdrs, "client": client, "server": ("127.0.0.1", 8080),
    }
    state = {"read": 0, "sent_body": False}
    out: dict[str, Any] = {"status": 0, "headers": {}, "body": b""}

    async def receive() -> dict[str, Any]:
        if chunks is not None:
            try:
                piece = next(chunks)
            except StopIteration:
                return {"type": "http.request", "body": b"", "more_body": False}
            state["read"] += 1
            return {"type": "http.request", "body": piece, "more_body": True}
        if not state["sent_body"]:
            state["sent_body"] = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    await asyncio.wait_for(app(scope, receive, send), 10)
    return RawResponse(out["status"], out["headers"], out["body"], state["read"])


def raw_http(base_url: str, request: bytes, timeout: float = 10.0) -> tuple[int, bytes]:
    """Send bytes as they are to a real server; the status code and everything read back."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as s:
        s.sendall(request)
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data
