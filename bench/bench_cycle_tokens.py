"""Prompt tokens per cycle: fresh agents per cycle (autogen-pse) vs one growing conversation.

Same scripted 5-cycle run (PARTIAL ×3, FAIL, PASS) both ways, token counts from the same real
tokenizer. Prints per-cycle prompt tokens and max/first-cycle ratios side by side.
"""

from __future__ import annotations

import asyncio
import json
import sys

from _bench_task import bench_settings, script, tmpdir

from autogen_pse.agents import build_team
from autogen_pse.cycle_text import fix_task_text, replan_task_text
from autogen_pse.models import open_provider
from autogen_pse.registry import load_task
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.verdict import try_parse

OUTCOMES = [("PARTIAL", "INCOMPLETE")] * 3 + [("FAIL", "DATA_MISMATCH"), ("PASS", "OK")]


async def fresh_per_cycle(tmp) -> list[int]:
    settings = bench_settings(tmp)
    path = tmp / "script.json"
    path.write_text(json.dumps(script(OUTCOMES)))
    result = await run_task(RunRequest(task="bench", model=f"scripted:{path}"), settings)
    trace = json.loads((tmp / "traces" / result.run_id / "trace.json").read_text())
    assert result.verdict == "PASS" and result.cycles == 5, result
    return [c["usage"]["prompt_tokens"] for c in trace["cycles"]]


async def growing_conversation(tmp) -> list[int]:
    """One team for the whole run: agents keep every earlier cycle's messages."""
    settings = bench_settings(tmp)
    path = tmp / "script2.json"
    path.write_text(json.dumps(script(OUTCOMES)))
    task = load_task(settings.tasks_dir, "bench")
    provider = open_provider(f"scripted:{path}", settings)
    clients = {r: provider.client_for(r) for r in ("planner", "specialist", "evaluator")}
    team = build_team(task, clients, tools={}, context={}, max_turns=9)
    original = task.render_task({})
    text, per_cycle = original, []
    for _ in OUTCOMES:
        tokens, artifact = 0, ""
        team.state.verdict = team.state.malformed_text = None
        async for item in team.team.run_stream(task=text):
            usage = getattr(item, "models_usage", None)
            if usage is not None:
                tokens += usage.prompt_tokens
            if getattr(item, "source", "") == "specialist":
                artifact = item.content
        per_cycle.append(tokens)
        verdict = try_parse(team.state.evaluator_text or "")
        if verdict is None or verdict.outcome.value == "PASS":
            break
        text = (fix_task_text(original, artifact, verdict) if verdict.outcome.value == "PARTIAL"
                else replan_task_text(original, verdict))
    await provider.close()
    return per_cycle


def main() -> None:
    fresh = asyncio.run(fresh_per_cycle(tmpdir()))
    grow = asyncio.run(growing_conversation(tmpdir()))
    print("prompt tokens per cycle (PARTIAL, PARTIAL, PARTIAL, FAIL, PASS)")
    print(f"  fresh agents per cycle : {fresh}")
    print(f"  one growing chat       : {grow}")
    print(f"  max/first, fresh       : {max(fresh) / fresh[0]:.2f}  (fix cycles carry the artifact once)")
    print(f"  max/first, growing     : {max(grow) / grow[0]:.2f}")
    print(f"  last cycle growing/fresh: {grow[-1] / fresh[-1]:.2f}")
    # Fix cycles carry the artifact once (hence > cycle 1) but must not grow from one to the next.
    if len(set(fresh[1:4])) != 1:
        sys.exit(f"fix-cycle prompts grew across cycles: {fresh[1:4]} — context reset is broken")


if __name__ == "__main__":
    main()
