"""``GET /api/stats/runs``: pass rate, tokens, cost and wall time over time per task and model,
computed from the run index (the History charts)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query

from autogen_pse.errors import UserError
from autogen_pse.filters import parse_filters
from autogen_pse.store.series import run_series
from autogen_pse.web.deps import StateDep
from autogen_pse.web.schemas import ErrorOut, SeriesPage

router = APIRouter(prefix="/api/stats", tags=["stats"])

_ISO = r"^[0-9][0-9T:.+\-Z ]{3,40}$"


@router.get("/runs", response_model=SeriesPage, summary="Series across runs",
            responses={422: {"model": ErrorOut, "description": "invalid parameter"}})
async def run_stats(
    state: StateDep,
    task: Annotated[str | None, Query(max_length=64, description="exact task name")] = None,
    model: Annotated[str | None, Query(max_length=300, description="exact model name as listed")] = None,
    since: Annotated[str | None, Query(max_length=40, pattern=_ISO, description="ISO 8601, inclusive")] = None,
    until: Annotated[str | None, Query(max_length=40, pattern=_ISO, description="ISO 8601, exclusive")] = None,
    bucket: Annotated[Literal["auto", "run", "hour", "day", "week"], Query(
        description="one point per run, or per hour / day / week; auto: per run up to 60 runs")] = "auto",
) -> SeriesPage:
    """One series per (task, model), most runs first; each point has the runs, PASS runs, pass
    rate and mean tokens, cost and wall time of its bucket. Running runs are left out."""

    def compute() -> SeriesPage:
        filters = parse_filters(task=task, since=since, until=until)
        data = run_series(state.store.index, task=filters.get("task"), model=model, since=filters.get("since"),
                          until=filters.get("until"), bucket=bucket)
        return SeriesPage.model_validate(data)

    try:
        return await asyncio.to_thread(compute)
    except (UserError, ValueError, OverflowError) as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None
