"""OpenTelemetry export of runs: one consumer of the event stream, on when an OTLP endpoint is set.

Turned on by the standard variables: ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_ENDPOINT`` (``OTEL_SDK_DISABLED=true`` turns it off again);
``OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`` picks ``http/protobuf`` (default) or ``grpc``; headers,
timeout and batching come from the usual ``OTEL_EXPORTER_OTLP_*`` / ``OTEL_BSP_*`` variables,
``OTEL_SERVICE_NAME`` names the service (default ``autogen-pse``). AutoGen's runtime
message-delivery spans are off unless ``PSE_OTEL_RUNTIME_SPANS=1``. See docs/opentelemetry.md.

Spans (OpenTelemetry GenAI semantic conventions)::

    invoke_workflow <task>            the run: model, status, verdict, usage, cost, grounding score
      prepare / ingest_knowledge      before the first turn (with their durations)
      cycle <n>                       verdict, checks (events), grounding score, usage
        <AutoGen's own spans>         autogen-core emits to the global tracer provider
          chat <model>                one per model call: tokens, TTFT, retries as events

Export never slows or breaks a run: spans go through a ``BatchSpanProcessor`` (a background
thread), an unreachable collector logs one warning, and :meth:`Telemetry.close` waits at most
``PSE_OTEL_CLOSE_TIMEOUT`` seconds (default 3) for the last batch.

The exporter is the ``otel`` event sink (entry point group ``autogen_pse.sinks``, declared in
pyproject.toml like ``jsonl``): :func:`autogen_pse.sinks.open_sinks` opens it for every run when an
endpoint is set, isolated like any plugin sink. :func:`close_active` exports the last spans at
process exit (CLI, server shutdown).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from .otel_sink import OtelSink

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import SpanExportResult
    from opentelemetry.trace import Tracer

    from .config import Settings
    from .events import RunEvent
    from .sinks import RunInfo

log = logging.getLogger(__name__)

ENDPOINT_VARS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
DEFAULT_TIMEOUT_S = 5.0  # per export request, when OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT is not set
SCOPE = "autogen_pse"


def endpoint(env: Mapping[str, str] | None = None) -> str | None:
    """The OTLP endpoint the environment asks for, or None when export is off."""
    env = os.environ if env is None else env
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return None
    for name in ENDPOINT_VARS:
        if env.get(name, "").strip():
            return env[name].strip()
    return None


class Telemetry:
    """The process's tracer provider (installed as the global one, so AutoGen's spans join ours)."""

    _active: Telemetry | None = None
    _lock = threading.Lock()
    _provider: TracerProvider | None = None  # one per process (the global provider can be set once)
    _switch: _Switch | None = None

    def __init__(self, processor: Any, exporter: _WarningExporter) -> None:
        assert Telemetry._provider is not None
        self.processor = processor
        self.exporter = exporter
        self.tracer: Tracer = Telemetry._provider.get_tracer(SCOPE)

    @classmethod
    def start(cls) -> Telemetry | None:
        """The process's telemetry, created on first call; None when no endpoint is set."""
        url = endpoint()
        if url is None:
            return None
        with cls._lock:
            if cls._active is None:
                cls._active = cls._create(url)
            return cls._active

    @classmethod
    def _create(cls, url: str) -> Telemetry:
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        if cls._provider is None:
            cls._install()
        assert cls._switch is not None
        exporter = _WarningExporter(_otlp_exporter(), url)
        processor = BatchSpanProcessor(cast(Any, exporter))  # a SpanExporter by duck typing
        cls._switch.delegate = processor
        return cls(processor, exporter)

    @classmethod
    def _install(cls) -> None:
        from opentelemetry import trace
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider

        from . import __version__

        service = os.environ.get("OTEL_SERVICE_NAME") or "autogen-pse"
        if os.environ.get("PSE_OTEL_RUNTIME_SPANS", "").strip().lower() not in ("1", "true", "yes"):
            # AutoGen's message-delivery spans (publish/process/ack: ~60 per cycle) cost more than the
            # rest of the export together; its agent and tool spans (GenAI conventions) stay on
            os.environ.setdefault("AUTOGEN_DISABLE_RUNTIME_TRACING", "true")
        cls._switch = _Switch()
        cls._provider = TracerProvider(resource=Resource.create({"service.name": service,
                                                                  "service.version": __version__}))
        cls._provider.add_span_processor(cast(Any, cls._switch))  # a SpanProcessor by duck typing
        current = trace.get_tracer_provider()
        if type(current).__name__ in ("ProxyTracerProvider", "NoOpTracerProvider"):
            trace.set_tracer_provider(cls._provider)
        else:  # the host installed its own provider: AutoGen's spans go there; ours are exported here
            log.warning("a global OpenTelemetry tracer provider is already set; AutoGen's spans go to it")

    def sink(self) -> OtelSink:
        """A consumer for one run's events (give it to the run's emitter)."""
        return OtelSink(self.tracer)

    def close(self, timeout: float | None = None) -> None:
        """Export what is still queued, waiting at most ``timeout`` seconds (default
        ``PSE_OTEL_CLOSE_TIMEOUT`` or 3); a collector that does not answer costs a warning."""
        if timeout is None:
            try:
                timeout = max(0.0, float(os.environ.get("PSE_OTEL_CLOSE_TIMEOUT") or 3))
            except ValueError:
                log.warning("PSE_OTEL_CLOSE_TIMEOUT=%r is not a number of seconds; using 3",
                            os.environ.get("PSE_OTEL_CLOSE_TIMEOUT"))
                timeout = 3.0
        with Telemetry._lock:
            if Telemetry._active is self:
                Telemetry._active = None
            if Telemetry._switch is not None and Telemetry._switch.delegate is self.processor:
                Telemetry._switch.delegate = None
        done = threading.Event()

        def flush() -> None:
            try:
                self.processor.force_flush(int(timeout * 1000))
                self.processor.shutdown()
            finally:
                done.set()

        threading.Thread(target=flush, name="otel-close", daemon=True).start()
        if not done.wait(timeout):
            log.warning("OpenTelemetry: the collector at %s did not take the last spans within %.0f s; "
                        "they are dropped", self.exporter.url, timeout)


class _Switch:
    """The provider's one span processor: hands spans to the current export pipeline, if any."""

    def __init__(self) -> None:
        self.delegate: Any = None

    def on_start(self, span: Any, parent_context: Any = None) -> None:
        delegate = self.delegate
        if delegate is not None:
            delegate.on_start(span, parent_context=parent_context)

    def _on_ending(self, span: Any) -> None:
        pass

    def on_end(self, span: Any) -> None:
        delegate = self.delegate
        if delegate is not None:
            delegate.on_end(span)

    def shutdown(self) -> None:
        delegate = self.delegate
        if delegate is not None:
            delegate.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        delegate = self.delegate
        return bool(delegate.force_flush(timeout_millis)) if delegate is not None else True


def _otlp_exporter() -> Any:
    protocol = (os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
                or "http/protobuf").strip().lower()
    timeout = None if (os.environ.get("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")
                       or os.environ.get("OTEL_EXPORTER_OTLP_TIMEOUT")) else DEFAULT_TIMEOUT_S
    # the exporters log every failed attempt; _WarningExporter says it once instead
    logging.getLogger("opentelemetry.exporter.otlp").setLevel(logging.CRITICAL)
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

        return GrpcExporter(timeout=timeout)
    if protocol not in ("http/protobuf", "http"):
        log.warning("OTEL_EXPORTER_OTLP_PROTOCOL=%s is not supported; using http/protobuf", protocol)
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

    return HttpExporter(timeout=timeout)


class _WarningExporter:
    """Delegates to the OTLP exporter; the first failed batch logs one warning (the run goes on)."""

    def __init__(self, inner: Any, url: str) -> None:
        self.inner = inner
        self.url = url
        self.failed_spans = 0
        self.exported_spans = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        from opentelemetry.sdk.trace.export import SpanExportResult

        try:
            result = self.inner.export(spans)
        except Exception as exc:  # an exporter bug must not reach the batch thread
            log.debug("OTLP export raised %s", exc)
            result = SpanExportResult.FAILURE
        if result is SpanExportResult.SUCCESS:
            self.exported_spans += len(spans)
        else:
            if not self.failed_spans:
                log.warning("OpenTelemetry: cannot export spans to %s (collector unreachable or refusing); "
                            "runs go on without export", self.url)
            self.failed_spans += len(spans)
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return bool(self.inner.force_flush(timeout_millis))


class OtelRunSink:
    """The ``otel`` event sink of one run (start/handle/close, see :mod:`autogen_pse.sinks`)."""

    def __init__(self, sink: OtelSink) -> None:
        self.sink = sink

    def start(self, run: RunInfo) -> None:
        pass  # the run span opens on run_started (or resumed), as an event

    def handle(self, event: RunEvent) -> None:
        self.sink(event)

    def close(self) -> None:
        pass  # the process's provider exports the batch; close_active() flushes it at exit


def otel_sink(settings: Settings) -> OtelRunSink:
    """Factory of the built-in ``otel`` sink (entry point ``autogen_pse.sinks: otel``).

    Raises:
        RuntimeError: no OTLP endpoint is set, or an ``OTEL_*`` setting is unusable (the run goes
            on without export; :func:`autogen_pse.sinks.open_sinks` reports it as a warning).
    """
    try:
        telemetry = Telemetry.start()
    except Exception as exc:  # a bad OTEL_* setting must not stop the run: it runs without export
        reason = " ".join(str(exc).split())[:300]
        log.warning("OpenTelemetry export is off for this run: %s", reason)
        raise RuntimeError(f"OpenTelemetry export is off for this run: {reason}") from None
    if telemetry is None:
        raise RuntimeError("no OTLP endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_SDK_DISABLED is true)")
    return OtelRunSink(telemetry.sink())


def close_active(timeout: float | None = None) -> None:
    """Close the process's telemetry if it was started (CLI exit, server shutdown)."""
    active = Telemetry._active
    if active is not None:
        active.close(timeout)


__all__ = ["ENDPOINT_VARS", "OtelRunSink", "OtelSink", "Telemetry", "close_active", "endpoint", "otel_sink"]
