"""The run concurrency cap and the queue cap cannot be bypassed by requests that arrive together:
20 simultaneous POSTs → at most ``concurrency`` running at any moment (seen by /api/health while
it happens and by the run_started/run_finished times afterwards), and never more accepted than
``concurrency + max_queue``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from autogen_pse.web import create_app
from tests.web.conftest import WebEnv, asgi_client
from tests.web.web_helpers import ServerThread, make_settings

N = 20


async def _burst(c: httpx.AsyncClient, n: int = N, **body: object) -> list[httpx.Response]:
    return list(await asyncio.gather(*(c.post("/api/runs", json={"task": "demo", **body}) for _ in range(n))))


def _max_overlap(intervals: list[tuple[str, str]]) -> int:
    points = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals],
                    key=lambda p: (p[0], p[1]))  # an end before a start at the same instant
    running = peak = 0
    for _, step in points:
        running += step
        peak = max(peak, running)
    return peak


async def test_simultaneous_posts_cannot_overfill_the_queue(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.05, concurrency=2, max_queue=3, messages=6)
    async with asgi_client(env) as c:
        codes = [r.status_code for r in await _burst(c)]
        assert codes.count(202) == 5 and codes.count(429) == 15, codes
        health = (await c.get("/api/health")).json()
        assert health["running"] <= 2 and health["running"] + health["queued"] <= 5
        while env.executor.active():
            assert (await c.get("/api/health")).json()["running"] <= 2
            await asyncio.sleep(0.02)
        assert env.executor.max_running == 2
        assert (await c.get("/api/runs")).json()["count"] == 5


async def test_simultaneous_posts_respect_the_concurrency_cap(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.02, concurrency=3, max_queue=50, messages=6)
    async with asgi_client(env) as c:
        codes = [r.status_code for r in await _burst(c)]
        assert codes == [202] * N
        peak = 0
        while env.executor.active():
            peak = max(peak, (await c.get("/api/health")).json()["running"])
            await asyncio.sleep(0.005)
        assert peak <= 3 and env.executor.max_running == 3
        assert (await c.get("/api/runs")).json()["count"] == N


@pytest.mark.timeout(180)
async def test_real_executor_runs_at_most_cap_at_once(tmp_path: Path) -> None:
    """The real stack (LocalExecutor on its own loop, scripted model, uvicorn): 20 POSTs at once."""
    script = tmp_path / "slow_blocked.json"
    script.write_text(json.dumps({"planner": [
        {"error": "rate_limit", "retry_after": 0.3},
        "I need input.\n\n```verdict\n" + json.dumps({"outcome": "BLOCKED", "reason": "NEEDS_INPUT",
                                                     "issues": ["which pivot?"], "summary": "needs input"})
        + "\n```",
    ]}))
    settings = make_settings(tmp_path, web_concurrency=2, model=f"scripted:{script}", max_cycles=1)
    with ServerThread(create_app(settings, max_queue=50)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            responses = await _burst(c)
            assert [r.status_code for r in responses] == [202] * N
            ids = {r.json()["run_id"] for r in responses}
            assert len(ids) == N
            seen_running: list[int] = []
            for _ in range(3000):
                health = (await c.get("/api/health")).json()
                seen_running.append(health["running"])
                if health["running"] + health["queued"] == 0:
                    break
                await asyncio.sleep(0.01)
            docs = [(await c.get(f"/api/runs/{i}")).json() for i in ids]
    assert max(seen_running) <= 2 and max(seen_running) >= 1
    assert all(d["status"] == "finished" for d in docs), {d["status"] for d in docs}
    intervals = []
    for run_id in ids:
        events = [json.loads(line) for line in (settings.traces_dir / run_id / "events.jsonl").read_text().splitlines()]
        started = next(e["ts"] for e in events if e["kind"] == "run_started")
        finished = next(e["ts"] for e in events if e["kind"] == "run_finished")
        intervals.append((started, finished))
    assert _max_overlap(intervals) <= 2, sorted(intervals)
