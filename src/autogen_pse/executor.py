"""Where runs execute: one interface (:class:`RunExecutor`) used by the CLI, the web layer and
:func:`autogen_pse.run` alike.

Executors are registered under the ``autogen_pse.executors`` entry point group as factories
``(settings, *, sinks, concurrency=None, log_failures=True) -> RunExecutor`` and chosen by
``PSE_EXECUTOR`` (default ``local``). The built-in :class:`LocalExecutor` runs in-process on
asyncio with a concurrency cap and a FIFO queue; a remote executor (a job queue with workers that
stream events back) implements the same methods without touching the CLI, the web layer or the
cycle loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from .config import Settings
from .errors import UserError
from .events import EventSink
from .run_queue import RunQueue
from .runner import PreparedRun, RunRequest, RunResult, execute, plan_request, prepare_plan
from .store import TraceStore

log = logging.getLogger(__name__)


class RunExecutor(Protocol):
    """The protocol every executor implements. Events of every run go, in order, to the ``sinks``
    given to the factory (besides the run's trace)."""

    @property
    def concurrency(self) -> int:
        """How many runs may execute at once."""
        ...

    async def submit(self, request: RunRequest) -> str:
        """Validate and queue a run; returns its id. Raises UserError for a bad request (nothing is
        written), StoreError when the traces folder is not writable."""
        ...

    async def cancel(self, run_id: str) -> bool:
        """Ask a queued or running run to stop; False when it is not known or already over."""
        ...

    def active(self) -> set[str]:
        """Ids of queued and running runs."""
        ...

    async def wait(self, run_id: str) -> RunResult | None:
        """Wait for a submitted run to end: its result, ``None`` when it was cancelled before it
        started. Raises the error that ended it otherwise (UserError, ModelError, StoreError …)."""
        ...

    def start_error(self, run_id: str) -> str | None:
        """Why an accepted run never started or failed outside its trace (one line), if known."""
        ...

    async def shutdown(self) -> None:
        """Cancel every active run and wait for their traces to close."""
        ...


def open_executor(settings: Settings, *, sinks: list[EventSink] | None = None, concurrency: int | None = None,
                  log_failures: bool = True) -> RunExecutor:
    """The executor named by ``settings.executor`` (``PSE_EXECUTOR``), from the registry.

    Raises:
        UserError: no executor registered under that name (lists the registered ones).
    """
    from .plugins import load

    factory = load("executors", settings.executor)
    return factory(settings, sinks=sinks, concurrency=concurrency, log_failures=log_failures)


class LocalExecutor:
    """In-process executor: at most ``concurrency`` runs at once, the rest wait in order
    (:class:`~autogen_pse.run_queue.RunQueue`).

    Every run's events go to ``sinks`` (e.g. the SSE hub) besides its trace. A run's life never
    depends on a subscriber: cancellation happens only through :meth:`cancel`.
    """

    def __init__(self, settings: Settings, *, concurrency: int | None = None, sinks: list[EventSink] | None = None,
                 log_failures: bool = True):
        self.settings = settings
        self.log_failures = log_failures  # off for the CLI, which reports the error itself
        self._queue: RunQueue[RunResult] = RunQueue(concurrency or settings.web_concurrency)
        self._sinks = list(sinks or [])
        self.results: dict[str, RunResult] = {}
        self.errors = self._queue.errors
        self._failures: dict[str, BaseException] = {}
        self.store = TraceStore(settings)

    @property
    def concurrency(self) -> int:
        return self._queue.concurrency

    async def submit(self, request: RunRequest) -> str:
        """Validate ``request``, prepare its inputs and queue it; returns the run id.

        Raises:
            UserError: a bad request or input file.  StoreError: the traces folder is not writable.
        """

        def validate() -> PreparedRun:
            plan = plan_request(request, self.settings, self.store)  # a new, resumed or replayed run
            prepare_plan(plan, plan.settings or self.settings)
            self.store.check_writable()  # refuse now rather than fail in the background
            return plan

        plan = await asyncio.to_thread(validate)
        self._queue.start(plan.run_id, lambda stop: self._run(plan, stop))
        return plan.run_id

    async def _run(self, plan: PreparedRun, stop: asyncio.Event) -> RunResult | None:
        try:
            result = await execute(plan, plan.settings or self.settings, sinks=self._sinks, stop=stop,
                                   store=self.store)
            self.results[plan.run_id] = result
            return result
        except UserError as exc:
            self.errors[plan.run_id] = str(exc)
            self._failures[plan.run_id] = exc.with_traceback(None)  # kept for wait(); no frames held
            if self.log_failures:
                log.warning("run %s could not start: %s", plan.run_id, exc)
            return None
        except Exception as exc:  # recorded for the API; the trace (if any) holds the details
            self.errors[plan.run_id] = f"{type(exc).__name__}: {exc}"
            self._failures[plan.run_id] = exc
            if self.log_failures:
                log.exception("run %s failed", plan.run_id)
            return None

    async def cancel(self, run_id: str) -> bool:
        return await self._queue.cancel(run_id)

    def active(self) -> set[str]:
        return self._queue.active()

    async def wait(self, run_id: str) -> RunResult | None:
        """Wait for a submitted run to end; see :meth:`RunExecutor.wait`.

        Raises:
            KeyError: ``run_id`` was not submitted here.  The error that ended the run.
        """
        result = await self._queue.result(run_id)
        failure = self._failures.pop(run_id, None)
        if failure is not None:
            raise failure
        return result

    def start_error(self, run_id: str) -> str | None:
        return self._queue.start_error(run_id)

    async def shutdown(self) -> None:
        """Cancel every active run and wait for their traces to close."""
        await self._queue.shutdown()
