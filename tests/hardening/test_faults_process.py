"""A run process killed with SIGKILL, interrupted runs recovered by the CLI and the dashboard, and a
lost or damaged run index rebuilt (automatically or by ``trace reindex``)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store import TraceBuilder, TraceStore
from autogen_pse.store.files import EventLog
from autogen_pse.store.ids import new_run_id
from autogen_pse.web import create_app
from tests.hardening.helpers import (
    SCRIPTED,
    base_env,
    cli,
    cli_proc,
    paced_script,
    read_events,
    run_dirs,
    start_cli,
    wait_for,
)
from tests.web.web_helpers import ServerThread, make_settings


def _kinds(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(e["cycle"], e["kind"]) for e in events]


@pytest.mark.timeout(120)
async def test_sigkill_mid_run_leaves_valid_files_and_is_marked_interrupted_by_cli_and_dashboard(
    tmp_path: Path,
) -> None:
    traces = tmp_path / "traces"
    script_path = paced_script(tmp_path / "paced.json", pauses=60, seconds=1.0)
    env = base_env(tmp_path, PSE_RETRY_MAX_DELAY="5", PSE_OPENAI_MAX_RETRIES="100")
    proc = start_cli(tmp_path, "run", "demo", "--model", f"scripted:{script_path}", "--quiet", env=env)
    try:
        run_dir = wait_for(lambda: (run_dirs(traces) or [None])[0], 60, "the run folder")

        def in_cycle_two() -> bool:
            if not (run_dir / "events.jsonl").is_file():
                return False
            kinds = _kinds(read_events(run_dir))
            return (1, "cycle_finished") in kinds and (2, "message") in kinds

        wait_for(in_cycle_two, 60, "cycle 1 finished and cycle 2's first message")
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    run_id = run_dir.name

    # what a reader sees right after the kill (before any recovery): every event written before it
    events = read_events(run_dir)
    doc = TraceStore(make_settings(tmp_path, traces_dir=traces)).load_trace(run_dir.name)
    assert doc["status"] == "running" and doc["last_seq"] == events[-1]["seq"]
    assert [c["index"] for c in doc["cycles"]] == [1, 2] and doc["cycles"][0]["verdict"]["outcome"] == "PARTIAL"
    # events.jsonl: every complete line is an event, seq 1..n without gaps
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["cycle"] == 2 and events[-1]["kind"] == "message"
    # what a kill in the middle of a write leaves: a cut-off line and a stray temporary file
    with (run_dir / "events.jsonl").open("ab") as fh:
        fh.write(b'{"run_id":"' + run_id.encode() + b'","seq":' + str(len(events) + 1).encode() + b',"cyc')
    (run_dir / ".trace.json.x1y2z3.tmp").write_text('{"half": ')
    assert len(EventLog(run_dir / "events.jsonl").read()) == len(events)
    web_traces = tmp_path / "traces-web"
    shutil.copytree(traces, web_traces)  # the same state, recovered by the dashboard below

    # the CLI: listing recovers, `trace show` shows it, events after the checkpoint are kept
    listed = cli_proc(tmp_path, "trace", "--json")
    assert listed.returncode == 0, listed.stderr
    [row] = json.loads(listed.stdout)["data"]
    assert (row["run_id"], row["status"]) == (run_id, "interrupted")
    shown = json.loads(cli_proc(tmp_path, "trace", "show", run_id, "--json").stdout)
    assert shown["status"] == "interrupted" and shown["ended_at"] == events[-1]["ts"]
    assert [c["index"] for c in shown["cycles"]] == [1, 2]
    assert "Cycle two plan." in shown["cycles"][1]["messages"][0]["content"]
    assert any("interrupted" in w["message"] for w in shown["warnings"])
    assert not list(run_dir.glob(".trace.json.*.tmp"))
    human = cli_proc(tmp_path, "trace")  # no verdict: the listing once failed on "[]—[/]" markup
    assert human.returncode == 0 and "interrupted" in human.stdout and "Traceback" not in human.stderr
    human = cli_proc(tmp_path, "trace", "show", run_id)
    assert human.returncode == 0 and f"{run_id} demo" in human.stdout and "interrupted" in human.stdout

    # the dashboard: startup recovery on its own copy of the same state
    settings = make_settings(tmp_path, traces_dir=web_traces)
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            got = (await c.get(f"/api/runs/{run_id}")).json()
            page = (await c.get("/api/runs", params={"status": "interrupted"})).json()
    assert got["status"] == "interrupted" and got["active"] is False and len(got["cycles"]) == 2
    assert [r["run_id"] for r in page["data"]] == [run_id]


def _started_run(store: TraceStore, *, close: bool) -> tuple[str, Any]:
    run_id = new_run_id()
    store.create_run(run_id)
    sink = store.sink(run_id)
    sink.handle(RunEvent(run_id=run_id, seq=1, kind=EventKind.RUN_STARTED, payload={"task": "demo", "model": "x"}))
    sink.handle(RunEvent(run_id=run_id, seq=2, cycle=1, kind=EventKind.CYCLE_STARTED,
                         payload={"index": 1, "kind": "initial", "task_text": "t"}))
    if close:
        sink.close()  # the writer is gone without run_finished: what a dead process leaves
    return run_id, sink


@pytest.mark.timeout(120)
def test_cli_run_start_and_trace_recover_dead_runs_but_never_a_live_one(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    store = TraceStore(settings)
    dead, _ = _started_run(store, close=True)
    live, live_sink = _started_run(store, close=False)  # this process holds its events.jsonl lock
    try:
        proc = cli_proc(tmp_path, "run", "demo", "--model", f"scripted:{SCRIPTED / 'web_demo_blocked.json'}",
                        "--json")
        assert proc.returncode == 1, proc.stderr
        assert store.get(dead).status == "interrupted"  # `run` recovered it before starting
        assert store.get(live).status == "running"
        shown = json.loads(cli_proc(tmp_path, "trace", "show", live, "--json").stdout)
        assert shown["status"] == "running"
    finally:
        live_sink.close()  # now its writer is gone too
    rows = {r["run_id"]: r["status"] for r in json.loads(cli_proc(tmp_path, "trace", "--json").stdout)["data"]}
    assert rows[dead] == rows[live] == "interrupted"
    assert list(rows.values()).count("finished") == 1


def _finished_run(store: TraceStore, task: str = "demo") -> str:
    run_id = new_run_id()
    store.create_run(run_id)
    sink = store.sink(run_id)
    for seq, kind, cycle, payload in [
        (1, EventKind.RUN_STARTED, 0, {"task": task, "model": "scripted:x.json"}),
        (2, EventKind.CYCLE_STARTED, 1, {"index": 1, "kind": "initial", "task_text": "t"}),
        (3, EventKind.MESSAGE, 1, {"source": "planner", "type": "TextMessage", "content": f"plan {run_id}",
                                   "usage": {"prompt_tokens": 3, "completion_tokens": 2, "cost": 0.0}}),
        (4, EventKind.CYCLE_FINISHED, 1, {"index": 1, "verdict": {"outcome": "PASS", "reason": "OK", "issues": [],
                                                                  "summary": ""}}),
        (5, EventKind.RUN_FINISHED, 0, {"status": "finished", "verdict": "PASS", "reason": "OK", "cycles": 1}),
    ]:
        sink.handle(RunEvent(run_id=run_id, seq=seq, cycle=cycle, kind=kind, payload=payload))
    return run_id


def _damage_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for offset in range(100, len(data), 97):  # keep the header: SQLite opens it, then finds garbage
        data[offset] = 0xA5
    path.write_bytes(bytes(data))


def _other_schema(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY, status TEXT)")
        conn.execute("PRAGMA user_version = 7")
    conn.close()


DAMAGE = {
    "deleted": lambda p: p.unlink(),
    "garbage": lambda p: p.write_bytes(b"\x00not a database\xff" * 500),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[:1000]),
    "damaged pages": _damage_pages,
    "empty file": lambda p: p.write_bytes(b""),
    "other schema": _other_schema,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_lost_or_damaged_index_is_rebuilt_automatically(tmp_path: Path, damage: str) -> None:
    settings = make_settings(tmp_path)
    store = TraceStore(settings)
    ids = [_finished_run(store) for _ in range(3)]
    store.index.close()
    for suffix in ("-wal", "-shm"):
        (settings.index_path.parent / (settings.index_path.name + suffix)).unlink(missing_ok=True)
    DAMAGE[damage](settings.index_path)
    listed = cli("trace", "--json", "-n", "10")
    assert listed.code == 0, listed.err
    assert sorted(r["run_id"] for r in json.loads(listed.out)["data"]) == ids
    assert "Traceback" not in listed.err
    shown = cli("trace", "show", ids[0], "--json")
    assert json.loads(shown.out)["cycles"][0]["messages"][0]["content"] == f"plan {ids[0]}"


def test_reindex_rebuilds_index_and_trace_files_from_events(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    store = TraceStore(settings)
    ids = [_finished_run(store) for _ in range(2)]
    dead, _ = _started_run(store, close=True)
    store.index.close()
    settings.index_path.unlink()
    (settings.traces_dir / ids[0] / "trace.json").unlink()  # only events.jsonl is left of this run
    (settings.traces_dir / ids[1] / "trace.json").write_text('{"schema_version": 1, "run_id": ')  # torn
    (settings.traces_dir / "not-a-run").mkdir()  # ignored
    (settings.traces_dir / "01ARZ3NDEKTSV4RRFFQ69G5FAV").mkdir()  # a run id without files: skipped
    result = cli("trace", "reindex")
    assert result.code == 0 and result.out.strip() == "reindexed 3 runs (1 marked interrupted)", result.out
    for run_id in ids:
        doc = json.loads((settings.traces_dir / run_id / "trace.json").read_text())
        assert doc["status"] == "finished" and doc["cycles"][0]["messages"][0]["content"] == f"plan {run_id}"
    rows = {r["run_id"]: r["status"] for r in json.loads(cli("trace", "--json").out)["data"]}
    assert rows == {ids[0]: "finished", ids[1]: "finished", dead: "interrupted"}


def test_index_path_taken_by_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    _finished_run(TraceStore(settings))
    for name in ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm"):
        (settings.traces_dir / name).unlink(missing_ok=True)
    (settings.traces_dir / "index.sqlite").mkdir()
    result = cli("trace", "--json")
    assert result.code == 3
    assert len(result.err_lines) == 1 and result.err_lines[0].startswith("error:")
    assert str(settings.traces_dir / "index.sqlite") in result.err


def test_retrieval_partitions_of_older_event_logs_fold_to_the_documented_string() -> None:
    """Grounding once wrote ``partition`` as a list; the dashboard's Trace schema (a string) then
    answered 500 for every grounded run. Old logs still fold to the documented shape."""
    run_id = new_run_id()
    events = [RunEvent(run_id=run_id, seq=1, kind=EventKind.RUN_STARTED, payload={"task": "t", "model": "m"}),
              *[RunEvent(run_id=run_id, seq=n, kind=EventKind.RETRIEVAL,
                         payload={"role": "planner", "query": "q", "partition": part, "chunks": []})
                for n, part in [(2, ["market"]), (3, ["market", "source"]), (4, None), (5, "source"), (6, [])]]]
    doc = TraceBuilder.from_events(events).document()
    assert [r["partition"] for r in doc["retrievals"]] == ["market", "market,source", None, "source", None]
