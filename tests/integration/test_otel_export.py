"""OpenTelemetry export of a run, checked against a real OTLP receiver on loopback."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.telemetry import Telemetry, close_active
from tests.otlp_receiver import OtlpReceiver

SCRIPTED = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "scripted"


@pytest.fixture
def receiver() -> Iterator[OtlpReceiver]:
    r = OtlpReceiver()
    yield r
    close_active(1)
    r.stop()


def _script(tmp_path: Path) -> str:
    doc = json.loads((SCRIPTED / "demo_fix_then_pass.json").read_text())
    doc["planner"].insert(0, {"error": "rate_limit", "retry_after": 0.002})
    path = tmp_path / "faults.json"
    path.write_text(json.dumps(doc))
    return f"scripted:{path}"


def _tree(spans: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {s["span_id"]: s for s in spans}


@pytest.mark.parametrize("protocol", ["grpc", "http/protobuf"])
async def test_a_run_exports_its_span_tree(protocol: str, receiver: OtlpReceiver, settings: Settings,
                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = receiver.grpc_endpoint if protocol == "grpc" else receiver.http_endpoint
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", url)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
    monkeypatch.setenv("OTEL_SERVICE_NAME", "pse-test")
    result = await run_task(RunRequest(task="demo", model=_script(tmp_path)), settings)
    assert result.verdict == "PASS" and result.cycles == 2
    close_active(5)
    spans = receiver.wait_for(lambda s: any(x["name"].startswith("invoke_workflow") for x in s))
    by_id = _tree(spans)

    (run,) = [s for s in spans if s["name"] == "invoke_workflow demo"]
    assert run["parent"] is None and run["resource"]["service.name"] == "pse-test"
    attrs = run["attributes"]
    assert attrs["gen_ai.operation.name"] == "invoke_workflow" and attrs["gen_ai.workflow.name"] == "demo"
    assert attrs["pse.run_id"] == result.run_id and attrs["pse.verdict"] == "PASS" and attrs["pse.verified"] is True
    assert attrs["gen_ai.usage.input_tokens"] == result.usage["prompt_tokens"]
    assert attrs["gen_ai.usage.output_tokens"] == result.usage["completion_tokens"]
    assert {e["attributes"]["pse.check.name"] for e in run["events"] if e["name"] == "pse.check"} == {
        "files_coverage", "tests"}
    assert all(s["trace_id"] == run["trace_id"] for s in spans)  # one trace per run

    cycles = sorted((s for s in spans if s["name"].startswith("cycle ")), key=lambda s: s["start"])
    assert [c["name"] for c in cycles] == ["cycle 1", "cycle 2"]
    assert all(c["parent"] == run["span_id"] for c in cycles)
    assert [c["attributes"]["pse.verdict.outcome"] for c in cycles] == ["PARTIAL", "PASS"]
    assert {e["attributes"]["gen_ai.agent.name"] for e in cycles[0]["events"] if e["name"] == "pse.prompt"} == {
        "planner", "specialist", "evaluator"}
    assert any(e["name"] == "pse.check" and e["attributes"]["pse.check.ok"] is False for e in cycles[0]["events"])
    assert cycles[0]["attributes"]["pse.checks.failed"] >= 1 and cycles[1]["attributes"]["pse.checks.failed"] == 0
    assert attrs["pse.checks.passed"] == 2 and attrs["pse.checks.failed"] == 0  # the final checks

    def ancestors(span: dict[str, Any]) -> list[str]:
        out, parent = [], span["parent"]
        while parent in by_id:
            out.append(by_id[parent]["name"])
            parent = by_id[parent]["parent"]
        return out

    # AutoGen's own spans (agents, tools) nest under the cycles.
    autogen = [s for s in spans if s["scope"] != "autogen_pse"]
    assert autogen, "autogen-core spans reach the receiver"
    tools = [s for s in autogen if s["attributes"].get("gen_ai.operation.name") == "execute_tool"]
    assert {s["attributes"]["gen_ai.tool.name"] for s in tools} >= {"write_file", "run_pytest"}
    assert all(any(a.startswith("cycle ") for a in ancestors(s)) for s in tools)
    agents = [s for s in autogen if s["attributes"].get("gen_ai.operation.name") == "invoke_agent"]
    assert agents and all(any(a.startswith("cycle ") for a in ancestors(s)) for s in agents)

    # One chat span per model call, with model, tokens, and the retry as an event.
    chats = [s for s in spans if s["name"].startswith("chat ")]
    assert len(chats) == result.usage["model_calls"]
    assert all(s["attributes"]["gen_ai.operation.name"] == "chat" and s["kind"] == 3 for s in chats)  # CLIENT
    assert sum(s["attributes"]["gen_ai.usage.input_tokens"] for s in chats) == result.usage["prompt_tokens"]
    assert all(s["attributes"]["gen_ai.request.model"] == "scripted:faults.json" for s in chats)
    # each under AutoGen's invoke_agent span of its role, under a cycle
    assert all(f"invoke_agent {s['attributes']['gen_ai.agent.name']}" in ancestors(s) for s in chats)
    assert all(any(a.startswith("cycle ") for a in ancestors(s)) for s in chats)
    retried = [s for s in chats if s["attributes"]["pse.retries"]]
    assert len(retried) == 1 and retried[0]["attributes"]["gen_ai.agent.name"] == "planner"
    (event,) = retried[0]["events"]
    assert event["name"] == "gen_ai.retry" and event["attributes"]["error.type"] == "rate limit (HTTP 429)"


async def test_a_dead_collector_only_warns(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           caplog: pytest.LogCaptureFixture) -> None:
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "10")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")
    caplog.set_level(logging.WARNING, logger="autogen_pse.telemetry")
    result = await run_task(RunRequest(task="demo", model=f"scripted:{SCRIPTED / 'demo_pass.json'}"), settings)
    assert result.verdict == "PASS" and result.status == "finished"
    started = time.monotonic()
    close_active(2)
    assert time.monotonic() - started < 4  # bounded near 2 s; the exporter's retries would take a minute
    warnings = [r.getMessage() for r in caplog.records if r.name == "autogen_pse.telemetry"]
    assert warnings and all("Traceback" not in w for w in warnings)
    assert len([w for w in warnings if "cannot export spans" in w]) <= 1
    assert Telemetry._active is None


def test_export_is_off_without_an_endpoint(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from autogen_pse.plugins import entry_points
    from autogen_pse.sinks import enabled_sinks
    from autogen_pse.telemetry import endpoint

    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED"):
        monkeypatch.delenv(name, raising=False)
    assert entry_points("sinks")["otel"].value == "autogen_pse.telemetry:otel_sink"  # a sink like any plugin
    assert endpoint({}) is None and "otel" not in enabled_sinks(settings)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
    assert enabled_sinks(settings).count("otel") == 1  # on by itself when an endpoint is set
    assert endpoint({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x:4318", "OTEL_SDK_DISABLED": "true"}) is None
    assert endpoint({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": " http://x:4318 "}) == "http://x:4318"
