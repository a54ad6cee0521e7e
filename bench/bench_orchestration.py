"""Orchestration overhead per turn: autogen-pse's full run vs a bare RoundRobinGroupChat.

Both use zero-latency scripted replies (the same texts): ours goes through the cycle loop, event
emission, trace files, SQLite index and token counting; the baseline is AutoGen's
``RoundRobinGroupChat`` over ``ReplayChatCompletionClient`` with a plain max-message termination.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

from _bench_task import bench_settings, script, tmpdir
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_ext.models.replay import ReplayChatCompletionClient

from autogen_pse.runner import RunRequest, run_task

RUNS = 15
TURNS = 3  # planner, specialist, evaluator


async def ours() -> list[float]:
    tmp = tmpdir()
    settings = bench_settings(tmp)
    path = tmp / "s.json"
    path.write_text(json.dumps(script([("PASS", "OK")])))
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        result = await run_task(RunRequest(task="bench", model=f"scripted:{path}"), settings)
        times.append((time.perf_counter() - t) / TURNS)
        assert result.verdict == "PASS"
    return times


async def bare() -> list[float]:
    doc = script([("PASS", "OK")])
    replies = [doc["planner"][0], doc["specialist"][0], doc["evaluator"][0]]
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        client = ReplayChatCompletionClient(list(replies))
        agents = [AssistantAgent(n, model_client=client, system_message=f"You are the {n}.")
                  for n in ("planner", "specialist", "evaluator")]
        team = RoundRobinGroupChat(agents, termination_condition=MaxMessageTermination(TURNS + 1))
        result = await team.run(task="Summarise why sorting matters in three sentences.")
        times.append((time.perf_counter() - t) / TURNS)
        assert len(result.messages) == TURNS + 1
    return times


def main() -> None:
    asyncio.run(bare())  # warm imports for both
    a = asyncio.run(ours())
    b = asyncio.run(bare())
    ma, mb = statistics.median(a[1:]), statistics.median(b[1:])
    print(f"per-turn wall time, median of {RUNS - 1} runs (first run dropped as warm-up)")
    print(f"  autogen-pse full run    : {ma * 1000:8.2f} ms/turn")
    print(f"  bare RoundRobinGroupChat: {mb * 1000:8.2f} ms/turn")
    print(f"  overhead ratio          : {ma / mb:8.2f}x  (+{(ma - mb) * 1000:.2f} ms/turn)")


if __name__ == "__main__":
    main()
