"""Atomic writes and the append-only event log."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from autogen_pse.errors import StoreError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store import files
from autogen_pse.store.files import EventLog, atomic_write_json, atomic_write_text, is_locked

RUN = "01JABCDEFGHJKMNPQRSTVWXYZ0"


def event(seq: int, kind: EventKind = EventKind.MESSAGE, **payload: object) -> RunEvent:
    return RunEvent(run_id=RUN, seq=seq, cycle=1, kind=kind, payload=payload or {"content": f"m{seq}"})


def test_atomic_write_replaces_content(tmp_path: Path) -> None:
    target = tmp_path / "trace.json"
    atomic_write_json(target, {"a": 1})
    atomic_write_json(target, {"a": 2, "text": "ü"})
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": 2, "text": "ü"}
    assert [p.name for p in tmp_path.iterdir()] == ["trace.json"]


def test_atomic_write_keeps_old_content_when_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "trace.json"
    atomic_write_text(target, "old")

    def refuse(src: str, dst: str) -> None:
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(files.os, "replace", refuse)
    with pytest.raises(StoreError, match=str(target)):
        atomic_write_text(target, "new" * 1000)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["trace.json"]  # no temp file left


def test_atomic_write_full_disk_is_a_store_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "trace.json"
    atomic_write_text(target, "old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(StoreError) as info:
        atomic_write_text(target, "new")
    message = str(info.value)
    assert "no space left" in message and "PSE_TRACES_DIR" in message and "\n" not in message
    assert target.read_text() == "old"


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_permission_denied_is_a_store_error(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(StoreError, match=r"permission denied.*writable"):
            atomic_write_text(folder / "trace.json", "x")
        with pytest.raises(StoreError, match="permission denied"):
            EventLog(folder / "events.jsonl").append(event(1))
    finally:
        folder.chmod(0o700)


def test_event_log_roundtrip_and_after_seq(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "events.jsonl")
    for seq in range(1, 6):
        log.append(event(seq))
    log.close()
    assert [e.seq for e in log.read()] == [1, 2, 3, 4, 5]
    assert [e.seq for e in log.read(after_seq=3)] == [4, 5]
    assert log.read()[0] == event(1).model_copy(update={"ts": log.read()[0].ts})
    assert EventLog(tmp_path / "missing.jsonl").read() == []


def test_event_log_ignores_truncated_last_line_and_repairs_on_append(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    log = EventLog(path)
    log.append(event(1))
    log.append(event(2))
    log.close()
    whole = event(3).model_dump_json()
    with path.open("ab") as fh:  # what a SIGKILL mid-write leaves: a line without its newline
        fh.write(whole[: len(whole) // 2].encode())
    assert [e.seq for e in EventLog(path).read()] == [1, 2]
    log2 = EventLog(path)
    log2.append(event(3))
    log2.close()
    assert [e.seq for e in EventLog(path).read()] == [1, 2, 3]
    assert path.read_bytes().count(b"\n") == 3


def test_event_log_line_without_newline_is_incomplete(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text(event(1).model_dump_json() + "\n" + event(2).model_dump_json())
    assert [e.seq for e in EventLog(path).read()] == [1]


def test_permission_error_message_names_path_and_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", denied)
    with pytest.raises(StoreError) as info:
        atomic_write_text(tmp_path / "trace.json", "x")
    assert str(info.value) == (
        f"cannot write {tmp_path / 'trace.json'}: permission denied; "
        "make the folder writable or set PSE_TRACES_DIR to a writable folder"
    )


def test_event_log_damaged_middle_line_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text(event(1).model_dump_json() + "\n{not json\n" + event(3).model_dump_json() + "\n")
    with pytest.raises(StoreError, match="line 2"):
        EventLog(path).read()


def test_event_log_fsyncs_at_cycle_boundaries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(files.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    log = EventLog(tmp_path / "events.jsonl")
    log.append(event(1, EventKind.MESSAGE))
    assert synced == []
    log.append(event(2, EventKind.CYCLE_FINISHED, index=1))
    assert synced == []  # made durable when the next cycle starts, or with the run's end
    log.append(event(3, EventKind.CYCLE_STARTED, index=2))
    assert len(synced) == 1
    log.append(event(4, EventKind.RUN_FINISHED, status="finished"))
    assert len(synced) == 2


def test_writer_lock_is_visible_and_released(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    log = EventLog(path)
    log.append(event(1))
    assert is_locked(path)
    with pytest.raises(StoreError, match="another writer"):
        EventLog(path).append(event(2))
    log.close()
    assert not is_locked(path)
