"""TraceBuilder: the pure reducer from RunEvents to trace.json."""

from __future__ import annotations

import json
from typing import Any

import pytest

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store.trace import TraceBuilder

RUN = "01JABCDEFGHJKMNPQRSTVWXYZ0"


class Events:
    """Builds a run's events with consecutive seq numbers and increasing timestamps."""

    def __init__(self) -> None:
        self.items: list[RunEvent] = []

    def add(self, event_kind: EventKind, cycle: int = 0, /, **payload: Any) -> RunEvent:
        seq = len(self.items) + 1
        ts = f"2025-01-01T00:00:{seq:02d}.000Z"
        event = RunEvent(run_id=RUN, seq=seq, cycle=cycle, ts=ts, kind=event_kind, payload=payload)
        self.items.append(event)
        return event


def usage(p: int, c: int, cost: float | None) -> dict[str, Any]:
    return {"prompt_tokens": p, "completion_tokens": c, "cost": cost}


def two_cycle_run() -> list[RunEvent]:
    ev = Events()
    ev.add(
        EventKind.RUN_STARTED,
        task="report",
        model="scripted:x.json",
        vars={"year": 2024},
        limits={"max_cycles": 6},
        trace_dir="/t",
        workspace="/t/w",
    )
    ev.add(EventKind.PREPARED, facts=12, reprepared=False, facts_path="/f.json")
    ev.add(EventKind.RETRIEVAL, role="planner", query="q", partition="p", chunks=[{"id": "c1"}])
    ev.add(EventKind.CYCLE_STARTED, 1, index=1, kind="initial", task_text="do it")
    ev.add(EventKind.MESSAGE, 1, source="user", type="TextMessage", content="task", usage=None)
    ev.add(
        EventKind.MESSAGE, 1, source="planner", type="TextMessage", content="plan", usage=usage(10, 5, 0.001)
    )
    ev.add(
        EventKind.TOOL_CALL,
        1,
        source="specialist",
        calls=[{"id": "t1", "name": "read_file", "arguments": '{"path": "a"}'}],
        usage=usage(20, 3, 0.002),
    )
    ev.add(
        EventKind.TOOL_RESULT,
        1,
        source="specialist",
        results=[{"call_id": "t1", "name": "read_file", "content": "x", "is_error": False}],
    )
    ev.add(EventKind.RETRIEVAL, 1, role="specialist", query="q2", partition="p", chunks=[])
    ev.add(
        EventKind.MESSAGE,
        1,
        source="specialist",
        type="TextMessage",
        content="draft",
        usage=usage(30, 7, 0.003),
    )
    ev.add(
        EventKind.MESSAGE, 1, source="evaluator", type="TextMessage", content="meh", usage=usage(5, 1, 0.0005)
    )
    ev.add(
        EventKind.VERDICT, 1, outcome="PARTIAL", reason="r1", issues=["i1"], summary="s1", origin="evaluator"
    )
    ev.add(EventKind.CHECK, 1, name="numbers", ok=False, severity="error", detail="d", phase="cycle")
    ev.add(EventKind.USAGE, 1, scope="cycle", usage={"model_calls": 99, "currency": "USD"})
    ev.add(
        EventKind.CYCLE_FINISHED,
        1,
        index=1,
        verdict={"outcome": "PARTIAL", "reason": "r1", "issues": ["i1", "numbers"], "summary": "s1"},
        usage={"currency": "USD"},
    )
    ev.add(EventKind.CYCLE_STARTED, 2, index=2, kind="fix", task_text="fix it")
    ev.add(EventKind.MESSAGE, 2, source="planner", type="TextMessage", content="p2", usage=usage(1, 2, None))
    ev.add(
        EventKind.MESSAGE, 2, source="evaluator", type="TextMessage", content="ok", usage=usage(3, 4, 0.01)
    )
    ev.add(EventKind.VERDICT, 2, outcome="PASS", reason="good", issues=[], summary="s2", origin="evaluator")
    ev.add(
        EventKind.CYCLE_FINISHED,
        2,
        index=2,
        verdict={"outcome": "PASS", "reason": "good", "issues": [], "summary": "s2"},
        usage={},
    )
    ev.add(EventKind.CHECK, name="numbers", ok=True, severity="error", detail="", phase="final")
    ev.add(EventKind.SANITIZED, changes=[{"rule": "r", "before": "a", "after": "b"}])
    ev.add(
        EventKind.ARTIFACT,
        path="/t/artifact.md",
        raw_path="/t/artifact.raw.md",
        verified=True,
        issues=[],
        grounding={"score": 1.0, "checked": 2, "supported": 2, "unsupported": []},
    )
    ev.add(EventKind.WARNING, message="slow")
    ev.add(
        EventKind.RUN_FINISHED,
        status="finished",
        verdict="PASS",
        reason="good",
        limit=None,
        cycles=2,
        usage={"currency": "USD"},
        error=None,
        artifact_path="/t/artifact.md",
        verified=True,
    )
    return ev.items


def test_two_cycles_structure() -> None:
    doc = TraceBuilder.from_events(two_cycle_run()).document()
    assert doc["schema_version"] == 1
    assert doc["run_id"] == RUN
    assert (doc["task"], doc["model"], doc["status"], doc["verdict"]) == (
        "report",
        "scripted:x.json",
        "finished",
        "PASS",
    )
    assert doc["vars"] == {"year": 2024} and doc["limits"] == {"max_cycles": 6}
    assert doc["started_at"] == "2025-01-01T00:00:01.000Z"
    assert doc["ended_at"] == "2025-01-01T00:00:25.000Z"
    assert doc["last_seq"] == 25
    assert [c["index"] for c in doc["cycles"]] == [1, 2]
    c1, c2 = doc["cycles"]
    assert (c1["kind"], c1["task_text"], c2["kind"]) == ("initial", "do it", "fix")
    assert c1["ended_at"] == "2025-01-01T00:00:15.000Z"
    assert [m["type"] for m in c1["messages"]] == [
        "TextMessage",
        "TextMessage",
        "tool_call",
        "tool_result",
        "TextMessage",
        "TextMessage",
    ]
    call, result = c1["messages"][2], c1["messages"][3]
    assert call["tool_calls"][0]["name"] == "read_file" and "tool_results" not in call
    assert result["tool_results"][0]["call_id"] == "t1" and result["usage"] is None
    # cycle_finished's merged verdict wins over the evaluator's; the origin stays.
    assert c1["verdict"] == {
        "outcome": "PARTIAL",
        "reason": "r1",
        "issues": ["i1", "numbers"],
        "summary": "s1",
    }
    assert c1["verdict_origin"] == "evaluator"
    assert [c["name"] for c in c1["checks"]] == ["numbers"]
    assert [r["query"] for r in c1["retrievals"]] == ["q2"]
    assert [r["query"] for r in doc["retrievals"]] == ["q"]
    assert doc["final_checks"][0]["ok"] is True
    assert doc["sanitize_changes"] == [{"rule": "r", "before": "a", "after": "b"}]
    assert doc["artifact"] == {
        "path": "/t/artifact.md",
        "raw_path": "/t/artifact.raw.md",
        "verified": True,
        "issues": [],
    }
    assert doc["grounding"]["score"] == 1.0
    assert doc["warnings"][0]["message"] == "slow"
    assert doc["prepared"]["facts"] == 12
    json.dumps(doc)  # serialisable


def test_usage_sums_and_null_cost_propagation() -> None:
    doc = TraceBuilder.from_events(two_cycle_run()).document()
    c1, c2 = doc["cycles"]
    # cycle 1: planner msg, tool_call, specialist msg, evaluator msg (user msg has no usage).
    assert c1["usage"]["model_calls"] == 4
    assert c1["usage"]["prompt_tokens"] == 65 and c1["usage"]["completion_tokens"] == 16
    assert c1["usage"]["cost"] == pytest.approx(0.0065)
    assert c1["usage"]["currency"] == "USD"
    assert c1["usage"]["per_agent"]["specialist"] == {
        "model_calls": 2,
        "prompt_tokens": 50,
        "completion_tokens": 10,
        "cost": pytest.approx(0.005),
    }
    # cycle 2: one part with unknown cost makes the cycle's and the run's cost unknown.
    assert c2["usage"]["model_calls"] == 2 and c2["usage"]["cost"] is None
    run = doc["usage"]
    assert run["model_calls"] == 6 and run["prompt_tokens"] == 69 and run["completion_tokens"] == 22
    assert run["cost"] is None
    assert run["per_agent"]["planner"]["cost"] is None
    assert run["per_agent"]["planner"]["model_calls"] == 2
    assert run["per_agent"]["evaluator"]["cost"] == pytest.approx(0.0105)
    assert run["per_agent"]["specialist"]["cost"] == pytest.approx(0.005)
    assert "user" not in run["per_agent"]
    # The reported usage event (model_calls 99) is not added.
    assert sum(a["model_calls"] for a in run["per_agent"].values()) == 6


def test_no_calls_means_zero_cost_not_null() -> None:
    ev = Events()
    ev.add(EventKind.RUN_STARTED, task="t", model="m")
    doc = TraceBuilder.from_events(ev.items).document()
    assert doc["usage"]["cost"] == 0.0 and doc["usage"]["model_calls"] == 0
    assert doc["status"] == "running" and doc["verdict"] is None and doc["cycles"] == []


def test_replayed_events_are_ignored_and_document_is_a_copy() -> None:
    events = two_cycle_run()
    builder = TraceBuilder.from_events(events)
    before = builder.document()
    for event in events[:10]:
        builder.apply(event)
    assert builder.document() == before
    before["cycles"].clear()
    assert len(builder.document()["cycles"]) == 2


def test_incremental_matches_batch() -> None:
    events = two_cycle_run()
    builder = TraceBuilder()
    for event in events:
        builder.apply(event)
    assert builder.document() == TraceBuilder.from_events(events).document()


def test_error_status_and_event_without_cycle_started() -> None:
    ev = Events()
    ev.add(EventKind.RUN_STARTED, task="t", model="m")
    ev.add(EventKind.MESSAGE, 3, source="planner", type="TextMessage", content="x", usage=usage(1, 1, 0.1))
    ev.add(
        EventKind.RUN_FINISHED, status="error", verdict=None, reason=None, error="boom", limit="run_timeout"
    )
    doc = TraceBuilder.from_events(ev.items).document()
    assert doc["status"] == "error" and doc["error"] == "boom" and doc["limit"] == "run_timeout"
    assert doc["cycles"][0]["index"] == 3 and doc["cycles"][0]["kind"] is None
    assert doc["usage"]["cost"] == pytest.approx(0.1)
