"""The run timeline (spans from event latencies) and the series across runs (from a real SQLite
run index in a temp dir)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from autogen_pse.errors import UserError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store.ids import new_run_id
from autogen_pse.store.index import RunIndex
from autogen_pse.store.rows import RunRow
from autogen_pse.store.series import MAX_POINTS, run_series
from autogen_pse.timeline import build_timeline

RUN = "01JAAAAAAAAAAAAAAAAAAAAAAA"


def ev(seq: int, second: float, kind: EventKind, payload: dict, cycle: int = 1) -> RunEvent:
    ts = f"2026-01-01T00:00:{second:06.3f}Z"
    return RunEvent(run_id=RUN, seq=seq, cycle=cycle, ts=ts, kind=kind, payload=payload)


def test_spans_from_model_calls_tools_retries_checks_and_setup() -> None:
    events = [
        ev(1, 0, EventKind.RUN_STARTED, {"task": "t", "model": "m"}, 0),
        ev(2, 3, EventKind.PREPARED, {"facts": 1, "reprepared": True, "seconds": 2.5}, 0),
        ev(3, 4, EventKind.CYCLE_STARTED, {"index": 1, "kind": "initial"}),
        ev(4, 5, EventKind.RETRY, {"role": "planner", "attempt": 1, "error_kind": "rate limit", "wait": 1.0}),
        ev(5, 7, EventKind.MODEL_CALL, {"role": "planner", "prompt_tokens": 10, "completion_tokens": 5, "seconds": 2.5,
                                        "tokens_per_s": 2.0}),
        ev(6, 7, EventKind.TOOL_CALL, {"source": "planner", "calls": [{"id": "a", "name": "kb_search"}],
                                       "latency": {"seconds": 2.5}}),
        ev(7, 8.5, EventKind.TOOL_RESULT, {"source": "planner", "results": [
            {"call_id": "a", "name": "kb_search", "content": "x", "is_error": True}]}),
        ev(8, 9, EventKind.VERDICT, {"outcome": "PASS", "reason": "OK"}),
    ]
    t = build_timeline(events)
    assert t.seconds == 9 and t.started_at == events[0].ts
    got = [(s.kind, s.cycle, s.role, s.start, s.seconds) for s in t.spans]
    assert got == [
        ("setup", 0, "system", 0.5, 2.5),
        ("model", 1, "planner", 4.5, 2.5),  # ends at its event, retries inside it
        ("retry", 1, "planner", 5.0, 1.0),
        ("tool", 1, "planner", 7.0, 1.5),
        ("checks", 1, "system", 8.5, 0.5),
    ]
    assert t.spans[3].label == "kb_search" and t.spans[3].error
    assert t.spans[1].tokens == 15


def test_without_model_call_events_message_latency_is_used() -> None:
    events = [
        ev(1, 0, EventKind.RUN_STARTED, {"task": "t", "model": "m"}, 0),
        ev(2, 4, EventKind.MESSAGE, {"source": "evaluator", "content": "ok", "latency": {"seconds": 3.0},
                                     "usage": {"prompt_tokens": 7, "completion_tokens": 3}}),
    ]
    [span] = build_timeline(events).spans
    assert (span.kind, span.role, span.start, span.seconds, span.tokens) == ("model", "evaluator", 1.0, 3.0, 10)
    assert build_timeline([]).spans == []


def _row(index: RunIndex, started: str, *, task: str = "demo", model: str = "a", verdict: str | None = "PASS",
         seconds: int = 10, cost: float | None = 0.5, status: str = "finished") -> None:
    begin = datetime.fromisoformat(started.replace("Z", "+00:00"))
    ended = (begin + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000Z") if status != "running" else None
    index.upsert(RunRow(run_id=new_run_id(), task=task, model=model, status=status, verdict=verdict,
                        prompt_tokens=100, completion_tokens=20, cost=cost, started_at=started, ended_at=ended,
                        trace_dir="x"))


def test_series_per_task_and_model(tmp_path: Path) -> None:
    index = RunIndex(tmp_path / "index.sqlite")
    _row(index, "2026-01-01T10:00:00.000Z")
    _row(index, "2026-01-01T11:00:00.000Z", verdict="FAIL", cost=None)
    _row(index, "2026-01-02T10:00:00.000Z", model="b", seconds=30)
    _row(index, "2026-01-02T12:00:00.000Z", status="running", verdict=None)  # left out
    page = run_series(index)
    assert page["bucket"] == "run" and page["runs"] == 3
    a, b = page["series"]
    assert (a["model"], a["runs"], b["model"], b["runs"]) == ("a", 2, "b", 1)
    assert [p["pass_rate"] for p in a["points"]] == [1.0, 0.0]
    assert a["points"][1]["cost"] is None and a["points"][0]["tokens"] == 120
    daily = run_series(index, bucket="day")["series"][0]["points"]
    assert daily == [{"t": "2026-01-01T00:00:00Z", "runs": 2, "passed": 1, "pass_rate": 0.5, "tokens": 120.0,
                      "cost": 0.5, "seconds": 10.0, "run_id": None}]
    assert run_series(index, model="b")["runs"] == 1
    with pytest.raises(UserError):
        run_series(index, since="not a time")


def test_auto_bucket_groups_many_runs(tmp_path: Path) -> None:
    index = RunIndex(tmp_path / "index.sqlite")
    for day in range(1, 29):
        for hour in (1, 2, 3):
            _row(index, f"2026-02-{day:02d}T{hour:02d}:00:00.000Z")
    page = run_series(index)
    assert page["runs"] == 84 > MAX_POINTS and page["bucket"] == "day"
    assert len(page["series"][0]["points"]) == 28
