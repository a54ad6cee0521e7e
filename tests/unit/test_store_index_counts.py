"""A page's ``count`` comes from counts kept by triggers (no COUNT(*) over every match): it must
equal the COUNT(*) after any mix of inserts, upserts that change task/verdict/status, and deletes;
an index of an earlier schema is rebuilt (schema 3 = the counts of 2 plus the provenance columns)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from autogen_pse.store.ids import new_run_id
from autogen_pse.store.index import INDEX_SCHEMA_VERSION, RunIndex, open_or_rebuild
from autogen_pse.store.rows import RunRow

TASKS = ("demo", "portfolio-review", None)
VERDICTS = ("PASS", "PARTIAL", "FAIL", None)
STATUSES = ("running", "finished", "error", "cancelled", "interrupted")


def _true_count(db: Path, **filters: str) -> int:
    where = " AND ".join(f"{k} = ?" for k in filters) or "1"
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT COUNT(*) FROM runs WHERE {where}", list(filters.values())).fetchone()[0])


def test_kept_counts_match_count_star_after_random_changes(tmp_path: Path) -> None:
    rng = random.Random(7)
    index = RunIndex(tmp_path / "index.sqlite")
    ids: list[str] = []
    for step in range(400):
        if ids and rng.random() < 0.4:  # change an existing run (what every checkpoint does)
            run_id = rng.choice(ids)
        else:
            run_id = new_run_id()
            ids.append(run_id)
        index.upsert(RunRow(run_id=run_id, task=rng.choice(TASKS), verdict=rng.choice(VERDICTS),
                            status=rng.choice(STATUSES), started_at=f"2026-11-01T00:{step // 60:02d}:{step % 60:02d}.000Z"))
    with sqlite3.connect(index.db_path) as conn:  # deletes keep the counts too
        conn.executemany("DELETE FROM runs WHERE run_id = ?", [(i,) for i in ids[:25]])
    for task in ("demo", "portfolio-review", None):
        for verdict in ("PASS", "FAIL", None):
            for status in ("finished", None):
                filters = {k: v for k, v in (("task", task), ("verdict", verdict), ("status", status)) if v}
                page = index.list(limit=5, **filters)
                assert page.count == _true_count(index.db_path, **filters), filters
    # a time filter takes the COUNT(*) path and agrees as well
    since = index.list(since="2026-11-01T00:03:00Z", task="demo", limit=5)
    with sqlite3.connect(index.db_path) as conn:
        expected = conn.execute("SELECT COUNT(*) FROM runs WHERE task = 'demo' AND started_at >= "
                                "'2026-11-01T00:03:00.000Z'").fetchone()[0]
    assert since.count == expected


def test_an_index_of_the_previous_schema_is_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "traces" / "index.sqlite"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:  # schema 1: the runs table alone
        conn.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY)")
        conn.execute("PRAGMA user_version = 1")
    index = open_or_rebuild(db, db.parent)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == INDEX_SCHEMA_VERSION == 3
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'run_counts'").fetchone()
    assert index.list(limit=5).count == 0


_SCHEMA1_RUNS = ("CREATE TABLE runs (run_id TEXT PRIMARY KEY NOT NULL, task TEXT, model TEXT, status TEXT NOT NULL, "
                 "verdict TEXT, reason TEXT, cycles INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL "
                 "DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NULL, currency TEXT, "
                 "started_at TEXT NOT NULL, ended_at TEXT, trace_dir TEXT NOT NULL, verified INTEGER, error TEXT")


def _columns(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[1] for r in conn.execute("PRAGMA table_info(runs)").fetchall()]


def test_a_schema_2_index_with_counts_but_no_provenance_columns_is_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "traces" / "index.sqlite"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:  # schema 2 as issue 10 wrote it: run_counts, no provenance columns
        conn.execute(_SCHEMA1_RUNS + ")")
        conn.execute("CREATE TABLE run_counts (task TEXT NOT NULL, verdict TEXT NOT NULL, status TEXT NOT NULL, "
                     "n INTEGER NOT NULL, PRIMARY KEY (task, verdict, status)) WITHOUT ROWID")
        conn.execute("PRAGMA user_version = 2")
    index = open_or_rebuild(db, db.parent)
    index.check()
    assert {"product_version", "task_sha", "prompt_sha"} <= set(_columns(db))
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
    added = RunRow(run_id=new_run_id(), task="demo", status="finished", verdict="PASS",
                   started_at="2026-11-01T00:00:00.000Z", trace_dir="/t", product_version="0.1.0",
                   task_sha="ab" * 8, prompt_sha="cd" * 8)
    index.upsert(added)
    got = index.get(added.run_id)
    assert got is not None and (got.product_version, got.task_sha, got.prompt_sha) == ("0.1.0", "ab" * 8, "cd" * 8)
    assert index.list(task="demo", verdict="PASS", limit=5).count == 1 == _true_count(db, task="demo")


def test_a_schema_2_index_with_provenance_columns_but_no_counts_is_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "traces" / "index.sqlite"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:  # schema 2 as the provenance branch wrote it: no run_counts
        conn.execute(_SCHEMA1_RUNS + ", product_version TEXT, task_sha TEXT, prompt_sha TEXT)")
        conn.execute("PRAGMA user_version = 2")
    index = open_or_rebuild(db, db.parent)
    index.check()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'run_counts'").fetchone()
    for n in range(3):
        index.upsert(RunRow(run_id=new_run_id(), task="demo", status="finished", verdict="PASS" if n else "FAIL",
                            started_at=f"2026-11-01T00:0{n}:00.000Z", trace_dir=f"/t/{n}"))
    assert index.list(task="demo", verdict="PASS", limit=5).count == 2 == _true_count(db, verdict="PASS")
