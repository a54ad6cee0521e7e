"""The run index's SQLite schema: columns, tables, triggers, the upsert, and row (de)serialising."""

from __future__ import annotations

import sqlite3
from typing import Any

from autogen_pse.errors import StoreError
from autogen_pse.store.rows import RunRow

__all__ = ["COLUMN_NAMES", "INDEX_SCHEMA_VERSION", "SCHEMA", "UPSERT", "OutdatedIndex", "row_values", "to_row"]


class OutdatedIndex(StoreError):
    """The index was written by an earlier version: rebuilt from the trace files, no warning."""

# 2: run_counts (kept by triggers) and the (task, verdict, started_at) index;
# 3: provenance columns (product_version, task_sha, prompt_sha)
INDEX_SCHEMA_VERSION = 3
MAX_LIMIT = 1000

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
SCHEMA = [
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
UPSERT = (
    f"INSERT INTO runs ({', '.join(COLUMN_NAMES)}) VALUES ({', '.join('?' for _ in COLUMN_NAMES)}) "
    "ON CONFLICT(run_id) DO UPDATE SET "
    + ", ".join(f"{n} = excluded.{n}" for n in COLUMN_NAMES if n != "run_id")
)


def row_values(row: RunRow) -> tuple[Any, ...]:
    data = row.model_dump()
    data["verified"] = None if row.verified is None else int(row.verified)
    return tuple(data[name] for name in COLUMN_NAMES)


def to_row(values: sqlite3.Row) -> RunRow:
    data = dict(values)
    data["verified"] = None if data["verified"] is None else bool(data["verified"])
    return RunRow.model_validate(data)
