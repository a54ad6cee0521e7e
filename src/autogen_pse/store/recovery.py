"""Recovery of the run index: open it or rebuild it from the trace folders, and mark the runs whose
process died as ``interrupted`` (see ``docs/trace-format.md``, *Recovery* and *Index damage*)."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autogen_pse.errors import StoreError
from autogen_pse.events import utc_now
from autogen_pse.store.files import EventLog, atomic_write_json, is_locked, remove_stale_temps, store_error
from autogen_pse.store.ids import is_run_id
from autogen_pse.store.index_schema import MAX_LIMIT, UPSERT, OutdatedIndex, row_values
from autogen_pse.store.layout import EVENTS_FILE, TRACE_FILE, load_trace_doc, read_trace_file
from autogen_pse.store.rows import RunRow

if TYPE_CHECKING:
    from autogen_pse.store.index import RunIndex

__all__ = ["mark_interrupted", "open_or_rebuild", "rebuild_into"]

log = logging.getLogger("autogen_pse.store.index")  # one logger for the index, as before the split


def mark_interrupted(index: RunIndex, traces_dir: Path | str, *,
                     live: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Set runs whose status is ``running`` but whose writer is gone to ``interrupted``.

    ``live`` holds ids of runs still executing in this process; they are never touched. A run
    whose ``events.jsonl`` is still locked by a writer (another process) is skipped as well.
    Both the index row and ``trace.json`` are updated; ``ended_at`` becomes the time of the
    last recorded event. Returns the ids changed, oldest first.

    Raises:
        StoreError: the index or a ``trace.json`` cannot be written.
    """
    traces_dir = Path(traces_dir)
    page = index.list(status="running", limit=MAX_LIMIT)
    rows = list(page.data)
    while page.next_cursor is not None:
        page = index.list(status="running", limit=MAX_LIMIT, cursor=page.next_cursor)
        rows.extend(page.data)
    changed: list[str] = []
    for row in reversed(rows):
        run_dir = traces_dir / row.run_id
        if row.run_id in live or is_locked(run_dir / EVENTS_FILE):
            continue
        doc, _ = _load_quietly(run_dir, prefer_events=True)
        if doc is not None and doc.get("status") not in ("running", "interrupted"):
            index.upsert(RunRow.from_trace(doc, trace_dir=run_dir))  # trace is ahead of index
            continue
        remove_stale_temps(run_dir / TRACE_FILE)  # left by a kill during a rewrite
        if doc is not None and doc.get("status") == "interrupted":
            new_row = RunRow.from_trace(doc, trace_dir=run_dir)
        elif doc is not None:
            doc["status"] = "interrupted"
            doc["ended_at"] = doc.get("ended_at") or _last_event_ts(run_dir) or utc_now()
            doc.setdefault("warnings", []).append(
                {
                    "seq": None,
                    "ts": utc_now(),
                    "cycle": 0,
                    "message": "run interrupted: its process ended without finishing the run",
                }
            )
            atomic_write_json(run_dir / TRACE_FILE, doc)
            new_row = RunRow.from_trace(doc, trace_dir=run_dir)
        else:
            ended = row.ended_at or utc_now()
            new_row = row.model_copy(update={"status": "interrupted", "ended_at": ended})
        index.upsert(new_row)
        changed.append(row.run_id)
    return changed


def _remove_db_files(path: Path, *, main: bool = True) -> None:
    """Remove ``path``'s ``-wal``/``-shm``/``-journal`` companions (and ``path`` if ``main``)."""
    names = [path.name + suffix for suffix in ("-wal", "-shm", "-journal")]
    if main:
        names.append(path.name)
    for name in names:
        with contextlib.suppress(OSError):  # best effort: a read-only folder must not hide the real error
            (path.parent / name).unlink()


def _load_quietly(run_dir: Path, *, prefer_events: bool = False) -> tuple[dict[str, Any] | None, str]:
    """``load_trace_doc`` that logs a damaged folder and returns ``(None, "none")`` for it."""
    try:
        return load_trace_doc(run_dir, prefer_events=prefer_events)
    except StoreError as exc:
        doc = read_trace_file(run_dir)  # damaged log: fall back to the last checkpoint
        if doc is not None:
            log.warning("%s: using trace.json only: %s", run_dir, exc)
            return doc, "trace"
        log.warning("skipping %s: %s", run_dir, exc)
        return None, "none"


def _last_event_ts(run_dir: Path) -> str | None:
    try:
        events = EventLog(run_dir / EVENTS_FILE).read()
    except StoreError:
        return None
    return events[-1].ts if events else None


def _scan_rows(traces_dir: Path) -> Iterator[RunRow]:
    """Rows of every valid trace folder under ``traces_dir`` (repairing ``trace.json`` on the way)."""
    if not traces_dir.is_dir():
        return
    for run_dir in sorted(traces_dir.iterdir()):
        if not is_run_id(run_dir.name) or not run_dir.is_dir() or run_dir.is_symlink():
            continue
        doc, source = _load_quietly(run_dir)
        if doc is None:
            log.info("skipping %s: neither trace.json nor events.jsonl has a run yet", run_dir)
            continue
        if source == "events":
            try:
                atomic_write_json(run_dir / TRACE_FILE, doc)
            except StoreError as exc:
                log.warning("could not repair %s: %s", run_dir / TRACE_FILE, exc)
        yield RunRow.from_trace(doc, trace_dir=run_dir)


def open_or_rebuild(db_path: Path | str, traces_dir: Path | str) -> RunIndex:
    """Open the index at ``db_path``; rebuild it from ``traces_dir`` when it is missing, not a
    database, fails ``PRAGMA integrity_check`` or has another schema.

    Raises:
        StoreError: the index cannot be written even after a rebuild.
    """
    from autogen_pse.store.index import RunIndex

    db_path = Path(db_path)
    if db_path.is_file():
        index: RunIndex | None = None
        try:
            index = RunIndex(db_path)
            index.check()
            if not index.created:
                return index
            # an empty (or foreign) file got a fresh, empty table: the runs are in the folders
            index.close()
            log.warning("run index %s had no runs table; rebuilding from %s", db_path, traces_dir)
        except OutdatedIndex as exc:
            if index is not None:
                index.close()
            log.info("%s; rebuilding it from %s", exc, traces_dir)
            _remove_db_files(db_path, main=False)
        except (StoreError, sqlite3.DatabaseError) as exc:
            if index is not None:
                index.close()
            log.warning("run index %s is unusable (%s); rebuilding from %s", db_path, exc, traces_dir)
            _remove_db_files(db_path, main=False)
    rebuild_into(db_path, Path(traces_dir))
    return RunIndex(db_path)


def rebuild_into(db_path: Path, traces_dir: Path) -> int:
    """Build a fresh index of ``traces_dir`` in a temporary file and rename it over ``db_path``."""
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise store_error(db_path.parent, exc, "create") from exc
    from autogen_pse.store.index import RunIndex

    tmp = db_path.with_name(f".{db_path.name}.rebuild-{os.getpid()}.tmp")
    _remove_db_files(tmp)
    count = 0
    try:
        fresh = RunIndex(tmp)
        with fresh._connect() as conn:
            for row in _scan_rows(traces_dir):
                conn.execute(UPSERT, row_values(row))
                count += 1
        fresh.close()
        # All connections to tmp are closed, so its WAL is checkpointed and gone: one file to move.
        # A stale -wal of the old index must not be replayed onto the new file: drop it first.
        _remove_db_files(db_path, main=False)
        os.replace(tmp, db_path)
        _remove_db_files(db_path, main=False)
    except OSError as exc:
        raise store_error(db_path, exc) from exc
    finally:
        _remove_db_files(tmp)
    log.info("rebuilt run index %s with %d runs", db_path, count)
    return count
