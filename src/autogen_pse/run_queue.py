"""The queue of runs in one process: at most ``concurrency`` at once, the rest wait in order.

:class:`RunQueue` is what every in-process executor shares (the real one,
:class:`~autogen_pse.executor.LocalExecutor`, and the web layer's scripted-event double,
:class:`~autogen_pse.web.synthetic.SyntheticExecutor`): the FIFO slots, one stop event per run, the
tasks, cancellation of queued and running runs, and why a run never started.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

__all__ = ["RunQueue"]

T = TypeVar("T")

#: ``start_error`` of a run cancelled while it waited for a slot.
CANCELLED_BEFORE_START = "cancelled before it started"


class RunQueue(Generic[T]):
    """Runs of one executor. A run is a coroutine ``body(stop)``: it gets its slot in submission
    order, and ``stop`` is set by :meth:`cancel` (a queued run is then never started)."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self._slots = asyncio.Semaphore(concurrency)
        self._stops: dict[str, asyncio.Event] = {}
        self._tasks: dict[str, asyncio.Task[T | None]] = {}
        #: run id → why it never started or failed outside its trace (one line)
        self.errors: dict[str, str] = {}

    def start(self, run_id: str, body: Callable[[asyncio.Event], Awaitable[T | None]]) -> None:
        """Queue ``body`` as run ``run_id`` (it starts when a slot is free)."""
        stop = asyncio.Event()
        self._stops[run_id] = stop
        self._tasks[run_id] = asyncio.create_task(self._in_slot(run_id, body, stop), name=f"run-{run_id}")

    async def _in_slot(self, run_id: str, body: Callable[[asyncio.Event], Awaitable[T | None]],
                       stop: asyncio.Event) -> T | None:
        try:
            async with self._slots:
                if stop.is_set():
                    self.errors[run_id] = CANCELLED_BEFORE_START
                    return None
                return await body(stop)
        finally:
            self._stops.pop(run_id, None)

    async def cancel(self, run_id: str) -> bool:
        """Ask a queued or running run to stop; False when it is not known or already over."""
        stop = self._stops.get(run_id)
        if stop is None:
            return False
        stop.set()
        return True

    def active(self) -> set[str]:
        """Ids of queued and running runs."""
        return set(self._stops)

    async def result(self, run_id: str) -> T | None:
        """What the run's body returned (None: cancelled before it started).

        Raises:
            KeyError: ``run_id`` was not started here.
        """
        return await self._tasks[run_id]

    def start_error(self, run_id: str) -> str | None:
        return self.errors.get(run_id)

    async def shutdown(self) -> None:
        """Stop every active run and wait until all have ended."""
        for stop in self._stops.values():
            stop.set()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
