"""What can be done with a recorded run: download its trace, see its timeline, run it again (same
task and vars, same or another model), resume it, replay it, re-check its artifact."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException, Response

from autogen_pse.errors import PseError, UserError
from autogen_pse.runner import RunRequest
from autogen_pse.timeline import build_timeline
from autogen_pse.web.deps import RunId, StateDep, WebState
from autogen_pse.web.routers.common import POST_ERRORS
from autogen_pse.web.routers.runs import admit, check_model, load_run
from autogen_pse.web.schemas import (
    CheckDiffOut,
    Empty,
    ErrorOut,
    RecheckOut,
    RerunIn,
    ResumeIn,
    RunAccepted,
    RunCreate,
    TimelineOut,
)

router = APIRouter(prefix="/api/runs", tags=["runs"])

_404: dict[int | str, dict[str, Any]] = {404: {"model": ErrorOut, "description": "no such run"}}
_422: dict[int | str, dict[str, Any]] = {422: {"model": ErrorOut, "description": "invalid or refused"}}
_409: dict[int | str, dict[str, Any]] = {409: {"model": ErrorOut, "description": "the run is queued or running"}}
_429: dict[int | str, dict[str, Any]] = {429: {"model": ErrorOut, "description": "the run queue is full"}}


def _recorded(state: WebState, run_id: str) -> dict[str, Any]:
    """The run's trace document (404 unknown, 409 still active)."""
    doc = load_run(state, run_id)
    if doc.get("active"):
        raise HTTPException(status_code=409, detail=f"run {run_id} is still {doc.get('status')}; wait for it to end "
                                                    "or cancel it")
    if not state.run_exists(run_id):
        raise HTTPException(status_code=404, detail=f"run {run_id} never started; nothing was recorded")
    return doc


@router.get("/{run_id}/trace", response_class=Response, summary="Download a run's trace",
            responses={**_404, **_422, 200: {"content": {"application/json": {}}, "description": "trace.json"}})
async def download_trace(run_id: RunId, state: StateDep) -> Response:
    """The run's trace document (``trace.json``, as ``GET /api/runs/{run_id}``) as an attachment
    ``<run_id>.trace.json``; current mid-cycle for a running run."""
    doc = await asyncio.to_thread(load_run, state, run_id)
    doc.pop("active", None)
    return Response(json.dumps(doc, indent=2, ensure_ascii=False, default=str),
                    media_type="application/json; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{run_id}.trace.json"',
                             "Cache-Control": "no-store"})


@router.get("/{run_id}/timeline", response_model=TimelineOut, responses={**_404, **_422},
            summary="Where a run's time went")
async def get_timeline(run_id: RunId, state: StateDep) -> TimelineOut:
    """Spans of the run's model calls, retries, tool calls, checks and set-up (prepare, knowledge
    base), per cycle, with durations, from the latency fields of its events (see
    :mod:`autogen_pse.timeline`). Current mid-run."""

    def read() -> TimelineOut:
        load_run(state, run_id)  # 404 when unknown
        events = state.store.read_events(run_id) if state.run_exists(run_id) else []
        timeline = build_timeline(events).to_dict()
        return TimelineOut(run_id=run_id, **timeline)

    return await asyncio.to_thread(read)


def _started(state: WebState, run_id: str) -> dict[str, Any]:
    events = state.store.read_events(run_id)
    return next((dict(e.payload) for e in events if e.kind == "run_started"), {})


@router.post("/{run_id}/rerun", status_code=202, response_model=RunAccepted, summary="Run a recorded run's task again",
             responses={**_404, **_409, **_422, **_429, **POST_ERRORS})
async def rerun(run_id: RunId, body: RerunIn, state: StateDep) -> RunAccepted:
    """A new run of the same task with the same vars and cycle limit, with the run's own model or
    ``model``; it goes through the same checks as ``POST /api/runs`` (model policy, scripted files
    from ``PSE_WEB_SCRIPTED_DIR`` only, vars from the web relative to the project)."""
    doc = await asyncio.to_thread(_recorded, state, run_id)
    started = await asyncio.to_thread(_started, state, run_id)
    task = str(doc.get("task") or started.get("task") or "")
    if not task:
        raise HTTPException(status_code=422, detail=f"run {run_id} recorded no task; start a new run instead")
    model = body.model
    if model is None:
        recorded = str(started.get("model_spec") or doc.get("model") or "") or None
        model = None if recorded == state.settings.model else recorded  # the server's default stays its own
    model = await check_model(state, model)
    vars = {str(k): str(v) for k, v in (doc.get("vars") or {}).items()}
    try:
        RunCreate(task=task, vars=vars)  # the web's own rules on vars (project-relative files)
    except ValueError as exc:
        raise HTTPException(status_code=422, detail=f"run {run_id}'s vars cannot be used from the web: "
                                                    f"{str(exc).splitlines()[-1].strip()}") from None
    max_cycles = (doc.get("limits") or {}).get("max_cycles")
    request = RunRequest(task=task, model=model, vars=vars,
                         max_cycles=max_cycles if isinstance(max_cycles, int) and 1 <= max_cycles <= 50 else None)
    return await admit(state, request, vars_task=task)


@router.post("/{run_id}/resume", status_code=202, response_model=RunAccepted, summary="Resume a run",
             responses={**_404, **_409, **_422, **_429, **POST_ERRORS})
async def resume(run_id: RunId, body: ResumeIn, state: StateDep) -> RunAccepted:
    """Continue an interrupted, cancelled or error run after its last completed cycle, in the same
    trace (a ``resumed`` event; fresh agents, the saved artifact and issues), like ``pse run
    --resume``. The run id stays the same. ``model`` replaces the recorded one (model policy
    applies to either)."""
    await asyncio.to_thread(_recorded, state, run_id)
    if body.model is None:
        started = await asyncio.to_thread(_started, state, run_id)
        recorded = str(started.get("model_spec") or started.get("model") or "") or None
        if state.model_policy is not None and recorded is not None:
            refused = state.model_policy(recorded)
            if refused is not None:
                raise HTTPException(status_code=422, detail=f"model not allowed: {refused}")
        model = None
    else:
        model = await check_model(state, body.model)
    return await admit(state, RunRequest(task="", model=model, resume=run_id))


@router.post("/{run_id}/replay", status_code=202, response_model=RunAccepted, summary="Replay a run",
             responses={**_404, **_409, **_422, **_429, **POST_ERRORS})
async def replay(run_id: RunId, body: Empty, state: StateDep) -> RunAccepted:
    """A new run that replays ``run_id``'s recorded model replies deterministically with the
    current task code and checks (``pse replay``); no model is called. Send ``{}``."""
    doc = await asyncio.to_thread(_recorded, state, run_id)
    return await admit(state, RunRequest(task=str(doc.get("task") or ""), replay=run_id))


@router.post("/{run_id}/recheck", response_model=RecheckOut, summary="Re-check a run's artifact",
             responses={**_404, **_409, **_422, **POST_ERRORS})
async def recheck(run_id: RunId, body: Empty, state: StateDep) -> RecheckOut:
    """Run the task's current checks on the run's recorded artifact (``pse replay --recheck``):
    each check's recorded and current result. Nothing is written to the run. Send ``{}``."""
    await asyncio.to_thread(_recorded, state, run_id)
    from autogen_pse.replay import recheck as run_recheck

    def work() -> tuple[list[Any], list[Any]]:  # checks may block (pytest): on a worker thread, own loop
        return asyncio.run(run_recheck(run_id, state.settings, state.store))

    try:
        diffs, results = await asyncio.to_thread(work)
    except UserError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None
    except PseError as exc:
        raise HTTPException(status_code=500, detail=str(exc)) from None
    failing = [r for r in results if not r.ok and r.severity == "error"]
    checks = [CheckDiffOut(name=d.name, recorded=d.recorded, now=d.now, severity=d.severity, detail=d.detail)
              for d in diffs]
    return RecheckOut(run_id=run_id, passed=not failing, changed=sum(1 for d in diffs if d.recorded != d.now),
                      checks=checks)
