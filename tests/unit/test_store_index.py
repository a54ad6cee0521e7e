"""RunIndex on a real SQLite file: filters, keyset pagination, rebuild, interrupted runs."""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path

import pytest

from autogen_pse.errors import StoreError, UserError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store.files import EventLog, atomic_write_json
from autogen_pse.store.ids import new_run_id
from autogen_pse.store.index import RunIndex, open_or_rebuild
from autogen_pse.store.rows import RunRow
from autogen_pse.store.trace import TraceBuilder


def row(n: int, **over: object) -> RunRow:
    data: dict[str, object] = {
        "run_id": new_run_id(),
        "task": "alpha" if n % 2 else "beta",
        "model": "scripted:x",
        "status": "finished",
        "verdict": "PASS" if n % 3 else "FAIL",
        "started_at": f"2025-02-{1 + n // 24:02d}T{n % 24:02d}:00:00.000Z",
        "trace_dir": f"/t/{n}",
        "cost": None if n % 5 == 0 else 0.5,
        "verified": [None, True, False][n % 3],
    }
    data.update(over)
    return RunRow.model_validate(data)


@pytest.fixture
def index(tmp_path: Path) -> RunIndex:
    return RunIndex(tmp_path / "index.sqlite")


def test_upsert_get_roundtrip_and_replace(index: RunIndex) -> None:
    r = row(1, cost=None, verified=None, error="boom")
    index.upsert(r)
    assert index.get(r.run_id) == r
    index.upsert(r.model_copy(update={"status": "error", "cost": 1.25, "verified": True}))
    got = index.get(r.run_id)
    assert got is not None and (got.status, got.cost, got.verified) == ("error", 1.25, True)
    assert index.list().count == 1
    assert index.get(new_run_id()) is None
    with pytest.raises(UserError, match="invalid run id"):
        index.get("../x")


def test_wal_mode_and_indexes(index: RunIndex) -> None:
    conn = sqlite3.connect(index.db_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    finally:
        conn.close()
    assert {"runs_started", "runs_task_started", "runs_verdict_started", "runs_status"} <= names


def test_each_filter(index: RunIndex) -> None:
    rows = [row(n) for n in range(30)]
    rows.append(row(30, status="running", verdict=None))
    for r in rows:
        index.upsert(r)

    def ids(page_rows: list[RunRow]) -> set[str]:
        return {r.run_id for r in page_rows}

    page = index.list(task="alpha", limit=1000)
    assert ids(page.data) == ids([r for r in rows if r.task == "alpha"]) and page.count == len(page.data)
    page = index.list(verdict="FAIL", limit=1000)
    assert ids(page.data) == ids([r for r in rows if r.verdict == "FAIL"])
    page = index.list(status="running")
    assert ids(page.data) == {rows[-1].run_id} and page.count == 1
    page = index.list(since="2025-02-01T10:00:00Z", until="2025-02-01T20:00:00Z", limit=1000)
    assert sorted(r.started_at for r in page.data) == [
        f"2025-02-01T{h:02d}:00:00.000Z" for h in range(10, 20)
    ]
    page = index.list(task="alpha", verdict="PASS", since="2025-02-02", limit=1000)
    expected = [r for r in rows if r.task == "alpha" and r.verdict == "PASS" and r.started_at >= "2025-02-02"]
    assert ids(page.data) == ids(expected) and page.count == len(expected) > 0
    assert index.list(task="nope").count == 0
    with pytest.raises(UserError, match="invalid since"):
        index.list(since="yesterday")
    with pytest.raises(UserError, match="invalid limit"):
        index.list(limit=0)


def test_pagination_120_rows_no_dupes_no_gaps(index: RunIndex) -> None:
    rows = []
    for n in range(120):
        # groups of three share a started_at: ties must be broken by run_id, not lost or repeated
        rows.append(row(0, started_at=f"2025-03-01T00:{n // 3:02d}:00.000Z"))
    for r in rows:
        index.upsert(r)
    seen: list[RunRow] = []
    cursor = None
    sizes = []
    while True:
        page = index.list(limit=50, cursor=cursor)
        assert page.count == 120
        sizes.append(len(page.data))
        seen.extend(page.data)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert sizes == [50, 50, 20]
    assert len({r.run_id for r in seen}) == 120
    assert [(r.started_at, r.run_id) for r in seen] == sorted(
        ((r.started_at, r.run_id) for r in rows), reverse=True
    )


def test_pages_stay_stable_when_newer_runs_arrive(index: RunIndex) -> None:
    rows = [row(n) for n in range(10)]
    for r in rows:
        index.upsert(r)
    first = index.list(limit=4)
    index.upsert(row(0, started_at="2030-01-01T00:00:00.000Z"))  # newer than everything
    second = index.list(limit=4, cursor=first.next_cursor)
    assert {r.run_id for r in first.data}.isdisjoint({r.run_id for r in second.data})
    assert second.data[0].started_at < first.data[-1].started_at
    assert second.count == 11


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage!!",
        base64.urlsafe_b64encode(b'{"a": 1}').decode(),
        base64.urlsafe_b64encode(json.dumps(["2025", "../etc"]).encode()).decode(),
        "",
    ],
)
def test_invalid_cursor(index: RunIndex, cursor: str) -> None:
    with pytest.raises(UserError, match="invalid cursor"):
        index.list(cursor=cursor)


# --- rebuild -----------------------------------------------------------------------------------


def make_trace(
    traces: Path, *, status: str = "finished", task: str = "alpha", write_trace: bool = True
) -> str:
    run_id = new_run_id()
    run_dir = traces / run_id
    (run_dir / "workspace").mkdir(parents=True)
    events = [
        RunEvent(run_id=run_id, seq=1, kind=EventKind.RUN_STARTED, payload={"task": task, "model": "m"}),
        RunEvent(run_id=run_id, seq=2, cycle=1, kind=EventKind.CYCLE_STARTED, payload={"index": 1}),
        RunEvent(
            run_id=run_id,
            seq=3,
            cycle=1,
            kind=EventKind.MESSAGE,
            payload={
                "source": "planner",
                "content": "x",
                "usage": {"prompt_tokens": 7, "completion_tokens": 2},
            },
        ),
        RunEvent(run_id=run_id, seq=4, cycle=1, kind=EventKind.CYCLE_FINISHED, payload={"index": 1}),
    ]
    if status != "running":
        events.append(RunEvent(run_id=run_id, seq=5, kind=EventKind.RUN_FINISHED, payload={"status": status}))
    with EventLog(run_dir / "events.jsonl") as log:
        for e in events:
            log.append(e)
    if write_trace:
        atomic_write_json(run_dir / "trace.json", TraceBuilder.from_events(events).document())
    return run_id


def test_corrupt_db_is_rebuilt_from_traces(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    good = make_trace(traces)
    running = make_trace(traces, status="running")
    only_events = make_trace(traces, status="error", write_trace=False)
    broken_trace = make_trace(traces)
    (traces / broken_trace / "trace.json").write_text('{"schema_version": 1, "run_id": "')
    (traces / "not-a-run").mkdir()
    (traces / new_run_id()).mkdir()  # empty folder: skipped
    (traces / "01JABCDEFGHJKMNPQRSTVWXYZ0").write_text("a file, not a folder")
    db = traces / "index.sqlite"
    db.write_bytes(b"this is not a database" * 100)

    index = open_or_rebuild(db, traces)
    page = index.list()
    assert {r.run_id for r in page.data} == {good, running, only_events, broken_trace}
    assert index.get(running).status == "running"  # type: ignore[union-attr]
    r = index.get(only_events)
    assert r is not None and r.status == "error" and r.prompt_tokens == 7 and r.cycles == 1
    assert r.trace_dir == str(traces / only_events)
    # The missing / corrupt trace.json files were repaired from events.jsonl.
    for run_id in (only_events, broken_trace):
        doc = json.loads((traces / run_id / "trace.json").read_text())
        assert doc["run_id"] == run_id and doc["last_seq"] == 5
    index.check()
    assert not [p for p in traces.iterdir() if p.name.endswith(".tmp")]


def test_missing_db_and_schema_mismatch_rebuild(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    run_id = make_trace(traces)
    db = traces / "index.sqlite"
    assert open_or_rebuild(db, traces).get(run_id) is not None  # missing → built
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE runs")
    conn.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY, other TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="schema"):
        RunIndex(db).check()
    index = open_or_rebuild(db, traces)
    index.check()
    assert index.get(run_id) is not None


def test_an_index_of_schema_1_is_rebuilt_with_the_provenance_columns(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    run_id = make_trace(traces)
    db = traces / "index.sqlite"
    conn = sqlite3.connect(db)  # the schema-1 table: no product_version, task_sha, prompt_sha
    conn.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY NOT NULL, task TEXT, model TEXT, status TEXT NOT NULL, "
                 "verdict TEXT, reason TEXT, cycles INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL "
                 "DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NULL, currency TEXT, "
                 "started_at TEXT NOT NULL, ended_at TEXT, trace_dir TEXT NOT NULL, verified INTEGER, error TEXT)")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    index = open_or_rebuild(db, traces)
    index.check()
    found = index.get(run_id)
    assert found is not None and found.product_version is None and found.task_sha is None  # an old trace
    index.upsert(found.model_copy(update={"product_version": "0.1.0", "task_sha": "ab" * 8, "prompt_sha": "cd" * 8}))
    again = index.get(run_id)
    assert again is not None and (again.product_version, again.task_sha, again.prompt_sha) == (
        "0.1.0", "ab" * 8, "cd" * 8)


def test_rebuild_drops_rows_without_trace_and_returns_count(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    ids = [make_trace(traces) for _ in range(3)]
    index = RunIndex(traces / "index.sqlite")
    index.upsert(row(1))  # no folder behind it
    assert index.rebuild(traces) == 3
    assert {r.run_id for r in index.list().data} == set(ids)
    assert RunIndex(traces / "index.sqlite").rebuild(tmp_path / "nowhere") == 0


def test_mark_interrupted(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    dead = make_trace(traces, status="running")
    live = make_trace(traces, status="running")
    locked = make_trace(traces, status="running")
    done = make_trace(traces, status="finished")
    index = open_or_rebuild(traces / "index.sqlite", traces)
    (traces / dead / ".trace.json.k1ll3d.tmp").write_text('{"half": ')  # a rewrite cut by the kill
    writer = EventLog(traces / locked / "events.jsonl")
    writer.append(RunEvent(run_id=locked, seq=5, cycle=2, kind=EventKind.CYCLE_STARTED, payload={"index": 2}))
    try:
        assert index.mark_interrupted(traces, live={live}) == [dead]
    finally:
        writer.close()
    got = index.get(dead)
    assert got is not None and got.status == "interrupted" and got.ended_at
    doc = json.loads((traces / dead / "trace.json").read_text())
    assert doc["status"] == "interrupted" and doc["ended_at"]
    assert not (traces / dead / ".trace.json.k1ll3d.tmp").exists()
    assert "interrupted" in doc["warnings"][-1]["message"]
    assert index.get(live).status == "running"  # type: ignore[union-attr]
    assert index.get(done).status == "finished"  # type: ignore[union-attr]
    # Once the writer is gone, the previously locked run is recovered too; a second call is a no-op.
    assert index.mark_interrupted(traces, live={live}) == [locked]
    assert index.mark_interrupted(traces, live={live}) == []
