"""The scripted resume-tailor run: fixture shape, checks per cycle, and the run end to end."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.facts import render
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.verdict import Outcome, Reason, format_trailer, parse_trailer
from tests.unit.test_resume_support import REGISTRY_ENTRY, ROOT, TASK_DIR, context, failing, hook, prepared

FIXTURE = ROOT / "tests" / "fixtures" / "scripted" / "resume_fix_then_pass.json"


def _doc() -> dict[str, list[str]]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_fixture_shape_and_trailers() -> None:
    doc = _doc()
    assert {k: len(v) for k, v in doc.items()} == {"planner": 2, "specialist": 2, "evaluator": 2}
    assert all(isinstance(r, str) for replies in doc.values() for r in replies)
    first, second = (parse_trailer(r) for r in doc["evaluator"])
    assert (first.outcome, first.reason) == (Outcome.PARTIAL, Reason.DATA_MISMATCH)
    assert any("Northwind Freight GmbH" in i for i in first.issues)
    assert any("Sep 2014 – May 2017" in i and "Sep 2015 – May 2017" in i for i in first.issues)
    assert (second.outcome, second.issues) == (Outcome.PASS, [])
    for reply in doc["evaluator"]:
        assert reply.endswith(format_trailer(parse_trailer(reply)))
    assert all("```verdict" not in r for r in doc["specialist"] + doc["planner"])


def test_cycle_one_is_caught_and_cycle_two_passes() -> None:
    bad, good = _doc()["specialist"]
    assert {"employers", "claims", "entries"} <= failing(bad)  # claims: the shifted start date
    rendered, unknown = render(good, prepared().facts)
    assert unknown == [] and "{{" not in rendered
    assert failing(rendered) == set()
    fixed = hook("sanitize").sanitize(context(bad))
    assert failing(fixed.artifact) == set()
    assert {"drop_invented_entry", "fix_dates"} <= {c.rule for c in fixed.changes}


def test_generator_reproduces_the_fixture() -> None:
    spec = importlib.util.spec_from_file_location("make_resume_test", FIXTURE.with_name("make_resume.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build(module.prepared_data()) == _doc()


@pytest.fixture
def task_settings(settings: Settings, tmp_path: Path) -> Settings:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "_registry.json").write_text(json.dumps({"tasks": [REGISTRY_ENTRY]}), encoding="utf-8")
    (tasks / "resume-tailor").symlink_to(TASK_DIR, target_is_directory=True)
    return settings.model_copy(update={"tasks_dir": tasks})


async def test_scripted_run_fixes_then_passes(task_settings: Settings) -> None:
    result = await run_task(RunRequest(task="resume-tailor", model=f"scripted:{FIXTURE}"), task_settings)
    assert (result.status, result.verdict, result.cycles) == ("finished", "PASS", 2), result.error
    assert result.verified
    trace = json.loads((Path(result.trace_dir) / "trace.json").read_text(encoding="utf-8"))
    first, second = trace["cycles"]
    checks = {c["name"]: c for c in first["checks"]}
    assert checks["employers"]["ok"] is False and checks["claims"]["ok"] is False
    # the ledger contradicts the shifted date only: every figure of the CV is right
    [contradicted] = [c for c in first["ledger"]["claims"] if c["status"] == "contradicted"]
    assert [f["kind"] for f in contradicted["findings"] if f["status"] == "contradicted"] == ["date"]
    assert "Sep 2014 is not a date of exp3" in checks["claims"]["detail"]
    assert any("[check employers]" in i and "Northwind Freight GmbH" in i for i in first["verdict"]["issues"])
    assert second["kind"] == "fix" and "Northwind Freight GmbH" in second["task_text"]
    assert all(c["ok"] for c in second["checks"] if c["severity"] == "error")
    artifact = Path(result.artifact_path).read_text(encoding="utf-8")
    assert "### Backend Engineer — Harbourside Logistics GmbH" in artifact
    assert "Mar 2020 – Present" in artifact  # fact references rendered
