"""CeleryExecutor: runs execute on ``pse worker`` processes; this process writes their traces.

``submit`` validates exactly as the local executor does (bad input: UserError before any run id,
exit 2 / 422), reads the ``--var`` input files into the order, then queues it; a broker that does
not answer is a :class:`~autogen_pse.errors.ServiceError` (exit 3 / 503). Each run is then
followed by a :class:`~autogen_pse.remote.follower.RunFollower` on this executor's loop, which
writes its trace and feeds the ``sinks`` (console, SSE hub) in order.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.events import EventSink
from autogen_pse.remote import keys
from autogen_pse.remote.broker import CANCEL, connect_async, unreachable
from autogen_pse.remote.follower import RunFollower
from autogen_pse.remote.order import RunOrder, build_order
from autogen_pse.runner import RunRequest, RunResult, plan_request, prepare_plan
from autogen_pse.store import TraceStore

if TYPE_CHECKING:
    import redis.asyncio
    from celery import Celery

log = logging.getLogger(__name__)

SHUTDOWN_GRACE = 10.0


class CeleryExecutor:
    """A :class:`~autogen_pse.executor.RunExecutor` whose runs execute on Celery workers."""

    def __init__(self, settings: Settings, *, sinks: list[EventSink] | None = None, concurrency: int | None = None,
                 log_failures: bool = True) -> None:
        self.settings = settings
        self.concurrency = concurrency or settings.web_concurrency
        self.log_failures = log_failures
        self.sinks = list(sinks or [])
        self.store = TraceStore(settings)
        self.results: dict[str, RunResult] = {}
        self.errors: dict[str, str] = {}
        self._followers: dict[str, RunFollower] = {}
        self._redis: redis.asyncio.Redis | None = None
        self._app: Celery | None = None

    # --- connections -----------------------------------------------------------------------------
    def redis(self) -> redis.asyncio.Redis:
        if self._redis is None:
            self._redis = connect_async(self.settings.broker_url)
        return self._redis

    def _celery(self) -> Celery:
        if self._app is None:
            from autogen_pse.remote.celery_app import make_app

            self._app = make_app(self.settings.broker_url)
        return self._app

    async def send(self, order: RunOrder) -> None:
        """Give ``order`` the next attempt number and queue it.

        Raises:
            ServiceError: the broker does not answer.
        """
        import redis

        from autogen_pse.remote.celery_app import send_order

        client, run_id = self.redis(), order.run_id
        try:
            current = await client.get(keys.attempt(run_id))
            order.attempt = int(str(current or "0").rpartition(":")[2] or 0) + 1
            await client.set(keys.attempt(run_id), str(order.attempt), ex=order.stream_ttl)
            await asyncio.to_thread(send_order, self._celery(), order.model_dump())
        except (redis.RedisError, OSError) as exc:
            raise unreachable(self.settings.broker_url, exc) from None
        except Exception as exc:  # kombu's OperationalError and friends: the broker went away
            if type(exc).__module__.split(".")[0] not in ("kombu", "celery", "redis"):
                raise
            raise unreachable(self.settings.broker_url, exc) from None

    # --- RunExecutor -----------------------------------------------------------------------------
    async def submit(self, request: RunRequest) -> str:
        """Validate ``request``, read its input files and queue it; returns the run id.

        Raises:
            UserError: a bad request or input file (nothing queued).  StoreError: the traces folder
                is not writable.  ServiceError: the broker does not answer.
        """
        if request.replay:
            raise UserError("a replay runs in this process: use PSE_EXECUTOR=local (or --executor local) for it")

        def validate() -> RunOrder:
            plan = plan_request(request, self.settings, self.store)
            prepare_plan(plan, plan.settings or self.settings)
            self.store.check_writable()
            run_dir = self.store.run_dir(plan.run_id) if plan.resume is not None else None
            return build_order(plan, self.settings, run_dir)

        order = await asyncio.to_thread(validate)
        await self.send(order)
        follower = RunFollower(self, order)
        self._followers[order.run_id] = follower
        follower.task = asyncio.create_task(follower.run(), name=f"follow-{order.run_id}")
        return order.run_id

    async def cancel(self, run_id: str) -> bool:
        import redis

        follower = self._followers.get(run_id)
        if follower is None or follower.done:
            return False
        follower.cancel_requested = True
        try:
            held = await self.redis().eval(CANCEL, 2, keys.cancel(run_id), keys.lease(run_id),
                                           str(int(self.settings.stream_ttl)))
        except (redis.RedisError, OSError) as exc:
            log.warning("run %s: cancel not delivered, the broker is unreachable (%s)", run_id, exc)
            return False
        if not held and not follower.started:
            follower.cancelled_before_start()  # no worker can claim it any more
        return True

    async def adopt_running(self) -> list[str]:
        """Follow again the remote runs a previous process was writing when it died: runs the index
        shows ``running`` with no writer whose stream is still in Redis. A run whose worker is alive
        goes on being written; one that finished meanwhile gets the rest of its trace; one whose
        worker is gone too is marked interrupted (and resumed with ``PSE_RETRY_INTERRUPTED``).
        Returns the ids adopted; call it once at start, before marking interrupted runs."""
        import redis

        from autogen_pse.store.files import is_locked
        from autogen_pse.store.layout import EVENTS_FILE

        def candidates() -> list[tuple[str, str, int]]:
            rows = self.store.list_runs(status="running", limit=500).data
            found = []
            for row in rows:
                if row.run_id in self._followers or is_locked(self.store.traces_dir / row.run_id / EVENTS_FILE):
                    continue
                events = self.store.read_events(row.run_id)
                found.append((row.run_id, row.task or "", events[-1].seq if events else 0))
            return found

        adopted: list[str] = []
        client = self.redis()
        for run_id, task, last_seq in await asyncio.to_thread(candidates):
            try:
                if not await client.exists(keys.stream(run_id)):
                    continue
                attempt = str(await client.get(keys.attempt(run_id)) or "1").rpartition(":")[2]
            except (redis.RedisError, OSError) as exc:
                log.warning("remote runs not adopted: the broker is unreachable (%s)", exc)
                break
            order = RunOrder(run_id=run_id, attempt=int(attempt or 1), task=task, model="",
                             artifact_mode=self.settings.artifact_mode,
                             heartbeat_ms=int(self.settings.heartbeat_timeout * 1000),
                             files_cap=self.settings.remote_files_cap, stream_ttl=int(self.settings.stream_ttl))
            follower = RunFollower(self, order)
            follower.written, follower.started = last_seq, True
            self._followers[run_id] = follower
            follower.task = asyncio.create_task(follower.run(), name=f"follow-{run_id}")
            adopted.append(run_id)
        return adopted

    def active(self) -> set[str]:
        return {run_id for run_id, f in list(self._followers.items()) if not f.done}

    async def wait(self, run_id: str) -> RunResult | None:
        """Wait for a submitted run to end; see :meth:`~autogen_pse.executor.RunExecutor.wait`.

        Raises:
            KeyError: ``run_id`` was not submitted here.  The error that ended the run.
        """
        follower = self._followers[run_id]
        await follower.finished.wait()
        if follower.failure is not None:
            raise follower.failure
        return follower.result

    def start_error(self, run_id: str) -> str | None:
        return self.errors.get(run_id)

    async def shutdown(self) -> None:
        """Cancel every active run, wait a little for their ends to arrive, stop following."""
        for run_id in self.active():
            await self.cancel(run_id)
        pending = [f.finished.wait() for f in self._followers.values() if not f.done]
        if pending:
            grace = SHUTDOWN_GRACE + self.settings.heartbeat_timeout
            with_timeout: Any = asyncio.wait_for(asyncio.gather(*pending), timeout=grace)
            try:
                await with_timeout
            except TimeoutError:
                log.warning("%d remote run(s) still running on workers; their traces stop here",
                            len(self.active()))
        for follower in self._followers.values():
            if follower.task is not None and not follower.task.done():
                follower.task.cancel()
        tasks = [f.task for f in self._followers.values() if f.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None
