"""RunSink: records one run's RunEvents into its trace folder and the run index."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

from autogen_pse.errors import StoreError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store.files import EventLog, atomic_write_text
from autogen_pse.store.index import RunIndex
from autogen_pse.store.layout import EVENTS_FILE, TRACE_FILE
from autogen_pse.store.trace import TraceBuilder

__all__ = ["RunSink"]

log = logging.getLogger(__name__)

#: After these kinds the index row is upserted (a listing shows a run from its start and its
#: progress per cycle).
CHECKPOINT_KINDS = frozenset({EventKind.RUN_STARTED, EventKind.CYCLE_FINISHED, EventKind.RUN_FINISHED})
#: After these kinds ``trace.json`` is written. Only at the run's end: before that every reader folds
#: ``events.jsonl`` (the durable record) into the document, so a rewrite per cycle would be work no
#: reader uses.
DOCUMENT_KINDS = frozenset({EventKind.RUN_FINISHED})


class RunSink:
    """The trace-store sink of one run.

    :meth:`handle` appends every event to ``events.jsonl`` (flushed at once) and folds it into a
    :class:`TraceBuilder`; on ``run_started``, ``cycle_finished`` and ``run_finished`` it upserts
    the index row, and on ``run_finished`` it writes ``trace.json`` atomically. A running (or
    killed) run has no current ``trace.json``: readers rebuild its document from ``events.jsonl``
    (:func:`autogen_pse.store.layout.load_trace_doc`).

    File failures raise :class:`StoreError` (the trace is the record of the run, the run cannot
    go on without it); after a failed append every later event raises the same error, so the log
    ends at its last complete event and never skips one (a small event may still fit on a full
    disk). An index failure does not stop the run: it is logged, kept in
    :attr:`index_error`, and retried at the next checkpoint; ``TraceStore.reindex()`` rebuilds
    the index from the trace files at any time.
    """

    def __init__(self, run_id: str, run_dir: Path, index: RunIndex | None, *, reopen: bool = False) -> None:
        self.run_id = run_id
        self.run_dir = Path(run_dir)
        self._index = index
        self._log = EventLog(self.run_dir / EVENTS_FILE)
        # reopen: a resumed run appends to its trace; the document goes on from the recorded events
        self._builder = (TraceBuilder.from_events(e for e in self._log.read() if e.run_id == run_id)
                         if reopen else TraceBuilder())
        self.index_error: str | None = None
        self.closed = False
        self._failed: StoreError | None = None  # the first failed append: the log takes no more events

    @property
    def trace_path(self) -> Path:
        """``traces/<run_id>/trace.json``."""
        return self.run_dir / TRACE_FILE

    @property
    def last_seq(self) -> int:
        """``seq`` of the last event in the trace (where a resumed run's numbering continues)."""
        return self._builder.last_seq

    def document(self) -> dict[str, Any]:
        """The trace document as of the last handled event (a copy)."""
        return self._builder.document()

    def handle(self, event: RunEvent) -> None:
        """Record ``event``.

        Raises:
            ValueError: the event belongs to another run.
            StoreError: ``events.jsonl`` or ``trace.json`` cannot be written, or the sink is closed.
        """
        if event.run_id != self.run_id:
            raise ValueError(f"event of run {event.run_id} sent to the sink of run {self.run_id}")
        if self.closed:
            raise StoreError(f"the trace of run {self.run_id} is closed; no event after run_finished")
        if self._failed is not None:  # after a lost event, a later one would misreport the run
            raise self._failed
        try:
            self._log.append(event)
        except StoreError as exc:
            self._failed = exc
            raise
        self._builder.apply(event)
        if event.kind in DOCUMENT_KINDS:
            self.checkpoint()
        elif event.kind in CHECKPOINT_KINDS:
            self.update_index()
        if event.kind == EventKind.RUN_FINISHED:
            self.closed = True

    def checkpoint(self) -> None:
        """Rewrite ``trace.json`` and upsert the index row from the events handled so far.

        ``trace.json`` is replaced atomically but not fsync'ed: it is derived from ``events.jsonl``
        (fsync'ed at every checkpoint kind) and checked against that log's last event on load.
        """
        atomic_write_text(self.trace_path, self._builder.json_text(), durable=False)
        self.update_index()

    def update_index(self) -> None:
        """Upsert the index row from the events handled so far (a failure is logged and kept in
        :attr:`index_error`, never raised: the index is rebuilt from the trace files)."""
        if self._index is None:
            return
        try:
            self._index.upsert(self._builder.row(self.run_dir))
        except (StoreError, sqlite3.Error) as exc:
            self.index_error = str(exc)
            log.warning("run %s: index not updated (%s); the trace files are complete", self.run_id, exc)
        else:
            self.index_error = None

    def close(self) -> None:
        """Close ``events.jsonl`` (releases the writer lock); further events raise StoreError."""
        self.closed = True
        self._log.close()

    def __enter__(self) -> RunSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
