"""Where runs execute: one interface (submit → run id + event stream to sinks, cancel).

Today :class:`LocalExecutor` runs in-process on asyncio with a concurrency cap and a FIFO queue.
A remote executor (AutoGen's gRPC worker runtime, a job queue) can implement the same methods
without touching the CLI, the web layer or the cycle loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from .config import Settings
from .errors import UserError
from .events import EventSink
from .runner import PreparedRun, RunRequest, RunResult, execute, plan_run, prepare_plan
from .store import TraceStore

log = logging.getLogger(__name__)


class RunExecutor(Protocol):
    async def submit(self, request: RunRequest) -> str:
        """Validate and queue a run; returns its id. Raises UserError for a bad request."""
        ...

    async def cancel(self, run_id: str) -> bool:
        """Ask a queued or running run to stop; False when it is not known or already over."""
        ...

    def active(self) -> set[str]:
        """Ids of queued and running runs."""
        ...


class LocalExecutor:
    """In-process executor: at most ``concurrency`` runs at once, the rest wait in order.

    Every run's events go to ``sinks`` (e.g. the SSE hub) besides its trace. A run's life never
    depends on a subscriber: cancellation happens only through :meth:`cancel`.
    """

    def __init__(self, settings: Settings, *, concurrency: int | None = None, sinks: list[EventSink] | None = None):
        self.settings = settings
        self.concurrency = concurrency or settings.web_concurrency
        self._slots = asyncio.Semaphore(self.concurrency)
        self._sinks = list(sinks or [])
        self._stops: dict[str, asyncio.Event] = {}
        self._tasks: dict[str, asyncio.Task[RunResult | None]] = {}
        self.results: dict[str, RunResult] = {}
        self.errors: dict[str, str] = {}
        self.store = TraceStore(settings)

    async def submit(self, request: RunRequest) -> str:
        """Validate ``request``, prepare its inputs and queue it; returns the run id.

        Raises:
            UserError: a bad request or input file.  StoreError: the traces folder is not writable.
        """

        def validate() -> PreparedRun:
            plan = prepare_plan(plan_run(request, self.settings), self.settings)
            self.store.check_writable()  # refuse now rather than fail in the background
            return plan

        plan = await asyncio.to_thread(validate)
        stop = asyncio.Event()
        self._stops[plan.run_id] = stop
        self._tasks[plan.run_id] = asyncio.create_task(self._run(plan, stop), name=f"run-{plan.run_id}")
        return plan.run_id

    async def _run(self, plan: PreparedRun, stop: asyncio.Event) -> RunResult | None:
        try:
            async with self._slots:
                if stop.is_set():
                    self.errors[plan.run_id] = "cancelled before it started"
                    return None
                result = await execute(plan, self.settings, sinks=self._sinks, stop=stop, store=self.store)
                self.results[plan.run_id] = result
                return result
        except UserError as exc:
            self.errors[plan.run_id] = str(exc)
            log.warning("run %s could not start: %s", plan.run_id, exc)
            return None
        except Exception as exc:  # recorded for the API; the trace (if any) holds the details
            self.errors[plan.run_id] = f"{type(exc).__name__}: {exc}"
            log.exception("run %s failed", plan.run_id)
            return None
        finally:
            self._stops.pop(plan.run_id, None)

    async def cancel(self, run_id: str) -> bool:
        stop = self._stops.get(run_id)
        if stop is None:
            return False
        stop.set()
        return True

    def active(self) -> set[str]:
        return set(self._stops)

    async def wait(self, run_id: str) -> RunResult | None:
        """Wait for a submitted run to end (tests, CLI)."""
        return await self._tasks[run_id]

    async def shutdown(self) -> None:
        """Cancel every active run and wait for their traces to close."""
        for stop in self._stops.values():
            stop.set()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
