"""The real stack: create_app's default executor (LocalExecutor on its own loop thread), the
scripted model, the trace store, a real uvicorn server — start, stream, cancel, cap, prepare,
interrupted runs, and an API that stays responsive while a run's checks block."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import httpx
import pytest

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store import TraceStore
from autogen_pse.store.ids import new_run_id
from autogen_pse.web import create_app
from autogen_pse.web.deps import StreamConfig
from tests.web.web_helpers import ROOT, ServerThread, collect, events_of, make_settings

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
FAST = StreamConfig(retry_ms=1000, ping=1.0, idle=0.2)


def model(name: str) -> str:
    return f"scripted:{SCRIPTED / name}"


async def start(c: httpx.AsyncClient, **body: object) -> str:
    r = await c.post("/api/runs", json={"task": "demo", **body})
    assert r.status_code == 202, r.text
    return str(r.json()["run_id"])


@pytest.mark.timeout(180)
async def test_pass_run_streams_to_completion(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            run_id = await start(c, model=model("web_demo_pass.json"), max_cycles=2)
            latencies: list[float] = []

            async def probe() -> None:  # the API must answer while pytest checks run in the run
                while True:
                    t0 = time.perf_counter()
                    assert (await c.get("/api/health")).status_code == 200
                    latencies.append(time.perf_counter() - t0)
                    await asyncio.sleep(0.1)

            prober = asyncio.create_task(probe())
            frames = await collect(c, f"/api/runs/{run_id}/events", timeout=150)
            prober.cancel()
            doc = (await c.get(f"/api/runs/{run_id}")).json()
            art = await c.get(f"/api/runs/{run_id}/artifact")
            passes = (await c.get("/api/runs", params={"verdict": "PASS"})).json()
    kinds = [f.event for f in events_of(frames)]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert {"message", "tool_call", "tool_result", "verdict", "check", "cycle_finished", "artifact"} <= set(kinds)
    assert [int(f.id) for f in events_of(frames)] == list(range(1, len(kinds) + 1))
    final = events_of(frames)[-1].json()["payload"]
    assert final["status"] == "finished" and final["verdict"] == "PASS" and final["verified"] is True
    assert doc["status"] == "finished" and doc["verdict"] == "PASS" and doc["artifact"]["verified"] is True
    sources = [m["source"] for m in doc["cycles"][0]["messages"]]
    assert {"planner", "specialist", "evaluator"} <= set(sources)
    assert art.status_code == 200 and "def quicksort" in art.text
    assert [r["run_id"] for r in passes["data"]] == [run_id]
    assert max(latencies) < 1.0, f"API blocked for {max(latencies):.2f}s while the run checked"


@pytest.mark.timeout(120)
async def test_cancel_stops_run_within_seconds_and_keeps_trace(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            run_id = await start(c, model=model("web_demo_slow.json"))
            early = await collect(c, f"/api/runs/{run_id}/events", stop_after=2, timeout=30)
            assert [f.event for f in events_of(early)] == ["run_started", "cycle_started"]
            t0 = time.monotonic()
            r = await c.post(f"/api/runs/{run_id}/cancel", json={})
            assert r.status_code == 202
            rest = await collect(c, f"/api/runs/{run_id}/events",
                                 headers={"Last-Event-ID": events_of(early)[-1].id}, timeout=30)
            elapsed = time.monotonic() - t0
            doc = (await c.get(f"/api/runs/{run_id}")).json()
            again = await c.post(f"/api/runs/{run_id}/cancel", json={})
    assert elapsed < 8, f"cancel took {elapsed:.1f}s"
    final = events_of(rest)[-1]
    assert final.event == "run_finished" and final.json()["payload"]["status"] == "cancelled"
    assert doc["status"] == "cancelled" and doc["active"] is False
    assert (settings.traces_dir / run_id / "events.jsonl").is_file()
    assert (settings.traces_dir / run_id / "trace.json").is_file()
    assert again.status_code == 409


@pytest.mark.timeout(120)
async def test_concurrency_cap_and_queue_with_real_executor(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, web_concurrency=1)
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            first = await start(c, model=model("web_demo_slow.json"))
            second = await start(c, model=model("web_demo_slow.json"))
            await collect(c, f"/api/runs/{first}/events", stop_after=1)
            health = (await c.get("/api/health")).json()
            assert health["concurrency"] == 1 and health["running"] == 1 and health["queued"] == 1
            assert (await c.get(f"/api/runs/{second}")).json()["status"] == "queued"
            await c.post(f"/api/runs/{second}/cancel", json={})
            await c.post(f"/api/runs/{first}/cancel", json={})
            end = await collect(c, f"/api/runs/{first}/events?after=1", timeout=30)
            assert end[-1].event == "stream_end"
            for _ in range(100):
                if (await c.get(f"/api/runs/{second}")).json()["status"] == "cancelled":
                    break
                await asyncio.sleep(0.05)
            assert (await c.get(f"/api/runs/{second}")).json()["status"] == "cancelled"


async def test_bad_requests_from_the_real_executor_are_422(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            bad_model = await c.post("/api/runs", json={"task": "demo", "model": "nope:x"})
            # a missing scripted file is refused before the run is accepted
            missing = await c.post("/api/runs", json={"task": "demo", "model": f"scripted:{SCRIPTED}/no/such.json"})
            assert missing.status_code == 422 and "such.json" in missing.json()["detail"]
            listing = (await c.get("/api/runs")).json()
    assert bad_model.status_code == 422 and "unknown model spec" in bad_model.json()["detail"]
    assert listing["count"] == 0


def _prepare_task(tmp_path: Path) -> Path:
    """A copy of the demo task with a prepare hook that reads data/input.txt."""
    tasks = tmp_path / "tasks"
    shutil.copytree(ROOT / "tasks" / "demo", tasks / "prep-demo")
    (tasks / "prep-demo" / "data").mkdir()
    (tasks / "prep-demo" / "data" / "input.txt").write_text("42\n")
    (tasks / "prep-demo" / "prepare.py").write_text(
        "from autogen_pse.hooks import Fact, Prepared\n\n\n"
        "def prepare(ctx):\n"
        "    value = int((ctx.task_dir / 'data' / 'input.txt').read_text())\n"
        "    text = (ctx.task_dir / 'task.md').read_text()\n"
        "    return Prepared(task_text=text, facts={'n': Fact(id='n', value=value)})\n")
    registry = (ROOT / "tasks" / "_registry.json").read_text().replace('"name": "demo"', '"name": "prep-demo"')
    (tasks / "_registry.json").write_text(registry)
    return tasks


@pytest.mark.timeout(180)
async def test_prepare_before_run_is_announced(tmp_path: Path) -> None:
    tasks = _prepare_task(tmp_path)
    settings = make_settings(tmp_path, tasks_dir=tasks)
    blocked = model("web_demo_blocked.json")
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=60) as c:
            listed = (await c.get("/api/tasks")).json()["data"][0]
            assert listed["has_prepare"] is True and listed["needs_prepare"] is True
            r1 = (await c.post("/api/runs", json={"task": "prep-demo", "model": blocked})).json()
            e1 = await collect(c, f"/api/runs/{r1['run_id']}/events", timeout=60)
            r2 = (await c.post("/api/runs", json={"task": "prep-demo", "model": blocked})).json()
            e2 = await collect(c, f"/api/runs/{r2['run_id']}/events", timeout=60)
            time.sleep(0.05)
            (tasks / "prep-demo" / "data" / "input.txt").write_text("43\n")  # inputs newer than facts
            assert (await c.get("/api/tasks")).json()["data"][0]["needs_prepare"] is True
            r3 = (await c.post("/api/runs", json={"task": "prep-demo", "model": blocked})).json()
            e3 = await collect(c, f"/api/runs/{r3['run_id']}/events", timeout=60)

    def prepared(frames: list) -> dict:
        found = [f.json()["payload"] for f in events_of(frames) if f.event == "prepared"]
        assert len(found) == 1
        return found[0]

    assert r1["prepare"] is True and prepared(e1)["reprepared"] is True
    assert r2["prepare"] is False and prepared(e2)["reprepared"] is False
    assert r3["prepare"] is True and prepared(e3)["reprepared"] is True
    assert [f.event for f in events_of(e1)][:2] == ["run_started", "prepared"]
    final = events_of(e1)[-1].json()["payload"]
    assert final["verdict"] == "BLOCKED"


async def test_startup_marks_interrupted_runs(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    store = TraceStore(settings)
    run_id = new_run_id()
    store.create_run(run_id)
    sink = store.sink(run_id)
    sink.handle(RunEvent(run_id=run_id, seq=1, kind=EventKind.RUN_STARTED, payload={"task": "demo"}))
    sink.close()  # the "process" died: no run_finished
    assert store.get(run_id).status == "running"
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url) as c:
            doc = (await c.get(f"/api/runs/{run_id}")).json()
            listed = (await c.get("/api/runs", params={"status": "interrupted"})).json()
            stream = await c.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": "1"})
    assert doc["status"] == "interrupted" and doc["active"] is False
    assert [r["run_id"] for r in listed["data"]] == [run_id]
    assert stream.status_code == 204
