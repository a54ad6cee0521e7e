"""The trace records what happened: prompts received, provenance, latency, retries, prepare and ingestion."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from autogen_core.models import CreateResult, UserMessage
from rich.console import Console

from autogen_pse.config import Settings
from autogen_pse.console import ConsoleSink
from autogen_pse.models.observed import CallReport, ObservedClient
from autogen_pse.models.scripted import ScriptedProvider
from autogen_pse.provenance import combined_sha, text_sha, tree_sha
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.store import TraceStore

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


def _events(trace_dir: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (Path(trace_dir) / "events.jsonl").read_text().splitlines()]


def _with_faults(tmp_path: Path) -> Path:
    doc = json.loads((SCRIPTED / "demo_fix_then_pass.json").read_text())
    doc["planner"][0:0] = [{"error": "rate_limit", "retry_after": 0.004}, {"error": "server"}]
    path = tmp_path / "faults.json"
    path.write_text(json.dumps(doc))
    return path


async def test_prompts_provenance_latency_and_retries_are_recorded(settings: Settings, tmp_path: Path) -> None:
    out = io.StringIO()
    sink = ConsoleSink(Console(file=out, width=200, highlight=False, color_system=None))
    result = await run_task(RunRequest(task="demo", model=f"scripted:{_with_faults(tmp_path)}"), settings,
                            sinks=[sink])
    assert (result.verdict, result.cycles) == ("PASS", 2)
    events = _events(result.trace_dir)

    # The system prompt each role received, in full, once per cycle, with its hash.
    prompts = [e for e in events if e["kind"] == "prompt"]
    assert [(e["cycle"], e["payload"]["role"]) for e in prompts] == [
        (c, r) for c in (1, 2) for r in ("planner", "specialist", "evaluator")]
    task_prompt = (ROOT / "tasks" / "demo" / "prompts" / "planner.md").read_text().strip()[:40]
    planner = prompts[0]["payload"]
    assert task_prompt in planner["text"] and "{RULES}" not in planner["text"]
    assert all(p["payload"]["sha256"] == text_sha(p["payload"]["text"]) and
               p["payload"]["chars"] == len(p["payload"]["text"]) for p in prompts)
    first_seq = next(e["seq"] for e in events if e["kind"] in ("message", "tool_call"))
    assert all(p["seq"] < first_seq for p in prompts if p["cycle"] == 1)  # recorded before the first turn

    # Provenance in the run_started event, the trace and the index row.
    started = events[0]["payload"]["provenance"]
    assert started == {"product_version": "0.1.0", "task_sha": tree_sha(ROOT / "tasks" / "demo"),
                       "prompts_sha": tree_sha(ROOT / "tasks" / "demo" / "prompts")}
    row = TraceStore(settings).get(result.run_id)
    assert row.product_version == "0.1.0" and row.task_sha == started["task_sha"]
    assert row.prompt_sha == combined_sha({p["payload"]["role"]: p["payload"]["sha256"]
                                           for p in prompts if p["cycle"] == 1})

    # Every retry is an event: attempt, error kind and wait; the trace counts them.
    retries = [e for e in events if e["kind"] == "retry"]
    assert [(r["payload"]["role"], r["payload"]["attempt"], r["payload"]["error_kind"]) for r in retries] == [
        ("planner", 1, "rate limit (HTTP 429)"), ("planner", 2, "server error (HTTP 500)")]
    assert retries[0]["payload"]["wait"] == 0.004 and 0 <= retries[1]["payload"]["wait"] <= 0.01
    trace = json.loads((Path(result.trace_dir) / "trace.json").read_text())
    assert trace["retries"] == 2 and len(trace["cycles"][0]["retries"]) == 2
    assert set(trace["cycles"][1]["prompts"]) == {"planner", "specialist", "evaluator"}
    text = out.getvalue()
    assert "planner: attempt 1 failed (rate limit (HTTP 429)); retrying in 0.0 s" in text
    assert "planner: attempt 2 failed (server error (HTTP 500))" in text

    # Every model message and tool call carries the latency of the model call it came from.
    calls = [e for e in events if e["kind"] == "model_call"]
    answers = [e for e in events if e["kind"] in ("message", "tool_call") and e["payload"].get("usage")]
    assert len(answers) == len(calls) == result.usage["model_calls"]
    for answer in answers:
        call = max((c for c in calls if c["seq"] < answer["seq"] and c["payload"]["role"] == answer["payload"]["source"]),
                   key=lambda c: c["seq"])
        assert answer["payload"]["latency"] == {"seconds": call["payload"]["seconds"], "ttft": None}
    # the planner's first call waited through both retries
    assert calls[0]["payload"]["seconds"] >= 0.004


async def test_streamed_calls_report_time_to_first_token(scripted_dir: Path) -> None:
    provider = ScriptedProvider(scripted_dir / "demo_pass.json", max_retries=0, base_delay=0, max_delay=0)
    reports: list[CallReport] = []
    client = ObservedClient(provider.client_for("planner"), "planner", on_call=reports.append)
    chunks = [c async for c in client.create_stream([UserMessage(content="plan it", source="user")])]
    await provider.close()
    assert isinstance(chunks[-1], CreateResult) and isinstance(chunks[0], str)
    (report,) = reports
    assert report.ttft is not None and 0 <= report.ttft <= report.seconds
    assert report.payload()["ttft"] == round(report.ttft, 3) and report.completion_tokens > 0


async def test_prepare_and_knowledge_ingestion_are_timed_events(settings: Settings) -> None:
    req = RunRequest(task="portfolio-review", model=f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}")
    result = await run_task(req, settings)
    events = _events(result.trace_dir)
    kinds = [e["kind"] for e in events]
    first_turn = kinds.index("cycle_started")
    prepared = next(e["payload"] for e in events if e["kind"] == "prepared")
    ingested = next(e["payload"] for e in events if e["kind"] == "ingested")
    assert kinds.index("prepared") < first_turn and kinds.index("ingested") < first_turn
    assert prepared["reprepared"] is True and prepared["seconds"] > 0
    assert ingested["added_files"] > 0 and ingested["chunks_added"] > 0  # a fresh state dir: everything is new
    assert ingested["seconds"] > 0 and ingested["retrieval_seconds"] > 0 and ingested["queries"] > 0
    trace = json.loads((Path(result.trace_dir) / "trace.json").read_text())
    assert trace["ingest"]["chunks_added"] == ingested["chunks_added"]
    assert trace["prepared"]["seconds"] == prepared["seconds"]
