"""RunEvent: the one envelope every part of a run emits.

Events are the single source of truth of a run: the trace store, the console and SSE subscribers
are sinks of the same stream. ``seq`` starts at 1 and grows by one per event within a run.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


class EventKind(StrEnum):
    RUN_STARTED = "run_started"
    PREPARED = "prepared"
    RETRIEVAL = "retrieval"
    CYCLE_STARTED = "cycle_started"
    MESSAGE = "message"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    VERDICT = "verdict"
    CHECK = "check"
    LEDGER = "ledger"
    USAGE = "usage"
    CYCLE_FINISHED = "cycle_finished"
    SANITIZED = "sanitized"
    ARTIFACT = "artifact"
    WARNING = "warning"
    MODEL_CALL = "model_call"  # one finished model call: role, tokens, seconds, tokens/s
    MODEL_WAIT = "model_wait"  # a model call still running: role, elapsed seconds (heartbeat)
    PROMPT = "prompt"  # the system prompt one role received in one cycle: role, sha256, chars, text
    RETRY = "retry"  # a failed model call about to be retried: role, attempt, error_kind, wait
    INGESTED = "ingested"  # knowledge-base ingestion before the first turn: files, chunks, seconds
    RESUMED = "resumed"  # an interrupted or error run continues: from_cycle, previous_status
    RUN_FINISHED = "run_finished"


#: Kinds that change what a run-level listing shows (used by the live history feed).
RUN_LEVEL_KINDS = frozenset({EventKind.RUN_STARTED, EventKind.CYCLE_FINISHED, EventKind.RUN_FINISHED})


def utc_now() -> str:
    """Current UTC time as ISO 8601 with milliseconds and a ``Z`` suffix."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RunEvent(BaseModel):
    """One event. ``cycle`` is 0 for run-level events, else the 1-based cycle index."""

    run_id: str
    seq: int
    cycle: int = 0
    ts: str = Field(default_factory=utc_now)
    kind: EventKind
    payload: dict[str, Any] = Field(default_factory=dict)


EventSink = Callable[[RunEvent], None]


class EventEmitter:
    """Numbers a run's events and hands each, in order, to every sink.

    Sinks are synchronous and fast (append to a file, put into a bounded queue, render a line);
    an exception from a sink (e.g. :class:`~autogen_pse.errors.StoreError`) propagates to the run.
    """

    def __init__(self, run_id: str, sinks: list[EventSink] | None = None, *, last_seq: int = 0) -> None:
        self.run_id = run_id
        self._sinks: list[EventSink] = list(sinks or [])
        self._seq = last_seq  # a resumed run continues its trace's numbering
        self.current_cycle = 0  # set by the cycle loop; for events raised from inside a cycle's tools

    def add_sink(self, sink: EventSink) -> None:
        self._sinks.append(sink)

    @property
    def last_seq(self) -> int:
        return self._seq

    def emit(self, kind: EventKind, payload: dict[str, Any] | None = None, *, cycle: int = 0) -> RunEvent:
        """Create the next event and deliver it to every sink; returns the event."""
        event = RunEvent(run_id=self.run_id, seq=self._seq + 1, cycle=cycle, kind=kind, payload=payload or {})
        if not self._sinks:
            self._seq = event.seq
        for n, sink in enumerate(self._sinks):
            sink(event)
            if n == 0:  # recorded by the first sink (the trace): the number is taken; else it is free again
                self._seq = event.seq
        return event
