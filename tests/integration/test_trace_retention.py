"""Retention and archives: `pse trace prune`, `pse trace export`, `pse trace import`."""

from __future__ import annotations

import io
import json
import tarfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from autogen_pse.cli import main
from autogen_pse.config import Settings
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.store import TraceStore
from autogen_pse.store.retention import parse_age, prune

SCRIPTED = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "scripted"


async def _runs(settings: Settings, n: int) -> list[str]:
    ids = []
    for name in ["demo_pass.json", "demo_fix_then_pass.json", "web_demo_blocked.json"][:n]:
        result = await run_task(RunRequest(task="demo", model=f"scripted:{SCRIPTED / name}"), settings)
        ids.append(result.run_id)
    return ids


def _age(store: TraceStore, run_id: str, days: int) -> None:
    row = store.get(run_id)
    then = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    store.index.upsert(row.model_copy(update={"started_at": then}))


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


async def test_prune_removes_old_runs_never_running_ones(settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    store = TraceStore(settings)
    old_pass, old_fix, old_blocked = await _runs(settings, 3)
    young = (await _runs(settings, 1))[0]
    for run_id in (old_pass, old_fix, old_blocked):
        _age(store, run_id, 40)
    # a run still running (its writer holds the event log) started long ago
    running = store.new_run_id()
    store.create_run(running)
    sink = store.sink(running)
    sink.handle(RunEvent(run_id=running, seq=1, kind=EventKind.RUN_STARTED, payload={"task": "demo", "model": "x"}))
    _age(store, running, 90)
    try:
        code, out, _ = _cli(capsys, "trace", "prune", "--older-than", "30d", "--dry-run", "--json")
        assert code == 0
        report = json.loads(out)
        assert set(report["removed"]) == {old_pass, old_fix, old_blocked} and report["kept_running"] == [running]
        assert all((store.traces_dir / r).is_dir() for r in report["removed"])  # a dry run removes nothing

        code, out, _ = _cli(capsys, "trace", "prune", "--older-than", "30d", "--keep-verified")
        assert code == 0 and "removed 1 run(s)" in out and "kept 1 running, 2 verified" in out
        assert not (store.traces_dir / old_blocked).exists() and store.index.get(old_blocked) is None
        assert {r.run_id for r in store.list_runs(limit=100).data} == {old_pass, old_fix, young, running}

        report2 = prune(store, parse_age("30d"))
        assert {r.run_id for r in report2.removed} == {old_pass, old_fix} and report2.bytes_freed > 0
        assert report2.kept_running == [running]
        assert {p.name for p in store.traces_dir.iterdir() if p.is_dir()} == {young, running}
        assert store.reindex() == 2  # the folders and the index agree
    finally:
        sink.close()


async def test_export_then_import_elsewhere(settings: Settings, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (run_id,) = await _runs(settings, 1)
    src = TraceStore(settings).run_dir(run_id)
    code, out, _ = _cli(capsys, "trace", "export", run_id, "-o", str(tmp_path))
    archive = tmp_path / f"{run_id}.pse.tar.gz"
    assert code == 0 and archive.is_file() and str(archive) in out.replace("\n", "")
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    assert {"manifest.json", f"{run_id}/trace.json", f"{run_id}/events.jsonl", f"{run_id}/artifact.md",
            f"{run_id}/workspace/quicksort.py"} <= names

    # another machine: an empty traces folder
    other = tmp_path / "other"
    monkeypatch.setenv("PSE_TRACES_DIR", str(other / "traces"))
    code, out, _ = _cli(capsys, "trace", "import", str(archive))
    assert code == 0 and f"imported {run_id}" in out
    dest = other / "traces" / run_id
    for rel in ("events.jsonl", "trace.json", "artifact.md", "workspace/quicksort.py"):
        assert (dest / rel).read_bytes() == (src / rel).read_bytes()
    code, out, _ = _cli(capsys, "trace", "--json")
    listed = json.loads(out)["data"]
    assert [r["run_id"] for r in listed] == [run_id] and listed[0]["verdict"] == "PASS"
    assert _cli(capsys, "trace", "show", run_id)[0] == 0

    # importing it again: a one-line error, exit 2, nothing changed
    code, _, err = _cli(capsys, "trace", "import", str(archive))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "already exists" in err
    assert not [p for p in (other / "traces").iterdir() if p.name.startswith(".import-")]


def _tampered(archive: Path, out: Path, edit: str) -> Path:
    with tarfile.open(archive) as tar, tarfile.open(out, "w:gz") as new:
        for member in tar.getmembers():
            data = tar.extractfile(member).read() if member.isfile() else None  # type: ignore[union-attr]
            if edit == "content" and member.name.endswith("artifact.md"):
                data = b"an edited artifact"
                member.size = len(data)
            if edit == "escape" and member.name.endswith("artifact.md"):
                member.name = "../evil.md"
            new.addfile(member, io.BytesIO(data) if data is not None else None)
    return out


async def test_bad_archives_and_arguments_are_one_line_errors(settings: Settings, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (run_id,) = await _runs(settings, 1)
    assert _cli(capsys, "trace", "export", run_id, "-o", str(tmp_path))[0] == 0
    archive = tmp_path / f"{run_id}.pse.tar.gz"
    junk = tmp_path / "junk.tar.gz"
    junk.write_text("not an archive")
    other = tmp_path / "other" / "traces"
    monkeypatch.setenv("PSE_TRACES_DIR", str(other))
    cases = [
        (["trace", "prune", "--older-than", "soon"], "--older-than 'soon': use a whole number and a unit"),
        (["trace", "import", str(tmp_path / "missing.tar.gz")], "no such archive file"),
        (["trace", "import", str(junk)], "not a usable run archive (not a tar or .tar.gz archive)"),
        (["trace", "import", str(_tampered(archive, tmp_path / "edited.tar.gz", "content"))],
         "does not match its hash"),
        (["trace", "import", str(_tampered(archive, tmp_path / "escape.tar.gz", "escape"))],
         "is outside"),
        (["trace", "export", "01ARZ3NDEKTSV4RRFFQ69G5FAV"], "no run 01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        (["trace", "export", "../etc"], "run id"),
    ]
    for args, message in cases:
        code, _, err = _cli(capsys, *args)
        assert code == 2, (args, err)
        assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err, (args, err)
    assert not other.exists() or not any(other.iterdir()) or all(
        p.name in ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm") for p in other.iterdir())
    assert not (tmp_path / "evil.md").exists()
    # exporting over an existing file is refused, the file is untouched
    monkeypatch.setenv("PSE_TRACES_DIR", str(settings.traces_dir))
    code, _, err = _cli(capsys, "trace", "export", run_id, "-o", str(junk))
    assert code == 2 and "already exists" in err and junk.read_text() == "not an archive"
    code, _, err = _cli(capsys, "trace", "export", run_id, "-o", str(tmp_path / "no" / "such" / "x.tar.gz"))
    assert code == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1
