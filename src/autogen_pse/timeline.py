"""A run's timeline: where its time went, as spans per cycle, from the latency fields of its events.

Spans (offsets in seconds from the run's start):

* ``setup``: the prepare step (``prepared.seconds``) and knowledge-base ingestion
  (``ingested.seconds``) before the first turn (cycle 0);
* ``model``: one per finished model call (``model_call``: it ends at the event, lasts ``seconds``,
  retries included); traces without ``model_call`` events fall back on the ``latency`` of their
  ``message`` / ``tool_call`` events;
* ``retry``: the wait after a failed call (``retry.wait``), inside the model call's span;
* ``tool``: from a ``tool_call`` event to the ``tool_result`` of the same agent (the tools' run time);
* ``checks``: from the cycle's last turn to its verdict (the task's checks and evidence).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

from autogen_pse.events import EventKind, RunEvent

__all__ = ["Span", "Timeline", "build_timeline"]

SpanKind = Literal["setup", "model", "retry", "tool", "checks"]


@dataclass
class Span:
    kind: SpanKind
    cycle: int
    role: str
    label: str
    start: float  # seconds after the run started
    seconds: float
    seq: int
    tokens: int | None = None
    error: bool = False


@dataclass
class Timeline:
    started_at: str | None = None
    seconds: float = 0.0  # the run's wall time so far (first to last event)
    spans: list[Span] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _ts(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def build_timeline(events: Iterable[RunEvent]) -> Timeline:
    """The spans of ``events`` (in seq order), oldest first."""
    ordered = sorted(events, key=lambda e: e.seq)
    if not ordered:
        return Timeline()
    t0 = _ts(ordered[0].ts)
    has_model_calls = any(e.kind == EventKind.MODEL_CALL for e in ordered)
    spans: list[Span] = []
    open_tools: dict[str, tuple[float, RunEvent]] = {}  # agent → its pending tool_call
    last_turn: dict[int, float] = {}  # cycle → end of its last turn
    setup_end = 0.0

    def at(event: RunEvent) -> float:
        return max(0.0, _ts(event.ts) - t0)

    for e in ordered:
        p = e.payload
        end = at(e)
        if e.kind in (EventKind.PREPARED, EventKind.INGESTED):
            seconds = _num(p.get("seconds"))
            if seconds > 0:
                label = "prepare" if e.kind == EventKind.PREPARED else "knowledge base"
                start = max(setup_end, end - seconds)
                spans.append(Span("setup", 0, "system", label, round(start, 3), round(seconds, 3), e.seq))
                setup_end = start + seconds
        elif e.kind == EventKind.MODEL_CALL:
            seconds = _num(p.get("seconds"))
            tokens = int(_num(p.get("prompt_tokens")) + _num(p.get("completion_tokens")))
            spans.append(Span("model", e.cycle, str(p.get("role") or ""), "model call",
                              round(max(0.0, end - seconds), 3), round(seconds, 3), e.seq, tokens))
        elif e.kind == EventKind.RETRY:
            wait = _num(p.get("wait"))
            label = f"retry after {p.get('error_kind') or 'error'}"
            spans.append(Span("retry", e.cycle, str(p.get("role") or ""), label, round(end, 3), round(wait, 3), e.seq,
                              error=True))
        elif e.kind in (EventKind.MESSAGE, EventKind.TOOL_CALL):
            source = str(p.get("source") or "")
            latency = p.get("latency")
            if not has_model_calls and isinstance(latency, dict):
                seconds = _num(latency.get("seconds"))
                raw_usage = p.get("usage")
                usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
                tokens = int(_num(usage.get("prompt_tokens")) + _num(usage.get("completion_tokens")))
                spans.append(Span("model", e.cycle, source, "model call", round(max(0.0, end - seconds), 3),
                                  round(seconds, 3), e.seq, tokens))
            if e.kind == EventKind.TOOL_CALL:
                open_tools[source] = (end, e)
            last_turn[e.cycle] = end
        elif e.kind == EventKind.TOOL_RESULT:
            source = str(p.get("source") or "")
            pending = open_tools.pop(source, None)
            raw_results = p.get("results")
            results: list[Any] = raw_results if isinstance(raw_results, list) else []
            names = [str(r.get("name") or "?") for r in results if isinstance(r, dict)]
            failed = any(isinstance(r, dict) and r.get("is_error") for r in results)
            start = pending[0] if pending else end
            spans.append(Span("tool", e.cycle, source, ", ".join(names) or "tool", round(start, 3),
                              round(max(0.0, end - start), 3), e.seq, error=failed))
            last_turn[e.cycle] = end
        elif e.kind == EventKind.VERDICT and e.cycle in last_turn:
            start = last_turn[e.cycle]
            spans.append(Span("checks", e.cycle, "system", "checks and verdict", round(start, 3),
                              round(max(0.0, end - start), 3), e.seq))
    spans.sort(key=lambda s: (s.start, s.seq))
    return Timeline(started_at=ordered[0].ts, seconds=round(at(ordered[-1]), 3), spans=spans)
