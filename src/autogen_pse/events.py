"""RunEvent: the one envelope every part of a run emits, and one typed payload model per kind.

Events are the single source of truth of a run: the trace store, the console, SSE subscribers and
any exporter are sinks of the same stream. ``seq`` starts at 1 and grows by one per event within
a run.

The contract is :data:`PAYLOADS` (kind → pydantic model) and the discriminated union
:data:`TypedEvent` built from it: the emitter validates every payload against its kind's model
before any sink sees it (an unknown field is a programming error), the web API publishes the union
in its OpenAPI schema (the dashboard's TypeScript types are generated from it) and
``docs/CONTRACTS.md`` is checked against it by a test. On the wire an event is still
``{run_id, seq, cycle, ts, kind, payload}``, so traces written by earlier versions load unchanged;
fields added after the first version have defaults so :func:`typed_event` reads old events too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union

from pydantic import BaseModel, Field, TypeAdapter, create_model

from .event_payloads import PAYLOADS, RUN_LEVEL_KINDS, EventKind, _Part, utc_now

__all__ = ["PAYLOADS", "RUN_LEVEL_KINDS", "EventKind", "utc_now"]  # the contract, with the envelope below

# ---------------------------------------------------------------------------------------------
# Envelopes


class RunEvent(BaseModel):
    """One event as stored and sent. ``cycle`` is 0 for run-level events, else the 1-based cycle
    index. ``payload`` is the JSON of the kind's model in :data:`PAYLOADS` (see :meth:`typed`)."""

    run_id: str
    seq: int
    cycle: int = 0
    ts: str = Field(default_factory=utc_now)
    kind: EventKind
    payload: dict[str, Any] = Field(default_factory=dict)

    def typed(self) -> TypedEvent:
        """This event as its kind's typed model (:data:`TypedEvent`).

        Raises:
            pydantic.ValidationError: the payload does not fit its kind's model.
        """
        return typed_event(self.model_dump())


class _Envelope(BaseModel):
    run_id: str
    seq: int
    cycle: int = 0
    ts: str


def _event_model(kind: EventKind, payload: type[_Part]) -> type[_Envelope]:
    name = "".join(part.title() for part in kind.value.split("_")) + "Event"
    fields: dict[str, Any] = {"kind": (Literal[kind.value], ...), "payload": (payload, ...)}
    return create_model(name, __base__=_Envelope, __doc__=f"A ``{kind.value}`` event.", **fields)


#: kind → typed event model (envelope + typed payload), e.g. ``EVENT_MODELS["message"]``.
EVENT_MODELS: dict[EventKind, type[_Envelope]] = {k: _event_model(k, p) for k, p in PAYLOADS.items()}

#: Any typed event: a union of :data:`EVENT_MODELS` discriminated on ``kind``. The union is built at
#: run time from :data:`PAYLOADS`, so a static checker sees what every member is: an envelope.
if TYPE_CHECKING:
    TypedEvent: TypeAlias = _Envelope
else:
    TypedEvent = Annotated[Union[tuple(EVENT_MODELS.values())], Field(discriminator="kind")]  # noqa: UP007
_TYPED: TypeAdapter[TypedEvent] = TypeAdapter(TypedEvent)


def typed_event(data: dict[str, Any] | str | bytes) -> Any:
    """Parse one event (a dict or a JSON line of ``events.jsonl``) into its typed model.

    Raises:
        pydantic.ValidationError: unknown kind or a payload that does not fit its model.
    """
    if isinstance(data, str | bytes):
        return _TYPED.validate_json(data)
    return _TYPED.validate_python(data)


def event_json_schema() -> dict[str, Any]:
    """JSON schema of :data:`TypedEvent` (serialization mode: what consumers receive)."""
    return _TYPED.json_schema(mode="serialization", ref_template="#/components/schemas/{model}")


class EventContractError(TypeError):
    """A producer emitted a payload that does not fit its kind's model (a programming error)."""


def check_payload(kind: EventKind, payload: dict[str, Any] | BaseModel, *, strict: bool = True) -> dict[str, Any]:
    """``payload`` validated against ``PAYLOADS[kind]`` and returned as its JSON dict (defaults
    filled in). With ``strict``, a key the model does not declare is refused.

    Raises:
        EventContractError: names the kind and the bad or unknown fields.
    """
    from pydantic import ValidationError

    model = PAYLOADS[kind]
    try:
        value = payload if isinstance(payload, model) else model.model_validate(
            payload.model_dump() if isinstance(payload, BaseModel) else payload)
    except ValidationError as exc:
        bad = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
        raise EventContractError(f"{kind.value} event payload does not fit {model.__name__}: {bad}") from None
    if strict:
        extra = _extra_keys(value)
        if extra:
            raise EventContractError(f"{kind.value} event payload has fields {model.__name__} does not declare: "
                                     f"{', '.join(sorted(extra))}; add them to autogen_pse.event_payloads")
    return value.model_dump(mode="json", by_alias=True)


def _extra_keys(value: BaseModel, prefix: str = "") -> list[str]:
    out = [prefix + k for k in (value.model_extra or {})]
    for name in type(value).model_fields:
        child = getattr(value, name)
        items = (child.items() if isinstance(child, dict) else enumerate(child) if isinstance(child, list)
                 else [(None, child)])
        for key, item in items:
            if isinstance(item, _Part):
                out += _extra_keys(item, f"{prefix}{name}." + ("" if key is None else f"{key}."))
    return out


EventSink = Callable[[RunEvent], None]


class EventEmitter:
    """Numbers a run's events, validates each payload against its kind's model and hands the
    event, in order, to every sink.

    Sinks are synchronous and fast (append to a file, put into a bounded queue, render a line);
    an exception from a sink given here (the trace store: e.g. :class:`~autogen_pse.errors.StoreError`)
    propagates to the run. Plugin sinks are wrapped by :mod:`autogen_pse.sinks` so that theirs do not.
    ``strict=False`` lets payloads carry undeclared keys (the web layer's synthetic runs add ``t_emit``).
    """

    def __init__(self, run_id: str, sinks: list[EventSink] | None = None, *, strict: bool = True,
                 last_seq: int = 0) -> None:
        self.run_id = run_id
        self._sinks: list[EventSink] = list(sinks or [])
        self._seq = last_seq  # a resumed run continues its trace's numbering
        self._strict = strict
        self._delivering: RunEvent | None = None
        self._pending: list[tuple[EventKind, dict[str, Any], int]] = []
        self._finished = False  # run_finished was emitted: deferred events are dropped
        self._opened = False  # this emitter delivered its first event (run_started, or resumed)
        self.current_cycle = 0  # set by the cycle loop; for events raised from inside a cycle's tools

    def add_sink(self, sink: EventSink) -> None:
        self._sinks.append(sink)

    @property
    def last_seq(self) -> int:
        return self._seq

    def emit(self, kind: EventKind, payload: dict[str, Any] | BaseModel | None = None, *, cycle: int = 0) -> RunEvent:
        """Validate ``payload``, create the next event and deliver it to every sink; returns it.

        The event's number is taken once the first sink (the trace) recorded it; when that sink
        raises, the number is free again (the trace's ``seq`` stays contiguous).

        Raises:
            EventContractError: the payload does not fit ``PAYLOADS[kind]`` (nothing is emitted).
        """
        body = check_payload(kind, payload if payload is not None else {}, strict=self._strict)
        event = RunEvent(run_id=self.run_id, seq=self._seq + 1, cycle=cycle, kind=kind, payload=body)
        outer, self._delivering = self._delivering, event
        self._opened = True
        self._finished = self._finished or kind == EventKind.RUN_FINISHED
        try:
            if not self._sinks:
                self._seq = event.seq
            for n, sink in enumerate(self._sinks):
                sink(event)
                if n == 0:  # recorded by the first sink (the trace): the number is taken
                    self._seq = event.seq
        finally:
            self._delivering = outer
        if outer is None:
            self._drain()
        return event

    def defer(self, kind: EventKind, payload: dict[str, Any], *, cycle: int | None = None) -> None:
        """Emit after the event being delivered now has reached every sink (a sink reporting its
        own failure must not interleave events); at once when nothing is being delivered. Events
        deferred during ``run_finished`` are dropped (the trace is closed; the caller logged them)."""
        if self._finished:
            return
        self._pending.append((kind, payload, self.current_cycle if cycle is None else cycle))
        if self._delivering is None and self._opened:
            self._drain()

    def _drain(self) -> None:
        while self._pending:
            if self._finished:
                self._pending.clear()
                return
            kind, payload, cycle = self._pending.pop(0)
            self.emit(kind, payload, cycle=cycle)
