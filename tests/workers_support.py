"""Real Redis and real `pse worker` processes for the worker tests and bench/bench_workers.py.

``RedisServer`` starts ``redis-server`` (Debian package ``redis-server``) on a free loopback port in
a temp folder, with the append-only file on (``appendfsync always``) so a restart keeps every
stream entry, as docs/workers.md recommends. ``Worker`` is one ``cli.py worker`` subprocess with
its own state folder. ``make_tasks`` writes the tool-free task ``tiny`` (a prepare hook reads the
optional ``--var notes=FILE``) that the workers and the submitting side share.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"

PROMPT = "You are the {role}. Keep replies short.\n\n{extra}\n"
PREPARE = '''
from pathlib import Path

from autogen_pse.errors import UserError
from autogen_pse.hooks import Prepared


def prepare(ctx):
    text = (ctx.task_dir / "task.md").read_text(encoding="utf-8")
    notes = ctx.vars.get("notes", "")
    if notes:
        path = Path(notes)
        if not path.is_file():
            raise UserError(f"--var notes={notes}: no such file; pass a text file")
        text += "\\nNotes: " + path.read_text(encoding="utf-8").strip() + "\\n"
    return Prepared(task_text=text)
'''


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)

    def start(self) -> RedisServer:
        if not Path(REDIS_SERVER).is_file():
            raise RuntimeError("redis-server is not installed: apt-get install redis-server (.ci/run does)")
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - kept open by the child
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "yes"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=15)
        self.proc = None


class Worker:
    """One ``pse worker`` process."""

    def __init__(self, folder: Path, broker_url: str, tasks_dir: Path, *, concurrency: int = 1,
                 env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.state_dir = folder / "state"
        self.log_path = folder / "worker.log"
        folder.mkdir(parents=True, exist_ok=True)
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder), "PSE_HOME": str(folder),
                    "PSE_BROKER_URL": broker_url, "PSE_TASKS_DIR": str(tasks_dir),
                    "PSE_STATE_DIR": str(self.state_dir), "PSE_TRACES_DIR": str(folder / "traces"),
                    "PSE_RETRY_BASE_DELAY": "0.001", "PSE_RETRY_MAX_DELAY": "1",
                    "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False", **(env or {})}
        self.concurrency = concurrency
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        log = open(self.log_path, "ab")  # noqa: SIM115 - kept open by the child
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "worker", "--log-level", "info",
                                      "--concurrency", str(self.concurrency)],
                                     env=self.env, cwd=self.folder, stdout=log, stderr=subprocess.STDOUT)
        return self

    def wait_ready(self, timeout: float = 60) -> Worker:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log_path.is_file() and b" ready." in self.log_path.read_bytes():
                return self
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"worker exited {self.proc.returncode}: {self.log_path.read_text()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"worker not ready after {timeout} s: {self.log_path.read_text()[-2000:]}")

    def runs_received(self) -> int:
        return self.log_path.read_text(errors="replace").count("] received") if self.log_path.is_file() else 0

    def holds(self, run_id: str) -> bool:
        """This worker is executing ``run_id`` now (its scratch folder exists)."""
        return any((self.state_dir / "worker").glob(f"*/{run_id}"))

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=15)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)


def make_tasks(folder: Path) -> Path:
    """A tasks folder with the tool-free task ``tiny``; returns it."""
    tasks = folder / "tasks"
    (tasks / "tiny" / "prompts").mkdir(parents=True, exist_ok=True)
    (tasks / "_registry.json").write_text(json.dumps({"tasks": [
        {"name": "tiny", "title": "Tiny task", "description": "no tools", "artifact": "message",
         "vars": {"notes": ""}}]}))
    (tasks / "tiny" / "task.md").write_text("Summarise why sorting matters in three sentences.\n")
    (tasks / "tiny" / "prepare.py").write_text(PREPARE)
    for role, extra in (("planner", "{BLOCKED_FORMAT}"), ("specialist", "{BLOCKED_FORMAT}"),
                        ("evaluator", "{VERDICT_FORMAT}")):
        (tasks / "tiny" / "prompts" / f"{role}.md").write_text(PROMPT.format(role=role.upper(), extra=extra))
    return tasks


def verdict(outcome: str, reason: str = "OK", issues: list[str] | None = None) -> str:
    body = json.dumps({"outcome": outcome, "reason": reason, "issues": issues or [], "summary": outcome})
    return f"Reviewed.\n```verdict\n{body}\n```"


ARTIFACT = "Sorting makes search fast. It groups equal items. It is the first step of many algorithms."


def script(outcomes: list[str], *, delay: float = 0.0, slow_from_cycle: int = 1) -> dict[str, list[Any]]:
    """One cycle per outcome (PASS / PARTIAL / FAIL); calls of cycles >= ``slow_from_cycle`` take ``delay`` s."""
    doc: dict[str, list[Any]] = {"planner": [], "specialist": [], "evaluator": []}
    for n, outcome in enumerate(outcomes, 1):
        issues = [] if outcome == "PASS" else [f"issue of cycle {n}"]
        replies = {"planner": f"Plan {n}: write three sentences.", "specialist": f"{ARTIFACT} (version {n})",
                   "evaluator": verdict(outcome, "OK" if outcome == "PASS" else "INCOMPLETE", issues)}
        for role, text in replies.items():
            doc[role].append({"content": text, "delay": delay} if delay and n >= slow_from_cycle else text)
    return doc


def write_script(folder: Path, name: str, doc: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(doc))
    return path
