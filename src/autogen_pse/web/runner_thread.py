"""ThreadedExecutor: runs an executor on its own event loop, in a background thread.

Parts of a run are synchronous (a task's ``checks.py`` running pytest, ``events.jsonl`` fsyncs,
prepare hooks). On the server's event loop each would freeze every API request, SSE stream and
keep-alive ping for its duration (seen: ~4 s per pytest check). Behind this adapter runs block
only their own loop; events reach the web loop through :meth:`EventHub.publish`, which hands
them over thread-safely in order. The wrapped executor keeps its own semantics (cap, queue,
cancellation).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

from autogen_pse.executor import RunExecutor
from autogen_pse.runner import RunRequest

__all__ = ["ThreadedExecutor"]

T = TypeVar("T")


class ThreadedExecutor:
    """A :class:`~autogen_pse.executor.RunExecutor` whose runs execute on a private loop.

    ``factory`` is called on that loop's thread to build the real executor.
    """

    def __init__(self, factory: Callable[[], RunExecutor], *, name: str = "pse-runs") -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

        async def build() -> RunExecutor:
            return factory()

        self.inner: RunExecutor = self._submit(build()).result()

    def _submit(self, coro: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return await asyncio.wrap_future(self._submit(coro))

    @property
    def concurrency(self) -> int:
        return self.inner.concurrency

    @property
    def errors(self) -> dict[str, str]:
        return dict(getattr(self.inner, "errors", {}) or {})

    def start_error(self, run_id: str) -> str | None:
        return self.inner.start_error(run_id)

    async def submit(self, request: RunRequest) -> str:
        """Validate and queue on the runs loop (UserError propagates)."""
        return await self._call(self.inner.submit(request))

    async def cancel(self, run_id: str) -> bool:
        return await self._call(self.inner.cancel(run_id))

    def active(self) -> set[str]:
        """A snapshot of the inner executor's active ids (safe while it mutates them)."""
        for _ in range(100):
            try:
                return set(self.inner.active())
            except RuntimeError:  # "changed size during iteration": the other thread was mid-update
                continue
        return set(self.inner.active())

    async def adopt_running(self) -> list[str]:
        """The inner executor's ``adopt_running()`` (a remote executor follows again the runs a
        previous server process was writing); ``[]`` when it has none."""
        adopt = getattr(self.inner, "adopt_running", None)
        if adopt is None:
            return []
        adopted: list[str] = await self._call(adopt())
        return adopted

    async def wait(self, run_id: str) -> Any:
        return await self._call(self.inner.wait(run_id))

    async def shutdown(self) -> None:
        """Shut the inner executor down (cancelling active runs), then stop the loop thread."""
        if not self._thread.is_alive():
            return
        try:
            await self._call(self.inner.shutdown())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            for _ in range(3000):  # up to 30 s; polling keeps this free of the default thread pool
                if not self._thread.is_alive():
                    self._loop.close()
                    break
                await asyncio.sleep(0.01)
