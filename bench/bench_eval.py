"""``pse eval`` of 50 scripted cases: wall time with ``--concurrency 1`` vs ``4``, side by side.

The cases are the shipped portfolio-review dataset (``tasks/portfolio-review/evals/portfolios``, 5
portfolios) repeated 10 times, on the scripted-facts model (each case's replies built from its
facts), through the same path as ``pse eval`` (every case a normal run with its trace). Two models:

* **zero-latency** — the scripted replies as they are: what is measured is the engine itself
  (agents, checks, claim ledger, trace writes), which shares one process and two cores;
* **sleeping** — every model call waits ``DELAY`` seconds first (a scripted reply's ``delay``), so
  waiting on the model dominates, as with a remote API.

Each (model, concurrency) pair runs once after a warm-up eval (prepare, knowledge ingestion);
prints the wall time, runs per second, the ratio K=1 / K=4 and how many runs ended in error.

    PYTHONPATH=src .venv/bin/python bench/bench_eval.py [--delay 0.3] [--repeat 10]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from autogen_pse.config import Settings  # noqa: E402
from autogen_pse.evals import EvalReport, plan_eval, run_eval  # noqa: E402
from autogen_pse.evals.execute import EvalPlan  # noqa: E402

DATASET = ROOT / "tasks" / "portfolio-review" / "evals" / "portfolios"
MODEL = "scripted-facts"


def with_delay(plan: EvalPlan, delay: float) -> EvalPlan:
    """The same plan whose every scripted reply waits ``delay`` seconds."""
    if delay:
        plan.scripts = {key: {role: [{"content": r, "delay": delay} for r in replies]  # type: ignore[misc]
                              for role, replies in script.items()} for key, script in plan.scripts.items()}
    return plan


def one(settings: Settings, *, repeat: int, concurrency: int, delay: float) -> tuple[float, EvalReport]:
    plan = with_delay(plan_eval(settings, "portfolio-review", DATASET, [MODEL], repeat=repeat,
                                concurrency=concurrency), delay)
    started = time.perf_counter()
    report = asyncio.run(run_eval(settings, plan))
    return time.perf_counter() - started, report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.3, help="seconds per model call of the sleeping model")
    parser.add_argument("--repeat", type=int, default=10, help="repeats of the 5 portfolios (10: 50 cases)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-eval-"))
    settings = Settings(_env_file=None, home=tmp, traces_dir=tmp / "traces", state_dir=tmp / "state",
                        retry_base_delay=0.001)
    one(settings, repeat=1, concurrency=1, delay=0.0)  # warm-up: prepare, knowledge ingestion, imports
    cases = 5 * args.repeat
    print(f"pse eval portfolio-review: {cases} cases on {MODEL}, concurrency 1 vs 4")
    print(f"{'model':<22}{'K=1 s':>9}{'K=4 s':>9}{'runs/s K=1':>12}{'runs/s K=4':>12}{'K=1/K=4':>9}"
          f"{'errors':>9}")
    for label, delay in (("zero-latency", 0.0), (f"sleeping {args.delay:g} s/call", args.delay)):
        t1, r1 = one(settings, repeat=args.repeat, concurrency=1, delay=delay)
        t4, r4 = one(settings, repeat=args.repeat, concurrency=4, delay=delay)
        errors = [sum(1 for r in rep.runs if r.status == "error") for rep in (r1, r4)]
        print(f"{label:<22}{t1:>9.1f}{t4:>9.1f}{cases / t1:>12.2f}{cases / t4:>12.2f}{t1 / t4:>8.2f}×"
              f"{errors[0]:>4} / {errors[1]}")
        for rep in (r1, r4):
            for run in rep.runs:
                if run.status == "error":
                    print(f"  error (K={rep.concurrency}) {run.case}: {run.error}")
                    break


if __name__ == "__main__":
    main()
