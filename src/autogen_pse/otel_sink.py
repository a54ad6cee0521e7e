"""OtelSink: one run's events as OpenTelemetry spans (GenAI semantic conventions).

The span tree and attributes are described in :mod:`autogen_pse.telemetry` and
docs/opentelemetry.md. The sink only needs a tracer; :class:`autogen_pse.telemetry.Telemetry`
owns the provider and the export. OpenTelemetry is imported lazily, inside the handlers.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .events import EventKind, RunEvent

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

log = logging.getLogger(__name__)


def _ns(ts: str) -> int:
    """Event time (ISO 8601, ``Z``) in nanoseconds since the epoch."""
    return int(datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1e9)


def _provider_name(model: str) -> str:
    return {"openai": "openai", "local": "llama_cpp", "scripted": "scripted"}.get(model.split(":", 1)[0], "unknown")


class OtelSink:
    """Turns one run's events into spans (see the module docstring). Called synchronously by the
    run's emitter; the run and cycle spans become the current context of the task that emits
    ``run_started`` / ``cycle_started`` (the run's own task), so spans AutoGen opens nest below."""

    def __init__(self, tracer: Tracer) -> None:
        self.tracer = tracer
        self.model = ""
        self._run: Span | None = None
        self._cycle: Span | None = None
        self._tokens: list[Any] = []  # context tokens, attached in order (run, cycle)
        self._retries: dict[str, list[dict[str, Any]]] = {}
        self._checks: dict[int, dict[str, list[str]]] = {}  # span → names of passed / failed checks

    def __call__(self, event: RunEvent) -> None:
        handler = _HANDLERS.get(event.kind)
        if handler is None:
            return
        try:
            handler(self, event, event.payload)
        except Exception as exc:  # telemetry never breaks a run
            log.debug("OpenTelemetry sink: %s on %s", exc, event.kind)

    # --- spans -------------------------------------------------------------------------------
    def _attach(self, span: Span) -> None:
        from opentelemetry import context, trace

        self._tokens.append(context.attach(trace.set_span_in_context(span)))

    def _detach(self) -> None:
        from opentelemetry import context

        if self._tokens:
            context.detach(self._tokens.pop())

    def _child(self, name: str, start: int, parent: Span | None, **attrs: Any) -> Span:
        from opentelemetry import trace

        ctx = trace.set_span_in_context(parent) if parent is not None else None
        return self.tracer.start_span(name, context=ctx, start_time=start,
                                      attributes={k.replace("__", "."): v for k, v in attrs.items() if v is not None})

    def _run_started(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.model = str(p.get("model") or "")
        prov = p.get("provenance") or {}
        self._run = self.tracer.start_span(f"invoke_workflow {p.get('task')}", start_time=_ns(e.ts), attributes={
            "gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": str(p.get("task")),
            "gen_ai.request.model": self.model, "gen_ai.provider.name": _provider_name(self.model),
            "gen_ai.conversation.id": e.run_id, "pse.run_id": e.run_id, "pse.task": str(p.get("task")),
            "pse.artifact.mode": str((p.get("artifact") or {}).get("mode")),
            **{f"pse.{k}": str(v) for k, v in prov.items() if v is not None}})
        self._attach(self._run)

    def _timed(self, name: str, e: RunEvent, seconds: Any, attrs: dict[str, Any]) -> None:
        end = _ns(e.ts)
        start = end - int(float(seconds or 0) * 1e9)
        span = self._child(name, start, self._run, **attrs)
        span.end(end_time=end)

    def _prepared(self, e: RunEvent, p: dict[str, Any]) -> None:
        self._timed("prepare", e, p.get("seconds"), {"pse__facts": p.get("facts"),
                                                     "pse__reprepared": bool(p.get("reprepared"))})

    def _ingested(self, e: RunEvent, p: dict[str, Any]) -> None:
        seconds = float(p.get("seconds") or 0) + float(p.get("retrieval_seconds") or 0)
        self._timed("ingest_knowledge", e, seconds, {
            "gen_ai.operation.name": "retrieval", "gen_ai.data_source.id": p.get("collection"),
            "pse__chunks_added": p.get("chunks_added"), "pse__queries": p.get("queries")})

    def _resumed(self, e: RunEvent, p: dict[str, Any]) -> None:
        if self._run is None:  # a resumed run in a new process: a run span of its own, in a new trace
            self._run_started(e, p)
            assert self._run is not None
            self._run.set_attribute("pse.resumed", True)
        assert self._run is not None
        self._run.add_event("pse.resumed", {"pse.from_cycle": int(p.get("from_cycle") or 0),
                                            "pse.previous_status": str(p.get("previous_status"))}, _ns(e.ts))

    def _cycle_started(self, e: RunEvent, p: dict[str, Any]) -> None:
        self._end_cycle(e)
        self._cycle = self._child(f"cycle {p.get('index')}", _ns(e.ts), self._run,
                                  pse__cycle__index=int(p.get("index") or e.cycle),
                                  pse__cycle__kind=str(p.get("kind")))
        self._attach(self._cycle)

    def _prompt(self, e: RunEvent, p: dict[str, Any]) -> None:
        if self._cycle is not None:
            self._cycle.add_event("pse.prompt", {"gen_ai.agent.name": str(p.get("role")),
                                                 "pse.sha256": str(p.get("sha256")), "pse.chars": int(p["chars"])},
                                  _ns(e.ts))

    def _retry(self, e: RunEvent, p: dict[str, Any]) -> None:
        self._retries.setdefault(str(p.get("role")), []).append({"ts": e.ts, **p})

    def _model_call(self, e: RunEvent, p: dict[str, Any]) -> None:
        from opentelemetry.trace import SpanKind

        end = _ns(e.ts)
        role = str(p.get("role"))
        retries = self._retries.pop(role, [])
        attrs: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.request.model": self.model,
                 "gen_ai.provider.name": _provider_name(self.model), "gen_ai.agent.name": role,
                 "gen_ai.usage.input_tokens": int(p.get("prompt_tokens") or 0),
                 "gen_ai.usage.output_tokens": int(p.get("completion_tokens") or 0),
                 "pse.retries": len(retries)}
        if p.get("ttft") is not None:
            attrs["gen_ai.response.time_to_first_chunk"] = float(p["ttft"])
        span = self.tracer.start_span(f"chat {self.model}", kind=SpanKind.CLIENT,
                                      start_time=end - int(float(p.get("seconds") or 0) * 1e9), attributes=attrs)
        for r in retries:
            span.add_event("gen_ai.retry", {"pse.attempt": int(r.get("attempt") or 0),
                                            "error.type": str(r.get("error_kind")),
                                            "pse.wait_s": float(r.get("wait") or 0)}, _ns(r["ts"]))
        span.end(end_time=end)

    def _check(self, e: RunEvent, p: dict[str, Any]) -> None:
        span = self._cycle if p.get("phase") == "cycle" and self._cycle is not None else self._run
        if span is not None:
            tally = self._checks.setdefault(id(span), {"passed": [], "failed": []})
            tally["passed" if p.get("ok") else "failed"].append(str(p.get("name")))
            span.set_attributes({"pse.checks.passed": len(tally["passed"]), "pse.checks.failed": len(tally["failed"]),
                                 "pse.checks.failed_names": tally["failed"]})
            span.add_event("pse.check", {"pse.check.name": str(p.get("name")), "pse.check.ok": bool(p.get("ok")),
                                         "pse.check.severity": str(p.get("severity")),
                                         "pse.check.phase": str(p.get("phase"))}, _ns(e.ts))

    def _ledger(self, e: RunEvent, p: dict[str, Any]) -> None:
        span = self._cycle if p.get("phase") == "cycle" and self._cycle is not None else self._run
        if span is not None and p.get("grounding") is not None:
            span.set_attribute("pse.grounding.score", float(p["grounding"]))

    def _verdict(self, e: RunEvent, p: dict[str, Any]) -> None:
        if self._cycle is not None:
            self._cycle.set_attributes({"pse.verdict.outcome": str(p.get("outcome")),
                                        "pse.verdict.reason": str(p.get("reason")),
                                        "pse.verdict.origin": str(p.get("origin")),
                                        "pse.verdict.issues": len(p.get("issues") or [])})

    def _warning(self, e: RunEvent, p: dict[str, Any]) -> None:
        span = self._cycle or self._run
        if span is not None:
            span.add_event("pse.warning", {"pse.message": str(p.get("message"))[:500]}, _ns(e.ts))

    def _cycle_finished(self, e: RunEvent, p: dict[str, Any]) -> None:
        if self._cycle is not None:
            self._cycle.set_attributes(_usage_attrs(p.get("usage")))
        self._end_cycle(e)

    def _end_cycle(self, e: RunEvent) -> None:
        if self._cycle is not None:
            self._cycle.end(end_time=_ns(e.ts))
            self._cycle = None
            self._detach()

    def _artifact(self, e: RunEvent, p: dict[str, Any]) -> None:
        if self._run is None:
            return
        self._run.set_attribute("pse.verified", bool(p.get("verified")))
        grounding = p.get("grounding") or {}
        if grounding.get("score") is not None:
            self._run.set_attribute("pse.grounding.score", float(grounding["score"]))

    def _run_finished(self, e: RunEvent, p: dict[str, Any]) -> None:
        from opentelemetry.trace import Status, StatusCode

        self._end_cycle(e)
        if self._run is None:
            return
        verdict = p.get("verdict")
        outcome = verdict.get("outcome") if isinstance(verdict, dict) else verdict
        attrs = {"pse.status": str(p.get("status")), "pse.verdict": str(outcome), "pse.reason": str(p.get("reason")),
                 "pse.limit": p.get("limit"), "pse.cycles": int(p.get("cycles") or 0),
                 "pse.verified": bool(p.get("verified")), **_usage_attrs(p.get("usage"))}
        self._run.set_attributes({k: v for k, v in attrs.items() if v is not None})
        if p.get("status") == "error":
            self._run.set_status(Status(StatusCode.ERROR, str(p.get("error") or "")[:300]))
        self._run.end(end_time=_ns(e.ts))
        self._run = None
        while self._tokens:
            self._detach()


def _usage_attrs(usage: Any) -> dict[str, Any]:
    if not isinstance(usage, dict):
        return {}
    attrs: dict[str, Any] = {"gen_ai.usage.input_tokens": int(usage.get("prompt_tokens") or 0),
                             "gen_ai.usage.output_tokens": int(usage.get("completion_tokens") or 0),
                             "pse.model_calls": int(usage.get("model_calls") or 0)}
    if usage.get("cost") is not None:
        attrs["pse.cost"] = float(usage["cost"])
    return attrs


_HANDLERS = {
    EventKind.RUN_STARTED: OtelSink._run_started,
    EventKind.PREPARED: OtelSink._prepared,
    EventKind.INGESTED: OtelSink._ingested,
    EventKind.RESUMED: OtelSink._resumed,
    EventKind.CYCLE_STARTED: OtelSink._cycle_started,
    EventKind.PROMPT: OtelSink._prompt,
    EventKind.RETRY: OtelSink._retry,
    EventKind.MODEL_CALL: OtelSink._model_call,
    EventKind.CHECK: OtelSink._check,
    EventKind.LEDGER: OtelSink._ledger,
    EventKind.VERDICT: OtelSink._verdict,
    EventKind.WARNING: OtelSink._warning,
    EventKind.CYCLE_FINISHED: OtelSink._cycle_finished,
    EventKind.ARTIFACT: OtelSink._artifact,
    EventKind.RUN_FINISHED: OtelSink._run_finished,
}
