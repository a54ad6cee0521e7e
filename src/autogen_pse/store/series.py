"""Series across runs from the run index: pass rate, tokens, cost and wall time over time, one series
per (task, model), for the History charts.

Runs still running are left out. A bucket's ``pass_rate`` is PASS runs / ended runs; ``tokens``,
``cost`` and ``seconds`` are means per run (``cost`` only over priced runs, None when none is).
With ``bucket="auto"`` every run is its own point up to :data:`MAX_POINTS` runs, else runs are
grouped by hour, day or week, whichever gives at most :data:`MAX_POINTS` buckets.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from autogen_pse.store.index import MAX_LIMIT, RunIndex
from autogen_pse.store.rows import RunRow

__all__ = ["MAX_POINTS", "MAX_RUNS", "Bucket", "run_series"]

Bucket = Literal["auto", "run", "hour", "day", "week"]
MAX_POINTS = 60
MAX_RUNS = 20_000  # the newest runs considered (the index is read page by page)
_SPAN = {"hour": 3600.0, "day": 86400.0, "week": 7 * 86400.0}


@dataclass
class Point:
    t: str  # the bucket's start (or the run's start), ISO 8601 UTC
    runs: int
    passed: int
    pass_rate: float
    tokens: float
    cost: float | None
    seconds: float | None
    run_id: str | None = None  # bucket "run": the run of this point


@dataclass
class Series:
    task: str
    model: str
    runs: int
    points: list[Point] = field(default_factory=list)


def _when(ts: str) -> datetime:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(UTC)


def _iso(d: datetime) -> str:
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def _floor(d: datetime, bucket: str) -> datetime:
    if bucket == "hour":
        return d.replace(minute=0, second=0, microsecond=0)
    day = d.replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday()) if bucket == "week" else day


def _rows(index: RunIndex, task: str | None, since: str | None, until: str | None) -> list[RunRow]:
    rows: list[RunRow] = []
    cursor = None
    while len(rows) < MAX_RUNS:
        page = index.list(task=task, since=since, until=until, limit=MAX_LIMIT, cursor=cursor)
        rows += [r for r in page.data if r.status != "running" and r.started_at]
        cursor = page.next_cursor
        if cursor is None:
            break
    return rows[:MAX_RUNS]


def _choose(rows: list[RunRow]) -> str:
    if len(rows) <= MAX_POINTS:
        return "run"
    times = [_when(r.started_at).timestamp() for r in rows]
    span = max(times) - min(times)
    for name in ("hour", "day"):
        if span / _SPAN[name] < MAX_POINTS:
            return name
    return "week"


def _point(t: str, group: list[RunRow], run_id: str | None = None) -> Point:
    passed = sum(1 for r in group if r.verdict == "PASS")
    priced = [r.cost for r in group if r.cost is not None]
    walls = [(_when(r.ended_at) - _when(r.started_at)).total_seconds() for r in group if r.ended_at]
    return Point(t=t, runs=len(group), passed=passed, pass_rate=round(passed / len(group), 4),
                 tokens=round(sum(r.prompt_tokens + r.completion_tokens for r in group) / len(group), 1),
                 cost=round(sum(priced) / len(priced), 6) if priced else None,
                 seconds=round(sum(walls) / len(walls), 3) if walls else None, run_id=run_id)


def run_series(index: RunIndex, *, task: str | None = None, model: str | None = None, since: str | None = None,
               until: str | None = None, bucket: Bucket = "auto") -> dict[str, Any]:
    """``{"bucket", "runs", "series": [{task, model, runs, points: [...]}]}``, series by run count.

    Raises:
        UserError: a malformed ``since`` / ``until``.  StoreError: the index failed.
    """
    rows = [r for r in _rows(index, task, since, until) if model is None or r.model == model]
    rows.sort(key=lambda r: (r.started_at, r.run_id))
    chosen = _choose(rows) if bucket == "auto" else bucket
    groups: dict[tuple[str, str], list[RunRow]] = {}
    for r in rows:
        groups.setdefault((r.task or "?", r.model or "?"), []).append(r)
    out: list[Series] = []
    for (task_name, model_name), runs in groups.items():
        series = Series(task=task_name, model=model_name, runs=len(runs))
        if chosen == "run":
            series.points = [_point(_iso(_when(r.started_at)), [r], r.run_id) for r in runs]
        else:
            buckets: dict[datetime, list[RunRow]] = {}
            for r in runs:
                buckets.setdefault(_floor(_when(r.started_at), chosen), []).append(r)
            series.points = [_point(_iso(start), group) for start, group in sorted(buckets.items())]
        out.append(series)
    out.sort(key=lambda s: (-s.runs, s.task, s.model))
    return {"bucket": chosen, "runs": len(rows), "series": [asdict(s) for s in out]}
