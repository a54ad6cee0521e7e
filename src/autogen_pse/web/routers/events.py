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
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Response
from sse_starlette import EventSourceResponse

from autogen_pse.errors import PseError
from autogen_pse.web.deps import RunId, StateDep, WebState
from autogen_pse.web.schemas import ErrorOut, RunEventOut, RunLevelEventOut
from autogen_pse.web.sse import STREAM_END, parse_last_event_id
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


def _response(state: WebState, stream: AsyncIterator[bytes]) -> EventSourceResponse:
    cfg = state.stream
    return EventSourceResponse(stream, ping=cfg.ping, send_timeout=cfg.send_timeout,
                               headers={"Cache-Control": "no-store"})


@router.get("/runs/{run_id}/events", response_class=EventSourceResponse, summary="A run's event stream",
            responses={**_STREAM, 404: {"model": ErrorOut, "description": "no such run"},
                       422: {"model": ErrorOut, "description": "an invalid run id, Last-Event-ID or after"}},
            openapi_extra={SSE_MARK: True})
async def run_events(
    run_id: RunId,
    state: StateDep,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    after: Annotated[int | None, Query(ge=0, le=10**12, description="replay after this seq (no Last-Event-ID)")] = None,
) -> Response:
    """Every RunEvent of the run as a named SSE event whose id is its ``seq``."""
    try:
        seen = parse_last_event_id(last_event_id) if last_event_id is not None else (after or 0)
    except ValueError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None
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


#: ``data`` of the closing ``stream_end`` frame (see :func:`autogen_pse.web.sse.end_frame`).
STREAM_END_DATA: dict[str, Any] = {
    "type": "object", "required": ["reason", "status"],
    "properties": {"reason": {"type": "string"}, "status": {"type": ["string", "null"]}},
}


def sse_event_schema(data_schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of one SSE event as a client sees it (``{event, id?, retry?, data}``), with
    ``data`` a JSON string described by ``contentSchema``: ``data_schema`` for every event but the
    final ``stream_end``. (OpenAPI before 3.2 lets a ``text/event-stream`` schema describe one
    event; tools such as schemathesis validate each received event against it.)"""
    def data(schema: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "contentMediaType": "application/json", "contentSchema": schema}

    return {
        "type": "object",
        "required": ["event", "data"],
        "properties": {
            "event": {"type": "string", "description": "the RunEvent kind, or stream_end"},
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": "the event's seq (run streams)"},
            "retry": {"type": "integer", "minimum": 0},
            "data": {"type": "string"},
        },
        "if": {"required": ["event"], "properties": {"event": {"const": STREAM_END}}},
        "then": {"properties": {"data": data(STREAM_END_DATA)}},
        "else": {"properties": {"data": data(data_schema)}},
    }


def sse_openapi(schema: dict[str, Any]) -> dict[str, Any]:
    """Declare the 200 body of SSE operations as ``text/event-stream`` events (FastAPI writes JSON)."""
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or not operation.get(SSE_MARK):
                continue
            content = operation.get("responses", {}).get("200", {}).get("content", {})
            if "application/json" in content:
                data_schema = content.pop("application/json").get("schema", {})
                content["text/event-stream"] = {"schema": sse_event_schema(data_schema)}
    return schema
