"""EventHub: fans every RunEvent out to SSE subscribers without ever blocking a run.

The hub is an event sink (``hub.publish`` is a synchronous callable taking a RunEvent) added to
the executor next to the trace store. Each subscriber owns a *bounded* queue. ``publish`` only
does ``put_nowait``: when a subscriber's queue is full, that subscriber is dropped from the hub and
marked ``lagging`` — the run goes on at full speed, and the stream behind the subscriber re-syncs
from the trace store's ``events.jsonl`` (see :mod:`autogen_pse.web.streams`), so a slow tab loses
nothing and slows nothing.

Subscribers are per run (every event of that run) or global (run-level kinds only: started,
cycle finished, finished — the live history feed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator

from autogen_pse.events import RUN_LEVEL_KINDS, EventKind, RunEvent

__all__ = ["DEFAULT_QUEUE_SIZE", "EventHub", "Subscription"]

log = logging.getLogger(__name__)

#: Events a subscriber may fall behind before it is marked lagging (and re-synced from the store).
DEFAULT_QUEUE_SIZE = 1000


class Subscription:
    """One subscriber's bounded queue. Use :meth:`EventHub.subscribe`; close with :meth:`close`.

    ``run_id`` is None for a global (run-level) subscription.
    """

    def __init__(self, hub: EventHub, run_id: str | None, maxsize: int) -> None:
        self.hub = hub
        self.run_id = run_id
        self.queue: asyncio.Queue[RunEvent] = asyncio.Queue(maxsize)
        self.lagging = False
        self.closed = False

    async def get(self, timeout: float | None = None) -> RunEvent | None:
        """The next event; None after ``timeout`` seconds without one, or when the subscription is
        lagging and its queue is drained (the caller must then re-sync from the store)."""
        if self.lagging and self.queue.empty():
            return None
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    def drain(self) -> list[RunEvent]:
        """Every event queued now (without waiting)."""
        items: list[RunEvent] = []
        while True:
            try:
                items.append(self.queue.get_nowait())
            except asyncio.QueueEmpty:
                return items

    def close(self) -> None:
        """Leave the hub (idempotent)."""
        if not self.closed:
            self.closed = True
            self.hub.unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EventHub:
    """Per-run and global subscribers with bounded queues; :meth:`publish` never blocks.

    ``publish`` may be called from the event loop's thread (the in-process executor) or from any
    other thread (then delivery is handed to the loop bound with :meth:`bind`).
    """

    def __init__(self, *, queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        if queue_size < 1:
            raise ValueError("queue_size must be >= 1")
        self.queue_size = queue_size
        self._runs: dict[str, set[Subscription]] = {}
        self._global: set[Subscription] = set()
        self._running: dict[str, int] = {}  # run id → last seq, between run_started and run_finished
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self.published = 0
        self.dropped = 0

    # --- wiring ----------------------------------------------------------------------------
    def bind(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Remember the loop whose queues this hub feeds (call from that loop, at app startup)."""
        self._loop = loop or asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()

    def subscribe(self, run_id: str | None = None, *, maxsize: int | None = None) -> Subscription:
        """A new subscription to ``run_id``'s events (None: the global run-level feed)."""
        sub = Subscription(self, run_id, maxsize or self.queue_size)
        with self._lock:
            if run_id is None:
                self._global.add(sub)
            else:
                self._runs.setdefault(run_id, set()).add(sub)
        return sub

    @contextlib.contextmanager
    def subscription(self, run_id: str | None = None) -> Iterator[Subscription]:
        """:meth:`subscribe` as a context manager that always unsubscribes."""
        sub = self.subscribe(run_id)
        try:
            yield sub
        finally:
            sub.close()

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub.run_id is None:
                self._global.discard(sub)
                return
            subs = self._runs.get(sub.run_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._runs[sub.run_id]

    # --- the sink --------------------------------------------------------------------------
    def publish(self, event: RunEvent) -> None:
        """Sink: hand ``event`` to every matching subscriber (non-blocking, never raises)."""
        if self._loop is not None and self._loop_thread != threading.get_ident():
            with contextlib.suppress(RuntimeError):  # loop closed: nobody is listening any more
                self._loop.call_soon_threadsafe(self._deliver, event)
            return
        self._deliver(event)

    def _deliver(self, event: RunEvent) -> None:
        self.published += 1
        if event.kind == EventKind.RUN_FINISHED:
            self._running.pop(event.run_id, None)
        else:
            self._running[event.run_id] = event.seq
        with self._lock:
            targets = list(self._runs.get(event.run_id, ()))
            if event.kind in RUN_LEVEL_KINDS:
                targets += list(self._global)
        for sub in targets:
            try:
                sub.queue.put_nowait(event)
            except asyncio.QueueFull:
                self._drop(sub)

    def _drop(self, sub: Subscription) -> None:
        sub.lagging = True
        self.dropped += 1
        self.unsubscribe(sub)
        log.info("SSE subscriber of %s fell %d events behind; it re-syncs from the store",
                 sub.run_id or "the run feed", sub.queue.maxsize)

    # --- introspection ---------------------------------------------------------------------
    def running(self) -> set[str]:
        """Runs that have started and not finished (as seen by this hub)."""
        return set(self._running)

    def subscriber_count(self, run_id: str | None = None) -> int:
        """Subscribers of ``run_id`` (None: of the global feed)."""
        with self._lock:
            return len(self._global) if run_id is None else len(self._runs.get(run_id, ()))
