"""The curated public API: `autogen_pse.run` streams typed events and ends with a RunResult."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import autogen_pse
from autogen_pse.config import Settings
from autogen_pse.events import typed_event
from autogen_pse.store import TraceStore

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_name_resolves_and_nothing_else_is_offered() -> None:
    for name in autogen_pse.__all__:
        assert getattr(autogen_pse, name) is not None, name
    assert set(autogen_pse.__all__) == {"__version__", *autogen_pse._EXPORTS}
    assert dir(autogen_pse) == sorted(autogen_pse.__all__)
    with pytest.raises(AttributeError):
        autogen_pse.execute  # type: ignore[attr-defined]  # noqa: B018  (internal: runner.execute)


def test_importing_the_package_stays_cheap() -> None:
    code = "import sys, autogen_pse; print(sorted(m for m in ('autogen_core', 'chromadb', 'pydantic') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}).stdout
    assert json.loads(out.replace("'", '"')) == []


async def test_run_streams_typed_events_then_the_result(settings: Settings, scripted_dir: Path) -> None:
    settings = settings.model_copy(update={"tool_isolation": "none"})
    stream = autogen_pse.run("demo", model=f"scripted:{scripted_dir / 'demo_fix_then_pass.json'}", settings=settings)
    events = [event async for event in stream]
    assert events[0].kind == "run_started" and events[-1].kind == "run_finished"
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    verdicts = [(e.cycle, e.payload.outcome) for e in events if e.kind == "verdict"]
    assert verdicts == [(1, "PARTIAL"), (2, "PASS")]
    result = stream.result
    assert isinstance(result, autogen_pse.RunResult) and result.verified and result.exit_code == 0
    assert result.run_id == stream.run_id == events[0].run_id
    recorded = (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()
    assert [typed_event(line) for line in recorded] == events  # the same events the trace holds
    with pytest.raises(RuntimeError, match="consumed once"):
        [e async for e in stream]


async def test_leaving_the_loop_early_cancels_the_run(settings: Settings, scripted_dir: Path) -> None:
    settings = settings.model_copy(update={"tool_isolation": "none"})
    request = autogen_pse.RunRequest(task="demo", model=f"scripted:{scripted_dir / 'demo_pass.json'}")
    async with autogen_pse.run(request, settings=settings) as stream:
        async for event in stream:
            if event.kind == "message":
                break
    doc = TraceStore(settings).load_trace(stream.run_id or "")
    assert doc["status"] == "cancelled"


async def test_bad_input_raises_before_any_event(settings: Settings) -> None:
    with pytest.raises(autogen_pse.UserError, match="unknown task 'nope'"):
        async for _ in autogen_pse.run("nope", model="scripted:x.json", settings=settings):
            pass
    assert not settings.traces_dir.exists() or not any(settings.traces_dir.glob("0*"))
    with pytest.raises(autogen_pse.UserError, match="takes no model"):
        autogen_pse.run(autogen_pse.RunRequest(task="demo"), model="local", settings=settings)
