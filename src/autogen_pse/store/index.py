"""RunIndex: the SQLite index of runs (``traces/index.sqlite``), one row per run.

The index is derived data: every row can be rebuilt from the trace folders with
:meth:`RunIndex.rebuild`, and :func:`open_or_rebuild` does so by itself when the file is missing,
corrupt or of another schema. Each operation opens its own short-lived connection (WAL mode,
busy timeout), so one index object may be shared by threads and processes.
"""

from __future__ import annotations

import builtins
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from autogen_pse.errors import StoreError, UserError
from autogen_pse.events import utc_now
from autogen_pse.store.files import (
    EventLog,
    atomic_write_json,
    is_locked,
    remove_stale_temps,
    store_error,
)
from autogen_pse.store.ids import is_run_id, validate_run_id
from autogen_pse.store.layout import EVENTS_FILE, TRACE_FILE, load_trace_doc, read_trace_file
from autogen_pse.store.rows import RunPage, RunRow, decode_cursor, encode_cursor, normalize_ts

__all__ = ["INDEX_SCHEMA_VERSION", "RunIndex", "open_or_rebuild"]

log = logging.getLogger(__name__)


class OutdatedIndex(StoreError):
    """The index was written by an earlier version: rebuilt from the trace files, no warning."""

# 2: run_counts (kept by triggers) and the (task, verdict, started_at) index;
# 3: provenance columns (product_version, task_sha, prompt_sha)
INDEX_SCHEMA_VERSION = 3
MAX_LIMIT = 1000
_BUSY_TIMEOUT_S = 10.0

_COLUMNS: tuple[tuple[str, str], ...] = (
    ("run_id", "TEXT PRIMARY KEY NOT NULL"),
    ("task", "TEXT"),
    ("model", "TEXT"),
    ("status", "TEXT NOT NULL"),
    ("verdict", "TEXT"),
    ("reason", "TEXT"),
    ("cycles", "INTEGER NOT NULL DEFAULT 0"),
    ("prompt_tokens", "INTEGER NOT NULL DEFAULT 0"),
    ("completion_tokens", "INTEGER NOT NULL DEFAULT 0"),
    ("cost", "REAL NULL"),
    ("currency", "TEXT"),
    ("started_at", "TEXT NOT NULL"),
    ("ended_at", "TEXT"),
    ("trace_dir", "TEXT NOT NULL"),
    ("verified", "INTEGER"),
    ("error", "TEXT"),
    ("product_version", "TEXT"),
    ("task_sha", "TEXT"),
    ("prompt_sha", "TEXT"),
)
COLUMN_NAMES = tuple(name for name, _ in _COLUMNS)
_COUNT_NEW = ("INSERT INTO run_counts (task, verdict, status, n) "
              "VALUES (ifnull(NEW.task, ''), ifnull(NEW.verdict, ''), NEW.status, 1) "
              "ON CONFLICT (task, verdict, status) DO UPDATE SET n = n + 1;")
_COUNT_OLD = ("UPDATE run_counts SET n = n - 1 "
              "WHERE task = ifnull(OLD.task, '') AND verdict = ifnull(OLD.verdict, '') AND status = OLD.status;")
_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS runs (" + ", ".join(f"{n} {t}" for n, t in _COLUMNS) + ")",
    # every listing index ends with the page order (started_at, run_id): a page reads LIMIT rows
    # of the index instead of sorting every match
    "CREATE INDEX IF NOT EXISTS runs_started ON runs (started_at, run_id)",
    "CREATE INDEX IF NOT EXISTS runs_task_started ON runs (task, started_at, run_id)",
    "CREATE INDEX IF NOT EXISTS runs_verdict_started ON runs (verdict, started_at, run_id)",
    "CREATE INDEX IF NOT EXISTS runs_status ON runs (status, started_at, run_id)",
    "CREATE INDEX IF NOT EXISTS runs_task_verdict_started ON runs (task, verdict, started_at, run_id)",
    # Rows per (task, verdict, status), kept by triggers: a page's ``count`` for equality filters is
    # a sum over a few rows instead of a COUNT(*) over every match (NULL is stored as '').
    "CREATE TABLE IF NOT EXISTS run_counts (task TEXT NOT NULL, verdict TEXT NOT NULL, status TEXT NOT NULL, "
    "n INTEGER NOT NULL, PRIMARY KEY (task, verdict, status)) WITHOUT ROWID",
    "CREATE TRIGGER IF NOT EXISTS runs_counted_insert AFTER INSERT ON runs BEGIN " + _COUNT_NEW + " END",
    "CREATE TRIGGER IF NOT EXISTS runs_counted_delete AFTER DELETE ON runs BEGIN " + _COUNT_OLD + " END",
    "CREATE TRIGGER IF NOT EXISTS runs_counted_update AFTER UPDATE OF task, verdict, status ON runs BEGIN "
    + _COUNT_OLD + " " + _COUNT_NEW + " END",
    f"PRAGMA user_version = {INDEX_SCHEMA_VERSION}",
]
_UPSERT = (
    f"INSERT INTO runs ({', '.join(COLUMN_NAMES)}) VALUES ({', '.join('?' for _ in COLUMN_NAMES)}) "
    "ON CONFLICT(run_id) DO UPDATE SET "
    + ", ".join(f"{n} = excluded.{n}" for n in COLUMN_NAMES if n != "run_id")
)


def _row_values(row: RunRow) -> tuple[Any, ...]:
    data = row.model_dump()
    data["verified"] = None if row.verified is None else int(row.verified)
    return tuple(data[name] for name in COLUMN_NAMES)


def _to_row(values: sqlite3.Row) -> RunRow:
    data = dict(values)
    data["verified"] = None if data["verified"] is None else bool(data["verified"])
    return RunRow.model_validate(data)


def _db_error(path: Path, exc: sqlite3.Error) -> StoreError:
    return StoreError(
        f"cannot use the run index {path}: {exc}; delete it and it is rebuilt from the trace folders"
    )


class RunIndex:
    """Rows of runs in SQLite at ``db_path``; the schema is created when missing.

    Raises (constructor):
        StoreError: the file cannot be created or is not a usable database.
    """

    def __init__(self, db_path: Path | str) -> None:
        self.db_path = Path(db_path)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        try:
            self.db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise store_error(self.db_path.parent, exc, "create") from exc
        with self._connect() as conn:
            exists = conn.execute(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'"
            ).fetchone()[0]
            if not exists:  # never touch an existing schema: check() reports a mismatch instead
                conn.executescript(";\n".join(_SCHEMA) + ";")
        #: True when this object created the ``runs`` table (a new, or an empty or foreign, file).
        self.created = not exists

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """The index's connection in one transaction (commit on success, rollback on error).

        One connection is kept open per index (serialised by a lock): closing the last WAL
        connection checkpoints and fsyncs, which would cost ~10 ms on every update.
        """
        with self._lock:
            try:
                if self._conn is None:
                    conn = sqlite3.connect(self.db_path, timeout=_BUSY_TIMEOUT_S, check_same_thread=False)
                    conn.row_factory = sqlite3.Row
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.execute("PRAGMA synchronous = NORMAL")
                    self._conn = conn
                with self._conn:
                    yield self._conn
            except sqlite3.Error as exc:
                self.close()
                raise _db_error(self.db_path, exc) from exc

    def close(self) -> None:
        """Close the kept connection (it is reopened on next use)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    # --- rows ------------------------------------------------------------------------------
    def upsert(self, row: RunRow) -> None:
        """Insert ``row`` or replace the row with the same ``run_id``.

        Raises:
            UserError: ``row.run_id`` is not a run id.  StoreError: the database failed.
        """
        validate_run_id(row.run_id)
        with self._connect() as conn:
            conn.execute(_UPSERT, _row_values(row))

    def delete(self, run_id: str) -> bool:
        """Remove the row of ``run_id``; True when there was one.

        Raises:
            UserError: invalid id.  StoreError: the database failed.
        """
        validate_run_id(run_id)
        with self._connect() as conn:
            return conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,)).rowcount > 0

    def get(self, run_id: str) -> RunRow | None:
        """The row of ``run_id``, None if the index has none (invalid ids raise UserError)."""
        validate_run_id(run_id)
        with self._connect() as conn:
            found = conn.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return _to_row(found) if found is not None else None

    def list(
        self,
        *,
        task: str | None = None,
        verdict: str | None = None,
        status: str | None = None,
        since: str | datetime | None = None,
        until: str | datetime | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> RunPage:
        """A page of runs, newest ``started_at`` first (ties by ``run_id`` descending).

        Filters are exact matches; ``since`` is inclusive, ``until`` exclusive (ISO 8601, UTC if
        naive). ``cursor`` is a previous page's ``next_cursor``; paging is by key, so rows added
        meanwhile never shift pages (no duplicates, no gaps).

        Raises:
            UserError: ``limit`` outside 1..1000, bad timestamp, or a cursor not made by this index.
        """
        if not 1 <= int(limit) <= MAX_LIMIT:
            raise UserError(f"invalid limit {limit}: use a number from 1 to {MAX_LIMIT}")
        where: list[str] = []
        args: list[Any] = []
        for column, value in (("task", task), ("verdict", verdict), ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if since is not None:
            where.append("started_at >= ?")
            args.append(normalize_ts(since, name="since"))
        if until is not None:
            where.append("started_at < ?")
            args.append(normalize_ts(until, name="until"))
        page_where, page_args = list(where), list(args)
        if cursor is not None:
            after_started, after_id = decode_cursor(cursor)
            page_where.append("(started_at < ? OR (started_at = ? AND run_id < ?))")
            page_args += [after_started, after_started, after_id]

        def clause(parts: list[str]) -> str:
            return (" WHERE " + " AND ".join(parts)) if parts else ""

        with self._connect() as conn:
            if since is None and until is None:  # equality filters only: the kept counts answer
                kept = [(c, v) for c, v in (("task", task), ("verdict", verdict), ("status", status)) if v is not None]
                count = conn.execute(
                    f"SELECT ifnull(SUM(n), 0) FROM run_counts{clause([f'{c} = ?' for c, _ in kept])}",
                    [v for _, v in kept]).fetchone()[0]
            else:
                count = conn.execute(f"SELECT COUNT(*) FROM runs{clause(where)}", args).fetchone()[0]
            found = conn.execute(
                f"SELECT * FROM runs{clause(page_where)} ORDER BY started_at DESC, run_id DESC LIMIT ?",
                [*page_args, int(limit) + 1],
            ).fetchall()
        rows = [_to_row(r) for r in found[: int(limit)]]
        next_cursor = None
        if len(found) > int(limit):
            next_cursor = encode_cursor(rows[-1].started_at, rows[-1].run_id)
        return RunPage(data=rows, count=int(count), next_cursor=next_cursor)

    # --- health and rebuild ----------------------------------------------------------------
    def check(self) -> None:
        """Verify integrity and schema.

        Raises:
            StoreError: ``PRAGMA integrity_check`` fails, the schema version or columns differ,
                or the file is not a database.
        """
        with self._connect() as conn:
            result = conn.execute("PRAGMA integrity_check").fetchall()
            if [tuple(r) for r in result] != [("ok",)]:
                raise StoreError(f"run index {self.db_path} failed its integrity check; delete it to rebuild")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            columns = tuple(r["name"] for r in conn.execute("PRAGMA table_info(runs)").fetchall())
        if isinstance(version, int) and 0 < version < INDEX_SCHEMA_VERSION:
            raise OutdatedIndex(f"run index {self.db_path} has schema {version}, this version uses "
                                f"{INDEX_SCHEMA_VERSION}")
        if version != INDEX_SCHEMA_VERSION or columns != COLUMN_NAMES:
            raise StoreError(
                f"run index {self.db_path} has schema {version} {columns}, expected "
                f"{INDEX_SCHEMA_VERSION}; delete it to rebuild"
            )

    def rebuild(self, traces_dir: Path | str) -> int:
        """Replace the index with rows read from ``traces_dir/<run_id>/trace.json``; returns the row count.

        Folders whose name is not a run id are skipped; a missing or corrupt ``trace.json`` is
        rebuilt from ``events.jsonl`` and written back (best effort); folders with neither are
        skipped. The new database is written to a temporary file next to the index and renamed
        over it, so readers see the old or the new index, never a partial one.

        Raises:
            StoreError: the new index cannot be written.
        """
        with self._lock:
            self.close()
            return _rebuild_into(self.db_path, Path(traces_dir))

    def mark_interrupted(
        self, traces_dir: Path | str, *, live: set[str] | frozenset[str] = frozenset()
    ) -> builtins.list[str]:
        """Set runs whose status is ``running`` but whose writer is gone to ``interrupted``.

        ``live`` holds ids of runs still executing in this process; they are never touched. A run
        whose ``events.jsonl`` is still locked by a writer (another process) is skipped as well.
        Both the index row and ``trace.json`` are updated; ``ended_at`` becomes the time of the
        last recorded event. Returns the ids changed, oldest first.

        Raises:
            StoreError: the index or a ``trace.json`` cannot be written.
        """
        traces_dir = Path(traces_dir)
        page = self.list(status="running", limit=MAX_LIMIT)
        rows = list(page.data)
        while page.next_cursor is not None:
            page = self.list(status="running", limit=MAX_LIMIT, cursor=page.next_cursor)
            rows.extend(page.data)
        changed: list[str] = []
        for row in reversed(rows):
            run_dir = traces_dir / row.run_id
            if row.run_id in live or is_locked(run_dir / EVENTS_FILE):
                continue
            doc, _ = _load_quietly(run_dir, prefer_events=True)
            if doc is not None and doc.get("status") not in ("running", "interrupted"):
                self.upsert(RunRow.from_trace(doc, trace_dir=run_dir))  # trace is ahead of index
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
            self.upsert(new_row)
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
    _rebuild_into(db_path, Path(traces_dir))
    return RunIndex(db_path)


def _rebuild_into(db_path: Path, traces_dir: Path) -> int:
    """Build a fresh index of ``traces_dir`` in a temporary file and rename it over ``db_path``."""
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise store_error(db_path.parent, exc, "create") from exc
    tmp = db_path.with_name(f".{db_path.name}.rebuild-{os.getpid()}.tmp")
    _remove_db_files(tmp)
    count = 0
    try:
        fresh = RunIndex(tmp)
        with fresh._connect() as conn:
            for row in _scan_rows(traces_dir):
                conn.execute(_UPSERT, _row_values(row))
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
