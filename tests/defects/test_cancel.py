"""Issue 10, defect 4: a cancel (dashboard, Ctrl-C) stops a running tool's sandbox and any
Retry-After wait within 2 s and leaves no process behind. Real subprocesses, real sandbox (when
bubblewrap works here), the scripted model."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.config import Settings
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.tools.commands import Toolchain
from autogen_pse.tools.sandbox import unavailable_reason
from tests.scripting import PLAN, save

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 2.0  # seconds from the cancel to the run's end


def _hanging_tool_script(tmp: Path, marker: str) -> Path:
    test = f"import time\n\ndef test_{marker}():\n    time.sleep(120)\n"
    doc = {
        "planner": [PLAN],
        "specialist": [{"tool_calls": [{"name": "write_file", "arguments": {"path": f"test_{marker}.py",
                                                                              "content": test}}]},
                       "Written."],
        "evaluator": [{"tool_calls": [{"name": "run_pytest", "arguments": {}}]}, "never reached"],
    }
    return save(doc, tmp / "hang.json")


def _processes_in(folder: Path) -> list[str]:
    """Processes (live or defunct) whose working directory lies in ``folder`` — the tools of a run
    work in its workspace under the traces folder."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if cwd.startswith(str(folder)):
            found.append(f"{pid} [{state}] in {cwd}")
    return found


def _defunct_children() -> list[str]:
    me = str(os.getpid())
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] == "Z" and fields[1] == me:
            out.append(pid)
    return out


def _isolations() -> list[Any]:
    chain = Toolchain.detect()
    usable = unavailable_reason(chain.bwrap, chain.setpriv) is None
    return ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not usable, reason="no bubblewrap here"))]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("isolation", _isolations())
async def test_cancel_during_a_tool_ends_within_2s_without_leftovers(settings: Settings, tmp_path: Path,
                                                                    isolation: str) -> None:
    script = _hanging_tool_script(tmp_path, "hang")
    s = settings.model_copy(update={"tool_isolation": isolation, "tool_timeout": 90.0, "max_cycles": 1})
    stop = asyncio.Event()
    started = asyncio.Event()

    def sink(event: RunEvent) -> None:
        if event.kind is EventKind.TOOL_CALL and "run_pytest" in str(event.payload):
            started.set()

    run = asyncio.create_task(run_task(RunRequest(task="demo", model=f"scripted:{script}"), s, sinks=[sink],
                                       stop=stop))
    await asyncio.wait_for(started.wait(), 60)
    for _ in range(200):  # until pytest runs in the workspace
        if _processes_in(s.traces_dir):
            break
        await asyncio.sleep(0.05)
    assert _processes_in(s.traces_dir), "the tool never started"
    await asyncio.sleep(1.0)  # pytest is now inside the hanging test
    t0 = time.monotonic()
    stop.set()
    result = await asyncio.wait_for(run, 30)
    elapsed = time.monotonic() - t0
    assert result.status == "cancelled", result
    assert elapsed < LIMIT, f"cancel took {elapsed:.2f} s"
    await asyncio.sleep(0.2)
    assert _processes_in(s.traces_dir) == [] and _defunct_children() == []


@pytest.mark.timeout(60)
async def test_cancel_during_a_retry_after_wait_ends_within_2s(settings: Settings, tmp_path: Path) -> None:
    script = save({"planner": [{"error": "rate_limit", "retry_after": 30}, PLAN], "specialist": [], "evaluator": []},
                  tmp_path / "429.json")
    s = settings.model_copy(update={"retry_max_delay": 60.0, "max_cycles": 1})
    stop = asyncio.Event()
    run = asyncio.create_task(run_task(RunRequest(task="demo", model=f"scripted:{script}"), s, stop=stop))
    await asyncio.sleep(1.5)  # the first call failed; the client now waits 30 s
    t0 = time.monotonic()
    stop.set()
    result = await asyncio.wait_for(run, 30)
    assert result.status == "cancelled" and time.monotonic() - t0 < LIMIT


@pytest.mark.timeout(120)
def test_ctrl_c_during_a_tool_exits_within_2s_without_leftovers(tmp_path: Path) -> None:
    script = _hanging_tool_script(tmp_path, "hang")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PSE_TRACES_DIR": str(tmp_path / "traces"),
           "PSE_STATE_DIR": str(tmp_path / "state"), "PSE_TOOL_ISOLATION": "none", "PSE_TOOL_TIMEOUT": "90"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "run", "demo", "--model", f"scripted:{script}",
                             "--max-cycles", "1", "--quiet"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _processes_in(tmp_path / "traces") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _processes_in(tmp_path / "traces"), "the tool never started"
        time.sleep(1.0)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        elapsed = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    out, err = proc.communicate()
    assert code == 1 and "Traceback" not in err, (code, out, err)
    assert elapsed < LIMIT, f"Ctrl-C took {elapsed:.2f} s"
    assert _processes_in(tmp_path / "traces") == []


@pytest.mark.timeout(120)
async def test_cancel_during_the_programmatic_checks_ends_within_2s(settings: Settings, tmp_path: Path) -> None:
    """The demo's own pytest check (after the evaluator's PASS) hangs: a cancel kills it too."""
    from tests.scripting import QUICKSORT_OK, review

    hang = "import time\n\ndef test_hangs():\n    time.sleep(120)\n"
    doc = {"planner": [PLAN],
           "specialist": [{"tool_calls": [
               {"name": "write_file", "arguments": {"path": "quicksort.py", "content": QUICKSORT_OK}},
               {"name": "write_file", "arguments": {"path": "test_quicksort.py", "content": hang}}]}, "Written."],
           "evaluator": [review("PASS")]}
    s = settings.model_copy(update={"tool_isolation": "none", "tool_timeout": 90.0, "max_cycles": 1})
    stop = asyncio.Event()
    run = asyncio.create_task(run_task(RunRequest(task="demo", model=f"scripted:{save(doc, tmp_path / 'c.json')}"),
                                       s, stop=stop))
    for _ in range(600):
        if _processes_in(s.traces_dir):
            break
        await asyncio.sleep(0.05)
    assert _processes_in(s.traces_dir), "the check's pytest never started"
    await asyncio.sleep(1.0)
    t0 = time.monotonic()
    stop.set()
    result = await asyncio.wait_for(run, 60)
    assert time.monotonic() - t0 < LIMIT, f"cancel took {time.monotonic() - t0:.2f} s"
    assert result.status == "cancelled" and not result.verified
    await asyncio.sleep(0.2)
    assert _processes_in(s.traces_dir) == [] and _defunct_children() == []
