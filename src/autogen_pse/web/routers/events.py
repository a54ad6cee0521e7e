"""Server-Sent Events: ``GET /api/runs/{run_id}/events`` (every event, replayable) and
``GET /api/events`` (run-level events of all runs, for the live history).

Frames: ``event: <kind>``, ``id: <seq>``, ``data: <RunEvent JSON>``; the first frame carries a
``retry`` hint, comment pings keep proxies from closing an idle stream, and the last frame is
``event: stream_end``. A reconnect with ``Last-Event-ID: n`` (or ``?after=n``) replays from the
trace store everything after ``n`` and then follows the run live. A reconnect to a run that is
over and has nothing newer gets ``204 No Content``, which tells ``EventSource`` to stop.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Response
from sse_starlette import EventSourceResponse

from autogen_pse.errors import PseError
from autogen_pse.web.deps import RunId, StateDep, WebState
from autogen_pse.web.schemas import ErrorOut, RunEventOut, RunLevelEventOut
from autogen_pse.web.sse import parse_last_event_id
from autogen_pse.web.streams import feed_stream, run_stream

router = APIRouter(prefix="/api", tags=["events"])

#: Operations with this OpenAPI extension stream ``text/event-stream`` (see :func:`sse_openapi`).
SSE_MARK = "x-sse"

_STREAM: dict[int | str, dict[str, Any]] = {
    200: {"model": RunEventOut, "description": "an SSE stream; each frame's data is a RunEventOut"},
    204: {"description": "the run is over and the client has every event"},
}
_FEED: dict[int | str, dict[str, Any]] = {
    200: {"model": RunLevelEventOut, "description": "an SSE stream; each frame's data is a RunLevelEventOut"},
}
_ENDED = frozenset({"finished", "error", "cancelled", "interrupted"})


def _nothing_left(state: WebState, run_id: str, after: int) -> bool | None:
    """True: over and fully seen (204). False: stream it. None: unknown run (404)."""
    if run_id in state.active():
        return False
    if not state.run_exists(run_id):
        return None if state.start_error(run_id) is None else True
    try:
        doc = state.store.load_trace(run_id)
    except PseError:
        return False
    return doc.get("status") in _ENDED and after >= int(doc.get("last_seq") or 0)


def _response(state: WebState, stream: object) -> EventSourceResponse:
    cfg = state.stream
    return EventSourceResponse(stream, ping=cfg.ping, send_timeout=cfg.send_timeout,  # type: ignore[arg-type]
                               headers={"Cache-Control": "no-cache"})


@router.get("/runs/{run_id}/events", response_class=EventSourceResponse, summary="A run's event stream",
            responses={**_STREAM, 404: {"model": ErrorOut, "description": "no such run"}},
            openapi_extra={SSE_MARK: True})
async def run_events(
    run_id: RunId,
    state: StateDep,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    after: Annotated[int | None, Query(ge=0, description="replay after this seq (no Last-Event-ID)")] = None,
) -> Response:
    """Every RunEvent of the run as a named SSE event whose id is its ``seq``."""
    seen = parse_last_event_id(last_event_id) if last_event_id is not None else (after or 0)
    verdict = await asyncio.to_thread(_nothing_left, state, run_id, seen)
    if verdict is None:
        raise HTTPException(status_code=404, detail=f"no run {run_id}")
    if verdict:
        return Response(status_code=204)
    return _response(state, run_stream(state, run_id, seen))


@router.get("/events", response_class=EventSourceResponse, summary="Run-level events of all runs",
            responses=_FEED, openapi_extra={SSE_MARK: True})
async def all_events(state: StateDep) -> Response:
    """``run_started``, ``cycle_finished`` and ``run_finished`` of every run, each with the run's
    index row (``run``) as of that event. No replay: fetch ``GET /api/runs`` first."""
    return _response(state, feed_stream(state))


def sse_openapi(schema: dict[str, Any]) -> dict[str, Any]:
    """Declare the 200 body of SSE operations as ``text/event-stream`` (FastAPI writes JSON)."""
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or not operation.get(SSE_MARK):
                continue
            content = operation.get("responses", {}).get("200", {}).get("content", {})
            if "application/json" in content:
                content["text/event-stream"] = content.pop("application/json")
    return schema
