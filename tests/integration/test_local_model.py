"""Smoke test on the real embedded model (llama.cpp + SmolLM2-135M): the pipeline, not the judgement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.verdict import Outcome

pytestmark = pytest.mark.local_model


async def test_demo_on_local_model_leaves_a_complete_valid_trace(settings: Settings) -> None:
    s = settings.model_copy(update={"local_max_tokens": 96, "max_cycles": 1})
    result = await run_task(RunRequest(task="demo", model="local"), s)
    assert result.status == "finished" and result.cycles == 1
    assert result.verdict in {o.value for o in Outcome}
    run_dir = Path(result.trace_dir)
    trace = json.loads((run_dir / "trace.json").read_text())
    assert trace["status"] == "finished" and trace["model"].startswith("local:")
    [cycle] = trace["cycles"]
    sources = [m["source"] for m in cycle["messages"] if m["type"] == "TextMessage"]
    assert sources[:3] == ["planner", "specialist", "evaluator"]
    # The grammar makes the local evaluator's verdict well-formed: never a FORMAT_ISSUE.
    assert cycle["verdict_origin"] in {"evaluator", "checks"}
    assert {c["name"] for c in cycle["checks"]} >= {"files_coverage", "tests"}
    assert trace["usage"]["prompt_tokens"] > 0 and trace["usage"]["completion_tokens"] > 0
    assert trace["usage"]["cost"] == 0.0
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["kind"] == "run_finished"
    assert (run_dir / "artifact.md").is_file()


async def test_cancel_stops_a_local_generation_promptly(settings: Settings) -> None:
    import asyncio
    import time

    from autogen_pse.events import EventKind, RunEvent

    s = settings.model_copy(update={"local_max_tokens": 4000})
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_event(event: RunEvent) -> None:
        if event.kind == EventKind.CYCLE_STARTED:
            loop.call_later(1.0, stop.set)

    started = time.monotonic()
    result = await run_task(RunRequest(task="demo", model="local"), s, sinks=[on_event], stop=stop)
    elapsed = time.monotonic() - started
    assert result.status == "cancelled", result.error
    # Without the abort the planner would generate up to 4,000 tokens before the stop took effect.
    assert elapsed < 30, elapsed


def test_the_model_loads_without_extra_cpu_buffers(settings: Settings) -> None:
    """AMX tiles and weight repacking crash a multi-token prompt on some VMs' Xeons (a segfault, not
    an error): the model is loaded without them, and a chat prompt decodes."""
    from autogen_pse.models.local import get_llama, resolve_model_path

    llama, lock = get_llama(resolve_model_path(settings), n_ctx=settings.local_n_ctx,
                            n_threads=settings.local_threads)
    assert llama.model_params.use_extra_bufts is False
    with lock:
        reply = llama.create_chat_completion(messages=[{"role": "user", "content": "Name one colour."}], max_tokens=8)
    assert reply["usage"]["prompt_tokens"] > 5 and reply["usage"]["completion_tokens"] > 0
