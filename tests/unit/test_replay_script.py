"""script_from_events: what a replay sends, and what it says it cannot reproduce."""

from __future__ import annotations

from typing import Any

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.replay import comparable, script_from_events

RUN = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
USAGE = {"prompt_tokens": 1, "completion_tokens": 1}


def _events(*specs: tuple[EventKind, int, dict[str, Any]]) -> list[RunEvent]:
    return [RunEvent(run_id=RUN, seq=n, cycle=cycle, kind=kind, payload=payload)
            for n, (kind, cycle, payload) in enumerate(specs, 1)]


def test_replies_faults_and_superseded_cycles() -> None:
    events = _events(
        (EventKind.RUN_STARTED, 0, {"task": "demo"}),
        (EventKind.MESSAGE, 1, {"source": "planner", "type": "TextMessage", "content": "plan", "usage": USAGE}),
        (EventKind.MESSAGE, 1, {"source": "planner", "type": "ThoughtEvent", "content": "hmm", "usage": None}),
        (EventKind.RETRY, 1, {"role": "specialist", "attempt": 1, "error_kind": "rate limit (HTTP 429)", "wait": 2}),
        (EventKind.RETRY, 1, {"role": "specialist", "attempt": 2, "error_kind": "server error (HTTP 503)", "wait": 1}),
        (EventKind.TOOL_CALL, 1, {"source": "specialist", "calls": [{"id": "c", "name": "write_file",
                                                                     "arguments": {"path": "a.py"}}], "usage": USAGE}),
        (EventKind.MESSAGE, 1, {"source": "specialist", "type": "TextMessage", "content": "done", "usage": USAGE}),
        (EventKind.MESSAGE, 2, {"source": "planner", "type": "TextMessage", "content": "lost plan", "usage": USAGE}),
        (EventKind.RESUMED, 0, {"from_cycle": 2}),
        (EventKind.MESSAGE, 2, {"source": "planner", "type": "TextMessage", "content": "plan 2", "usage": USAGE}),
    )
    script = script_from_events(events)
    assert script.doc == {
        "planner": ["plan", "plan 2"],  # the interrupted cycle's reply was run again after the resume
        "specialist": [{"error": "rate_limit", "retry_after": 0}, {"error": "server"},
                       {"tool_calls": [{"name": "write_file", "arguments": {"path": "a.py"}}]}, "done"],
        "evaluator": [],
    }
    assert script.notes == [] and script.replies == 4 and script.calls == 6


def test_what_cannot_be_reproduced_is_said() -> None:
    events = _events(
        (EventKind.MODEL_CALL, 1, {"role": "specialist"}),
        (EventKind.MODEL_CALL, 1, {"role": "specialist"}),
        (EventKind.MESSAGE, 1, {"source": "specialist", "type": "TextMessage", "usage": USAGE,
                                "content": "long\n…[truncated 40 characters]"}),
        (EventKind.TOOL_CALL, 1, {"source": "evaluator", "calls": [{"name": "run_pytest", "arguments": "not json"}],
                                  "usage": USAGE}),
    )
    notes = script_from_events(events).notes
    assert any("was cut in the trace" in n for n in notes)
    assert any("not a JSON object" in n for n in notes)
    assert any("1 model call(s) of the specialist left no message" in n for n in notes)


def test_comparable_drops_times_ids_and_paths_only() -> None:
    a = _events((EventKind.CHECK, 1, {"name": "tests", "ok": True, "detail": "5 passed in 0.01s"}),
                (EventKind.MODEL_CALL, 1, {"role": "planner", "seconds": 1.2, "prompt_tokens": 3}))
    b = _events((EventKind.CHECK, 1, {"name": "tests", "ok": True, "detail": "5 passed in 2.31s"}),
                (EventKind.MODEL_CALL, 1, {"role": "planner", "seconds": 0.1, "prompt_tokens": 3}))
    assert comparable(a) == comparable(b)
    c = _events((EventKind.CHECK, 1, {"name": "tests", "ok": False, "detail": "5 passed in 0.01s"}))
    assert comparable(a)[:1] != comparable(c)
