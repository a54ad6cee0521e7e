"""Benchmark: runs on 1, 2 and 4 `pse worker` processes (Celery + a real redis-server).

Part 1 — scale-out. N scripted runs of a tool-free task (one PASS cycle: three model calls), each
model call sleeping ``--delay`` s (the work is waiting on a model, not CPU), submitted at once
through the CeleryExecutor to W worker processes (``--concurrency 1`` each). Wall time from the
first submit to the last result; speed-up = wall(1 worker) / wall(W workers).

Part 2 — per-event overhead. One run of ``--cycles`` cycles with no model delay, local
(in-process) against remote (1 worker): wall time per event, and the delivery latency of each
event on the Redis path (emitted on the worker → written into the server's trace).

Every run's trace is checked: seq 1..n, run_started first, run_finished last, verdict PASS.

Usage: .venv/bin/python bench/bench_workers.py [--runs 40] [--delay 0.5] [--workers 1,2,4] [--cycles 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.workers_support import RedisServer, Worker, make_tasks, script, write_script  # noqa: E402

from autogen_pse.config import Settings  # noqa: E402
from autogen_pse.events import RunEvent  # noqa: E402
from autogen_pse.store import TraceStore  # noqa: E402

REPEAT = 5


def settings_for(tmp: Path, tasks: Path, broker: str, name: str, executor: str = "celery") -> Settings:
    return Settings(_env_file=None, tasks_dir=tasks, traces_dir=tmp / name / "traces", state_dir=tmp / name / "state",
                    broker_url=broker, executor=executor, heartbeat_timeout=10.0, retry_base_delay=0.001,
                    max_cycles=50, max_partial=50)


def check_trace(settings: Settings, run_id: str) -> int:
    events = TraceStore(settings).read_events(run_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1)), run_id
    assert events[0].kind == "run_started" and events[-1].kind == "run_finished", run_id
    assert events[-1].payload.get("verdict") == "PASS", run_id
    return len(events)


async def batch(settings: Settings, model: str, runs: int, latencies: list[float]) -> tuple[float, int]:
    from autogen_pse.remote.executor import CeleryExecutor
    from autogen_pse.runner import RunRequest

    executor = CeleryExecutor(settings, sinks=[lambda e: latencies.append(time.time() - _ts(e))])
    t0 = time.perf_counter()
    ids = [await executor.submit(RunRequest(task="tiny", model=model)) for _ in range(runs)]
    await asyncio.gather(*(executor.wait(i) for i in ids))
    wall = time.perf_counter() - t0
    await executor.shutdown()
    return wall, sum(check_trace(settings, i) for i in ids)


def _ts(event: RunEvent) -> float:
    return datetime.fromisoformat(event.ts.replace("Z", "+00:00")).timestamp()


async def one_run(settings: Settings, model: str) -> tuple[float, int, list[float]]:
    """Wall time, events and (remote only) per-event delivery latencies of one run."""
    from autogen_pse.executor import open_executor
    from autogen_pse.runner import RunRequest

    latencies: list[float] = []

    def sink(event: RunEvent) -> None:  # runs after the trace store wrote the event
        latencies.append(time.time() - _ts(event))

    executor = open_executor(settings, sinks=[sink], concurrency=1)
    t0 = time.perf_counter()
    run_id = await executor.submit(RunRequest(task="tiny", model=model))
    await executor.wait(run_id)
    wall = time.perf_counter() - t0
    await executor.shutdown()
    return wall, check_trace(settings, run_id), latencies


def sink_costs(settings: Settings, run_id: str, broker: str, tmp: Path) -> tuple[float, float, float]:
    """Per-event cost (ms) of the run's first sink: the trace store's RunSink (local) against the
    worker's StreamPublisher (serialise + queue; and until every event is in the Redis stream)."""
    from autogen_pse.remote import keys
    from autogen_pse.remote.broker import connect
    from autogen_pse.remote.publisher import StreamPublisher
    from autogen_pse.store import RunSink
    from autogen_pse.store.ids import new_run_id

    evs = TraceStore(settings).read_events(run_id)
    local_id, remote_id = new_run_id(), new_run_id()
    (tmp / "sinkcost" / local_id).mkdir(parents=True)
    sink = RunSink(local_id, tmp / "sinkcost" / local_id, None)
    t0 = time.perf_counter()
    for e in evs:
        sink.handle(e.model_copy(update={"run_id": local_id}))
    local = (time.perf_counter() - t0) / len(evs) * 1000
    sink.close()
    client = connect(broker)
    client.set(keys.lease(remote_id), "bench", px=60_000)
    pub = StreamPublisher(client, remote_id, "bench", tmp / "sinkcost" / remote_id, replace={}, files_cap=1 << 20,
                          on_fenced=lambda: None)
    t0 = time.perf_counter()
    for e in evs:
        pub.handle(e.model_copy(update={"run_id": remote_id}))
    queued = (time.perf_counter() - t0) / len(evs) * 1000
    pub.flush(60)
    stored = (time.perf_counter() - t0) / len(evs) * 1000
    assert client.xlen(keys.stream(remote_id)) == len(evs)
    pub.close()
    client.close()
    return local, queued, stored


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--delay", type=float, default=0.5)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--cycles", type=int, default=20, help="cycles of the per-event run (<= 50)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pse-bench-workers-"))
    tasks = make_tasks(tmp)
    scripts = tmp / "scripts"
    slow = write_script(scripts, "slow.json", script(["PASS"], delay=args.delay))
    many = write_script(scripts, "many.json", script(["PARTIAL"] * (args.cycles - 1) + ["PASS"]))
    redis = RedisServer(tmp / "redis").start()
    workers: list[Worker] = []
    rows: list[tuple[int, float, int]] = []
    slow_lat: list[float] = []
    try:
        for count in [int(n) for n in args.workers.split(",")] if args.runs else []:
            while len(workers) < count:
                workers.append(Worker(tmp / f"worker{len(workers) + 1}", redis.url, tasks).start())
            for w in workers:
                w.wait_ready()
            settings = settings_for(tmp, tasks, redis.url, f"scale{count}")
            wall, events = asyncio.run(batch(settings, f"scripted:{slow}", args.runs, slow_lat))
            rows.append((count, wall, events))
            print(f"  {count} worker(s): {wall:.1f} s", flush=True)
        for w in workers[1:]:
            w.stop()
        if not workers:
            workers.append(Worker(tmp / "worker1", redis.url, tasks).start().wait_ready())
        remote = settings_for(tmp, tasks, redis.url, "remote")
        local = settings_for(tmp, tasks, redis.url, "local", executor="local")
        asyncio.run(one_run(local, f"scripted:{many}"))  # warm imports and the prepared-facts cache
        asyncio.run(one_run(remote, f"scripted:{many}"))  # and the worker's (its first run imports the engine)
        l_walls, r_walls, lat = [], [], []
        for _ in range(REPEAT):  # alternated, median of each: the machine's load drifts
            l_wall, l_events, _ = asyncio.run(one_run(local, f"scripted:{many}"))
            r_wall, r_events, r_lat = asyncio.run(one_run(remote, f"scripted:{many}"))
            l_walls.append(l_wall)
            r_walls.append(r_wall)
            lat += r_lat
        l_wall, r_wall = statistics.median(l_walls), statistics.median(r_walls)
        last_local = TraceStore(local).list_runs(limit=1).data[0].run_id
        costs = [sink_costs(local, last_local, redis.url, tmp) for _ in range(REPEAT)]
        c_local, c_queued, c_stored = (statistics.median(c[i] for c in costs) for i in range(3))
    finally:
        for w in workers:
            w.stop()
        redis.stop()

    base = rows[0][1] if rows else 0.0
    print(f"\n{args.runs} runs x 3 model calls of {args.delay} s each (serial model time per run "
          f"{3 * args.delay:.1f} s), worker processes with --concurrency 1")
    print(f"{'workers':>8} {'wall s':>8} {'runs/min':>9} {'speed-up':>9} {'events':>7}")
    for count, wall, events in rows:
        print(f"{count:>8} {wall:>8.1f} {args.runs / wall * 60:>9.1f} {base / wall:>8.2f}x {events:>7}")
    print(f"\none run of {args.cycles} cycles, no model delay: {l_events} events (median of {REPEAT} runs each)")
    print(f"{'path':>8} {'wall s':>8} {'ms/event':>9}")
    print(f"{'local':>8} {l_wall:>8.2f} {l_wall / l_events * 1000:>9.2f}")
    print(f"{'redis':>8} {r_wall:>8.2f} {r_wall / r_events * 1000:>9.2f}")
    print(f"overhead of the Redis path: {(r_wall - l_wall) / r_events * 1000:+.2f} ms/event "
          f"(ratio {r_wall / l_wall:.2f}x, including queueing the run and its start on the worker)")
    print(f"the run's first sink, per event: trace store {c_local:.3f} ms (append, fsync at checkpoints) · "
          f"Redis publisher {c_queued:.3f} ms on the run's path ({c_queued / c_local:.2f}x), "
          f"{c_stored:.3f} ms until in the stream")
    for label, values in (("this CPU-bound run", lat), (f"the {args.runs}-run batches", slow_lat)):
        if values:
            ms = sorted(x * 1000 for x in values)
            print(f"delivery latency worker emit → server trace, {label}: median {statistics.median(ms):.1f} ms, "
                  f"p95 {ms[int(len(ms) * 0.95) - 1]:.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
