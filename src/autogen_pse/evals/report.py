"""The eval report (``report.json``): one row per case run, and a summary per model.

A case run records what ``pse eval`` compares: verdict, verified, cycles, grounding score,
contradicted and unverifiable claims, tokens, cost, wall time and the run id (a normal run, listed
in History). :func:`summarise` turns the rows of one model into its comparison-table line.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["CaseRun", "EvalReport", "ModelSummary", "percentile", "summarise"]

EvalStatus = Literal["running", "completed", "cancelled", "error", "interrupted"]
REPORT_VERSION = 1


class CaseRun(BaseModel):
    """One run of one case on one model (``repeat`` numbers the repetitions from 1)."""

    case: str
    model: str
    repeat: int = 1
    run_id: str | None = None
    status: str = "pending"  # pending | finished | cancelled | error | not_run
    verdict: str | None = None
    verified: bool = False
    cycles: int = 0
    grounding: float | None = None
    contradicted: int = 0
    unverifiable: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    seconds: float | None = None
    error: str | None = None
    expected: bool | None = Field(default=None, description="the case's expect block was met (None: none given)")

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def done(self) -> bool:
        return self.status in ("finished", "cancelled", "error")


class ModelSummary(BaseModel):
    """The comparison-table line of one model (rates over the runs that ended)."""

    model: str
    runs: int
    done: int
    passed: int
    verified: int
    pass_rate: float | None
    verified_rate: float | None
    mean_cycles: float | None
    mean_grounding: float | None
    contradicted: int
    unverifiable: int
    tokens: int
    cost: float | None
    p50_seconds: float | None
    p95_seconds: float | None
    errors: int
    expected_met: int
    expected_total: int


class EvalReport(BaseModel):
    version: int = REPORT_VERSION
    eval_id: str
    task: str
    inputs: str
    layout: str
    models: list[str]
    repeat: int
    concurrency: int
    status: EvalStatus
    complete: bool = False
    started_at: str
    ended_at: str | None = None
    seconds: float | None = None
    cases: list[str]
    runs: list[CaseRun]
    summary: list[ModelSummary] = Field(default_factory=list)
    error: str | None = None

    @property
    def done(self) -> int:
        return sum(1 for r in self.runs if r.done)


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0–1) by linear interpolation between closest ranks; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarise(models: list[str], runs: list[CaseRun]) -> list[ModelSummary]:
    """One :class:`ModelSummary` per model, in the order given."""
    out = []
    for model in models:
        mine = [r for r in runs if r.model == model]
        ended = [r for r in mine if r.done]
        passed = sum(1 for r in ended if r.verdict == "PASS")
        verified = sum(1 for r in ended if r.verified)
        seconds = [r.seconds for r in ended if r.seconds is not None]
        costs = [r.cost for r in ended if r.cost is not None]
        judged = [r for r in ended if r.expected is not None]
        p50, p95 = percentile(seconds, 0.5), percentile(seconds, 0.95)
        out.append(ModelSummary(
            model=model, runs=len(mine), done=len(ended), passed=passed, verified=verified,
            pass_rate=round(passed / len(ended), 4) if ended else None,
            verified_rate=round(verified / len(ended), 4) if ended else None,
            mean_cycles=_mean([float(r.cycles) for r in ended]),
            mean_grounding=_mean([r.grounding for r in ended if r.grounding is not None]),
            contradicted=sum(r.contradicted for r in ended), unverifiable=sum(r.unverifiable for r in ended),
            tokens=sum(r.tokens for r in ended), cost=round(sum(costs), 6) if costs else None,
            p50_seconds=round(p50, 3) if p50 is not None else None,
            p95_seconds=round(p95, 3) if p95 is not None else None,
            errors=sum(1 for r in ended if r.status == "error"),
            expected_met=sum(1 for r in judged if r.expected), expected_total=len(judged),
        ))
    return out
