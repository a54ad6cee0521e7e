"""Benchmark: one run fanned out to many SSE subscribers over real HTTP.

A uvicorn server (a subprocess) runs the dashboard app with the SyntheticExecutor on its own loop
thread (as the real executor runs), whose events carry ``t_emit`` (wall clock at emission).
N subscribers (httpx, one asyncio process) connect to ``GET /api/runs/{id}/events`` during the
run's warm-up; then the run emits E events at a fixed rate. Per event and subscriber:
latency = receipt time - t_emit. Every subscriber must receive every seq the store recorded,
exactly once and in order (events lost = 0, duplicates = 0). ``--slow k`` makes k subscribers
read slowly: the run must not slow down and they must still get every event.

Usage: .venv/bin/python bench/bench_sse.py [--subscribers 50] [--events 500] [--interval 0.005]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def serve(port: int, traces: Path, events: int, interval: float, warmup: float) -> None:
    """The server side (run in a subprocess)."""
    import uvicorn

    from autogen_pse.config import Settings
    from autogen_pse.web import create_app
    from autogen_pse.web.hub import EventHub
    from autogen_pse.web.runner_thread import ThreadedExecutor
    from autogen_pse.web.synthetic import SyntheticExecutor, demo_script

    settings = Settings(_env_file=None, traces_dir=traces / "traces", state_dir=traces / "state")
    hub = EventHub()
    # as in production: runs on their own loop thread, events handed to the server loop by the hub
    executor = ThreadedExecutor(
        lambda: SyntheticExecutor(
            settings,
            sinks=[hub.publish],
            delay=interval,
            warmup=warmup,
            script=lambda r: demo_script(r, messages=events - 5),
        )
    )
    uvicorn.run(create_app(settings, executor, hub=hub), host="127.0.0.1", port=port, log_level="warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def subscriber(
    client, url: str, ready: asyncio.Event, got: list[tuple[int, float, float]], pause: float = 0.0
) -> None:
    """Collect (seq, t_emit, t_recv) until the stream ends; ``pause`` s after each event (a slow tab)."""
    async with client.stream("GET", url) as response:
        assert response.status_code == 200, response.status_code
        data = None
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                data = line[6:]
            elif line == "" and data is not None:
                now = time.time()
                body = json.loads(data)
                data = None
                if "seq" not in body:
                    continue  # stream_end
                got.append((body["seq"], body["payload"].get("t_emit", now), now))
                if body["seq"] == 1:
                    ready.set()
                if pause:
                    await asyncio.sleep(pause)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def drive(base: str, subscribers: int, events: int, warmup: float, slow: int, pause: float) -> dict[str, object]:
    import httpx

    limits = httpx.Limits(max_connections=subscribers + 5, max_keepalive_connections=subscribers + 5)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        run_id = (await client.post("/api/runs", json={"task": "demo"})).json()["run_id"]
        url = f"/api/runs/{run_id}/events"
        results = [[] for _ in range(subscribers)]
        readies = [asyncio.Event() for _ in range(subscribers)]
        t0 = time.monotonic()
        tasks = [
            asyncio.create_task(subscriber(client, url, readies[i], results[i], pause if i < slow else 0))
            for i in range(subscribers)
        ]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=warmup)
        connected_in = time.monotonic() - t0
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
        doc = (await client.get(f"/api/runs/{run_id}")).json()
        last_seq = int(doc["last_seq"])
    from datetime import datetime

    took = (
        datetime.fromisoformat(doc["ended_at"].replace("Z", "+00:00"))
        - datetime.fromisoformat(doc["started_at"].replace("Z", "+00:00"))
    ).total_seconds()
    expected = list(range(1, last_seq + 1))  # every event the store recorded
    lost = sum(len(set(expected) - {s for s, _, _ in r}) for r in results)
    dup = sum(len(r) - len({s for s, _, _ in r}) for r in results)
    out_of_order = sum(1 for r in results if [s for s, _, _ in r] != sorted(s for s, _, _ in r))
    fast = results[slow:] or results
    lat = [(recv - emit) * 1000 for r in fast for seq, emit, recv in r if seq > 1]
    return {
        "subscribers": subscribers,
        "events_in_run": last_seq,
        "deliveries": sum(len(r) for r in results),
        "connected_s": round(connected_in, 3),
        "latency_ms_p50": round(statistics.median(lat), 2),
        "latency_ms_p99": round(pct(lat, 99), 2),
        "latency_ms_max": round(max(lat), 2),
        "events_lost": lost,
        "duplicates": dup,
        "streams_out_of_order": out_of_order,
        "slow_subscribers": slow,
        "run_seconds_incl_warmup": round(took, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", type=int, default=50)
    parser.add_argument("--events", type=int, default=500, help="about this many events in the run")
    parser.add_argument("--interval", type=float, default=0.005, help="seconds between events")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--slow", type=int, default=0, help="subscribers that read slowly (latency excludes them)")
    parser.add_argument("--slow-pause", type=float, default=0.05, help="seconds a slow subscriber waits per event")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.port, args.dir, args.events, args.interval, args.warmup)
        return
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        cmd = [
            sys.executable,
            __file__,
            "--serve",
            "--port",
            str(port),
            "--dir",
            tmp,
            "--events",
            str(args.events),
            "--interval",
            str(args.interval),
            "--warmup",
            str(args.warmup),
        ]
        server = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            import httpx

            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.05)
            report = asyncio.run(drive(base, args.subscribers, args.events, args.warmup, args.slow, args.slow_pause))
        finally:
            server.terminate()
            server.wait(timeout=20)
    report["interval_ms"] = args.interval * 1000
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    if report["events_lost"] or report["duplicates"] or report["streams_out_of_order"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
