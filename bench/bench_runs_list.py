"""Benchmark: ``GET /api/runs?limit=50`` with 100 vs 10,000 runs in the index.

For each size a fresh ``traces/index.sqlite`` is filled (rows only: the listing never reads trace
files), a uvicorn server (a subprocess) serves the dashboard on it, and httpx times sequential
requests: the first page, a filtered page (task + verdict, a page both sizes fill) and the second
page by cursor.
Prints p50/p99 per size and the 10,000 / 100 ratio.

Usage: .venv/bin/python bench/bench_runs_list.py [--sizes 100 10000] [--requests 300]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def fill_index(traces: Path, n: int) -> None:
    """``n`` finished runs, one per hour, 3 tasks, 4 verdicts, inserted in one transaction."""
    from autogen_pse.store.ids import new_run_id
    from autogen_pse.store.index import COLUMN_NAMES, RunIndex
    from autogen_pse.store.rows import RunRow

    index = RunIndex(traces / "index.sqlite")  # creates the schema
    rows = []
    for i in range(n):
        started = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(1_700_000_000 + i * 3600))
        row = RunRow(
            run_id=new_run_id(),
            task=("demo", "portfolio-review", "resume-tailor")[i % 3],
            model="scripted:bench.json",
            status="finished",
            verdict=("PASS", "PARTIAL", "FAIL", "BLOCKED")[i % 4],
            cycles=1 + i % 4,
            prompt_tokens=1000 + i,
            completion_tokens=200,
            cost=0.001 * (i % 7),
            currency="USD",
            started_at=started,
            ended_at=started,
            trace_dir=str(traces / "x"),
            verified=i % 4 == 0,
        )
        data = row.model_dump()
        data["verified"] = int(bool(row.verified))
        rows.append(tuple(data[c] for c in COLUMN_NAMES))
    marks = ", ".join("?" * len(COLUMN_NAMES))
    conn = sqlite3.connect(index.db_path)
    with conn:
        conn.executemany(f"INSERT INTO runs ({', '.join(COLUMN_NAMES)}) VALUES ({marks})", rows)
    conn.close()


def serve(port: int, base: Path) -> None:
    """The server side (run in a subprocess)."""
    import uvicorn

    from autogen_pse.config import Settings
    from autogen_pse.web import create_app

    settings = Settings(_env_file=None, traces_dir=base / "traces", state_dir=base / "state")
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, log_level="warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def start_server(n: int, tmp: str) -> tuple[subprocess.Popen[bytes], str, float]:
    """A filled index of ``n`` runs served by a uvicorn subprocess: ``(process, base URL, fill s)``."""
    t0 = time.perf_counter()
    fill_index(Path(tmp) / "traces", n)
    fill_s = time.perf_counter() - t0
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--port", str(port), "--dir", tmp],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return server, f"http://127.0.0.1:{port}", fill_s


def measure(sizes: list[int], requests: int) -> list[dict[str, object]]:
    """Both sizes served at once and asked in turn (small, large, small, …): a change in machine
    load hits both alike, so the ratio is measured side by side."""
    import httpx

    with tempfile.TemporaryDirectory() as tmp_a, tempfile.TemporaryDirectory() as tmp_b:
        started = [start_server(n, tmp) for n, tmp in zip(sizes, (tmp_a, tmp_b), strict=True)]
        try:
            clients = [httpx.Client(base_url=base, timeout=30) for _, base, _ in started]
            outs: list[dict[str, object]] = []
            firsts = []
            for n, client, (_, _, fill_s) in zip(sizes, clients, started, strict=True):
                for _ in range(200):
                    try:
                        if client.get("/api/health").status_code == 200:
                            break
                    except httpx.HTTPError:
                        time.sleep(0.05)
                first = client.get("/api/runs", params={"limit": 50}).json()
                assert first["count"] == n and len(first["data"]) == 50
                firsts.append(first)
                outs.append({"runs": n, "fill_seconds": round(fill_s, 2)})
            for name in ("first_page", "filtered", "second_page"):
                times: list[list[float]] = [[], []]
                for i, (client, first) in enumerate(zip(clients, firsts, strict=True)):
                    params = _query(name, first)
                    for _ in range(10):  # warm-up
                        page = client.get("/api/runs", params=params).json()
                    assert len(page["data"]) == params["limit"], (name, sizes[i])
                for _ in range(requests):
                    for i, (client, first) in enumerate(zip(clients, firsts, strict=True)):
                        t = time.perf_counter()
                        r = client.get("/api/runs", params=_query(name, first))
                        times[i].append((time.perf_counter() - t) * 1000)
                        assert r.status_code == 200
                for out, values in zip(outs, times, strict=True):
                    out[name] = {"p50_ms": round(statistics.median(values), 2), "p99_ms": round(pct(values, 99), 2)}
            for client in clients:
                client.close()
            return outs
        finally:
            for server, _, _ in started:
                server.terminate()
                server.wait(timeout=20)


def _query(name: str, first: dict[str, object]) -> dict[str, object]:
    if name == "first_page":
        return {"limit": 50}
    if name == "filtered":
        # 1 run in 12 matches: 8 rows fill the page at both sizes (100 runs: 9 match), so the
        # ratio compares the same work and shows how the query scales with the index
        return {"limit": 8, "task": "demo", "verdict": "PASS"}
    return {"limit": 50, "cursor": first["next_cursor"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[100, 10_000])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.port, args.dir)
        return
    small, large = measure(args.sizes, args.requests)
    ratios = {
        name: round(large[name]["p50_ms"] / small[name]["p50_ms"], 2)  # type: ignore[index]
        for name in ("first_page", "filtered", "second_page")
    }
    report = {"small": small, "large": large, "p50_ratio_large_over_small": ratios}
    sys.stdout.write(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
