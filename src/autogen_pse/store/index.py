"""RunIndex: the SQLite index of runs (``traces/index.sqlite``), one row per run.

The index is derived data: every row can be rebuilt from the trace folders with
:meth:`RunIndex.rebuild`, and :func:`open_or_rebuild` does so by itself when the file is missing,
corrupt or of another schema (:mod:`autogen_pse.store.recovery`; the schema is in
:mod:`autogen_pse.store.index_schema`). Each operation opens its own short-lived connection (WAL mode,
busy timeout), so one index object may be shared by threads and processes.
"""

from __future__ import annotations

import builtins
import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from autogen_pse.errors import StoreError, UserError
from autogen_pse.store.files import store_error
from autogen_pse.store.ids import validate_run_id
from autogen_pse.store.index_schema import (
    COLUMN_NAMES,
    INDEX_SCHEMA_VERSION,
    MAX_LIMIT,
    SCHEMA,
    UPSERT,
    OutdatedIndex,
    row_values,
    to_row,
)
from autogen_pse.store.recovery import mark_interrupted, open_or_rebuild, rebuild_into
from autogen_pse.store.rows import RunPage, RunRow, decode_cursor, encode_cursor, normalize_ts

__all__ = ["INDEX_SCHEMA_VERSION", "RunIndex", "open_or_rebuild"]

_BUSY_TIMEOUT_S = 10.0


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
                conn.executescript(";\n".join(SCHEMA) + ";")
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
            conn.execute(UPSERT, row_values(row))

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
        return to_row(found) if found is not None else None

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
        rows = [to_row(r) for r in found[: int(limit)]]
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
            return rebuild_into(self.db_path, Path(traces_dir))

    def mark_interrupted(
        self, traces_dir: Path | str, *, live: set[str] | frozenset[str] = frozenset()
    ) -> builtins.list[str]:
        """:func:`autogen_pse.store.recovery.mark_interrupted` on this index."""
        return mark_interrupted(self, traces_dir, live=live)
