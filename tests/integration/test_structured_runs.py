"""Structured artifacts end to end with scripted models (the LLM is the only fake): a valid object is
rendered and checked; an invalid one is asked for once more, then the cycle is PARTIAL / FORMAT_ISSUE;
the evaluator sees the check report of the artifact before it writes its verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autogen_core.models import LLMMessage

from autogen_pse.checking import Checker
from autogen_pse.config import Settings
from autogen_pse.cycle import CycleInputs, Limits, run_cycles
from autogen_pse.events import EventEmitter, RunEvent
from autogen_pse.judgement import HEADER
from autogen_pse.models.delegate import DelegatingClient
from autogen_pse.models.scripted import ScriptedProvider
from autogen_pse.runner import RunRequest, RunResult, run_task
from autogen_pse.usage import PriceTable, UsageTotals
from tests.scripting import review, save
from tests.structured_support import as_json, portfolio, valid_object


def _structured(settings: Settings) -> Settings:
    return settings.model_copy(update={"artifact_mode": "structured"})


async def _run(settings: Settings, tmp_path: Path, doc: dict[str, Any], cycles: int = 2) -> RunResult:
    path = save(doc, tmp_path / "script.json")
    return await run_task(RunRequest(task="portfolio-review", model=f"scripted:{path}", max_cycles=cycles),
                          _structured(settings))


def _trace(result: RunResult) -> dict[str, Any]:
    return json.loads((Path(result.trace_dir) / "trace.json").read_text())


def _events(result: RunResult) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]


async def test_valid_object_is_rendered_checked_and_passes(settings: Settings, tmp_path: Path) -> None:
    _task, prep, _schema = portfolio(settings)
    doc = {"planner": ["1. Fill the object."], "specialist": [as_json(valid_object(prep))],
           "evaluator": [review("PASS")]}
    result = await _run(settings, tmp_path, doc)
    assert (result.verdict, result.cycles, result.verified, result.artifact_mode) == ("PASS", 1, True, "structured")
    text = Path(result.artifact_path).read_text()
    assert [x for x in text.splitlines() if x.startswith("## ")] == [
        "## Summary", "## Findings", "## Actions", "## Next steps"]
    assert all(c["ok"] for c in result.checks) and {c["name"] for c in result.checks} >= {"structure", "coverage"}
    events = _events(result)
    mode = next(e for e in events if e["kind"] == "run_started")["payload"]["artifact"]
    assert mode == {"mode": "structured", "schema": "PortfolioReview", "strategy": "validate", "compact": False}
    calls = [e["payload"] for e in events if e["kind"] == "model_call"]
    assert [c["role"] for c in calls] == ["planner", "specialist", "evaluator"]
    assert all(c["prompt_tokens"] > 0 and c["seconds"] >= 0 for c in calls)


async def test_invalid_object_is_reasked_once_then_format_issue(settings: Settings, tmp_path: Path) -> None:
    doc = {"planner": ["1. Fill the object."],
           "specialist": ["## Summary\nI wrote prose instead.", '{"summary": "Too short"}'], "evaluator": []}
    result = await _run(settings, tmp_path, doc, cycles=1)
    [cycle] = _trace(result)["cycles"]
    assert cycle["verdict"]["outcome"] == "PARTIAL" and cycle["verdict"]["reason"] == "FORMAT_ISSUE"
    assert cycle["verdict_origin"] == "format"
    assert "no valid artifact object after one re-ask" in cycle["verdict"]["issues"][0]
    assert [m["source"] for m in cycle["messages"] if m["type"] == "TextMessage"] == ["planner", "specialist"]
    calls = [e["payload"]["role"] for e in _events(result) if e["kind"] == "model_call"]
    assert calls == ["planner", "specialist", "specialist"]  # asked once more, the evaluator never
    assert (result.verdict, result.reason, result.limit) == ("BLOCKED", "LIMIT_REACHED", "max_cycles")
    assert Path(result.artifact_path).read_text() == ""  # an invalid object is never an artifact


async def test_reask_with_errors_can_repair_the_object(settings: Settings, tmp_path: Path) -> None:
    _task, prep, _schema = portfolio(settings)
    truncated = as_json(valid_object(prep))[:-30]
    doc = {"planner": ["1. Fill the object."], "specialist": [truncated, as_json(valid_object(prep))],
           "evaluator": [review("PASS")]}
    result = await _run(settings, tmp_path, doc)
    assert (result.verdict, result.verified, result.cycles) == ("PASS", True, 1)


class _Recording(DelegatingClient):
    def __init__(self, inner: Any, seen: list[list[LLMMessage]]) -> None:
        super().__init__(inner)
        self.seen = seen

    async def create(self, messages: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return await self.inner.create(messages, **kwargs)


class _RecordingProvider(ScriptedProvider):
    def __init__(self, path: Path) -> None:
        super().__init__(path, max_retries=0, base_delay=0.0, max_delay=0.0)
        self.seen: dict[str, list[list[LLMMessage]]] = {"planner": [], "specialist": [], "evaluator": []}

    def _make_client(self, role: str) -> Any:
        return _Recording(super()._make_client(role), self.seen[role])


async def test_evaluator_sees_the_check_report_before_its_verdict(settings: Settings, tmp_path: Path) -> None:
    task, prep, schema = portfolio(settings)
    wrong = valid_object(prep)
    wrong["summary"] = "Only Tesla and Nvidia are worth holding here."  # names outside the portfolio
    doc = {"planner": ["1. Fill the object."] * 2, "specialist": [as_json(wrong)] * 4,  # each turn re-asked once
           "evaluator": [review("PASS")] * 2}
    provider = _RecordingProvider(save(doc, tmp_path / "script.json"))
    events: list[RunEvent] = []
    checker = Checker(task, facts=prep.prepared.facts, data=prep.prepared.data, workspace=tmp_path, vars={})
    for compact in (False, True):
        inputs = CycleInputs(task=task, task_text=prep.prepared.task_text, provider=provider,
                             emitter=EventEmitter("run", [events.append]), checker=checker, workspace=tmp_path,
                             limits=Limits(max_cycles=1), usage=UsageTotals(model_name=provider.name,
                                                                            prices=PriceTable.from_settings(settings)),
                             schema=schema, compact=compact)
        outcome = await run_cycles(inputs)
        seen = provider.seen["evaluator"][-1]
        shown = "\n".join(str(m.content) for m in seen)
        assert HEADER in shown and "- structure: PASS" in shown and "- coverage: PASS" in shown
        assert "claim ledger:" in shown
        last = str(seen[-1].content)
        assert "## Findings" in last and "{{fact:AAPL" not in last  # the rendered artifact, figures filled in
        if compact:  # the evaluator's view is the artifact and its report only
            assert [type(m).__name__ for m in seen] == ["SystemMessage", "UserMessage"]
            assert '"summary"' not in shown
        # the checks still run after the evaluator and override its PASS
        assert outcome.verdict is not None and outcome.last_checks is not None
        if not all(c.ok or c.severity != "error" for c in outcome.last_checks):
            assert outcome.verdict.outcome.value != "PASS"


async def test_object_failing_its_checks_is_asked_for_once_more_with_the_findings(settings: Settings,
                                                                                  tmp_path: Path) -> None:
    """Evidence before output: a valid object whose rendered review contradicts the data is asked for
    once more in the same turn, with the failing checks; the corrected object is the artifact."""
    task, prep, schema = portfolio(settings)
    wrong = valid_object(prep)
    wrong["findings"] = {s: "Overweight against the position cap." for s in wrong["findings"]}
    doc = {"planner": ["1. Fill the object."], "specialist": [as_json(wrong), as_json(valid_object(prep))],
           "evaluator": [review("PASS")]}
    provider = _RecordingProvider(save(doc, tmp_path / "script.json"))
    events: list[RunEvent] = []
    checker = Checker(task, facts=prep.prepared.facts, data=prep.prepared.data, workspace=tmp_path, vars={})
    outcome = await run_cycles(CycleInputs(
        task=task, task_text=prep.prepared.task_text, provider=provider,
        emitter=EventEmitter("run", [events.append]), checker=checker, workspace=tmp_path,
        limits=Limits(max_cycles=1), usage=UsageTotals(model_name=provider.name,
                                                       prices=PriceTable.from_settings(settings)),
        schema=schema))
    assert outcome.verdict is not None and outcome.verdict.outcome.value == "PASS"
    assert outcome.last_checks is not None and all(c.ok or c.severity != "error" for c in outcome.last_checks)
    assert [e.payload["role"] for e in events if e.kind == "model_call"] == [
        "planner", "specialist", "specialist", "evaluator"]
    [warning] = [e.payload["message"] for e in events if e.kind == "warning" and "checks" in e.payload["message"]]
    assert "claims:" in warning
    reask = str(provider.seen["specialist"][-1][-2].content)  # before the closing ask for the object
    assert "fails these checks" in reask and "MSFT.overweight = no" in reask
    assert "Overweight against the position cap" not in outcome.raw_artifact
    assert "## Findings" in outcome.raw_artifact


async def test_a_recheck_never_trades_a_valid_object_for_an_invalid_one(settings: Settings, tmp_path: Path) -> None:
    _task, prep, _schema = portfolio(settings)
    wrong = valid_object(prep)
    wrong["findings"] = {s: "Overweight against the position cap." for s in wrong["findings"]}
    doc = {"planner": ["1. Fill the object."], "specialist": [as_json(wrong), '{"summary": "cut'],
           "evaluator": [review("PASS")]}
    result = await _run(settings, tmp_path, doc, cycles=1)
    [cycle] = _trace(result)["cycles"]
    assert cycle["verdict_origin"] == "checks" and cycle["verdict"]["outcome"] == "PARTIAL"  # not FORMAT_ISSUE
    assert "Overweight against the position cap" in (Path(result.trace_dir) / "artifact.raw.md").read_text()
