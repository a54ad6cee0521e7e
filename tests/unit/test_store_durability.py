"""Durability at a lower cost: ``events.jsonl`` is the durable record (fsync'ed once per cycle, when
the next one starts, and at the run's end), ``trace.json`` is a cache of it (written once, at the run's end, atomic, never
fsync'ed) that a reader never gets when the log has newer events, and ``artifact.md`` is fsync'ed
before the run ends."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.store import TraceStore, new_run_id
from autogen_pse.store.files import EventLog
from tests.scripting import cycle, save, script


def _event(run_id: str, seq: int, kind: EventKind, **payload: object) -> RunEvent:
    return RunEvent(run_id=run_id, seq=seq, cycle=0, kind=kind, payload=payload)


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the files (or folders) fsync'ed, in order."""
    seen: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        seen.append(Path(os.readlink(f"/proc/self/fd/{fd}")).name)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return seen


def test_a_run_fsyncs_the_log_at_checkpoints_and_the_artifacts_never_trace_json(
        settings: Settings, tmp_path: Path, fsyncs: list[str]) -> None:
    path = save(script(cycle("PARTIAL", "INCOMPLETE", ["x"]), cycle("PASS")), tmp_path / "s.json")
    result = asyncio.run(run_task(RunRequest(task="demo", model=f"scripted:{path}"), settings))
    assert result.cycles == 2
    run_dir = Path(result.trace_dir)
    assert "trace.json" not in fsyncs
    # the log when cycle 2 starts (cycle 1 is durable), then the result and its folder (the raw text
    # is the specialist's message, durable in the log), then the log with the run's end (cycle 2 too)
    assert fsyncs == ["events.jsonl", "artifact.md", run_dir.name, "events.jsonl"], fsyncs
    # 15 per run at first (every trace.json rewrite: file and folder), 6 before one per cycle
    doc = TraceStore(settings).load_trace(result.run_id)
    assert doc["status"] == "finished" and doc["last_seq"] == json.loads(
        (run_dir / "events.jsonl").read_text().splitlines()[-1])["seq"]


def _finished_run(store: TraceStore) -> tuple[str, Path, str]:
    """A finished run; returns its id, folder and the trace.json text of the run as of its first event."""
    run_id = new_run_id()
    run_dir = store.create_run(run_id)
    sink = store.sink(run_id)
    sink.handle(_event(run_id, 1, EventKind.RUN_STARTED, task="demo", model="m", vars={}, limits={}))
    assert not (run_dir / "trace.json").exists()  # written at the run's end only
    first = json.dumps(sink.document())
    sink.handle(_event(run_id, 2, EventKind.WARNING, message="w"))
    sink.handle(_event(run_id, 3, EventKind.RUN_FINISHED, status="finished", verdict="PASS", reason="OK", usage={}))
    return run_id, run_dir, first


@pytest.mark.parametrize("damage", ["older checkpoint", "empty", "torn"])
def test_a_trace_json_left_behind_by_a_power_loss_is_never_served(settings: Settings, damage: str) -> None:
    store = TraceStore(settings)
    run_id, run_dir, first = _finished_run(store)
    text = {"older checkpoint": first, "empty": "", "torn": first[: len(first) // 2]}[damage]
    (run_dir / "trace.json").write_text(text)
    doc = store.load_trace(run_id)
    assert (doc["status"], doc["verdict"], doc["last_seq"]) == ("finished", "PASS", 3)
    assert doc["warnings"][0]["message"] == "w"


def test_the_log_is_synced_once_per_cycle_when_the_next_starts_and_at_the_end(
        tmp_path: Path, fsyncs: list[str]) -> None:
    log = EventLog(tmp_path / "events.jsonl")
    run_id = new_run_id()
    synced = []
    kinds = [EventKind.RUN_STARTED, EventKind.CYCLE_STARTED, EventKind.MESSAGE, EventKind.CYCLE_FINISHED,
             EventKind.CYCLE_STARTED, EventKind.MESSAGE, EventKind.CYCLE_FINISHED, EventKind.ARTIFACT,
             EventKind.RUN_FINISHED]
    for seq, kind in enumerate(kinds, 1):
        log.append(_event(run_id, seq, kind))
        synced.append(len(fsyncs))
    # no fsync for the first cycle's start; one as cycle 2 starts; one with the run's end
    assert synced == [0, 0, 0, 0, 1, 1, 1, 1, 2]
    assert fsyncs == ["events.jsonl", "events.jsonl"]


def test_last_seq_reads_only_the_tail(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "events.jsonl")
    assert log.last_seq() == 0  # no file
    run_id = new_run_id()
    big = "x" * 50_000  # a line longer than one read block
    for seq, text in ((1, "a"), (2, big), (3, big)):
        log.append(_event(run_id, seq, EventKind.WARNING, message=text))
    log.close()
    assert log.last_seq() == 3
    with open(log.path, "ab") as fh:
        fh.write(b'{"run_id": "cut-off')  # a writer killed mid-line: the line does not count
    assert log.last_seq() == 3
    only = tmp_path / "one.jsonl"
    only.write_bytes(b'{"seq": 7')  # no complete line at all
    assert EventLog(only).last_seq() == 0
    only.write_bytes(b"not json\n")
    assert EventLog(only).last_seq() is None  # the caller reads (and reports) the whole log
