"""SyntheticExecutor: a :class:`~autogen_pse.executor.RunExecutor` that plays a fixed event script.

Registered through the same seam as the real executor (``create_app(settings, executor=...)``),
it records each run with the real :class:`~autogen_pse.store.TraceStore` (trace folder,
``events.jsonl``, index row) and hands every event to the given sinks — but the events come from a
script with a fixed pace instead of models. SSE tests use it to reconnect at an exact point of a
run; ``bench/bench_sse.py`` uses it to fan one long run out to many subscribers. Each event's
payload carries ``t_emit`` (``time.time()`` at emission) so receivers can measure latency.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autogen_pse.config import Settings
from autogen_pse.events import EventEmitter, EventKind, EventSink
from autogen_pse.names import ROLES
from autogen_pse.run_queue import RunQueue
from autogen_pse.runner import RunRequest
from autogen_pse.store import TraceStore

__all__ = ["ScriptStep", "SyntheticExecutor", "demo_script"]


@dataclass(frozen=True)
class ScriptStep:
    kind: EventKind
    payload: dict[str, Any]
    cycle: int = 0


def _usage(role: str, prompt: int, completion: int) -> dict[str, Any]:
    return {"model_calls": 1, "prompt_tokens": prompt, "completion_tokens": completion, "cost": None,
            "currency": "USD", "per_agent": {role: {"model_calls": 1, "prompt_tokens": prompt,
                                                    "completion_tokens": completion, "cost": None}}}


def demo_script(request: RunRequest, *, messages: int = 3, verdict: str = "PASS") -> list[ScriptStep]:
    """One cycle: ``messages`` turns (planner/specialist/evaluator in turn), a check, a verdict.

    Payloads follow ``docs/CONTRACTS.md``; ``run_started``/``run_finished`` are added by the
    executor.
    """
    roles = ROLES
    started = {"index": 1, "kind": "initial", "task_text": request.task}
    steps = [ScriptStep(EventKind.CYCLE_STARTED, started, 1)]
    for i in range(messages):
        role = roles[i % 3]
        steps.append(ScriptStep(EventKind.MESSAGE, {
            "source": role, "type": "TextMessage", "content": f"{role} turn {i + 1}",
            "usage": {"prompt_tokens": 10 + i, "completion_tokens": 5, "cost": None},
        }, 1))
    verdict_body: dict[str, object] = {
        "outcome": verdict, "reason": "OK" if verdict == "PASS" else "INCOMPLETE", "issues": [],
        "summary": f"synthetic {verdict}"}
    steps += [
        ScriptStep(EventKind.CHECK, {"name": "synthetic", "ok": True, "severity": "error", "detail": "",
                                     "claims_checked": 0, "claims_supported": 0, "unsupported": [],
                                     "phase": "cycle"}, 1),
        ScriptStep(EventKind.VERDICT, {**verdict_body, "origin": "evaluator"}, 1),
        ScriptStep(EventKind.CYCLE_FINISHED, {"index": 1, "verdict": verdict_body,
                                              "usage": _usage("planner", 10, 5)}, 1),
    ]
    return steps


class SyntheticExecutor:
    """Plays ``script(request)`` for every submitted run, ``delay`` seconds between events
    (after ``warmup`` seconds of quiet following ``run_started``).

    At most ``concurrency`` runs play at once; the rest wait in order. :meth:`cancel` ends a run
    after its current event with ``run_finished`` status ``cancelled``.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        sinks: list[EventSink] | None = None,
        concurrency: int = 2,
        delay: float = 0.05,
        warmup: float = 0.0,
        script: Callable[[RunRequest], list[ScriptStep]] = demo_script,
    ) -> None:
        self.settings = settings
        self.store = TraceStore(settings)
        self.delay = delay
        self.warmup = warmup
        self.script = script
        self._sinks = list(sinks or [])
        self._queue: RunQueue[None] = RunQueue(concurrency)  # the real executor's queue
        self.errors = self._queue.errors
        self.max_running = 0
        self._running = 0

    @property
    def concurrency(self) -> int:
        return self._queue.concurrency

    async def submit(self, request: RunRequest) -> str:
        run_id = self.store.new_run_id()
        self._queue.start(run_id, lambda stop: self._play(run_id, request, stop))
        return run_id

    async def _play(self, run_id: str, request: RunRequest, stop: asyncio.Event) -> None:
        self._running += 1
        self.max_running = max(self.max_running, self._running)
        try:
            await self._emit_all(run_id, request, stop)
        finally:
            self._running -= 1

    async def _emit_all(self, run_id: str, request: RunRequest, stop: asyncio.Event) -> None:
        run_dir = await asyncio.to_thread(self.store.create_run, run_id)
        sink = self.store.sink(run_id)
        emitter = EventEmitter(run_id, [sink.handle, *self._sinks], strict=False)  # payloads carry t_emit
        model = request.model or "synthetic"

        def emit(kind: EventKind, payload: dict[str, Any], cycle: int = 0) -> None:
            emitter.emit(kind, {**payload, "t_emit": time.time()}, cycle=cycle)

        emit(EventKind.RUN_STARTED, {"task": request.task, "model": model, "vars": request.vars,
                                     "limits": {"max_cycles": request.max_cycles or 1},
                                     "trace_dir": str(run_dir), "workspace": str(run_dir / "workspace")})
        status, verdict, cycles = "finished", None, 0
        if self.warmup:
            await asyncio.sleep(self.warmup)  # lets subscribers connect before the events flow
        for step in self.script(request):
            if stop.is_set():
                status = "cancelled"
                break
            await asyncio.sleep(self.delay)
            emit(step.kind, step.payload, step.cycle)
            if step.kind == EventKind.CYCLE_FINISHED:
                cycles = step.cycle
                verdict = (step.payload.get("verdict") or {}).get("outcome")
        artifact = run_dir / "artifact.md"
        done = status == "finished"
        if done:
            text = f"# Synthetic artifact of {run_id}\n\nTask: {request.task}\n"
            artifact.write_text(text, encoding="utf-8")
        emit(EventKind.RUN_FINISHED, {
            "status": status, "verdict": verdict if done else None, "reason": None, "limit": None,
            "cycles": cycles, "usage": _usage("planner", 0, 0),
            "error": None if done else "cancelled by request",
            "artifact_path": str(artifact) if done else None, "verified": done and verdict == "PASS",
        })

    async def cancel(self, run_id: str) -> bool:
        return await self._queue.cancel(run_id)

    def active(self) -> set[str]:
        return self._queue.active()

    async def wait(self, run_id: str) -> None:
        await self._queue.result(run_id)

    def start_error(self, run_id: str) -> str | None:
        return self._queue.start_error(run_id)

    async def shutdown(self) -> None:
        await self._queue.shutdown()
