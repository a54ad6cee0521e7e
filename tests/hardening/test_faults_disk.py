"""A traces folder that cannot be written, and a disk that fills up in the middle of a run.

Root ignores file permissions, so "not writable" is made real: a file where the folder should be,
a read-only mount, a full tmpfs (``mount -t tmpfs``; skipped where mounting is not allowed).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from autogen_pse.store.files import EventLog, is_locked
from autogen_pse.store.layout import load_trace_doc
from autogen_pse.web import create_app
from tests.hardening.helpers import (
    SCRIPTED,
    base_env,
    cli,
    cli_proc,
    env_vars,
    paced_script,
    read_events,
    run_dirs,
    start_cli,
    wait_for,
)
from tests.web.web_helpers import ServerThread, make_settings

DEMO = f"scripted:{SCRIPTED / 'demo_pass.json'}"


def _mount(target: Path, *options: str) -> None:
    target.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(target)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")


@contextlib.contextmanager
def tmpfs(target: Path, *options: str) -> Iterator[Path]:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    _mount(target, *options)
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def fill(folder: Path) -> Path:
    """Write a file in ``folder`` until the disk is full; returns it."""
    filler = folder / "filler.bin"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        block = b"\0" * 4096
        while True:
            try:
                os.write(fd, block)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
        for size in (512, 64, 8, 1):  # the page slack too
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler


def _one_error_line(err: str, *, logs: bool = False) -> str:
    """The one ``error:`` line of ``err`` (``logs``: log lines such as retry warnings may precede it)."""
    lines = [line for line in err.splitlines() if line.strip()]
    if logs:
        lines = [line for line in lines if not line.startswith(("WARNING ", "ERROR "))]
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert "Traceback" not in err
    return lines[0]


def _cases(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    a_file = tmp_path / "plain-file"
    a_file.write_text("not a folder")
    return {"a file": (a_file, "cannot create"), "below a file": (a_file / "traces", "cannot create")}


@pytest.mark.parametrize("case", ["a file", "below a file"])
def test_traces_path_blocked_by_a_file_is_a_clear_error_before_the_run(tmp_path: Path, case: str) -> None:
    traces, expected = _cases(tmp_path)[case]
    with env_vars(PSE_TRACES_DIR=str(traces)):
        result = cli("run", "demo", "--model", DEMO)
    assert result.code == 3
    line = _one_error_line(result.err)
    assert expected in line and str(traces) in line and "PSE_TRACES_DIR" in line
    assert result.out == ""  # nothing of the run was shown: it never started


def test_read_only_traces_folder_cli_and_dashboard(tmp_path: Path) -> None:
    traces = tmp_path / "ro"
    with tmpfs(traces, "size=1m", "mode=755"):
        subprocess.run(["mount", "-o", "remount,ro", str(traces)], check=True)
        proc = cli_proc(tmp_path, "run", "demo", "--model", DEMO, env=base_env(tmp_path, PSE_TRACES_DIR=str(traces)))
        assert proc.returncode == 3
        line = _one_error_line(proc.stderr)
        assert f"cannot write {traces}: read-only file system" in line and "PSE_TRACES_DIR" in line
        assert proc.stdout == ""

        settings = make_settings(tmp_path, traces_dir=traces)
        with ServerThread(create_app(settings)) as srv, httpx.Client(base_url=srv.base_url, timeout=30) as c:
            refused = c.post("/api/runs", json={"task": "demo", "model": DEMO})
            assert c.get("/api/health").status_code == 200
        assert refused.status_code >= 500 and "read-only file system" in refused.json()["detail"]
        assert str(traces) in refused.json()["detail"]
        assert not any(traces.iterdir())


def test_full_disk_before_the_run_is_a_clear_error(tmp_path: Path) -> None:
    traces = tmp_path / "small"
    with tmpfs(traces, "size=64k"):
        fill(traces)
        proc = cli_proc(tmp_path, "run", "demo", "--model", DEMO, env=base_env(tmp_path, PSE_TRACES_DIR=str(traces)))
        assert proc.returncode == 3
        line = _one_error_line(proc.stderr)
        assert str(traces) in line and ("no space left on device" in line or "bytes free" in line), line
        assert "free disk space or set PSE_TRACES_DIR" in line
        assert sorted(p.name for p in traces.iterdir()) == ["filler.bin"]


@pytest.mark.timeout(120)
def test_disk_full_mid_run_fails_at_the_write_naming_the_file_and_loses_nothing_written(tmp_path: Path) -> None:
    traces = tmp_path / "disk"
    with tmpfs(traces, "size=2m"):
        # (eight seconds of 429s: the disk is filled within them even on a loaded machine)
        script_path = paced_script(tmp_path / "paced.json", pauses=8, seconds=1.0)
        # the answer's event must not fit in the page slack events.jsonl still has (its own last
        # page survives the filler): a comment makes it longer than a page, so its write is the one that fails
        doc = json.loads(script_path.read_text())
        doc["specialist"][-1] = doc["specialist"][-1].replace("\n", "\n# " + "x" * 5000 + "\n", 1)
        script_path.write_text(json.dumps(doc))
        env = base_env(tmp_path, PSE_TRACES_DIR=str(traces), PSE_RETRY_MAX_DELAY="5", PSE_OPENAI_MAX_RETRIES="10")
        proc = start_cli(tmp_path, "run", "demo", "--model", f"scripted:{script_path}", "--quiet", env=env)
        try:
            run_dir = wait_for(lambda: (run_dirs(traces) or [None])[0], 60, "the run folder")
            wait_for(lambda: (run_dir / "events.jsonl").is_file() and any(
                e["kind"] == "message" and e["cycle"] == 2 for e in read_events(run_dir)), 60, "cycle 2")
            filler = fill(traces)  # the specialist waits on 429s: its answer is the next write
            _out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 3, err
        line = _one_error_line(err, logs=True)
        assert f"cannot write {run_dir / 'events.jsonl'}: no space left on device" in line, line
        assert "free disk space or set PSE_TRACES_DIR" in line

        # nothing written before the failure is lost, and nothing half-written is left behind
        raw = (run_dir / "events.jsonl").read_bytes()
        assert raw.endswith(b"\n")
        events = [json.loads(x) for x in raw.splitlines()]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert any(e["kind"] == "cycle_finished" for e in events)
        doc, _source = load_trace_doc(run_dir)  # what a reader gets: every event the log holds
        assert doc is not None and doc["status"] == "running" and doc["last_seq"] == events[-1]["seq"]
        assert [c["index"] for c in doc["cycles"]] == [1, 2] and doc["cycles"][0]["ended_at"]
        assert not is_locked(run_dir / "events.jsonl")  # the writer released its lock

        filler.unlink()  # space again: the run is recovered as interrupted, with every event kept
        shown = json.loads(cli_proc(tmp_path, "trace", "show", run_dir.name, "--json", env=env).stdout)
        assert shown["status"] == "interrupted" and len(shown["cycles"]) == 2
        assert len(EventLog(run_dir / "events.jsonl").read()) == len(events)

