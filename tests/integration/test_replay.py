"""`pse replay`: a recorded run runs again from its trace with the same messages, verdicts and checks;
`--recheck` runs only the current checks on the recorded artifact."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from autogen_pse.cli import main
from autogen_pse.config import Settings
from autogen_pse.replay import comparable, plan_replay, script_from_events
from autogen_pse.runner import RunRequest, execute, run_task
from autogen_pse.store import TraceStore

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


async def _main(args: list[str]) -> int:
    """The CLI in a worker thread (it runs its own event loop)."""
    return await asyncio.to_thread(main, args)


async def _recorded(settings: Settings, tmp_path: Path) -> str:
    doc = json.loads((SCRIPTED / "demo_fix_then_pass.json").read_text())
    doc["specialist"].insert(2, {"error": "server"})  # a retry in the middle of the run
    script = tmp_path / "recorded.json"
    script.write_text(json.dumps(doc))
    result = await run_task(RunRequest(task="demo", model=f"scripted:{script}"), settings)
    assert (result.verdict, result.cycles) == ("PASS", 2)
    return result.run_id


async def test_replay_reproduces_the_recorded_events(settings: Settings, tmp_path: Path) -> None:
    run_id = await _recorded(settings, tmp_path)
    store = TraceStore(settings)
    recorded = store.read_events(run_id)
    script = script_from_events(recorded)
    assert script.notes == [] and script.calls == sum(1 for e in recorded if e.kind == "model_call") + 1

    plan, _, path, run_settings = plan_replay(run_id, settings, store)
    result = await execute(plan, run_settings, store=store)
    assert result.run_id != run_id and path.is_file()
    replayed = store.read_events(result.run_id)
    assert replayed[0].payload["replay_of"] == run_id
    assert comparable(replayed) == comparable(recorded)  # same messages, tool calls, retries, verdicts, checks
    kinds = [e.kind.value for e in recorded]
    assert {"message", "tool_call", "tool_result", "retry", "verdict", "check", "prompt"} <= set(kinds)


async def test_comparable_sees_a_different_reply(settings: Settings, tmp_path: Path) -> None:
    run_id = await _recorded(settings, tmp_path)
    store = TraceStore(settings)
    other = await run_task(RunRequest(task="demo", model=f"scripted:{SCRIPTED / 'demo_pass.json'}"), settings)
    assert comparable(store.read_events(other.run_id)) != comparable(store.read_events(run_id))


async def test_recheck_runs_the_current_checks_on_the_recorded_artifact(
        settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = await _recorded(settings, tmp_path)
    code = await _main(["replay", run_id, "--recheck", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["passed"] is True
    assert {(c["name"], c["recorded"], c["now"]) for c in report["checks"]} == {
        ("files_coverage", True, True), ("tests", True, True)}

    # the checks improved: a new one fails on the old artifact
    tasks = tmp_path / "tasks"
    shutil.copytree(ROOT / "tasks", tasks, ignore=shutil.ignore_patterns("data", "knowledge", "__pycache__"))
    checks = tasks / "demo" / "checks.py"
    checks.write_text(checks.read_text() + '''

_original = checks


def checks(ctx):  # noqa: F811
    return [*_original(ctx), CheckResult(name="docstring_example", ok="Example" in (ctx.workspace / "quicksort.py")
                                         .read_text(), detail="quicksort needs a usage example",
                                         reason=Reason.INCOMPLETE)]
''')
    monkeypatch.setenv("PSE_TASKS_DIR", str(tasks))
    workspace = (TraceStore(settings).run_dir(run_id) / "workspace" / "quicksort.py").read_bytes()
    code = await _main(["replay", run_id, "--recheck"])
    out = capsys.readouterr().out
    assert code == 1 and "docstring_example" in out and "1 failing check(s) now" in out
    assert (TraceStore(settings).run_dir(run_id) / "workspace" / "quicksort.py").read_bytes() == workspace


async def test_replay_bad_input_is_one_line(settings: Settings, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for args, message in ((["replay", "01ARZ3NDEKTSV4RRFFQ69G5FAV"], "no run 01ARZ3NDEKTSV4RRFFQ69G5FAV"),
                          (["replay", "nope", "--recheck"], "run id")):
        code = await _main(args)
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err
    # a run that ended in an error before any artifact: nothing to re-check
    faults = tmp_path / "faults.json"
    faults.write_text(json.dumps({"planner": [{"error": "server"}] * 10}))
    result = await run_task(RunRequest(task="demo", model=f"scripted:{faults}"), settings)
    assert result.status == "error"
    code = await _main(["replay", result.run_id, "--recheck"])
    err = capsys.readouterr().err
    assert code == 2 and "nothing to re-check" in err and len(err.strip().splitlines()) == 1
    code = await _main(["replay", result.run_id])
    err = capsys.readouterr().err
    assert code == 2 and "nothing to replay" in err


async def test_pse_replay_runs_through_the_executor(settings: Settings, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from autogen_pse import executor as executor_module

    run_id = await _recorded(settings, tmp_path)
    capsys.readouterr()
    submitted: list[RunRequest] = []
    submit = executor_module.LocalExecutor.submit

    async def spy(self: executor_module.LocalExecutor, request: RunRequest) -> str:
        submitted.append(request)
        return await submit(self, request)

    monkeypatch.setattr(executor_module.LocalExecutor, "submit", spy)
    code = await _main(["replay", run_id, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["replay_of"] == run_id and report["same_verdicts"] and report["same_checks"]
    assert [(r.task, r.replay) for r in submitted] == [("demo", run_id)]  # the CLI went through the executor
    store = TraceStore(settings)
    assert comparable(store.read_events(report["run_id"])) == comparable(store.read_events(run_id))


async def test_a_request_to_resume_or_replay_takes_nothing_the_trace_decides(settings: Settings,
                                                                            tmp_path: Path) -> None:
    from autogen_pse.errors import UserError
    from autogen_pse.runner import plan_request

    run_id = await _recorded(settings, tmp_path)
    for request in (RunRequest(task="", replay=run_id, vars={"x": "1"}), RunRequest(task="", replay=run_id, max_cycles=2),
                    RunRequest(task="", resume=run_id, replay=run_id)):
        with pytest.raises(UserError):
            plan_request(request, settings)
    with pytest.raises(UserError, match="task 'demo'"):
        plan_request(RunRequest(task="portfolio-review", replay=run_id), settings)
    assert plan_request(RunRequest(task="", replay=run_id), settings).replay_of == run_id
