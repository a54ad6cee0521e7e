"""Issue 10, defect 3: hooks see the run's settings (the demo's own pytest check follows
``PSE_TOOL_ISOLATION``), and a sandbox that cannot start is reported as such — never as failing
tests. Real pytest subprocesses; only the model is scripted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.checking import Checker
from autogen_pse.config import Settings
from autogen_pse.registry import load_task
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.tools import sandbox

ROOT = Path(__file__).resolve().parents[2]
DEMO_PASS = f"scripted:{ROOT / 'tests' / 'fixtures' / 'scripted' / 'demo_pass.json'}"
REAL_FIND = sandbox.find_tool


def _trace(result: Any) -> dict[str, Any]:
    return json.loads((Path(result.trace_dir) / "trace.json").read_text())


def _events(result: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]


async def test_demo_verifies_with_isolation_none_and_no_bubblewrap(settings: Settings,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "find_tool", lambda name: None if name == "bwrap" else REAL_FIND(name))
    s = settings.model_copy(update={"tool_isolation": "none", "max_cycles": 1})
    result = await run_task(RunRequest(task="demo", model=DEMO_PASS), s)
    assert (result.verdict, result.verified) == ("PASS", True)
    finals = [e["payload"] for e in _events(result) if e["kind"] == "check" and e["payload"].get("phase") == "final"]
    tests = next(p for p in finals if p["name"] == "tests")
    assert tests["ok"] and "passed" in tests["detail"]


async def test_a_sandbox_that_fails_to_start_is_not_reported_as_failing_tests(
        settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sandbox, "find_tool", lambda name: fake if name == "bwrap" else REAL_FIND(name))
    s = settings.model_copy(update={"max_cycles": 1})
    result = await run_task(RunRequest(task="demo", model=DEMO_PASS), s)
    cycle = _trace(result)["cycles"][0]
    assert cycle["verdict"]["outcome"] == "PARTIAL" and cycle["verdict"]["reason"] == "NEEDS_INPUT"
    issue = next(i for i in cycle["verdict"]["issues"] if i.startswith("[check tests]"))
    assert "tests were NOT run" in issue and "sandbox unavailable" in issue and "PSE_TOOL_ISOLATION=none" in issue
    assert "failed" not in issue.replace("Creating new namespace failed", "")
    tool_outputs = [r["content"] for e in _events(result) if e["kind"] == "tool_result"
                    for r in e["payload"]["results"] if r["name"] == "run_pytest"]
    assert tool_outputs and all(c.startswith("ERROR: sandbox unavailable") for c in tool_outputs), tool_outputs
    assert not result.verified


def test_check_hooks_get_the_runs_settings(settings: Settings) -> None:
    seen: list[Any] = []
    task = load_task(settings.tasks_dir, "demo")
    checker = Checker(task, facts={}, data={}, workspace=settings.state_dir, vars={}, settings=settings)
    checker._checks = lambda ctx: seen.append(ctx.settings) or []  # type: ignore[method-assign]
    checker.check("text")
    assert seen == [settings]


def test_pass_after_sanitize_is_one_rule() -> None:
    from autogen_pse.checking import sanitize_repairs
    from autogen_pse.hooks import CheckResult, SanitizeChange, Sanitized

    changed = Sanitized(artifact="x", changes=[SanitizeChange(rule="hold", before="SELL", after="HOLD")])
    ok, bad = [CheckResult(name="claims", ok=True)], [CheckResult(name="claims", ok=False)]
    warn = [CheckResult(name="unverifiable", ok=False, severity="warning")]
    assert sanitize_repairs(True, changed, ok) and sanitize_repairs(True, changed, warn)
    assert not sanitize_repairs(False, changed, ok)  # the evaluator did not say PASS
    assert not sanitize_repairs(True, Sanitized(artifact="x"), ok)  # nothing was repaired
    assert not sanitize_repairs(True, changed, bad)  # still failing after sanitizing


def test_a_failing_checks_reason_is_its_own_never_guessed_from_its_name() -> None:
    """Issue 10, defect 10: ``latest_prices`` (it holds "test") once became TEST_FAILURE."""
    from autogen_pse.hooks import CheckResult, Reason
    from autogen_pse.verdict import Outcome, Verdict, merge_checks

    passed = Verdict(outcome=Outcome.PASS, reason=Reason.OK)
    unnamed = merge_checks(passed, [CheckResult(name="latest_prices", ok=False, detail="stale")])
    assert (unnamed.outcome, unnamed.reason) == (Outcome.PARTIAL, Reason.DATA_MISMATCH)
    own = merge_checks(passed, [CheckResult(name="prices", ok=False, detail="x", reason=Reason.TEST_FAILURE)])
    assert own.reason is Reason.TEST_FAILURE
