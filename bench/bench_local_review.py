"""portfolio-review on the embedded local model: the old free-prose path against the structured one.

Runs the task N times per path on the local model (what `make review` runs) and prints, side by
side: wall time per run (median, max), per model call (median, max), prompt and completion tokens
per call (median, max), how many runs leave an artifact whose checks all pass (no error-severity
check fails) and how many end PASS. Targets (idle 2-core machine): median run ≤ 180 s, every call
≤ 1,500 prompt tokens, an artifact whose checks all pass in ≥ 9 of 10 runs. The load average is
printed with the figures: on a busy machine every time grows.

    .venv/bin/python bench/bench_local_review.py [--runs 5] [--old-runs 5] [--max-cycles 2]
        [--old-max-cycles 2] [--paths structured,prose]

The old path (``--artifact prose``) takes minutes per call; ``--old-runs 1 --old-max-cycles 1``
gives a first look in reasonable time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from autogen_pse.config import Settings  # noqa: E402
from autogen_pse.events import EventKind, RunEvent  # noqa: E402
from autogen_pse.runner import RunRequest, run_task  # noqa: E402

TARGET_RUN_S, TARGET_PROMPT, TARGET_SHARE = 180.0, 1500, 0.9


async def one_run(settings: Settings, max_cycles: int) -> dict[str, Any]:
    calls: list[dict[str, Any]] = []

    def sink(event: RunEvent) -> None:
        if event.kind == EventKind.MODEL_CALL:
            calls.append(event.payload)

    started = time.perf_counter()
    result = await run_task(RunRequest(task="portfolio-review", model="local", max_cycles=max_cycles), settings,
                            sinks=[sink])
    wall = time.perf_counter() - started
    checks_ok = bool(result.checks) and not any(not c["ok"] and c["severity"] == "error" for c in result.checks)
    failing = [c["name"] for c in result.checks if not c["ok"] and c["severity"] == "error"]
    details = [f"{c['name']}: {str(c.get('detail', ''))[:300]}" for c in result.checks
               if not c["ok"] and c["severity"] == "error"]
    return {"wall": wall, "calls": calls, "checks_ok": checks_ok, "pass": result.verdict == "PASS",
            "ending": f"{result.verdict}/{result.reason}", "cycles": result.cycles, "failing": failing,
            "details": details}


def _stats(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):,.0f} / {max(values):,.0f}"


def summarise(runs: list[dict[str, Any]]) -> dict[str, str]:
    calls = [c for r in runs for c in r["calls"]]
    n = len(runs)
    return {
        "runs": str(n),
        "wall s per run (median / max)": _stats([r["wall"] for r in runs]),
        "cycles per run (median)": f"{statistics.median([r['cycles'] for r in runs]):g}" if runs else "—",
        "model calls per run (median)": f"{statistics.median([len(r['calls']) for r in runs]):g}" if runs else "—",
        "s per call (median / max)": _stats([c["seconds"] for c in calls]),
        "prompt tokens per call (median / max)": _stats([c["prompt_tokens"] for c in calls]),
        "completion tokens per call (median / max)": _stats([c["completion_tokens"] for c in calls]),
        "calls over 1,500 prompt tokens": f"{sum(c['prompt_tokens'] > TARGET_PROMPT for c in calls)} of {len(calls)}",
        "artifact passes all checks": f"{sum(r['checks_ok'] for r in runs)} of {n}",
        "runs ending PASS": f"{sum(r['pass'] for r in runs)} of {n}",
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of the structured path")
    parser.add_argument("--old-runs", type=int, default=5, help="runs of the old free-prose path")
    parser.add_argument("--max-cycles", type=int, default=2)
    parser.add_argument("--old-max-cycles", type=int, default=2)
    parser.add_argument("--paths", default="structured,prose")
    args = parser.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    load = os.getloadavg()[0]
    print(f"portfolio-review on the local model; load average {load:.2f} on {os.cpu_count()} cores at the start")
    table: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            runs_n, cycles = (args.runs, args.max_cycles) if path == "structured" else (args.old_runs,
                                                                                       args.old_max_cycles)
            settings = Settings(_env_file=None, traces_dir=Path(tmp) / path / "traces",  # type: ignore[call-arg]
                                state_dir=Path(tmp) / "state", artifact_mode=path)
            runs = []
            for i in range(runs_n):
                run = await one_run(settings, cycles)
                runs.append(run)
                print(f"  {path} run {i + 1}: {run['wall']:.0f} s, {len(run['calls'])} calls, {run['cycles']} "
                      f"cycle(s), ends {run['ending']}, checks {'pass' if run['checks_ok'] else 'fail: '}"
                      f"{'' if run['checks_ok'] else ', '.join(run['failing'])}, load {os.getloadavg()[0]:.2f}",
                      flush=True)
                for line in run["details"]:
                    print(f"    failing {line}", flush=True)
            table[f"{path} (max {cycles} cycles)"] = summarise(runs)
    names = list(table)
    rows = list(next(iter(table.values())).keys()) if table else []
    width = max(len(r) for r in rows) if rows else 10
    print("\n" + " " * width + "  " + "  ".join(f"{n:>28}" for n in names))
    for row in rows:
        print(f"{row:<{width}}  " + "  ".join(f"{table[n][row]:>28}" for n in names))
    print(f"targets (idle machine): median run ≤ {TARGET_RUN_S:.0f} s, every call ≤ {TARGET_PROMPT:,} prompt "
          f"tokens, artifact passing all checks in ≥ {TARGET_SHARE:.0%} of runs; load average now "
          f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
