"""Orchestration overhead per turn: autogen-pse's full run vs a bare RoundRobinGroupChat.

Both use zero-latency scripted replies (the same texts): ours goes through the cycle loop, event
emission, trace files, SQLite index and token counting; the baseline is AutoGen's
``RoundRobinGroupChat`` over ``ReplayChatCompletionClient`` with a plain max-message termination.
"""

from __future__ import annotations

import asyncio
import json
import os
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


FSYNCS = [0]
FSYNC_SECONDS = [0.0]
_real_fsync = os.fsync


def _counting_fsync(fd: int) -> None:
    FSYNCS[0] += 1
    t = time.perf_counter()
    _real_fsync(fd)
    FSYNC_SECONDS[0] += time.perf_counter() - t


async def ours(settings: object, path: object) -> float:
    t = time.perf_counter()
    result = await run_task(RunRequest(task="bench", model=f"scripted:{path}"), settings)  # type: ignore[arg-type]
    elapsed = (time.perf_counter() - t) / TURNS
    assert result.verdict == "PASS"
    return elapsed


async def bare() -> float:
    doc = script([("PASS", "OK")])
    replies = [doc["planner"][0], doc["specialist"][0], doc["evaluator"][0]]
    t = time.perf_counter()
    client = ReplayChatCompletionClient(list(replies))
    agents = [AssistantAgent(n, model_client=client, system_message=f"You are the {n}.")
              for n in ("planner", "specialist", "evaluator")]
    team = RoundRobinGroupChat(agents, termination_condition=MaxMessageTermination(TURNS + 1))
    result = await team.run(task="Summarise why sorting matters in three sentences.")
    elapsed = (time.perf_counter() - t) / TURNS
    assert len(result.messages) == TURNS + 1
    return elapsed


async def measure() -> tuple[list[float], list[float]]:
    """Runs of both, alternating, so that a change in machine load hits both alike."""
    tmp = tmpdir()
    settings = bench_settings(tmp)
    path = tmp / "s.json"
    path.write_text(json.dumps(script([("PASS", "OK")])))
    await bare()
    await ours(settings, path)  # warm-up of both (imports, first-call caches)
    a: list[float] = []
    b: list[float] = []
    FSYNCS[0], FSYNC_SECONDS[0] = 0, 0.0
    for _ in range(RUNS):
        os.fsync = _counting_fsync
        a.append(await ours(settings, path))
        os.fsync = _real_fsync
        b.append(await bare())
    return a, b


def main() -> None:
    a, b = asyncio.run(measure())
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"per-turn wall time, median of {RUNS} runs of each, alternating (after one warm-up run of each)")
    print(f"  autogen-pse full run    : {ma * 1000:8.2f} ms/turn  ({FSYNCS[0] / RUNS:.0f} fsyncs per run)")
    print(f"  bare RoundRobinGroupChat: {mb * 1000:8.2f} ms/turn")
    print(f"  overhead ratio          : {ma / mb:8.2f}x  (+{(ma - mb) * 1000:.2f} ms/turn)")
    sync = FSYNC_SECONDS[0] / RUNS / TURNS  # the disk's share: depends on the disk, not on the code
    print(f"  of which fsync          : {sync * 1000:8.2f} ms/turn; without it: {(ma - sync) / mb:.2f}x")


if __name__ == "__main__":
    main()
