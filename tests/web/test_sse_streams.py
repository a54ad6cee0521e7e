"""SSE against a real uvicorn server: order and ids, Last-Event-ID replay with no gap or duplicate,
identical streams for several subscribers, disconnects and slow subscribers that never affect the
run, keep-alive pings, the retry hint, the end of a stream, the run-level feed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import httpx

from autogen_pse.store import TraceStore
from tests.web.conftest import WebEnv
from tests.web.web_helpers import TOKEN, ServerThread, collect, events_of, iter_frames, make_settings


async def start(c: httpx.AsyncClient, task: str = "demo") -> str:
    r = await c.post("/api/runs", json={"task": task})
    assert r.status_code == 202, r.text
    return str(r.json()["run_id"])


def stored(env: WebEnv, run_id: str) -> list[tuple[int, str]]:
    return [(e.seq, e.kind.value) for e in TraceStore(env.settings).read_events(run_id)]


def pairs(frames: list) -> list[tuple[int, str]]:
    return [(int(f.id), f.event) for f in events_of(frames)]


async def test_stream_order_ids_retry_and_end(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.03, messages=6)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            frames = await collect(c, f"/api/runs/{run_id}/events")
    assert frames[0].retry == 1500
    got = pairs(frames)
    assert [seq for seq, _ in got] == list(range(1, len(got) + 1))
    assert got[0][1] == "run_started" and got[-1][1] == "run_finished"
    for frame in events_of(frames):
        body = frame.json()
        assert body["kind"] == frame.event and str(body["seq"]) == frame.id and body["run_id"] == run_id
    assert frames[-1].event == "stream_end"
    assert frames[-1].json() == {"reason": "finished", "status": "finished"}
    assert got == stored(env, run_id)


async def test_last_event_id_replays_exactly_the_missed_events(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.08, messages=12)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            first = await collect(c, f"/api/runs/{run_id}/events", stop_after=4)
            last_id = events_of(first)[-1].id
            assert last_id == "4"
            await asyncio.sleep(0.4)  # the run goes on while the client is away
            doc = (await c.get(f"/api/runs/{run_id}")).json()
            assert doc["status"] == "running" and doc["last_seq"] > 4  # reconnecting mid-run
            second = await collect(c, f"/api/runs/{run_id}/events", headers={"Last-Event-ID": last_id})
            # ?after= is the same for clients that cannot set headers
            third = await collect(c, f"/api/runs/{run_id}/events?after=4")
    full = stored(env, run_id)
    assert pairs(first) == full[:4]
    assert pairs(second) == full[4:]
    assert pairs(third) == full[4:]


async def test_several_subscribers_get_identical_streams(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.04, messages=9)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            early = [asyncio.create_task(collect(c, f"/api/runs/{run_id}/events")) for _ in range(4)]
            await asyncio.sleep(0.3)
            late = [asyncio.create_task(collect(c, f"/api/runs/{run_id}/events")) for _ in range(2)]
            results = await asyncio.gather(*early, *late)
    full = stored(env, run_id)
    bodies = [[(f.id, f.event, f.data) for f in events_of(frames)] for frames in results]
    assert all(b == bodies[0] for b in bodies)
    assert [(int(i), e) for i, e, _ in bodies[0]] == full


async def test_disconnecting_subscriber_does_not_affect_the_run(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.05, messages=10)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            quitters = [asyncio.create_task(collect(c, f"/api/runs/{run_id}/events", stop_after=2))
                        for _ in range(3)]
            stayer = asyncio.create_task(collect(c, f"/api/runs/{run_id}/events"))
            await asyncio.gather(*quitters)
            frames = await stayer
            doc = (await c.get(f"/api/runs/{run_id}")).json()
            await asyncio.sleep(0.3)
    assert doc["status"] == "finished" and doc["verdict"] == "PASS"
    assert pairs(frames) == stored(env, run_id)
    assert env.hub.subscriber_count(run_id) == 0  # every stream left the hub


async def test_slow_subscriber_is_dropped_from_hub_and_resyncs(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.0, messages=400, queue_size=2)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            streams = [asyncio.create_task(collect(c, f"/api/runs/{run_id}/events")) for _ in range(3)]
            results = await asyncio.gather(*streams)
    full = stored(env, run_id)
    assert len(full) > 400
    for frames in results:
        assert pairs(frames) == full  # nothing lost, nothing twice
    assert env.hub.dropped >= 1  # the hub let the slow readers go instead of waiting for them


async def test_keepalive_pings_while_run_is_quiet(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=1.3, messages=1)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            frames = await collect(c, f"/api/runs/{run_id}/events", timeout=30)
    pings = [f for f in frames if f.event == "" and any(x.startswith("ping") for x in f.comments)]
    assert len(pings) >= 2
    assert pairs(frames) == stored(env, run_id)


async def test_finished_run_replays_then_204_when_nothing_left(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.0)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            run_id = await start(c)
            await env_wait(c, run_id)
            full = await collect(c, f"/api/runs/{run_id}/events")
            last = events_of(full)[-1].id
            back = {"Last-Event-ID": str(int(last) - 2)}
            tail = await collect(c, f"/api/runs/{run_id}/events", headers=back)
            done = await c.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": last})
    assert pairs(full) == stored(env, run_id)
    assert [int(f.id) for f in events_of(tail)] == [int(last) - 1, int(last)]
    assert done.status_code == 204


async def env_wait(c: httpx.AsyncClient, run_id: str) -> None:
    for _ in range(200):
        if (await c.get(f"/api/runs/{run_id}")).json()["status"] == "finished":
            return
        await asyncio.sleep(0.05)
    raise AssertionError("run did not finish")


async def test_queued_run_streams_once_it_starts(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.05, concurrency=1, messages=4)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            first = await start(c)
            second = await start(c)
            assert (await c.get(f"/api/runs/{second}")).json()["status"] == "queued"
            frames = await collect(c, f"/api/runs/{second}/events")
            first_doc = (await c.get(f"/api/runs/{first}")).json()
    assert pairs(frames) == stored(env, second)
    assert first_doc["ended_at"] <= json.loads(events_of(frames)[0].data)["ts"]


async def test_run_level_feed(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.02, messages=3)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            seen: list[dict] = []

            async def listen() -> None:
                async with c.stream("GET", "/api/events") as r:
                    assert r.status_code == 200
                    async for frame in iter_frames(r):
                        if frame.event in ("run_started", "cycle_finished", "run_finished"):
                            seen.append(frame.json())
                            if sum(1 for s in seen if s["kind"] == "run_finished") == 2:
                                return

            listener = asyncio.create_task(listen())
            await asyncio.sleep(0.3)
            ids = {await start(c), await start(c)}
            await asyncio.wait_for(listener, 20)
    assert {s["run_id"] for s in seen} == ids
    for run_id in ids:
        kinds = [s["kind"] for s in seen if s["run_id"] == run_id]
        assert kinds == ["run_started", "cycle_finished", "run_finished"]
        final = next(s for s in seen if s["run_id"] == run_id and s["kind"] == "run_finished")
        assert final["run"]["status"] == "finished" and final["run"]["verdict"] == "PASS"
        assert "message" not in kinds


async def test_sse_with_token_over_real_server(make_env: Callable[..., WebEnv], tmp_path) -> None:
    env = make_env(settings=make_settings(tmp_path, web_token=TOKEN), delay=0.01)
    with ServerThread(env.app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            assert (await c.get("/api/events")).status_code == 401
            assert (await c.post("/api/login", json={"token": TOKEN})).status_code == 200
            run_id = await start(c)  # the cookie now authenticates, as it does for EventSource
            frames = await collect(c, f"/api/runs/{run_id}/events")
    assert pairs(frames) == stored(env, run_id)
