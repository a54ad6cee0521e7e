"""Shared helpers of the hardening tests: the CLI (in process and as a subprocess), file-tree
snapshots, paced scripted models and a fake OpenAI-compatible server."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.scripting import PLAN, TESTS, cycle, save, script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
ULID_CHARS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


def cli(*args: str) -> Result:
    """``pse ARGS`` in this process (settings come from the environment the test set up)."""
    from autogen_pse.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return Result(code, out.getvalue(), err.getvalue())


def base_env(tmp: Path, **extra: str) -> dict[str, str]:
    """A minimal environment for a CLI subprocess isolated in ``tmp`` (no developer .env values)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "PSE_HOME": str(tmp / "home"), "COLUMNS": "200", "HF_HUB_OFFLINE": "1",
           "ANONYMIZED_TELEMETRY": "False", "PSE_TRACES_DIR": str(tmp / "traces"),
           "PSE_STATE_DIR": str(tmp / "state"), "PSE_RETRY_BASE_DELAY": "0.001", "PSE_RETRY_MAX_DELAY": "0.01"}
    env.update(extra)
    return env


def cli_proc(tmp: Path, *args: str, env: dict[str, str] | None = None,
             timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python cli.py ARGS`` as a user runs it."""
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env=env or base_env(tmp), timeout=timeout, cwd=tmp)


def start_cli(tmp: Path, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp)


def snapshot(root: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of every file under ``root`` (empty when it does not exist)."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def run_dirs(traces: Path) -> list[Path]:
    return sorted(p for p in traces.iterdir() if p.is_dir() and len(p.name) == 26) if traces.is_dir() else []


def read_events(run_dir: Path) -> list[dict[str, Any]]:
    """The complete lines of ``events.jsonl``; a cut-off last line (no newline) is skipped."""
    data = (run_dir / "events.jsonl").read_bytes()
    end = data.rfind(b"\n")
    return [json.loads(line) for line in data[: end + 1].splitlines() if line.strip()]


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, interval: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")


def rate_limits(n: int, seconds: float = 1.0) -> list[dict[str, Any]]:
    """``n`` scripted 429 replies asking to wait ``seconds`` each (paces a run in real time)."""
    return [{"error": "rate_limit", "retry_after": seconds} for _ in range(n)]


def paced_script(path: Path, *, pauses: int = 30, seconds: float = 1.0) -> Path:
    """Demo script: cycle 1 PARTIAL (fast, code blocks), then cycle 2's planner answers and the
    specialist waits ``pauses`` x ``seconds`` on 429s before answering (the process lingers in cycle 2)."""
    first = cycle("PARTIAL", "INCOMPLETE", ["add a test for negative numbers"], tools=False)
    doc = script(first)
    doc["planner"].append(PLAN + "\nCycle two plan.")
    doc["specialist"] += [*rate_limits(pauses, seconds), f"```python test_quicksort.py\n{TESTS}```"]
    return save(doc, path)


class FakeOpenAI:
    """An OpenAI-compatible ``POST /v1/chat/completions`` on 127.0.0.1 answering with ``reply(body)``.

    ``reply`` returns ``(status, json body)``; every request (path, headers, raw body) is recorded.
    """

    def __init__(self, reply: Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]) -> None:
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                fake.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                      "raw": raw})
                status, body = reply(json.loads(raw or b"{}"))
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02},
                                       daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def completion(content: str, model: str = "gpt-4o-mini-2024-07-18", prompt_tokens: int = 50,
               completion_tokens: int = 20) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


@contextlib.contextmanager
def env_vars(**values: str | None) -> Iterator[None]:
    """Set (or, with None, remove) environment variables for the block."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
