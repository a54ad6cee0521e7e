"""TraceStore and RunSink end to end on a tmp traces folder, including a SIGKILLed writer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import namedtuple
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import StoreError, UserError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store import TraceStore, new_run_id
from autogen_pse.store import sink as sink_module


@pytest.fixture
def store(tmp_path: Path) -> TraceStore:
    return TraceStore(Settings(traces_dir=tmp_path / "traces"))


class Emitter:
    def __init__(self, store: TraceStore, run_id: str) -> None:
        self.run_id, self.seq = run_id, 0
        self.sink = store.sink(run_id)

    def __call__(self, kind: EventKind, cycle: int = 0, /, **payload: object) -> None:
        self.seq += 1
        self.sink.handle(RunEvent(run_id=self.run_id, seq=self.seq, cycle=cycle, kind=kind, payload=payload))


def test_create_run_makes_folders_on_demand(store: TraceStore) -> None:
    assert not store.traces_dir.exists()
    run_id = new_run_id()
    run_dir = store.create_run(run_id)
    assert run_dir == store.traces_dir / run_id and (run_dir / "workspace").is_dir()
    assert sorted(p.name for p in run_dir.iterdir()) == ["workspace"]  # probe file removed
    with pytest.raises(UserError, match="already exists"):
        store.create_run(run_id)
    with pytest.raises(UserError, match="invalid run id"):
        store.create_run("../escape")
    assert not (store.traces_dir.parent / "escape").exists()


def test_create_run_refuses_unwritable_traces_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    store = TraceStore(Settings(traces_dir=blocker / "traces"))
    with pytest.raises(StoreError, match=r"cannot create .*PSE_TRACES_DIR"):
        store.create_run(new_run_id())


def test_create_run_refuses_full_disk(store: TraceStore, monkeypatch: pytest.MonkeyPatch) -> None:
    import autogen_pse.store as store_pkg

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(store_pkg.shutil, "disk_usage", lambda p: usage(10, 10, 100))
    run_id = new_run_id()
    with pytest.raises(StoreError, match="free disk space"):
        store.create_run(run_id)
    assert not (store.traces_dir / run_id).exists()


def test_sink_writes_trace_events_and_index(store: TraceStore) -> None:
    run_id = new_run_id()
    run_dir = store.create_run(run_id)
    emit = Emitter(store, run_id)
    emit(EventKind.RUN_STARTED, task="report", model="m", vars={}, limits={})
    assert store.load_trace(run_id)["status"] == "running" and store.load_trace(run_id)["last_seq"] == 1
    assert store.index.get(run_id).status == "running"  # type: ignore[union-attr]
    emit(EventKind.CYCLE_STARTED, 1, index=1, kind="initial", task_text="t")
    emit(EventKind.MESSAGE, 1, source="planner", type="TextMessage", content="p", usage={"prompt_tokens": 3})
    # A running run has no trace.json: events.jsonl has every event, and readers fold it.
    assert not (run_dir / "trace.json").exists()
    assert [e.seq for e in store.read_events(run_id)] == [1, 2, 3]
    assert store.load_trace(run_id)["last_seq"] == 3
    live_doc = store.load_trace(run_id, fresh=True)
    assert live_doc["last_seq"] == 3 and live_doc["cycles"][0]["messages"][0]["content"] == "p"
    emit(EventKind.CYCLE_FINISHED, 1, index=1, verdict={"outcome": "PASS"}, usage={})
    assert not (run_dir / "trace.json").exists() and store.load_trace(run_id)["last_seq"] == 4
    assert store.index.get(run_id).cycles == 1  # type: ignore[union-attr]
    emit(EventKind.ARTIFACT, path=str(store.artifact_path(run_id)), raw_path=None, verified=True, issues=[])
    emit(EventKind.RUN_FINISHED, status="finished", verdict="PASS", reason="ok", usage={"currency": "USD"})
    # at the end the document is written once (a reader of a finished run takes it, no log fold)
    assert json.loads((run_dir / "trace.json").read_text())["last_seq"] == 6
    doc = store.load_trace(run_id)
    assert (doc["status"], doc["verdict"], doc["usage"]["prompt_tokens"]) == ("finished", "PASS", 3)
    row = store.get(run_id)
    assert (row.status, row.verdict, row.verified, row.prompt_tokens) == ("finished", "PASS", True, 3)
    assert row.trace_dir == str(run_dir)
    assert [e.seq for e in store.read_events(run_id, after_seq=4)] == [5, 6]
    assert store.artifact_path(run_id) == run_dir / "artifact.md"
    assert store.artifact_path(run_id, raw=True) == run_dir / "artifact.raw.md"
    with pytest.raises(StoreError, match="closed"):
        emit(EventKind.WARNING, message="late")
    assert store.list_runs(task="report").count == 1


def test_sink_rejects_events_of_another_run(store: TraceStore) -> None:
    run_id = new_run_id()
    store.create_run(run_id)
    with store.sink(run_id) as sink, pytest.raises(ValueError, match="sent to the sink"):
        sink.handle(RunEvent(run_id=new_run_id(), seq=1, kind=EventKind.RUN_STARTED))


def test_index_failure_does_not_stop_the_run(store: TraceStore, monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = new_run_id()
    store.create_run(run_id)
    emit = Emitter(store, run_id)

    def broken(row: object) -> None:
        raise StoreError("cannot use the run index: disk I/O error")

    monkeypatch.setattr(store.index, "upsert", broken)
    emit(EventKind.RUN_STARTED, task="t", model="m")
    assert emit.sink.index_error is not None and "disk I/O" in emit.sink.index_error
    assert store.load_trace(run_id)["status"] == "running"
    monkeypatch.undo()
    emit(EventKind.RUN_FINISHED, status="finished", verdict="PASS")
    assert emit.sink.index_error is None and store.get(run_id).status == "finished"
    assert {EventKind.RUN_STARTED, EventKind.RUN_FINISHED} <= sink_module.CHECKPOINT_KINDS


def test_unknown_and_invalid_run_ids(store: TraceStore) -> None:
    unknown = new_run_id()
    for call in (store.load_trace, store.read_events, store.artifact_path, store.sink, store.get):
        with pytest.raises(UserError, match=f"no run {unknown}; see `pse trace`"):
            call(unknown)
        with pytest.raises(UserError, match="invalid run id"):
            call("01jabcdefghjkmnpqrstvwxyz0")


def test_load_trace_falls_back_to_events(store: TraceStore) -> None:
    run_id = new_run_id()
    run_dir = store.create_run(run_id)
    emit = Emitter(store, run_id)
    emit(EventKind.RUN_STARTED, task="t", model="m")
    emit(EventKind.WARNING, message="w")
    (run_dir / "trace.json").write_text("{ truncated")
    doc = store.load_trace(run_id)
    assert doc["last_seq"] == 2 and doc["warnings"][0]["message"] == "w"
    (run_dir / "trace.json").unlink()
    (run_dir / "events.jsonl").unlink()
    with pytest.raises(StoreError, match="no readable trace"):
        store.load_trace(run_id)


def test_reindex_and_recover_interrupted(store: TraceStore) -> None:
    finished, crashed = new_run_id(), new_run_id()
    for run_id in (finished, crashed):
        store.create_run(run_id)
        emit = Emitter(store, run_id)
        emit(EventKind.RUN_STARTED, task="t", model="m")
        if run_id == finished:
            emit(EventKind.RUN_FINISHED, status="finished", verdict="PASS")
        else:
            emit.sink.close()  # the process "died": the writer lock is gone
    store.index_path.unlink()
    assert store.reindex() == 2
    assert store.recover_interrupted(set()) == [crashed]
    assert store.load_trace(crashed)["status"] == "interrupted"
    assert store.get(crashed).status == "interrupted"
    assert store.get(finished).status == "finished"


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from autogen_pse.config import Settings
    from autogen_pse.events import EventKind, RunEvent
    from autogen_pse.store import TraceStore

    store = TraceStore(Settings(traces_dir=Path(sys.argv[1])))
    run_id = sys.argv[2]
    store.create_run(run_id)
    sink = store.sink(run_id)
    seq = 0

    def emit(event_kind, cycle=0, /, **payload):
        global seq
        seq += 1
        sink.handle(RunEvent(run_id=run_id, seq=seq, cycle=cycle, kind=event_kind, payload=payload))

    emit(EventKind.RUN_STARTED, task="t", model="m", vars={}, limits={})
    cycle = 0
    while True:
        cycle += 1
        emit(EventKind.CYCLE_STARTED, cycle, index=cycle, kind="initial", task_text="x")
        for i in range(25):
            emit(EventKind.MESSAGE, cycle, source="specialist", type="TextMessage", content="y" * 4000,
                 usage={"prompt_tokens": 10, "completion_tokens": 1, "cost": 0.001})
        emit(EventKind.CYCLE_FINISHED, cycle, index=cycle, verdict={"outcome": "PARTIAL"}, usage={})
        if cycle == 2:
            print("READY", flush=True)
    """
)


@pytest.mark.parametrize("delay", [0.0, 0.03, 0.15])
def test_sigkill_mid_run_leaves_readable_trace(tmp_path: Path, delay: float) -> None:
    traces = tmp_path / "traces"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    run_id = new_run_id()
    child = subprocess.Popen(
        [sys.executable, str(script), str(traces), run_id], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "READY"
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    run_dir = traces / run_id
    store = TraceStore(Settings(traces_dir=traces))
    events = store.read_events(run_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    # What a reader (`trace show`, the dashboard, resume) gets right after the kill: every event
    # written before it, whatever file was being written at that moment.
    doc = store.load_trace(run_id)
    assert doc["run_id"] == run_id and doc["status"] == "running" and doc["last_seq"] == len(events)
    assert len([c for c in doc["cycles"] if c["ended_at"]]) >= 2
    # the index saw the run and its finished cycles (upserted at run start and at each cycle end)
    row = store.get(run_id)
    assert row.status == "running" and row.cycles >= 2
    # trace.json, if any, is never half written (it is written at the run's end only)
    if (run_dir / "trace.json").exists():
        json.loads((run_dir / "trace.json").read_text())
    # The dead run is recovered as interrupted; its writer lock died with the process. A temp
    # file of a rewrite the kill interrupted (if any) is removed.
    assert store.recover_interrupted(set()) == [run_id]
    assert not [p for p in run_dir.iterdir() if p.name.endswith(".tmp")]
    recovered = store.load_trace(run_id)
    assert recovered["status"] == "interrupted"
    # Recovery folds in the events written after the last checkpoint, too.
    assert recovered["last_seq"] == len(events) >= doc["last_seq"]
    assert recovered["usage"]["model_calls"] == sum(e.kind == EventKind.MESSAGE for e in events)
    assert recovered["ended_at"] == events[-1].ts
    assert store.get(run_id).status == "interrupted"


def test_stores_of_one_process_share_a_checked_index_until_its_file_changes(tmp_path: Path) -> None:
    """One store per run (CLI, executor) reuses the index connection opened by the first; a deleted
    or replaced index file is opened (and rebuilt from the trace folders) again."""
    settings = Settings(traces_dir=tmp_path / "traces")
    first = TraceStore(settings)
    run_id = new_run_id()
    first.create_run(run_id)
    with first.sink(run_id) as sink:
        sink.handle(RunEvent(run_id=run_id, seq=1, kind=EventKind.RUN_STARTED, payload={"task": "t", "model": "m"}))
    assert TraceStore(settings).index is first.index
    first.index.close()
    settings.index_path.unlink()
    again = TraceStore(settings)
    assert again.index is not first.index and again.get(run_id).status == "running"  # rebuilt from the folder
    settings.index_path.write_bytes(b"not a database")  # replaced in place: another size and time
    assert TraceStore(settings).get(run_id).status == "running"
