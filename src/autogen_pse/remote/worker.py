"""What a worker does with one run order (called by the Celery task, in the worker process).

1. Claim the run (atomic: not cancelled, the current attempt, nobody else holds it) and start the
   heartbeat: it extends the lease every third of the heartbeat timeout and looks at the cancel
   flag every 0.25 s (a cancel reaches the run well within 2 s).
2. Check the task copy: its code hash must be the one the run was submitted with.
3. Write the input files under the worker's state dir, build the run (resume point and workspace
   of a resumed run) in a scratch folder and :func:`~autogen_pse.runner.execute` it with a
   :class:`WorkerStore` whose sink is the run's Redis Stream.
4. Report the end (``result``, ``failed``, ``refused`` or ``cancelled``) on the stream, release
   the lease and delete the scratch folder.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import shutil
import socket
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from autogen_pse.config import Settings, load_settings
from autogen_pse.errors import PseError, RunError
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.remote import keys
from autogen_pse.remote.broker import CLAIM, HEARTBEAT, PUBLISH, RELEASE, connect, script
from autogen_pse.remote.order import RunOrder, safe_relpath
from autogen_pse.remote.publisher import StreamPublisher
from autogen_pse.store import TraceStore

log = logging.getLogger(__name__)

CANCEL_POLL = 0.1  # seconds between looks at the cancel flag (one small Lua call each)
FLUSH_TIMEOUT = 300.0  # seconds a finished run waits for an unreachable broker to take its last events


class PublishingSink:
    """Stands where a :class:`~autogen_pse.store.RunSink` stands in :func:`execute`: the run's
    trace is written by the server, from the stream."""

    def __init__(self, publisher: StreamPublisher, last_seq: int) -> None:
        self._publisher = publisher
        self.last_seq = last_seq
        self.closed = False

    def handle(self, event: RunEvent) -> None:
        self._publisher.handle(event)
        self.last_seq = event.seq
        if event.kind == EventKind.RUN_FINISHED:
            self.closed = True

    def close(self) -> None:
        self.closed = True


class WorkerStore(TraceStore):
    """A trace store in the worker's scratch folder whose sinks publish to the stream."""

    def __init__(self, settings: Settings, publisher: StreamPublisher, last_seq: int) -> None:
        super().__init__(settings)
        self._publisher = publisher
        self._last_seq = last_seq

    def sink(self, run_id: str, *, reopen: bool = False) -> Any:
        return PublishingSink(self._publisher, self._last_seq if reopen else 0)


class _Heartbeat(threading.Thread):
    """Extends the lease and watches the cancel flag until :meth:`stop`."""

    def __init__(self, client: Any, run_id: str, token: str, ttl_ms: int, on_cancel: Any, on_lost: Any) -> None:
        super().__init__(name=f"pse-heartbeat-{run_id}", daemon=True)
        self._beat = script(client, HEARTBEAT)
        self._keys = [keys.lease(run_id), keys.cancel(run_id)]
        self._token, self._ttl_ms = token, ttl_ms
        self._on_cancel, self._on_lost = on_cancel, on_lost
        self._done = threading.Event()
        self.run_id = run_id

    def run(self) -> None:
        import redis

        cancelled = False
        while not self._done.wait(min(CANCEL_POLL, self._ttl_ms / 3000)):
            try:
                ours, cancel = self._beat(keys=self._keys, args=[self._token, self._ttl_ms])
            except (redis.RedisError, OSError):
                continue  # the broker restarts: the lease is extended once it is back
            if not ours:
                log.error("run %s: lease lost (no heartbeat reached the broker for %.1f s); stopping it",
                          self.run_id, self._ttl_ms / 1000)
                self._on_lost()
                return
            if cancel and not cancelled:
                cancelled = True
                log.info("run %s: cancel received at %.3f; stopping it", self.run_id, time.time())
                self._on_cancel()

    def stop(self) -> None:
        self._done.set()
        self.join(timeout=5)


def worker_token() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def run_order(raw: dict[str, Any], settings: Settings | None = None) -> str:
    """Execute one order; returns how it ended (``result``, ``failed``, ``refused``, ``cancelled``,
    ``stale``, ``busy``). Never raises for the run's own failures: they are reported on the stream."""
    settings = settings or load_settings()
    order = RunOrder.model_validate(raw)
    client = connect(settings.broker_url)
    try:
        return _run(order, settings, client)
    finally:
        client.close()


def _run(order: RunOrder, settings: Settings, client: Any) -> str:
    run_id, token = order.run_id, worker_token()
    claimed = _retrying(lambda: script(client, CLAIM)(
        keys=[keys.lease(run_id), keys.cancel(run_id), keys.attempt(run_id)],
        args=[token, str(order.attempt), order.heartbeat_ms]), what=f"run {run_id}: claiming it")
    last_seq = int((order.resume or {}).get("last_seq") or 0)
    if claimed == "cancelled":
        script(client, PUBLISH)(keys=[keys.lease(run_id), keys.stream(run_id)],
                                args=["", f"{last_seq}-{order.attempt}", "cancelled", "{}", ""])
        client.expire(keys.stream(run_id), order.stream_ttl)
        return "cancelled"
    if claimed != "ok":  # a stale delivery (an earlier attempt) or another worker runs it: not ours
        log.warning("run %s attempt %d: %s; this delivery is dropped", run_id, order.attempt, claimed)
        return str(claimed)
    scratch = settings.state_dir / "worker" / token.replace(":", "-")
    run_dir = scratch / run_id
    loop_box: dict[str, Any] = {}
    stop_flag = threading.Event()

    def stop_run() -> None:
        stop_flag.set()
        loop, stop = loop_box.get("loop"), loop_box.get("stop")
        if loop is not None and stop is not None:
            loop.call_soon_threadsafe(stop.set)

    input_error: str | None = None
    try:
        inputs = _write_inputs(order, settings)
    except OSError as exc:
        inputs, input_error = {}, (f"worker {socket.gethostname()} cannot write the run's input files under "
                                   f"{settings.state_dir} ({exc.strerror or exc}); free space or fix PSE_STATE_DIR")
    replace = {path: order.vars[var] for var, path in inputs.items()}
    publisher = StreamPublisher(client, run_id, token, run_dir, replace=replace, files_cap=order.files_cap,
                                on_fenced=stop_run)
    beat = _Heartbeat(client, run_id, token, order.heartbeat_ms, on_cancel=stop_run, on_lost=stop_run)
    beat.start()
    seq_now = last_seq
    try:
        try:
            if input_error is not None:
                raise RunError(input_error)
            result = _execute(order, settings, scratch, run_dir, inputs, publisher, last_seq, loop_box, stop_flag)
            report = ("result", publisher.rewrite(result.model_dump_json()))
        except _Refused as exc:
            report = ("refused", json.dumps({"type": "RunError", "message": str(exc)}))
        except PseError as exc:
            report = ("failed", json.dumps({"type": type(exc).__name__, "message": str(exc)}))
        except Exception as exc:  # the run's trace (if any) has the details; the server gets one line
            log.exception("run %s failed", run_id)
            report = ("failed", json.dumps({"type": "RunError", "message": f"{type(exc).__name__}: {exc}"}))
        seq_now = max(seq_now, loop_box.get("seq", 0))
        publisher.put(f"{seq_now}-{order.attempt}", report[0], report[1])
        if not publisher.flush(FLUSH_TIMEOUT):
            log.error("run %s: the broker took no events for %.0f s; the rest of the run is lost",
                      run_id, FLUSH_TIMEOUT)
        return report[0]
    finally:
        beat.stop()
        publisher.close()
        try:
            _retrying(lambda: script(client, RELEASE)(
                keys=[keys.lease(run_id), keys.attempt(run_id), keys.stream(run_id)],
                args=[token, str(order.attempt), order.stream_ttl]), what=f"run {run_id}: releasing it", timeout=30)
        except Exception as exc:  # the lease expires by itself
            log.warning("run %s: could not release its lease (%s)", run_id, exc)
        shutil.rmtree(scratch, ignore_errors=True)


def _retrying(call: Any, *, what: str, timeout: float = FLUSH_TIMEOUT) -> Any:
    """``call()``, again every 0.5 s while the broker is unreachable (a restart), at most ``timeout`` s."""
    import redis

    deadline = time.monotonic() + timeout
    while True:
        try:
            return call()
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError) as exc:
            if time.monotonic() > deadline:
                raise
            log.warning("%s: the broker is unreachable (%s); trying again", what, exc)
            time.sleep(0.5)


class _Refused(Exception):
    pass


def _execute(order: RunOrder, settings: Settings, scratch: Path, run_dir: Path, inputs: dict[str, str],
             publisher: StreamPublisher, last_seq: int, loop_box: dict[str, Any], stop_flag: threading.Event) -> Any:
    from autogen_pse.cycle import Limits
    from autogen_pse.provenance import tree_sha
    from autogen_pse.registry import load_task
    from autogen_pse.resume import ResumePoint, Resumption
    from autogen_pse.runner import RunRequest, execute, plan_run, prepare_plan

    run_settings = settings.model_copy(update={"traces_dir": scratch, "artifact_mode": order.artifact_mode})
    task = load_task(run_settings.tasks_dir, order.task)  # UserError: this worker has no such task
    mine = tree_sha(task.dir)
    if order.task_sha is not None and mine != order.task_sha:
        raise _Refused(f"worker {socket.gethostname()} (pid {os.getpid()}) refuses run {order.run_id}: its copy of "
                       f"task {order.task!r} differs (code hash {mine} ≠ submitted {order.task_sha}); install "
                       f"the same task version on every worker (PSE_TASKS_DIR={run_settings.tasks_dir})")
    request = RunRequest(task=order.task, model=order.model, max_cycles=order.max_cycles,
                         vars={**order.vars, **inputs})
    plan = plan_run(request, run_settings)
    plan.run_id = order.run_id
    plan.limits = Limits(**{k: v for k, v in order.limits.items() if k in Limits.__dataclass_fields__})
    if order.resume is not None:
        r = dict(order.resume)
        point = ResumePoint(**r["point"]) if r.get("point") else None
        plan.resume = Resumption(point=point, previous_status=r["previous_status"],
                                 previous_error=r.get("previous_error"), last_seq=int(r["last_seq"]),
                                 cursors=r.get("cursors"), model_spec=r.get("model_spec"),
                                 usage=tuple((str(a), int(b), int(c)) for a, b, c in r.get("usage") or ()))
        (run_dir / "workspace").mkdir(parents=True, exist_ok=True)
        for rel, data in order.files.items():
            safe = safe_relpath(rel)
            if safe is None:
                continue
            target = run_dir / safe
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(base64.b64decode(data))
    prepare_plan(plan, run_settings)
    store = WorkerStore(run_settings, publisher, last_seq)

    async def main() -> Any:
        stop = asyncio.Event()
        loop_box["loop"], loop_box["stop"] = asyncio.get_running_loop(), stop
        if stop_flag.is_set():
            stop.set()

        def count(event: RunEvent) -> None:
            loop_box["seq"] = event.seq

        return await execute(plan, run_settings, sinks=[count], stop=stop, store=store)

    return asyncio.run(main())


def _write_inputs(order: RunOrder, settings: Settings) -> dict[str, str]:
    """Write the order's input files under ``<state_dir>/inputs/<sha>/``; var → local path."""
    paths: dict[str, str] = {}
    for item in order.inputs:
        name = Path(item.name).name or "input"
        folder = settings.state_dir / "inputs" / item.sha256[:16]
        target = folder / name
        if not target.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".{name}.{uuid.uuid4().hex[:6]}"
            tmp.write_bytes(base64.b64decode(item.data))
            tmp.replace(target)
        paths[item.var] = str(target)
    return paths
