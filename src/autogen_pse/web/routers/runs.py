"""Runs: list (from the SQLite index), start (202 + background executor), trace, artifact, cancel."""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Response

from autogen_pse.errors import PseError, ServiceError, UserError
from autogen_pse.events import EventKind
from autogen_pse.filters import parse_filters
from autogen_pse.preparation import needs_prepare
from autogen_pse.registry import load_registry, load_task
from autogen_pse.runner import RunRequest
from autogen_pse.store.rows import decode_cursor
from autogen_pse.store.trace import TraceBuilder
from autogen_pse.web.deps import RunId, StateDep, WebState
from autogen_pse.web.policy import confine_model, confine_vars
from autogen_pse.web.routers.common import POST_ERRORS
from autogen_pse.web.schemas import (
    CancelOut,
    Empty,
    ErrorOut,
    RunAccepted,
    RunCreate,
    RunPageOut,
    RunSummary,
)
from autogen_pse.web.trace_schemas import Trace
from autogen_pse.web.var_check import run_error_detail

router = APIRouter(prefix="/api/runs", tags=["runs"])

_404: dict[int | str, dict[str, Any]] = {404: {"model": ErrorOut, "description": "no such run"}}
_422: dict[int | str, dict[str, Any]] = {422: {"model": ErrorOut, "description": "invalid parameter"}}

MAX_PAGE = 200
_STORED_TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
_ISO = r"^[0-9][0-9T:.+\-Z ]{3,40}$"


def _filters(task: str | None, verdict: str | None, status: str | None, since: str | None,
             until: str | None, cursor: str | None) -> dict[str, str | None]:
    """Validated filters (UserError for anything the index could not match or page by)."""
    try:
        filters = parse_filters(task=task, verdict=verdict, status=status, since=since, until=until)
    except (ValueError, OverflowError) as exc:  # e.g. year 1 with a positive offset
        raise UserError(f"invalid time filter: {exc}") from None
    if cursor is not None:
        started, _ = decode_cursor(cursor)
        if not _STORED_TS.match(started):
            raise UserError(f"invalid cursor {cursor[:40]!r}: pass the next_cursor of a previous page")
    return filters


@router.get("", response_model=RunPageOut, responses=_422, summary="List runs")
async def list_runs(
    state: StateDep,
    task: Annotated[str | None, Query(description="exact task name")] = None,
    verdict: Annotated[str | None, Query(description="PASS | PARTIAL | FAIL | BLOCKED")] = None,
    status: Annotated[str | None, Query(description="running|finished|error|cancelled|interrupted")] = None,
    since: Annotated[str | None, Query(max_length=40, pattern=_ISO, description="ISO 8601, inclusive (started at)")
                     ] = None,
    until: Annotated[str | None, Query(max_length=40, pattern=_ISO, description="ISO 8601, exclusive (started at)")
                     ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    cursor: Annotated[str | None, Query(max_length=512, pattern=r"^[A-Za-z0-9_-]+={0,2}$",
                                        description="next_cursor of a previous page")] = None,
) -> RunPageOut:
    """Runs newest first, ``{data, count, next_cursor}``, served from the run index. Every filter
    is validated (422 for a value that names nothing: an unknown verdict or status, a malformed
    task name, time or cursor)."""

    def query() -> RunPageOut:
        filters = _filters(task, verdict, status, since, until, cursor)
        page = state.store.index.list(**filters, limit=limit, cursor=cursor)
        return RunPageOut(data=[RunSummary.from_row(r) for r in page.data], count=page.count,
                          next_cursor=page.next_cursor)

    try:
        return await asyncio.to_thread(query)
    except UserError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None


def _task_known(state: WebState, name: str) -> bool:
    return any(t.name == name for t in load_registry(state.settings.tasks_dir).tasks)


def _will_prepare(state: WebState, task_name: str, values: dict[str, str]) -> bool:
    try:
        task = load_task(state.settings.tasks_dir, task_name)
        return needs_prepare(task, state.settings.state_dir, values)
    except PseError:
        return False  # submit() reports the problem


async def check_model(state: WebState, model: str | None) -> str | None:
    """``model`` as a web client may ask for it: the model policy (on the spec the run would use)
    and :func:`confine_model` for a client's own spec (None: the server's default).

    Raises:
        HTTPException: 422 for a refused model.
    """
    if state.model_policy is not None:
        refused = state.model_policy(model or state.settings.model)
        if refused is not None:
            raise HTTPException(status_code=422, detail=f"model not allowed: {refused}")
    if model is None:  # the server's own default is the operator's choice; a client's is confined
        return None
    try:
        return confine_model(model, state.settings.scripted_web_dir)
    except UserError as exc:
        raise HTTPException(status_code=422, detail=f"model not allowed: {exc}") from None


async def admit(
    state: WebState, request: RunRequest, *, vars_task: str | None = None, client_vars: dict[str, str] | None = None
) -> RunAccepted:
    """Queue ``request`` within the server's capacity (429 when full); a refused request is 422 (per
    ``vars`` field when the problem is in the vars of task ``vars_task``, named as the client wrote
    them: ``client_vars``), an unreachable run broker 503."""
    capacity = (getattr(state.executor, "concurrency", None) or 1) + state.max_queue
    # Check and reserve with no await in between: concurrent requests see each other's reservation.
    if len(state.active()) + state.admitting >= capacity:
        raise HTTPException(status_code=429, detail=f"{capacity} runs are queued or running; try again later",
                            headers={"Retry-After": "5"})
    state.admitting += 1
    try:
        prepare = False
        if request.task and not (request.resume or request.replay):
            prepare = await asyncio.to_thread(_will_prepare, state, request.task, request.vars)
        run_id = await state.executor.submit(request)
    except UserError as exc:
        detail: Any = str(exc)
        if vars_task is not None:
            shown = request.vars if client_vars is None else client_vars
            detail = await asyncio.to_thread(run_error_detail, state.settings, vars_task, shown, exc)
        raise HTTPException(status_code=422, detail=detail) from None
    except ServiceError as exc:  # the run broker (PSE_EXECUTOR=celery) does not answer
        raise HTTPException(status_code=503, detail=str(exc), headers={"Retry-After": "10"}) from None
    except PseError as exc:
        raise HTTPException(status_code=500, detail=str(exc)) from None
    finally:
        state.admitting -= 1
    return RunAccepted(run_id=run_id, prepare=prepare, events_url=f"/api/runs/{run_id}/events",
                       run_url=f"/api/runs/{run_id}")


@router.post("", status_code=202, response_model=RunAccepted, summary="Start a run",
             responses={**_404, **_422, **POST_ERRORS,
                        429: {"model": ErrorOut, "description": "the run queue is full"},
                        503: {"model": ErrorOut, "description": "the run broker (PSE_EXECUTOR=celery) is unreachable"}})
async def create_run(body: RunCreate, state: StateDep) -> RunAccepted:
    """Validate the request, prepare the task's inputs when they are newer than its facts, and
    queue the run; it executes in the background (at most ``concurrency`` at once, at most
    ``concurrency + max_queue`` queued or running, however many requests arrive together).

    A problem with ``vars`` (an unknown var, a missing value, a bad input file) is a 422 whose
    ``detail`` is a list of ``{loc: ["body", "vars", KEY], msg, type}``, as ``POST
    /api/tasks/{name}/vars`` gives it."""
    model = await check_model(state, body.model)
    if not await asyncio.to_thread(_task_known, state, body.task):
        raise HTTPException(status_code=404, detail=f"unknown task {body.task!r}; see GET /api/tasks")
    try:  # file vars name the task's own files, never the server's working directory
        values = await asyncio.to_thread(confine_vars, state.settings.tasks_dir, body.task, body.vars)
    except UserError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None
    request = RunRequest(task=body.task, model=model, max_cycles=body.max_cycles, vars=values)
    return await admit(state, request, vars_task=body.task, client_vars=body.vars)


def load_run(state: WebState, run_id: str) -> dict[str, Any]:
    """The trace document of ``run_id`` plus ``active`` (folded from ``events.jsonl`` while the run
    is active, so it is current mid-cycle); a queued run or one that never started gets a minimal
    document.

    Raises:
        HTTPException: 404 for an unknown run.
    """
    active = run_id in state.active()
    if state.run_exists(run_id):
        doc: dict[str, Any]
        if active:  # trace.json is written at the run's end only: fold the event log for a live view
            events = state.store.read_events(run_id)
            doc = TraceBuilder.from_events(events).document() if events else {"run_id": run_id}
            doc.setdefault("status", "running")
            # its run_finished is written: the run is over, only its executor's clean-up is left
            active = not any(e.kind == EventKind.RUN_FINISHED for e in events)
        else:
            doc = state.store.load_trace(run_id)
        doc["active"] = active
        return doc
    if active:
        return {"run_id": run_id, "status": "queued", "active": True}
    error = state.start_error(run_id)
    if error is not None:
        status = "cancelled" if error.startswith("cancelled") else "error"
        return {"run_id": run_id, "status": status, "error": error, "active": False}
    raise HTTPException(status_code=404, detail=f"no run {run_id}")


@router.get("/{run_id}", response_model=Trace, responses={**_404, **_422}, summary="A run's trace")
async def get_run(run_id: RunId, state: StateDep) -> dict[str, Any]:
    """The run's ``trace.json`` (cycles, messages, verdicts, checks, usage, artifact info)."""
    return await asyncio.to_thread(load_run, state, run_id)


@router.get(
    "/{run_id}/artifact", response_class=Response, summary="A run's artifact",
    responses={**_404, **_422, 200: {"content": {"text/markdown": {}}, "description": "the artifact"}},
)
async def get_artifact(
    run_id: RunId, state: StateDep,
    raw: Annotated[bool, Query(description="the artifact before sanitizing")] = False,
    download: Annotated[bool, Query(description="as an attachment")] = False,
) -> Response:
    """The artifact as Markdown (``text/markdown``); 404 until the run has written one."""

    def read() -> str | None:
        if not state.run_exists(run_id):
            return None
        path = state.store.artifact_path(run_id, raw=raw)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    text = await asyncio.to_thread(read)
    if text is None:
        raise HTTPException(status_code=404, detail=f"run {run_id} has no artifact (yet)")
    name = f"{run_id}{'.raw' if raw else ''}.md"
    disposition = "attachment" if download else "inline"
    return Response(text, media_type="text/markdown; charset=utf-8",
                    headers={"Content-Disposition": f'{disposition}; filename="{name}"',
                             "Cache-Control": "no-store"})


@router.post("/{run_id}/cancel", status_code=202, response_model=CancelOut,
             responses={**_404, **_422, **POST_ERRORS,
                        409: {"model": ErrorOut, "description": "the run is not active"}},
             summary="Cancel a run")
async def cancel_run(run_id: RunId, body: Empty, state: StateDep) -> CancelOut:
    """Ask a queued or running run to stop (send ``{}``); it ends within seconds with status
    ``cancelled`` and its trace is kept."""
    doc = await asyncio.to_thread(load_run, state, run_id)  # 404 when unknown
    if doc["active"] and await state.executor.cancel(run_id):
        return CancelOut(run_id=run_id, cancelled=True, status="cancelling")
    raise HTTPException(status_code=409, detail=f"run {run_id} is not active (status {doc.get('status')})")
