"""The SSE streams: one run's events (replay + live, no gap, no duplicate) and the run-level feed.

Replay-then-live without a gap: the stream subscribes to the hub *before* it reads the store's
``events.jsonl``. The store sink runs before the hub sink for every event, so any event is either
already in the file when it is read, or still to arrive through the subscription — and usually
both; the stream sends events strictly by ``seq`` and skips every ``seq`` not above the last one
sent. A subscription that fell behind (``lagging``), a jump in ``seq`` or a log that grew without
the hub knowing (another process's executor) all lead to the same recovery: subscribe again and
read the log after the last ``seq`` sent.

A stream ends after the run's ``run_finished`` event, or as soon as its run is neither active
in the executor nor has anything left in the log (interrupted, or cancelled while queued); the
last frame is always ``event: stream_end``.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator

from autogen_pse.errors import PseError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store.layout import EVENTS_FILE
from autogen_pse.web.deps import WebState
from autogen_pse.web.schemas import RunSummary
from autogen_pse.web.sse import encode_frame, end_frame, event_frame, retry_frame, run_level_frame

__all__ = ["feed_stream", "run_stream"]

log = logging.getLogger(__name__)


def _read_events(state: WebState, run_id: str, after: int) -> list[RunEvent]:
    if not state.run_exists(run_id):
        return []
    return state.store.read_events(run_id, after_seq=after)


def _log_size(state: WebState, run_id: str) -> int:
    try:
        return os.stat(state.store.traces_dir / run_id / EVENTS_FILE).st_size
    except OSError:
        return -1


def _final_status(state: WebState, run_id: str) -> str | None:
    if state.run_exists(run_id):
        try:
            return str(state.store.load_trace(run_id).get("status"))
        except PseError:
            return None
    error = state.start_error(run_id)
    if error is None:
        return None
    return "cancelled" if error.startswith("cancelled") else "error"


async def run_stream(state: WebState, run_id: str, after: int = 0) -> AsyncIterator[bytes]:
    """Frames of ``run_id``'s events with ``seq > after`` (``run_id`` must be validated).

    Yields the retry hint first, then ``event: <kind>`` / ``id: <seq>`` frames, then ``stream_end``.
    """
    cfg = state.stream
    yield retry_frame(cfg.retry_ms)
    last = after
    while True:  # one pass per (re)subscription
        with state.hub.subscription(run_id) as sub:
            backlog = await asyncio.to_thread(_read_events, state, run_id, last)
            size = await asyncio.to_thread(_log_size, state, run_id)
            for event in backlog:
                if event.seq <= last:
                    continue
                yield event_frame(event)
                last = event.seq
                if event.kind == EventKind.RUN_FINISHED:
                    yield end_frame("finished", event.payload.get("status"))
                    return
            while True:
                waited = await sub.get(timeout=cfg.idle)
                if waited is not None:
                    event = waited
                    if event.seq <= last:
                        continue
                    if event.seq != last + 1:
                        log.debug("run %s: seq jumped %d → %d; re-reading the log", run_id, last, event.seq)
                        break
                    yield event_frame(event)
                    last = event.seq
                    if event.kind == EventKind.RUN_FINISHED:
                        yield end_frame("finished", event.payload.get("status"))
                        return
                    continue
                if sub.lagging:
                    break  # re-subscribe, then replay what the queue could not hold
                grown = await asyncio.to_thread(_log_size, state, run_id)
                active = run_id in state.active()
                if grown != size or not active:
                    size = grown
                    if await asyncio.to_thread(_read_events, state, run_id, last):
                        break  # written where the hub does not hear it (e.g. another process)
                if not active:
                    status = await asyncio.to_thread(_final_status, state, run_id)
                    yield end_frame("not_running", status)
                    return


async def feed_stream(state: WebState) -> AsyncIterator[bytes]:
    """Frames of every run's run-level events (started, cycle finished, finished), each with the
    run's index row as of that event. A lagging subscriber gets ``event: resync`` (refetch)."""
    cfg = state.stream
    yield retry_frame(cfg.retry_ms)
    while True:
        with state.hub.subscription(None) as sub:
            while True:
                event = await sub.get(timeout=cfg.idle)
                if event is None:
                    if sub.lagging:
                        break
                    continue
                row = await asyncio.to_thread(_summary, state, event.run_id)
                yield run_level_frame(event, row)
        yield encode_frame(event="resync", data="{}")


def _summary(state: WebState, run_id: str) -> dict[str, object] | None:
    try:
        row = state.store.index.get(run_id)
    except PseError as exc:
        log.warning("run feed: no index row for %s (%s)", run_id, exc)
        return None
    return RunSummary.from_row(row).model_dump(mode="json") if row is not None else None
