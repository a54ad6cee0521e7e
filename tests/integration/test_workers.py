"""Runs on `pse worker` processes through Celery and a real redis-server (PSE_EXECUTOR=celery).

One redis-server and two workers serve the whole module; only the model is scripted. Shown here:
20 runs over 2 workers with complete, ordered, duplicate-free traces shaped like local runs; the
CLI's output and exit codes; input files sent with the run; SSE from the dashboard with a mid-run
reconnect; cancel within 2 s; a worker killed mid-run → interrupted → resumed on the other worker;
the broker restarted mid-run; a worker whose task copy differs refuses; broker down → exit 3 / 503.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.config import Settings
from autogen_pse.events import RunEvent
from autogen_pse.executor import LocalExecutor
from autogen_pse.remote.executor import CeleryExecutor
from autogen_pse.runner import RunRequest
from autogen_pse.store import TraceStore
from tests.workers_support import ROOT, RedisServer, Worker, free_port, make_tasks, script, write_script

pytestmark = [pytest.mark.workers, pytest.mark.timeout(300)]


@dataclass
class Cluster:
    redis: RedisServer
    workers: list[Worker]
    tasks: Path
    scripts: Path

    def ensure_workers(self) -> None:
        for worker in self.workers:
            if worker.proc is None or worker.proc.poll() is not None:
                worker.start()
        for worker in self.workers:
            worker.wait_ready()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    base = tmp_path_factory.mktemp("cluster")
    redis = RedisServer(base / "redis").start()
    tasks = make_tasks(base)
    workers = [Worker(base / f"worker{i}", redis.url, tasks).start() for i in (1, 2)]
    try:
        for worker in workers:
            worker.wait_ready()
        yield Cluster(redis, workers, tasks, base / "scripts")
    finally:
        for worker in workers:
            worker.stop()
        redis.stop()


def settings_for(cluster: Cluster, tmp: Path, **over: Any) -> Settings:
    values: dict[str, Any] = {"tasks_dir": cluster.tasks, "traces_dir": tmp / "traces", "state_dir": tmp / "state",
                              "broker_url": cluster.redis.url, "heartbeat_timeout": 2.0, "retry_base_delay": 0.001,
                              "retry_max_delay": 1.0, "executor": "celery", **over}
    return Settings(_env_file=None, **values)


def events(settings: Settings, run_id: str) -> list[RunEvent]:
    return TraceStore(settings).read_events(run_id)


def shape(evs: list[RunEvent]) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(e.kind.value, e.cycle, tuple(sorted(e.payload))) for e in evs]


def assert_complete(evs: list[RunEvent]) -> None:
    assert [e.seq for e in evs] == list(range(1, len(evs) + 1))  # ordered, nothing lost, nothing twice
    assert evs[0].kind == "run_started" and evs[-1].kind == "run_finished"


async def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def cycle_started(settings: Settings, run_id: str, cycle: int) -> bool:
    path = settings.traces_dir / run_id / "events.jsonl"
    return path.is_file() and '"kind":"cycle_started"' in path.read_text() and any(
        e.kind == "cycle_started" and e.cycle == cycle for e in events(settings, run_id))


def cli(tmp: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PSE_TRACES_DIR": str(tmp / "traces"),
            "PSE_STATE_DIR": str(tmp / "state"), "HOME": str(tmp), "PSE_HOME": str(tmp / "home"), "COLUMNS": "200",
            "PSE_RETRY_BASE_DELAY": "0.001", "PSE_RETRY_MAX_DELAY": "0.01", "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env={**base, **(env or {})}, timeout=120, cwd=tmp)


# --- throughput and trace shape ----------------------------------------------------------------

async def test_twenty_runs_over_two_workers_have_complete_traces_shaped_like_local_runs(
        cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    before = [w.runs_received() for w in cluster.workers]
    one = write_script(cluster.scripts, "one.json", script(["PASS"], delay=0.05))
    two = write_script(cluster.scripts, "two.json", script(["PARTIAL", "PASS"], delay=0.05))
    settings = settings_for(cluster, tmp_path)
    remote = CeleryExecutor(settings)
    ids = [await remote.submit(RunRequest(task="tiny", model=f"scripted:{one if n % 2 else two}")) for n in range(20)]
    results = await asyncio.wait_for(asyncio.gather(*(remote.wait(i) for i in ids)), 180)
    await remote.shutdown()
    assert all(r is not None and r.verdict == "PASS" and r.verified for r in results)

    local_settings = settings.model_copy(update={"traces_dir": tmp_path / "local", "executor": "local"})
    local = LocalExecutor(local_settings, concurrency=2)
    local_ids = [await local.submit(RunRequest(task="tiny", model=f"scripted:{p}")) for p in (two, one)]
    for run_id in local_ids:
        await local.wait(run_id)
    expected = {p: shape(events(local_settings, i)) for p, i in zip((two, one), local_ids, strict=True)}

    store = TraceStore(settings)
    for n, run_id in enumerate(ids):
        evs = events(settings, run_id)
        assert_complete(evs)
        assert shape(evs) == expected[one if n % 2 else two], run_id
        doc = store.load_trace(run_id)
        assert doc["status"] == "finished" and doc["verdict"] == "PASS"
        assert (store.run_dir(run_id) / "artifact.md").read_text().startswith("Sorting makes search fast")
        assert evs[0].payload["trace_dir"] == str(store.run_dir(run_id))  # the server's folder, not the worker's
    rows = store.list_runs(limit=50).data
    assert sorted(r.run_id for r in rows) == sorted(ids) and {r.verdict for r in rows} == {"PASS"}
    received = [w.runs_received() - b for w, b in zip(cluster.workers, before, strict=True)]
    assert sum(received) == 20 and min(received) >= 3, received  # both workers took runs


# --- the CLI -------------------------------------------------------------------------------------

def _normal(text: str) -> str:
    text = re.sub(r"[0-9A-HJKMNP-TV-Z]{26}", "RUN", text)
    text = re.sub(r"/\S*/(traces|local)/", "/T/", text)
    text = re.sub(r"\d+(\.\d+)? tok/s", "N tok/s", text)
    text = re.sub(r"\d+(\.\d+)?\s?s\b", "Ns", text)
    return "\n".join(re.sub(r"\s+", " ", line).strip() for line in text.splitlines())


def test_cli_remote_run_prints_like_a_local_run_and_sends_input_files(cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    doc = write_script(cluster.scripts, "cli.json", script(["PARTIAL", "PASS"]))
    notes = tmp_path / "notes.txt"
    notes.write_text("the sorting notes of this machine only")
    env = {"PSE_TASKS_DIR": str(cluster.tasks), "PSE_BROKER_URL": cluster.redis.url}
    args = ("run", "tiny", "--model", f"scripted:{doc}", "--var", f"notes={notes}")
    local = cli(tmp_path, *args, env={**env, "PSE_TRACES_DIR": str(tmp_path / "local")})
    remote = cli(tmp_path, *args, "--executor", "celery", env=env)
    assert remote.returncode == local.returncode == 0, remote.stderr
    assert _normal(remote.stdout) == _normal(local.stdout)
    (run_dir,) = [p for p in (tmp_path / "traces").iterdir() if p.is_dir()]
    evs = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert evs[0]["payload"]["vars"] == {"notes": str(notes)}  # the submitted value, not the worker's copy
    first = next(e for e in evs if e["kind"] == "cycle_started")
    assert "the sorting notes of this machine only" in first["payload"]["task_text"]

    summary = cli(tmp_path, "run", "tiny", "--model", f"scripted:{doc}", "--executor", "celery", "--json", env=env)
    assert summary.returncode == 0 and json.loads(summary.stdout)["verdict"] == "PASS"
    listed = json.loads(cli(tmp_path, "trace", "-n", "5", "--json").stdout)["data"]
    assert len(listed) == 2 and {r["verdict"] for r in listed} == {"PASS"}


def test_bad_input_is_refused_before_any_run_id(cluster: Cluster, tmp_path: Path) -> None:
    doc = write_script(cluster.scripts, "bad.json", script(["PASS"]))
    env = {"PSE_TASKS_DIR": str(cluster.tasks), "PSE_BROKER_URL": cluster.redis.url}
    missing = cli(tmp_path, "run", "tiny", "--model", f"scripted:{doc}", "--var", f"notes={tmp_path / 'nope.txt'}",
                  "--executor", "celery", env=env)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1 and "nope.txt" in missing.stderr
    big = tmp_path / "big.txt"
    big.write_text("x" * 5000)
    capped = cli(tmp_path, "run", "tiny", "--model", f"scripted:{doc}", "--var", f"notes={big}", "--executor", "celery",
                 env={**env, "PSE_REMOTE_INPUT_CAP": "1000"})
    assert capped.returncode == 2 and "PSE_REMOTE_INPUT_CAP" in capped.stderr
    assert len(capped.stderr.strip().splitlines()) == 1 and "Traceback" not in capped.stderr
    assert not any((tmp_path / "traces").glob("*/events.jsonl"))


def test_broker_down_at_submission_is_exit_3_and_503(cluster: Cluster, tmp_path: Path) -> None:
    doc = write_script(cluster.scripts, "down.json", script(["PASS"]))
    dead = f"redis://127.0.0.1:{free_port()}/0"
    proc = cli(tmp_path, "run", "tiny", "--model", f"scripted:{doc}", "--executor", "celery",
               env={"PSE_TASKS_DIR": str(cluster.tasks), "PSE_BROKER_URL": dead})
    assert proc.returncode == 3, proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    assert "broker" in line and "unreachable" in line and "PSE_BROKER_URL" in line
    assert not any((tmp_path / "traces").glob("*/events.jsonl"))

    from fastapi.testclient import TestClient

    from autogen_pse.web import create_app

    settings = settings_for(cluster, tmp_path, broker_url=dead, web_scripted_dir=cluster.scripts)
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        r = client.post("/api/runs", json={"task": "tiny", "model": "scripted:down.json"})
        assert r.status_code == 503 and "unreachable" in r.json()["detail"]
        bad = client.post("/api/runs", json={"task": "tiny", "model": "scripted:down.json",
                                             "vars": {"notes": "/nope/missing.txt"}})
        assert bad.status_code == 422  # user errors come first, broker or not


def test_worker_with_a_different_task_version_refuses(cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    doc = write_script(cluster.scripts, "version.json", script(["PASS"]))
    changed = tmp_path / "changed-tasks"
    shutil.copytree(cluster.tasks, changed)
    (changed / "tiny" / "task.md").write_text("Summarise why sorting matters in two sentences.\n")
    proc = cli(tmp_path, "run", "tiny", "--model", f"scripted:{doc}", "--executor", "celery",
               env={"PSE_TASKS_DIR": str(changed), "PSE_BROKER_URL": cluster.redis.url})
    assert proc.returncode == 3, proc.stdout + proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert "refuses" in line and "task 'tiny' differs" in line and "same task version" in line
    assert not any((tmp_path / "traces").glob("*/events.jsonl"))


# --- control and faults --------------------------------------------------------------------------

async def test_cancel_reaches_the_worker_within_two_seconds(cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    slow = write_script(cluster.scripts, "cancel.json", script(["PASS"], delay=20))
    settings = settings_for(cluster, tmp_path)
    remote = CeleryExecutor(settings)
    run_id = await remote.submit(RunRequest(task="tiny", model=f"scripted:{slow}"))
    await wait_for(lambda: cycle_started(settings, run_id, 1), 30, "the first cycle")
    t0, wall0 = time.monotonic(), time.time()
    assert await remote.cancel(run_id)
    result = await asyncio.wait_for(remote.wait(run_id), 10)
    elapsed = time.monotonic() - t0
    await remote.shutdown()
    assert result is not None and result.status == "cancelled"
    evs = events(settings, run_id)
    assert_complete(evs)
    logs = "".join(w.log_path.read_text() for w in cluster.workers)
    (received,) = re.findall(rf"run {run_id}: cancel received at (\d+\.\d+)", logs)
    reached = float(received) - wall0
    assert reached < 2.0, f"the cancel reached the worker after {reached:.2f} s"
    stopped = datetime.fromisoformat(evs[-1].ts.replace("Z", "+00:00")).timestamp() - wall0
    # the engine's own stop (a turn gets 1 s to wind down) follows; then the end travels back
    assert stopped < 3.0 and elapsed < 3.5, f"run ended on the worker after {stopped:.2f} s, at the server {elapsed:.2f} s"
    assert TraceStore(settings).load_trace(run_id)["status"] == "cancelled"


async def test_killed_worker_interrupts_then_the_run_resumes_on_the_other_worker(
        cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    doc = write_script(cluster.scripts, "kill.json", script(["PARTIAL", "PASS"], delay=1.5, slow_from_cycle=2))
    settings = settings_for(cluster, tmp_path, retry_interrupted=True)
    remote = CeleryExecutor(settings)
    run_id = await remote.submit(RunRequest(task="tiny", model=f"scripted:{doc}"))
    await wait_for(lambda: cycle_started(settings, run_id, 2), 30, "the second cycle")
    (victim,) = [w for w in cluster.workers if w.holds(run_id)]
    (other,) = [w for w in cluster.workers if w is not victim]
    taken = other.runs_received()
    victim.kill()
    t0 = time.monotonic()
    await wait_for(lambda: TraceStore(settings).load_trace(run_id, fresh=True).get("status") == "interrupted"
                   or any(e.kind == "resumed" for e in events(settings, run_id)), 15, "the interruption")
    noticed = time.monotonic() - t0
    result = await asyncio.wait_for(remote.wait(run_id), 60)
    await remote.shutdown()
    assert noticed < settings.heartbeat_timeout + 2.0
    assert result is not None and result.verdict == "PASS" and result.cycles == 2
    assert other.runs_received() == taken + 1
    evs = events(settings, run_id)
    assert_complete(evs)
    kinds = [e.kind.value for e in evs]
    assert kinds.count("run_started") == 1 and kinds.count("run_finished") == 1
    (resumed,) = [e for e in evs if e.kind == "resumed"]
    assert resumed.payload["previous_status"] == "interrupted" and resumed.payload["from_cycle"] == 2
    doc_ = TraceStore(settings).load_trace(run_id)
    assert doc_["status"] == "finished" and doc_["verdict"] == "PASS"
    cluster.ensure_workers()


async def test_broker_restart_mid_run_loses_and_duplicates_nothing(cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    doc = write_script(cluster.scripts, "restart.json", script(["PARTIAL", "PARTIAL", "PASS"], delay=0.4))
    settings = settings_for(cluster, tmp_path, heartbeat_timeout=15.0)
    remote = CeleryExecutor(settings)
    run_id = await remote.submit(RunRequest(task="tiny", model=f"scripted:{doc}"))
    await wait_for(lambda: cycle_started(settings, run_id, 1), 30, "the first cycle")
    cluster.redis.stop()
    await asyncio.sleep(1.5)  # the run goes on; its events wait in the worker
    cluster.redis.start()
    result = await asyncio.wait_for(remote.wait(run_id), 90)
    await remote.shutdown()
    assert result is not None and result.verdict == "PASS" and result.cycles == 3

    local_settings = settings.model_copy(update={"traces_dir": tmp_path / "local", "executor": "local"})
    local = LocalExecutor(local_settings, concurrency=1)
    local_id = await local.submit(RunRequest(task="tiny", model=f"scripted:{doc}"))
    await local.wait(local_id)
    evs = events(settings, run_id)
    assert_complete(evs)
    assert shape(evs) == shape(events(local_settings, local_id))
    cluster.ensure_workers()


# --- the dashboard -------------------------------------------------------------------------------

async def test_dashboard_streams_a_remote_run_with_a_mid_run_reconnect(cluster: Cluster, tmp_path: Path) -> None:
    from autogen_pse.web import create_app
    from tests.web.web_helpers import ServerThread, collect, events_of

    cluster.ensure_workers()
    write_script(cluster.scripts, "sse.json", script(["PARTIAL", "PASS"], delay=0.3))
    settings = settings_for(cluster, tmp_path, web_scripted_dir=cluster.scripts)
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            r = await c.post("/api/runs", json={"task": "tiny", "model": "scripted:sse.json"})
            assert r.status_code == 202, r.text
            run_id = r.json()["run_id"]
            first = await collect(c, f"/api/runs/{run_id}/events", stop_after=4, timeout=60)
            last_id = events_of(first)[-1].id
            doc = (await c.get(f"/api/runs/{run_id}")).json()
            assert doc["status"] == "running" and doc["active"]
            await asyncio.sleep(0.8)  # the run goes on while the client is away
            second = await collect(c, f"/api/runs/{run_id}/events", headers={"Last-Event-ID": str(last_id)},
                                   timeout=60)
            final = (await c.get(f"/api/runs/{run_id}")).json()
    got = [(int(f.id), f.event) for f in events_of(first) + events_of(second)]
    stored = [(e.seq, e.kind.value) for e in events(settings, run_id)]
    assert got == stored and [s for s, _ in got] == list(range(1, len(got) + 1))
    assert second[-1].event == "stream_end" and final["status"] == "finished" and final["verdict"] == "PASS"


async def test_a_new_server_process_follows_the_runs_of_one_that_died(cluster: Cluster, tmp_path: Path) -> None:
    cluster.ensure_workers()
    # each cycle lasts 9 s: the run is still going (for 18 s from its first cycle's start) when the
    # first process dies, even on a busy machine (CI once saw a run with only its second cycle slow end first)
    doc = write_script(cluster.scripts, "adopt.json", script(["PARTIAL", "PASS"], delay=3.0))
    settings = settings_for(cluster, tmp_path)
    first = CeleryExecutor(settings)
    run_id = await first.submit(RunRequest(task="tiny", model=f"scripted:{doc}"))
    await wait_for(lambda: cycle_started(settings, run_id, 1), 30, "the first cycle")
    follower = first._followers[run_id]  # the first process dies: its follower stops, the run goes on
    assert follower.task is not None
    follower.task.cancel()
    await asyncio.gather(follower.task, return_exceptions=True)
    await first.redis().aclose()
    assert TraceStore(settings).load_trace(run_id, fresh=True)["status"] == "running"

    second = CeleryExecutor(settings)
    assert await second.adopt_running() == [run_id]
    result = await asyncio.wait_for(second.wait(run_id), 60)
    await second.shutdown()
    assert result is not None and result.verdict == "PASS"
    evs = events(settings, run_id)
    assert_complete(evs)
    assert TraceStore(settings).load_trace(run_id)["status"] == "finished"


async def test_without_retry_a_killed_worker_leaves_an_interrupted_run_that_resumes_by_hand(
        cluster: Cluster, tmp_path: Path) -> None:
    from autogen_pse.errors import RunError

    cluster.ensure_workers()
    doc = write_script(cluster.scripts, "byhand.json", script(["PARTIAL", "PASS"], delay=1.5, slow_from_cycle=2))
    settings = settings_for(cluster, tmp_path, heartbeat_timeout=1.5)
    remote = CeleryExecutor(settings)
    run_id = await remote.submit(RunRequest(task="tiny", model=f"scripted:{doc}"))
    await wait_for(lambda: cycle_started(settings, run_id, 2), 30, "the second cycle")
    (victim,) = [w for w in cluster.workers if w.holds(run_id)]
    victim.kill()
    t0 = time.monotonic()
    with pytest.raises(RunError, match=f"interrupted: its worker sent no heartbeat for 1.5 s; continue it with `pse run --resume {run_id}`"):
        await asyncio.wait_for(remote.wait(run_id), 30)
    assert time.monotonic() - t0 < 1.5 + 5  # the timeout, the follower's poll, marking the trace (slack for a busy machine)
    assert TraceStore(settings).load_trace(run_id)["status"] == "interrupted"
    assert TraceStore(settings).get(run_id).status == "interrupted"

    again = await remote.submit(RunRequest(task="", resume=run_id))
    result = await asyncio.wait_for(remote.wait(again), 60)
    await remote.shutdown()
    assert again == run_id and result is not None and result.verdict == "PASS"
    evs = events(settings, run_id)
    assert_complete(evs)
    assert [e.kind.value for e in evs].count("resumed") == 1
    cluster.ensure_workers()


async def test_a_second_delivery_of_a_running_order_is_dropped(cluster: Cluster, tmp_path: Path) -> None:
    from autogen_pse.remote.celery_app import send_order

    cluster.ensure_workers()
    doc = write_script(cluster.scripts, "twice.json", script(["PARTIAL", "PASS"], delay=0.5))
    settings = settings_for(cluster, tmp_path)
    remote = CeleryExecutor(settings)
    run_id = await remote.submit(RunRequest(task="tiny", model=f"scripted:{doc}"))
    await wait_for(lambda: cycle_started(settings, run_id, 1), 30, "the first cycle")
    order = remote._followers[run_id].order
    await asyncio.to_thread(send_order, remote._celery(), order.model_dump())  # e.g. a redelivery
    result = await asyncio.wait_for(remote.wait(run_id), 60)
    await remote.shutdown()
    assert result is not None and result.verdict == "PASS"
    assert_complete(events(settings, run_id))
    logs = "".join(w.log_path.read_text() for w in cluster.workers)
    assert f"run {run_id} attempt 1: busy; this delivery is dropped" in logs
