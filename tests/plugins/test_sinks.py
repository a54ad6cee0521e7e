"""Event sinks from entry points: started, fed and closed once per run; a failing one warns once and
never ends the run; unknown names are a user error before anything is written."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.plugins import entry_points
from autogen_pse.runner import RunRequest, run_task
from tests.plugin_support import install_plugin

SINKS = '''
import json, os
from pathlib import Path

def _note(line):
    with Path(os.environ["PSE_TEST_SINK_LOG"]).open("a") as f:
        f.write(line + "\\n")


class Recorder:
    def __init__(self, fail_in=None, fail_at=0):
        self.fail_in, self.fail_at, self.seen = fail_in, fail_at, 0

    def start(self, run):
        _note(f"start {run.task} {run.model}")
        if self.fail_in == "start":
            raise RuntimeError("collector down")

    def handle(self, event):
        self.seen += 1
        _note(f"event {event.seq} {event.kind}")
        if self.fail_in == "handle" and self.seen >= self.fail_at:
            raise ConnectionError("collector went away")

    def close(self):
        _note("close")
        if self.fail_in == "close":
            raise OSError("flush failed")


def good(settings):
    return Recorder()


def bad_handle(settings):
    return Recorder("handle", fail_at=3)


def bad_start(settings):
    return Recorder("start")


def bad_close(settings):
    return Recorder("close")


def not_a_sink(settings):
    return 42
'''


@pytest.fixture
def sink_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    log = tmp_path / "sink.log"
    monkeypatch.setenv("PSE_TEST_SINK_LOG", str(log))
    install_plugin(tmp_path / "site", monkeypatch, {"autogen_pse.sinks": {
        "good": "pse_test_sinks:good", "bad-handle": "pse_test_sinks:bad_handle",
        "bad-start": "pse_test_sinks:bad_start", "bad-close": "pse_test_sinks:bad_close",
        "not-a-sink": "pse_test_sinks:not_a_sink"}}, {"pse_test_sinks.py": SINKS})
    return log


async def _run(settings: Settings, scripted_dir: Path, *names: str):  # type: ignore[no-untyped-def]
    settings = settings.model_copy(update={"sinks": list(names), "tool_isolation": "none"})
    result = await run_task(RunRequest(task="demo", model=f"scripted:{scripted_dir / 'demo_pass.json'}"), settings)
    events = [json.loads(line) for line in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]
    return result, events


def test_builtin_sinks_are_registered_like_plugins() -> None:
    assert entry_points("sinks")["jsonl"].value == "autogen_pse.sinks:jsonl_sink"
    assert entry_points("executors")["local"].value == "autogen_pse.executor:LocalExecutor"


async def test_a_sink_is_started_fed_every_event_and_closed(settings: Settings, scripted_dir: Path,
                                                            sink_log: Path) -> None:
    result, events = await _run(settings, scripted_dir, "good")
    assert result.exit_code == 0
    lines = sink_log.read_text().splitlines()
    assert lines[0] == "start demo scripted:demo_pass.json" and lines[-1] == "close"
    assert lines[1:-1] == [f"event {e['seq']} {e['kind']}" for e in events]


async def test_a_sink_failing_mid_run_warns_once_and_the_run_passes(
        settings: Settings, scripted_dir: Path, sink_log: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="autogen_pse.sinks"):
        result, events = await _run(settings, scripted_dir, "bad-handle", "good")
    assert (result.status, result.verdict, result.exit_code) == ("finished", "PASS", 0)
    warnings = [e for e in events if e["kind"] == "warning" and "bad-handle" in e["payload"]["message"]]
    assert len(warnings) == 1 and "ConnectionError: collector went away" in warnings[0]["payload"]["message"]
    assert warnings[0]["seq"] == 4  # right after the event it failed on, in order
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len([r for r in caplog.records if "bad-handle" in r.getMessage()]) == 1
    # the failing sink saw three events and no more; the good one saw every event
    lines = sink_log.read_text().splitlines()
    assert len([line for line in lines if line.startswith("event")]) == 3 + len(events)


async def test_a_sink_failing_to_start_or_close_never_ends_the_run(
        settings: Settings, scripted_dir: Path, sink_log: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="autogen_pse.sinks"):
        result, events = await _run(settings, scripted_dir, "bad-start", "bad-close", "not-a-sink")
    assert result.exit_code == 0
    messages = [e["payload"]["message"] for e in events if e["kind"] == "warning"]
    assert any("'bad-start' failed in start()" in m for m in messages)
    assert any("'not-a-sink' could not be opened" in m for m in messages)
    assert events[0]["kind"] == "run_started"  # a warning never precedes the run's first event
    assert any("'bad-close' failed in close()" in r.getMessage() for r in caplog.records)


async def test_an_unknown_sink_name_is_a_user_error_before_anything_is_written(settings: Settings,
                                                                             scripted_dir: Path) -> None:
    settings = settings.model_copy(update={"sinks": ["otel-typo"]})
    with pytest.raises(UserError, match=r"no event sink named 'otel-typo' is registered.*registered: .*jsonl"):
        await run_task(RunRequest(task="demo", model=f"scripted:{scripted_dir / 'demo_pass.json'}"), settings)
    assert not settings.traces_dir.exists() or not any(settings.traces_dir.glob("0*"))


async def test_the_builtin_jsonl_sink_appends_every_event(settings: Settings, scripted_dir: Path,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "export" / "all.jsonl"
    settings = settings.model_copy(update={"sink_jsonl_path": out})
    first, events = await _run(settings, scripted_dir, "jsonl")
    second, _ = await _run(settings, scripted_dir, "jsonl")
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    assert [e for e in exported if e["run_id"] == first.run_id] == events
    assert {e["run_id"] for e in exported} == {first.run_id, second.run_id}


def test_a_resumed_run_starts_its_sinks_at_the_resumed_event() -> None:
    from autogen_pse.events import EventKind, RunEvent
    from autogen_pse.sinks import IsolatedSink, RunInfo

    class Seen:
        def __init__(self) -> None:
            self.starts: list[RunInfo] = []
            self.kinds: list[str] = []

        def start(self, run: RunInfo) -> None:
            self.starts.append(run)

        def handle(self, event: RunEvent) -> None:
            self.kinds.append(event.kind.value)

        def close(self) -> None:
            pass

    seen = Seen()
    sink = IsolatedSink("seen", seen, warn=lambda m: None)
    payload = {"from_cycle": 2, "last_seq": 40, "task": "demo", "model": "scripted:x"}
    sink(RunEvent(run_id="r", seq=41, kind=EventKind.RESUMED, payload=payload))
    sink(RunEvent(run_id="r", seq=42, cycle=2, kind=EventKind.CYCLE_STARTED, payload={"index": 2, "kind": "fix"}))
    assert [(r.task, r.model) for r in seen.starts] == [("demo", "scripted:x")]  # started once, by resumed
    assert seen.kinds == ["resumed", "cycle_started"]
