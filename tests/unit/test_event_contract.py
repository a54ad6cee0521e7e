"""Typed events: one payload model per kind is the contract of the trace, SSE, the dashboard and
the docs; old traces still load."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from autogen_pse import _contract_doc
from autogen_pse.config import Settings
from autogen_pse.events import (
    EVENT_MODELS,
    PAYLOADS,
    EventContractError,
    EventEmitter,
    EventKind,
    RunEvent,
    typed_event,
)
from autogen_pse.runner import RunRequest, run_task

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
TRACES = ROOT / "tests" / "fixtures" / "traces"
NODE_BIN = FRONTEND / "node_modules" / ".bin"
needs_node = pytest.mark.skipif(not (NODE_BIN / "tsc").exists() or shutil.which("node") is None,
                                reason="needs node and frontend/node_modules (npm install in frontend/)")


def test_every_kind_has_a_payload_model_and_a_typed_event() -> None:
    assert set(PAYLOADS) == set(EventKind)
    assert set(EVENT_MODELS) == set(EventKind)
    for kind, model in EVENT_MODELS.items():
        assert model.model_fields["kind"].annotation.__args__ == (kind.value,)  # type: ignore[union-attr]


def test_emitter_refuses_an_undeclared_field_and_emits_nothing() -> None:
    seen: list[RunEvent] = []
    emitter = EventEmitter("r", [seen.append])
    with pytest.raises(EventContractError, match=r"warning event payload has fields .* does not declare: mesage"):
        emitter.emit(EventKind.WARNING, {"message": "x", "mesage": "typo"})
    with pytest.raises(EventContractError, match="model_call event payload does not fit ModelCallPayload"):
        emitter.emit(EventKind.MODEL_CALL, {"role": "planner", "seconds": "slow"})
    with pytest.raises(EventContractError, match=r"per_agent\.planner\.tokens"):  # nested parts are checked too
        emitter.emit(EventKind.USAGE, {"usage": {"per_agent": {"planner": {"tokens": 3}}}})
    assert seen == [] and emitter.last_seq == 0
    event = emitter.emit(EventKind.WARNING, {"message": "ok"})
    assert (event.seq, event.payload) == (1, {"message": "ok"}) and seen == [event]


def test_emitter_accepts_a_payload_model_and_fills_defaults() -> None:
    emitter = EventEmitter("r")
    event = emitter.emit(EventKind.CHECK, PAYLOADS[EventKind.CHECK](name="prices", ok=True))
    assert event.payload["severity"] == "error" and event.payload["phase"] == "cycle"
    assert event.typed().payload.name == "prices"


async def test_every_event_of_real_runs_fits_its_typed_model(settings: Settings, scripted_dir: Path) -> None:
    settings = settings.model_copy(update={"tool_isolation": "none"})
    for task, script in [("demo", "demo_fix_then_pass.json"), ("portfolio-review", "portfolio_sanitize.json")]:
        result = await run_task(RunRequest(task=task, model=f"scripted:{scripted_dir / script}"), settings)
        lines = (Path(result.trace_dir) / "events.jsonl").read_text(encoding="utf-8").splitlines()
        kinds = set()
        for line in lines:
            event = typed_event(line)
            assert not event.payload.model_extra, (event.kind, event.payload.model_extra)
            kinds.add(event.kind)
        assert {"run_started", "cycle_started", "message", "verdict", "check", "run_finished"} <= kinds


@pytest.mark.parametrize("name", ["v0.1-demo.events.jsonl", "v0.1-portfolio.events.jsonl"])
def test_traces_written_by_an_earlier_version_still_load(name: str) -> None:
    lines = (TRACES / name).read_text(encoding="utf-8").splitlines()
    events = [typed_event(line) for line in lines]
    assert [e.seq for e in events] == list(range(1, len(lines) + 1))
    assert events[0].kind == "run_started" and events[-1].kind == "run_finished"


def test_the_oldest_payload_shapes_still_load() -> None:
    """Fields added after the first version (run_started.artifact, verdict.origin, the check's claim
    counts, artifact.grounding, cycle_finished.artifact_chars) may be absent."""
    old = [
        {"run_id": "r", "seq": 1, "ts": "t", "kind": "run_started", "payload": {
            "task": "demo", "model": "scripted:x.json", "vars": {}, "trace_dir": "/t", "workspace": "/w",
            "limits": {"max_cycles": 3, "max_partial": 2, "max_fail": 2, "max_turns": 9, "run_timeout": 900}}},
        {"run_id": "r", "seq": 2, "cycle": 1, "ts": "t", "kind": "verdict",
         "payload": {"outcome": "PASS", "reason": "OK", "issues": [], "summary": ""}},
        {"run_id": "r", "seq": 3, "cycle": 1, "ts": "t", "kind": "check",
         "payload": {"name": "pytest", "ok": True, "severity": "error", "detail": "", "phase": "cycle"}},
        {"run_id": "r", "seq": 4, "cycle": 1, "ts": "t", "kind": "cycle_finished", "payload": {"index": 1}},
        {"run_id": "r", "seq": 5, "ts": "t", "kind": "artifact", "payload": {"path": "/a.md", "verified": True}},
        {"run_id": "r", "seq": 6, "ts": "t", "kind": "run_finished", "payload": {"status": "finished"}},
    ]
    typed = [typed_event(json.dumps(e)) for e in old]
    assert typed[0].payload.artifact is None and typed[1].payload.origin == "evaluator"
    assert typed[4].payload.grounding is None and typed[5].payload.verified is False


def test_an_unknown_kind_or_a_wrong_payload_is_refused_when_typed() -> None:
    with pytest.raises(ValidationError):
        typed_event({"run_id": "r", "seq": 1, "ts": "t", "kind": "teleport", "payload": {}})
    with pytest.raises(ValidationError):
        typed_event({"run_id": "r", "seq": 1, "ts": "t", "kind": "warning", "payload": {}})


def test_contracts_doc_is_generated_from_the_models() -> None:
    text = (ROOT / "docs" / "CONTRACTS.md").read_text(encoding="utf-8")
    assert _contract_doc.updated(text) == text, "docs/CONTRACTS.md is stale: run `make contracts`"
    for kind, model in PAYLOADS.items():
        assert f"`{kind.value}` ({model.__name__})" in text


def _export_openapi(out: Path) -> dict[str, object]:
    subprocess.run([sys.executable, str(FRONTEND / "scripts" / "export_openapi.py"), str(out)], check=True,
                   capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_committed_openapi_schema_is_current(tmp_path: Path) -> None:
    fresh = _export_openapi(tmp_path / "openapi.json")
    committed = json.loads((FRONTEND / "openapi.json").read_text(encoding="utf-8"))
    assert fresh == committed, "frontend/openapi.json is stale: run `make openapi`"
    union = committed["components"]["schemas"]["RunEventOut"]  # type: ignore[index]
    assert set(union["discriminator"]["mapping"]) == {k.value for k in EventKind}


@needs_node
def test_the_generated_typescript_types_are_current(tmp_path: Path) -> None:
    out = tmp_path / "schema.d.ts"
    subprocess.run([str(NODE_BIN / "openapi-typescript"), str(FRONTEND / "openapi.json"), "-o", str(out)],
                   check=True, capture_output=True, cwd=FRONTEND)
    assert out.read_text() == (FRONTEND / "src" / "api" / "schema.d.ts").read_text(), \
        "frontend/src/api/schema.d.ts is stale: run `make openapi`"


@needs_node
def test_a_new_event_kind_the_live_page_does_not_handle_fails_the_frontend_type_check(tmp_path: Path) -> None:
    """What `npm run build` runs first (tsc) on a copy of the dashboard whose schema gained a kind."""
    schema = _export_openapi(tmp_path / "openapi.json")
    parts = schema["components"]["schemas"]  # type: ignore[index]
    parts["TeleportPayload"] = {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}
    event = json.loads(json.dumps(parts["WarningEvent"]))
    event["properties"]["kind"] = {"const": "teleport", "type": "string"}
    event["properties"]["payload"] = {"$ref": "#/components/schemas/TeleportPayload"}
    parts["TeleportEvent"] = event
    parts["RunEventOut"]["oneOf"].append({"$ref": "#/components/schemas/TeleportEvent"})
    parts["RunEventOut"]["discriminator"]["mapping"]["teleport"] = "#/components/schemas/TeleportEvent"
    (tmp_path / "openapi.json").write_text(json.dumps(schema))
    copy = tmp_path / "frontend"
    shutil.copytree(FRONTEND / "src", copy / "src")
    for name in ("tsconfig.json", "vite.config.ts", "package.json"):
        shutil.copy(FRONTEND / name, copy / name)
    (copy / "node_modules").symlink_to(FRONTEND / "node_modules")
    subprocess.run([str(NODE_BIN / "openapi-typescript"), str(tmp_path / "openapi.json"), "-o",
                    str(copy / "src" / "api" / "schema.d.ts")], check=True, capture_output=True, cwd=copy)
    assert "teleport" in (copy / "src" / "api" / "schema.d.ts").read_text()
    done = subprocess.run([str(NODE_BIN / "tsc"), "--noEmit", "-p", "tsconfig.json"], capture_output=True,
                          text=True, cwd=copy, timeout=300)
    assert done.returncode != 0
    errors = [line for line in done.stdout.splitlines() if "error TS" in line]
    assert any(line.startswith("src/live/reducer.ts") and "never" in line for line in errors), done.stdout
    assert any("EVERY_KIND_LISTENED" in line or "teleport" in line for line in errors), done.stdout


def test_a_resumed_emitter_numbers_on_from_the_trace_and_defers_until_its_first_event() -> None:
    from autogen_pse.events import EventEmitter, EventKind

    seen: list[tuple[int, str]] = []
    emitter = EventEmitter("r", [lambda e: seen.append((e.seq, e.kind.value))], last_seq=40)
    assert emitter.last_seq == 40
    emitter.defer(EventKind.WARNING, {"message": "a sink could not be opened"})
    assert seen == []  # a warning never comes before the run's resumed event
    emitter.emit(EventKind.RESUMED, {"from_cycle": 2, "last_seq": 40, "task": "demo", "model": "m"})
    assert seen == [(41, "resumed"), (42, "warning")] and emitter.last_seq == 42


def test_a_number_is_taken_only_once_the_trace_recorded_the_event() -> None:
    from autogen_pse.events import EventEmitter, EventKind

    fail = [True]
    recorded: list[int] = []

    def trace(event: object) -> None:
        if fail[0]:
            raise OSError("disk full")
        recorded.append(event.seq)  # type: ignore[attr-defined]

    emitter = EventEmitter("r", [trace])
    with pytest.raises(OSError):
        emitter.emit(EventKind.WARNING, {"message": "x"})
    assert emitter.last_seq == 0
    fail[0] = False
    emitter.emit(EventKind.WARNING, {"message": "y"})
    assert recorded == [1] and emitter.last_seq == 1  # seq stays contiguous
