"""``autogen_pse.run``: a run as an async stream of typed events, then its :class:`RunResult`.

Usage::

    import autogen_pse

    stream = autogen_pse.run("demo", model="scripted:tests/fixtures/scripted/demo_pass.json")
    async for event in stream:              # TypedEvent: event.kind, event.payload.<field>
        if event.kind == "verdict":
            print(event.cycle, event.payload.outcome)
    print(stream.result.verdict, stream.result.exit_code)

The run goes through the executor ``PSE_EXECUTOR`` names (the one the CLI and the dashboard use)
and is recorded in the trace store like any other. Bad input raises
:class:`~autogen_pse.errors.UserError` before any event (nothing is written). To stop a run
early, leave the loop inside ``async with`` (the run is cancelled on exit and its trace closed)::

    async with autogen_pse.run("demo") as stream:
        async for event in stream:
            if event.kind == "message":
                break                       # cancelled here, not when the generator is collected
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from .events import RunEvent, typed_event

if TYPE_CHECKING:
    from .config import Settings
    from .executor import RunExecutor
    from .runner import RunRequest, RunResult


class RunStream:
    """One run, consumed once with ``async for``. After the loop, :attr:`result` holds the
    :class:`RunResult` (``None`` only when the run was cancelled before it started)."""

    def __init__(self, request: RunRequest, settings: Settings) -> None:
        self.request = request
        self.settings = settings
        self.run_id: str | None = None
        self.result: RunResult | None = None
        self._queue: asyncio.Queue[RunEvent] = asyncio.Queue()
        self._executor: RunExecutor | None = None
        self._used = False
        self._iterator: Any = None

    def _put(self, event: RunEvent) -> None:
        self._queue.put_nowait(event)

    def __aiter__(self) -> AsyncIterator[Any]:
        if self._used:
            raise RuntimeError("a RunStream is consumed once; call autogen_pse.run(...) again for another run")
        self._used = True
        self._iterator = self._events()
        return self._iterator

    async def __aenter__(self) -> RunStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Cancel the run if it is still going and wait for its trace to close."""
        if self._iterator is not None:
            await self._iterator.aclose()

    async def _events(self) -> AsyncIterator[Any]:
        from .executor import open_executor

        executor = self._executor = open_executor(self.settings, sinks=[self._put], concurrency=1,
                                                  log_failures=False)
        self.run_id = run_id = await executor.submit(self.request)
        waiter = asyncio.ensure_future(executor.wait(run_id))
        try:
            while True:
                getter = asyncio.ensure_future(self._queue.get())
                done, _ = await asyncio.wait({getter, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    yield typed_event(getter.result().model_dump())
                    continue
                getter.cancel()
                while not self._queue.empty():
                    yield typed_event(self._queue.get_nowait().model_dump())
                self.result = waiter.result()  # raises the error that ended the run
                return
        finally:
            if not waiter.done():  # the caller left the loop early: the run stops
                await executor.cancel(run_id)
                await asyncio.gather(waiter, return_exceptions=True)
            await executor.shutdown()

    async def cancel(self) -> bool:
        """Ask the run to stop (its remaining events, up to ``run_finished``, still arrive)."""
        if self._executor is None or self.run_id is None:
            return False
        return await self._executor.cancel(self.run_id)

    async def wait(self) -> RunResult | None:
        """Consume the stream without looking at the events; returns :attr:`result`."""
        async for _ in self:
            pass
        return self.result


def run(task: str | RunRequest, *, model: str | None = None, vars: dict[str, str] | None = None,
        max_cycles: int | None = None, settings: Settings | None = None) -> RunStream:
    """Start describing a run of ``task`` (a name, or a full :class:`RunRequest`); nothing happens
    until the returned stream is iterated.

    Args:
        task: task name (see ``pse list``) or a :class:`RunRequest` (then the keywords must be unset).
        model: model spec (``local``, ``openai:<model>``, ``scripted:<file.json>`` or a plugin's);
            default ``PSE_MODEL``.
        vars: the task's ``--var`` values.
        max_cycles: 1–50; default ``PSE_MAX_CYCLES``.
        settings: default: read from the environment and ``.env`` like the CLI.

    Raises:
        UserError: ``task`` is a request and a keyword was given too.
    """
    from .config import load_settings
    from .errors import UserError
    from .runner import RunRequest

    if isinstance(task, RunRequest):
        if model is not None or vars is not None or max_cycles is not None:
            raise UserError("autogen_pse.run(RunRequest(...)) takes no model/vars/max_cycles: set them on the request")
        request = task
    else:
        request = RunRequest(task=task, model=model, vars=dict(vars or {}), max_cycles=max_cycles)
    return RunStream(request, settings or load_settings())
