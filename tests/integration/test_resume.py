"""`pse run --resume`: a run killed mid-cycle (SIGKILL of a real `pse run` process) continues and passes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.integration.test_cli import cli

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def test_resume_after_sigkill_mid_cycle_ends_pass(tmp_path: Path) -> None:
    doc = json.loads((SCRIPTED / "demo_fix_then_pass.json").read_text())
    doc["planner"].insert(1, {"error": "rate_limit", "retry_after": 60})  # cycle 2 waits: the kill lands there
    script = tmp_path / "slow.json"
    script.write_text(json.dumps(doc))
    env = {"PATH": "/usr/bin:/bin", "PSE_TRACES_DIR": str(tmp_path / "traces"), "PSE_STATE_DIR": str(tmp_path / "state"),
           "HOME": str(tmp_path), "COLUMNS": "200", "PSE_RETRY_BASE_DELAY": "0.001", "PSE_RETRY_MAX_DELAY": "120"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "run", "demo", "--model", f"scripted:{script}"],
                            env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        log = None
        while time.monotonic() < deadline:
            found = list((tmp_path / "traces").glob("*/events.jsonl"))
            if found and any(e["kind"] == "retry" and e["cycle"] == 2 for e in _events(found[0])):
                log = found[0]
                break
            time.sleep(0.1)
        assert log is not None, "the run never reached its second cycle"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    run_id = log.parent.name
    before = _events(log)
    assert not any(e["kind"] == "run_finished" for e in before)

    # a finished run, a bad id and a task with --resume are refused with one line
    bad = cli(tmp_path, "run", "--resume", "not-a-run")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1

    result = cli(tmp_path, "run", "--resume", run_id, "--json", env={"PSE_RETRY_MAX_DELAY": "0.01"})
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["run_id"] == run_id and summary["verdict"] == "PASS" and summary["cycles"] == 2
    trace_usage = json.loads((log.parent / "trace.json").read_text())["usage"]
    assert summary["usage"]["model_calls"] == trace_usage["model_calls"] == 10  # recorded calls count too
    assert summary["usage"]["prompt_tokens"] == trace_usage["prompt_tokens"]

    events = _events(log)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # one trace, numbering goes on
    assert events[: len(before)] == before
    (resumed,) = [e for e in events if e["kind"] == "resumed"]
    assert resumed["payload"]["from_cycle"] == 2 and resumed["payload"]["previous_status"] == "interrupted"
    assert [e["kind"] for e in events].count("run_started") == 1
    trace = json.loads((log.parent / "trace.json").read_text())
    assert trace["status"] == "finished" and trace["verdict"] == "PASS"
    assert [(c["index"], c["kind"], c["verdict"]["outcome"]) for c in trace["cycles"]] == [
        (1, "initial", "PARTIAL"), (2, "fix", "PASS")]
    # the resumed cycle is a fix cycle of the saved artifact and issues, with fresh agents
    fix = next(e for e in events if e["kind"] == "cycle_started" and e["seq"] > resumed["seq"])
    assert fix["payload"]["kind"] == "fix" and "test_quicksort" in fix["payload"]["task_text"]
    listed = cli(tmp_path, "trace", "--json")
    rows = json.loads(listed.stdout)["data"]
    assert [(r["run_id"], r["status"], r["verdict"]) for r in rows] == [(run_id, "finished", "PASS")]

    again = cli(tmp_path, "run", "--resume", run_id)
    assert again.returncode == 2 and "only an interrupted, cancelled or error run can be resumed" in again.stderr


async def test_an_error_run_resumes_from_its_checkpoint_with_another_model(tmp_path: Path) -> None:
    from autogen_pse.config import Settings
    from autogen_pse.resume import plan_resume
    from autogen_pse.runner import RunRequest, execute, run_task
    from autogen_pse.store import TraceStore
    from tests.scripting import cycle, save, script

    settings = Settings(_env_file=None, traces_dir=tmp_path / "traces", state_dir=tmp_path / "state",
                        retry_base_delay=0.001, retry_max_delay=0.01)
    broken = script(cycle("PARTIAL", "INCOMPLETE", ["add a test for negative numbers"]), cycle("PASS"))
    broken["planner"][1:1] = [{"error": "server"}] * 5  # cycle 2's planner: retries exhausted
    first = await run_task(RunRequest(task="demo", model=f"scripted:{save(broken, tmp_path / 'broken.json')}"),
                           settings)
    assert (first.status, first.cycles) == ("error", 2) and "after 5 attempts" in (first.error or "")

    fixed = save(script(cycle("PASS")), tmp_path / "fixed.json")  # a model that answers cycle 2 from the start
    plan = plan_resume(first.run_id, settings, model=f"scripted:{fixed}")
    assert plan.resume.point.cycle == 1 and plan.resume.point.next_kind == "fix"
    assert plan.resume.point.verdict["issues"] == ["add a test for negative numbers"]
    result = await execute(plan, settings)
    assert (result.run_id, result.status, result.verdict, result.cycles) == (first.run_id, "finished", "PASS", 2)
    doc = TraceStore(settings).load_trace(first.run_id)
    assert doc["status"] == "finished" and doc["resumed"][0]["previous_status"] == "error"
    assert [c["verdict"]["outcome"] for c in doc["cycles"]] == ["PARTIAL", "PASS"] and doc["error"] is None
