"""A small real eval for the web and browser tests: shipped portfolio cases on the scripted-facts model."""

from __future__ import annotations

import shutil
from pathlib import Path

from autogen_pse.config import Settings
from autogen_pse.evals import EvalReport, plan_eval, run_eval

ROOT = Path(__file__).resolve().parents[1]
PORTFOLIOS = ROOT / "tasks" / "portfolio-review" / "evals" / "portfolios"


async def small_eval(settings: Settings, tmp: Path, *, cases: tuple[str, ...] = ("clean", "clean-misquoted"),
                     models: tuple[str, ...] = ("scripted-facts", "scripted-facts:wrong-figure")) -> EvalReport:
    """Copy ``cases`` of the shipped portfolio dataset to ``tmp`` and run them on ``models``."""
    dataset = tmp / "dataset"
    for case in cases:
        shutil.copytree(PORTFOLIOS / case, dataset / case)
    plan = plan_eval(settings, "portfolio-review", dataset, list(models))
    return await run_eval(settings, plan)
