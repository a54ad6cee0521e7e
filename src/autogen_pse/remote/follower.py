"""The server's (or the submitting CLI's) consumer of one remote run's stream.

It is the single writer of the run's trace: each stream entry is an event, written through the
trace store's own sink (``events.jsonl``, ``trace.json``, the SQLite index) and then handed to
the executor's other sinks (console, SSE hub) — exactly as a local run's emitter would. Entries
are taken strictly by ``seq``: one already written (a publish retried after a broker restart, an
earlier attempt's tail) is skipped, so nothing is written twice; the stream keeps what was not yet
read across a broker restart (Redis with AOF), so nothing is lost.

Liveness: once a worker has claimed the run, its lease must stay in Redis (the worker's heartbeat
extends it). When the lease is gone and the stream has nothing more, the run is ``interrupted``;
with ``PSE_RETRY_INTERRUPTED=1`` it is resumed on another worker from its last completed cycle
(:mod:`autogen_pse.resume`), at most ``PSE_RETRY_LIMIT`` times.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import tempfile
from typing import TYPE_CHECKING, Any

from autogen_pse import errors
from autogen_pse.errors import PseError, RunError, StoreError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.remote import keys
from autogen_pse.remote.order import RunOrder, safe_relpath
from autogen_pse.remote.publisher import RUN_DIR
from autogen_pse.runner import RunResult

if TYPE_CHECKING:
    from autogen_pse.remote.executor import CeleryExecutor
    from autogen_pse.store import RunSink

log = logging.getLogger(__name__)

READ_BLOCK_MS = 500
READ_COUNT = 500
_ERRORS: dict[str, type[PseError]] = {name: getattr(errors, name) for name in
                                      ("UserError", "RunError", "ServiceError", "ModelError", "StoreError")}


class RunFollower:
    def __init__(self, executor: CeleryExecutor, order: RunOrder) -> None:
        self.ex = executor
        self.run_id = order.run_id
        self.order = order
        self.written = int((order.resume or {}).get("last_seq") or 0)
        self.last_id = "0-0"
        self.started = False  # a worker claimed the current attempt (its lease was seen, or an event came)
        self.cancel_requested = False
        self.retries = 0
        self.done = False
        self.result: RunResult | None = None
        self.failure: BaseException | None = None
        self.finished = asyncio.Event()
        self._sink: RunSink | None = None
        self._run_dir = executor.store.traces_dir / order.run_id
        self._dir_json = json.dumps(str(self._run_dir))[1:-1]
        self._broker_down = False
        self.task: asyncio.Task[None] | None = None

    # --- outcome -------------------------------------------------------------------------------
    def _finish(self, result: RunResult | None = None, failure: BaseException | None = None,
                error: str | None = None) -> None:
        if self.done:
            return
        self.done, self.result, self.failure = True, result, failure
        if error is not None:
            self.ex.errors[self.run_id] = error
        if result is not None:
            self.ex.results[self.run_id] = result
        self._close_sink()

    def cancelled_before_start(self) -> None:
        """Called on the executor's loop when a queued run was cancelled (no worker can claim it now)."""
        self._finish(error="cancelled before it started")
        self.finished.set()

    def _close_sink(self) -> None:
        if self._sink is not None:
            try:
                self._sink.close()
            except StoreError as exc:
                log.error("run %s: %s", self.run_id, exc)
            self._sink = None

    # --- the loop ------------------------------------------------------------------------------
    async def run(self) -> None:
        try:
            await self._loop()
        except asyncio.CancelledError:
            self._close_sink()
            raise
        except Exception as exc:
            log.exception("run %s: following its stream failed", self.run_id)
            self._finish(failure=RunError(f"run {self.run_id}: following its events failed: {exc}"),
                         error=f"{type(exc).__name__}: {exc}")
        finally:
            self.finished.set()

    async def _loop(self) -> None:
        import redis

        client = self.ex.redis()
        stream = keys.stream(self.run_id)
        while not self.done:
            try:
                resp: Any = await client.xread({stream: self.last_id}, count=READ_COUNT, block=READ_BLOCK_MS)
                if self._broker_down:
                    log.warning("run %s: the broker is back; reading its events again", self.run_id)
                    self._broker_down = False
                if resp:
                    self._dispatch(await asyncio.to_thread(self._apply, resp[0][1]))
                    continue
                await self._check_liveness(client, stream)
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError) as exc:
                if not self._broker_down:
                    log.warning("run %s: the broker is unreachable (%s); waiting for it", self.run_id, exc)
                    self._broker_down = True
                await asyncio.sleep(0.3)
        with contextlib.suppress(redis.RedisError, OSError):
            if isinstance(self.failure, StoreError):  # its trace cannot be written here: stop the run
                await client.set(keys.cancel(self.run_id), "1", ex=self.order.stream_ttl)
            if self.result is not None or self.failure is not None:  # a late redelivery of this order is stale
                await client.set(keys.attempt(self.run_id), f"done:{self.order.attempt}", keepttl=True)

    async def _check_liveness(self, client: Any, stream: str) -> None:
        if await client.exists(keys.lease(self.run_id)):
            self.started = True
            return
        if not self.started:
            return  # queued: no worker has taken it yet
        resp: Any = await client.xread({stream: self.last_id}, count=READ_COUNT)  # what it sent before it died
        if resp:
            self._dispatch(await asyncio.to_thread(self._apply, resp[0][1]))
            return
        if not self.done:
            await self._interrupted(client)

    async def _interrupted(self, client: Any) -> None:
        settings = self.ex.settings
        self._close_sink()
        has_trace = (self._run_dir / "events.jsonl").is_file()
        if has_trace:
            live = self.ex.active() - {self.run_id}
            await asyncio.to_thread(self.ex.store.recover_interrupted, live)
        why = f"its worker sent no heartbeat for {settings.heartbeat_timeout:g} s"
        if settings.retry_interrupted and not self.cancel_requested and self.retries < settings.retry_limit:
            self.retries += 1
            try:
                order = await asyncio.to_thread(self._next_order, has_trace)
                await self.ex.send(order)
            except PseError as exc:
                self._finish(failure=exc, error=str(exc))
                return
            log.warning("run %s interrupted (%s); resumed on another worker (attempt %d)", self.run_id, why,
                        order.attempt)
            self.order, self.started = order, False
            return
        message = (f"run {self.run_id} was interrupted: {why}; continue it with `pse run --resume {self.run_id}`"
                   if has_trace else f"run {self.run_id} was interrupted before its first event: {why}")
        self._finish(failure=RunError(message), error=message)

    def _next_order(self, has_trace: bool) -> RunOrder:
        if not has_trace:  # died before its first event: the same order again
            return self.order.model_copy()
        from autogen_pse.remote.order import build_order
        from autogen_pse.runner import RunRequest, plan_request

        plan = plan_request(RunRequest(task="", resume=self.run_id), self.ex.settings, self.ex.store)
        settings = self.ex.settings.model_copy(update={"artifact_mode": self.order.artifact_mode})
        order = build_order(plan, settings, self._run_dir)
        self.written = int((order.resume or {}).get("last_seq") or self.written)
        return order

    # --- entries -------------------------------------------------------------------------------
    def _dispatch(self, written: list[RunEvent]) -> None:
        """Hand events the trace recorded to the other sinks, in order, on the executor's loop
        (where a local run's emitter calls them)."""
        for event in written:
            for sink in self.ex.sinks:
                try:
                    sink(event)
                except Exception:
                    log.exception("run %s: a sink failed on event %d", self.run_id, event.seq)

    def _apply(self, entries: list[tuple[str, dict[str, str]]]) -> list[RunEvent]:
        """Write the entries' events into the trace (in a worker thread: file I/O); returns them."""
        written: list[RunEvent] = []
        for entry_id, fields in entries:
            self.last_id = entry_id
            if self.done:
                break
            kind = fields.get("k", "")
            data = fields.get("e", "").replace(RUN_DIR, self._dir_json)
            if kind == "event":
                self.started = True
                event = RunEvent.model_validate_json(data)
                if self._event(event, fields.get("f") or ""):
                    written.append(event)
                continue
            attempt = entry_id.rpartition("-")[2]
            if attempt != str(self.order.attempt):
                continue  # a report of an earlier attempt
            self._report(kind, data)
        return written

    def _event(self, event: RunEvent, files: str) -> bool:
        if event.seq <= self.written:
            return False  # already written (a retried publish, or an earlier attempt's tail)
        if event.seq != self.written + 1:
            log.error("run %s: event %d arrived after %d; %d event(s) are missing from the stream",
                      self.run_id, event.seq, self.written, event.seq - self.written - 1)
        if self._sink is None:
            store = self.ex.store
            if event.kind == EventKind.RUN_STARTED:
                store.create_run(self.run_id)
                self._sink = store.sink(self.run_id)
            else:
                self._sink = store.sink(self.run_id, reopen=True)
        if files:
            self._write_files(json.loads(files))
        try:
            self._sink.handle(event)
        except StoreError as exc:  # the record cannot be kept: stop following rather than lose events silently
            log.error("run %s: %s", self.run_id, exc)
            self._finish(failure=exc, error=str(exc))
            return False
        self.written = event.seq
        if event.kind == EventKind.RUN_FINISHED:
            self._close_sink()
        return True

    def _report(self, kind: str, data: str) -> None:
        if kind == "result":
            self._finish(result=RunResult.model_validate_json(data))
        elif kind == "cancelled":
            self._finish(error="cancelled before it started")
        elif kind in ("failed", "refused"):
            body = json.loads(data)
            cls = _ERRORS.get(str(body.get("type")), RunError)
            message = str(body.get("message") or "the worker reported no reason")
            self._finish(failure=cls(message), error=message)

    def _write_files(self, files: dict[str, str]) -> None:
        for rel, data in files.items():
            safe = safe_relpath(rel)
            if safe is None:
                log.warning("run %s: file %r from a worker refused (not a path inside the run)", self.run_id, rel)
                continue
            target = self._run_dir / safe
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(base64.b64decode(data))
                os.replace(tmp, target)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
