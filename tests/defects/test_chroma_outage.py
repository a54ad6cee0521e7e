"""Issue 10, defect 9 (Chroma part): a Chroma server that goes away mid-run is reported — an
error tool result (the console marks it ✗) and a warning in the trace — never mistaken for "no
matches"; a server that is down at start is a runtime error (exit 3), not a user error. A real
``chroma run`` on loopback; only the model is scripted."""

from __future__ import annotations

import json
import os
import signal
import socket
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.config import Settings
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.runner import RunRequest, run_task
from tests.integration.test_chroma_server import chroma_url  # noqa: F401 - the real server fixture
from tests.scripting import PLAN, save
from tests.web.web_helpers import ROOT

pytestmark = pytest.mark.chroma_server
FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "scripted" / "portfolio_fix_then_pass.json").read_text())


def _server_pid(url: str) -> int:
    port = url.rsplit(":", 1)[1]
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"chroma" in c for c in cmd[:2]) and port.encode() in cmd:
            return int(pid)
    raise AssertionError("chroma server process not found")


async def test_chroma_going_away_mid_run_is_an_error_and_a_warning(chroma_url: str, settings: Settings,  # noqa: F811
                                                                   tmp_path: Path) -> None:
    doc = {"planner": [PLAN],
           "specialist": [{"tool_calls": [{"name": "kb_search", "arguments": {"query": "stop-loss rule"}}]},
                          FIXTURE["specialist"][0]],
           "evaluator": [FIXTURE["evaluator"][0]]}
    s = settings.model_copy(update={"chroma_url": chroma_url, "max_cycles": 1})
    pid = _server_pid(chroma_url)

    def kill_after_planning(event: RunEvent) -> None:  # grounding (ingest + retrieval) is done by now
        if event.kind is EventKind.MESSAGE and event.payload.get("source") == "planner":
            os.kill(pid, signal.SIGKILL)

    result = await run_task(RunRequest(task="portfolio-review", model=f"scripted:{save(doc, tmp_path / 's.json')}"),
                            s, sinks=[kill_after_planning])
    events: list[dict[str, Any]] = [json.loads(line) for line in
                                    (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]
    results = [r for e in events if e["kind"] == "tool_result" for r in e["payload"]["results"]
               if r["name"] == "kb_search"]
    assert results and all(r["is_error"] for r in results), results
    assert "knowledge base unavailable" in results[0]["content"]
    warnings = [e["payload"]["message"] for e in events if e["kind"] == "warning"]
    assert any("kb_search by specialist failed" in w and "unreachable" in w for w in warnings), warnings


def test_chroma_down_at_start_is_a_runtime_error(tmp_path: Path) -> None:
    from tests.hardening.helpers import base_env, cli_proc

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = cli_proc(tmp_path, "run", "portfolio-review", "--model",
                    f"scripted:{ROOT / 'tests' / 'fixtures' / 'scripted' / 'portfolio_fix_then_pass.json'}",
                    env=base_env(tmp_path, PSE_CHROMA_URL=f"http://127.0.0.1:{port}"))
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert f"Chroma server at http://127.0.0.1:{port} is unreachable" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
