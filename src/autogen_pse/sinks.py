"""Event sinks registered through entry points (group ``autogen_pse.sinks``), e.g. exporters.

A package declares ``name = "module:factory"`` where ``factory(settings) -> EventSinkPlugin``.
A run opens every sink named in ``PSE_SINKS`` (unknown names are a user error before the run
starts), calls ``start(run)`` when its ``run_started`` event comes, ``handle(event)`` for
every event in order (``run_started`` included), and ``close()`` at the end, whatever the
ending. Sinks are isolated: an exception from any of the three is logged
once as a warning, recorded in the trace as a ``warning`` event, and that sink is switched off; it
never ends or slows the run. The trace store, the console and the SSE hub are wired in by the
runner and the web layer themselves (a failing trace store must end the run).

The built-in ``jsonl`` sink appends every event of every run to one JSON-lines file; the built-in
``otel`` sink (:mod:`autogen_pse.telemetry`) exports runs as OpenTelemetry spans and is on by
itself when an OTLP endpoint is set (``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``; ``OTEL_SDK_DISABLED=true`` turns it off).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Protocol, runtime_checkable

from .errors import UserError
from .events import EventKind, RunEvent

if TYPE_CHECKING:
    from .config import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunInfo:
    """What a sink learns when a run starts."""

    run_id: str
    task: str
    model: str
    trace_dir: str


@runtime_checkable
class EventSinkPlugin(Protocol):
    def start(self, run: RunInfo) -> None: ...

    def handle(self, event: RunEvent) -> None: ...

    def close(self) -> None: ...


SinkFactory = Callable[["Settings"], EventSinkPlugin]


class IsolatedSink:
    """One plugin sink behind a fence: its first exception is reported through ``warn`` (once) and
    the sink is switched off."""

    def __init__(self, name: str, sink: EventSinkPlugin, warn: Callable[[str], None]) -> None:
        self.name = name
        self._sink = sink
        self._warn = warn
        self.failed: str | None = None
        self._started = False

    def _guard(self, what: str, call: Callable[[], None]) -> None:
        if self.failed is not None:
            return
        try:
            call()
        except Exception as exc:
            self.failed = f"event sink {self.name!r} failed in {what}() ({type(exc).__name__}: {exc}); " \
                          "it is switched off for this run, the run goes on"
            log.warning("%s", self.failed)
            self._warn(self.failed)

    def start(self, run: RunInfo) -> None:
        self._guard("start", lambda: self._sink.start(run))

    def handle(self, event: RunEvent) -> None:
        # a new run starts with run_started, a resumed one (``pse run --resume``) with resumed
        if event.kind in (EventKind.RUN_STARTED, EventKind.RESUMED) and not self._started:
            self._started = True
            p = event.payload
            self.start(RunInfo(run_id=event.run_id, task=str(p.get("task", "")), model=str(p.get("model", "")),
                               trace_dir=str(p.get("trace_dir", ""))))
        self._guard("handle", lambda: self._sink.handle(event))

    __call__ = handle  # an EventSink

    def close(self) -> None:
        self._guard("close", self._sink.close)


def enabled_sinks(settings: Settings) -> list[str]:
    """The sinks a run opens: those named in ``PSE_SINKS``, plus ``otel`` when an OTLP endpoint is
    set in the environment (without importing OpenTelemetry)."""
    from .telemetry import endpoint

    names = list(settings.sinks)
    if endpoint() is not None and "otel" not in (n.lower() for n in names):
        names.append("otel")
    return names


def check_sinks(settings: Settings) -> None:
    """Refuse unknown names in ``PSE_SINKS`` before a run is accepted.

    Raises:
        UserError: names the unknown sink and the registered ones.
    """
    from .plugins import entry_points

    known = entry_points("sinks")
    for name in settings.sinks:
        if name.lower() not in known:
            listed = ", ".join(known) or "none"
            raise UserError(f"PSE_SINKS: no event sink named {name!r} is registered (entry point group "
                            f"autogen_pse.sinks); registered: {listed}")


def open_sinks(settings: Settings, warn: Callable[[str], None]) -> list[IsolatedSink]:
    """The run's plugin sinks (``PSE_SINKS``), each isolated. A factory that fails or returns no
    sink is reported through ``warn`` and skipped.

    Raises:
        UserError: a name that is not registered.
    """
    from .plugins import load

    check_sinks(settings)
    out: list[IsolatedSink] = []
    for name in enabled_sinks(settings):
        try:
            sink = load("sinks", name)(settings)
            if not isinstance(sink, EventSinkPlugin):
                raise TypeError(f"the factory returned a {type(sink).__name__}, not an EventSinkPlugin "
                                "(start, handle, close)")
        except Exception as exc:
            message = f"event sink {name!r} could not be opened ({type(exc).__name__}: {exc}); the run goes on " \
                      "without it"
            log.warning("%s", message)
            warn(message)
            continue
        out.append(IsolatedSink(name, sink, warn))
    return out


class JsonlSink:
    """Built-in ``jsonl`` sink: every event of every run, one JSON object per line, appended to
    ``PSE_SINK_JSONL_PATH`` (default ``<state_dir>/exports/events.jsonl``) — for tools that tail
    one file rather than read the trace folders."""

    def __init__(self, settings: Settings) -> None:
        self.path = settings.sink_jsonl_path or settings.state_dir / "exports" / "events.jsonl"
        self._file: IO[str] | None = None

    def start(self, run: RunInfo) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")

    def handle(self, event: RunEvent) -> None:
        if self._file is None:
            return
        self._file.write(json.dumps(event.model_dump(mode="json"), ensure_ascii=False) + "\n")
        if event.kind in (EventKind.CYCLE_FINISHED, EventKind.RUN_FINISHED):
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def jsonl_sink(settings: Settings) -> JsonlSink:
    """Factory of the built-in ``jsonl`` sink (entry point ``autogen_pse.sinks: jsonl``)."""
    return JsonlSink(settings)


__all__ = ["EventSinkPlugin", "IsolatedSink", "JsonlSink", "RunInfo", "SinkFactory", "check_sinks", "enabled_sinks",
           "open_sinks"]
