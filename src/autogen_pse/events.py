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
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model


class EventKind(StrEnum):
    RUN_STARTED = "run_started"
    PREPARED = "prepared"
    RETRIEVAL = "retrieval"
    CYCLE_STARTED = "cycle_started"
    MESSAGE = "message"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    VERDICT = "verdict"
    CHECK = "check"
    LEDGER = "ledger"
    USAGE = "usage"
    CYCLE_FINISHED = "cycle_finished"
    SANITIZED = "sanitized"
    ARTIFACT = "artifact"
    WARNING = "warning"
    MODEL_CALL = "model_call"  # one finished model call: role, tokens, seconds, tokens/s
    MODEL_WAIT = "model_wait"  # a model call still running: role, elapsed seconds (heartbeat)
    PROMPT = "prompt"  # the system prompt one role received in one cycle: role, sha256, chars, text
    RETRY = "retry"  # a failed model call about to be retried: role, attempt, error_kind, wait
    INGESTED = "ingested"  # knowledge-base ingestion before the first turn: files, chunks, seconds
    RESUMED = "resumed"  # an interrupted or error run continues: from_cycle, previous_status
    RUN_FINISHED = "run_finished"


#: Kinds that change what a run-level listing shows (used by the live history feed).
RUN_LEVEL_KINDS = frozenset({EventKind.RUN_STARTED, EventKind.CYCLE_FINISHED, EventKind.RUN_FINISHED})


def utc_now() -> str:
    """Current UTC time as ISO 8601 with milliseconds and a ``Z`` suffix."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ---------------------------------------------------------------------------------------------
# Payload parts


class _Part(BaseModel):
    """Base of every payload part: extra keys are kept when reading (old or newer traces)."""

    model_config = ConfigDict(extra="allow")


class CallUsage(_Part):
    """UsageSummary of one model call (``message``/``tool_call``); ``cost`` null when unpriced."""

    prompt_tokens: int
    completion_tokens: int
    cost: float | None = None


class AgentUsageSummary(_Part):
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None


class UsageSummary(_Part):
    """USAGE: totals of a cycle or a run; ``cost`` null when any priced part is unknown."""

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    currency: str = "USD"
    per_agent: dict[str, AgentUsageSummary] = Field(default_factory=dict)


class RunLimits(_Part):
    max_cycles: int | None = None
    max_partial: int | None = None
    max_fail: int | None = None
    max_turns: int | None = None
    run_timeout: float | None = None
    token_budget: int | None = None


class ArtifactMode(_Part):
    mode: Literal["structured", "prose"] = "prose"
    schema_name: str | None = Field(default=None, alias="schema")
    strategy: str | None = None
    compact: bool = False

    model_config = ConfigDict(extra="allow", populate_by_name=True, serialize_by_alias=True)


class RetrievedChunk(_Part):
    id: str
    source: str
    heading: str = ""
    score: float


class ToolCallItem(_Part):
    id: str
    name: str
    arguments: Any = None


class ToolResultItem(_Part):
    call_id: str
    name: str = ""
    content: str
    is_error: bool = False


class VerdictBody(_Part):
    outcome: str
    reason: str
    issues: list[str] = Field(default_factory=list)
    summary: str = ""


class SanitizeChange(_Part):
    rule: str
    before: str
    after: str


class Grounding(_Part):
    score: float | None
    checked: int
    supported: int
    contradicted: int | None = None
    unverifiable: int | None = None
    unsupported: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# One payload model per kind


class Provenance(_Part):
    """What produced a run: product version and SHA-256 (first 16 hex digits) of the task folder
    and of its ``prompts/`` folder."""

    product_version: str | None = None
    task_sha: str | None = None
    prompts_sha: str | None = None


class Latency(_Part):
    """A model call's wall time (retries included) and the time to its first streamed chunk
    (null unless streamed), in seconds."""

    seconds: float
    ttft: float | None = None


class RunStartedPayload(_Part):
    task: str
    model: str
    vars: dict[str, str] = Field(default_factory=dict)
    limits: RunLimits = Field(default_factory=RunLimits)
    trace_dir: str = ""
    workspace: str = ""
    artifact: ArtifactMode | None = None
    provenance: Provenance | None = None
    model_spec: str | None = Field(default=None, description="the --model spelling, for resume/replay")
    replay_of: str | None = Field(default=None, description="the run a `pse replay` run replays")


class PreparedPayload(_Part):
    facts: int
    reprepared: bool
    facts_path: str | None = None
    seconds: float | None = Field(default=None, description="the prepare step (hook run or cache check)")


class IngestedPayload(_Part):
    """Knowledge-base ingestion and pre-generation retrieval, before the first turn."""

    collection: str
    embedding: str
    added_files: int = 0
    updated_files: int = 0
    removed_files: int = 0
    skipped_files: int = 0
    chunks_added: int = 0
    chunks_removed: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    retrieval_seconds: float = 0.0
    queries: int = 0


class PromptPayload(_Part):
    """The system prompt one role received in one cycle; ``sha256`` = first 16 hex digits."""

    role: str
    sha256: str
    chars: int
    text: str


class RetryPayload(_Part):
    """A failed model call about to be retried: ``attempt`` (1-based) failed with ``error_kind``;
    the next starts after ``wait`` seconds."""

    role: str
    attempt: int
    error_kind: str
    wait: float


class ResumedPayload(_Part):
    """``pse run --resume``: the run continues at cycle ``from_cycle``."""

    from_cycle: int
    previous_status: str | None = None
    previous_error: str | None = None
    last_seq: int
    task: str
    model: str
    model_spec: str | None = None
    vars: dict[str, str] = Field(default_factory=dict)
    limits: RunLimits = Field(default_factory=RunLimits)


class RetrievalPayload(_Part):
    role: str
    query: str
    partition: str | None = Field(default=None, description="comma-joined partitions; null = all")
    via: str = "prepare"
    chunks: list[RetrievedChunk] = Field(default_factory=list)


class CycleStartedPayload(_Part):
    index: int
    kind: Literal["initial", "fix", "replan"]
    task_text: str = ""


class MessagePayload(_Part):
    source: str
    type: str = "TextMessage"
    content: str
    usage: CallUsage | None = None
    latency: Latency | None = None


class ToolCallPayload(_Part):
    source: str
    calls: list[ToolCallItem]
    usage: CallUsage | None = None
    latency: Latency | None = None


class ToolResultPayload(_Part):
    source: str
    results: list[ToolResultItem]


class VerdictPayload(VerdictBody):
    origin: Literal["evaluator", "declared", "format", "turn_cap", "checks", "sanitized"] = "evaluator"
    agent_outcome: str | None = Field(default=None, description="what the evaluator said, before the checks")


class CheckPayload(_Part):
    name: str
    ok: bool
    severity: Literal["error", "warning"] = "error"
    detail: str = ""
    reason: str | None = None
    claims_checked: int = 0
    claims_supported: int = 0
    unsupported: list[str] = Field(default_factory=list)
    phase: Literal["cycle", "final"] = "cycle"


class LedgerPayload(_Part):
    phase: Literal["cycle", "final"]
    claims: list[dict[str, Any]] = Field(description="CLAIM objects, see docs/claims.md")
    factual: int = 0
    supported: int = 0
    contradicted: int = 0
    unverifiable: int = 0
    grounding: float | None = None
    policy: Literal["warning", "error"] = "warning"


class UsagePayload(_Part):
    scope: Literal["cycle"] = "cycle"
    usage: UsageSummary


class CycleFinishedPayload(_Part):
    index: int
    verdict: VerdictBody | None = None
    usage: UsageSummary = Field(default_factory=UsageSummary)
    artifact_chars: int | None = None


class SanitizedPayload(_Part):
    changes: list[SanitizeChange]


class ArtifactPayload(_Part):
    path: str
    raw_path: str | None = None
    verified: bool
    issues: list[str] = Field(default_factory=list)
    grounding: Grounding | None = None


class WarningPayload(_Part):
    message: str


class ModelCallPayload(_Part):
    role: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    tokens_per_s: float
    ttft: float | None = Field(default=None, description="seconds to the first streamed chunk; null unless streamed")


class ModelWaitPayload(_Part):
    role: str
    elapsed: float


class RunFinishedPayload(_Part):
    status: Literal["finished", "error", "cancelled", "interrupted"]
    verdict: str | None = None
    reason: str | None = None
    limit: str | None = None
    cycles: int = 0
    usage: UsageSummary = Field(default_factory=UsageSummary)
    error: str | None = None
    artifact_path: str | None = None
    verified: bool = False


#: The contract: every kind's payload model. A kind without one fails at import (see below).
PAYLOADS: dict[EventKind, type[_Part]] = {
    EventKind.RUN_STARTED: RunStartedPayload,
    EventKind.PREPARED: PreparedPayload,
    EventKind.RETRIEVAL: RetrievalPayload,
    EventKind.CYCLE_STARTED: CycleStartedPayload,
    EventKind.MESSAGE: MessagePayload,
    EventKind.TOOL_CALL: ToolCallPayload,
    EventKind.TOOL_RESULT: ToolResultPayload,
    EventKind.VERDICT: VerdictPayload,
    EventKind.CHECK: CheckPayload,
    EventKind.LEDGER: LedgerPayload,
    EventKind.USAGE: UsagePayload,
    EventKind.CYCLE_FINISHED: CycleFinishedPayload,
    EventKind.SANITIZED: SanitizedPayload,
    EventKind.ARTIFACT: ArtifactPayload,
    EventKind.WARNING: WarningPayload,
    EventKind.MODEL_CALL: ModelCallPayload,
    EventKind.MODEL_WAIT: ModelWaitPayload,
    EventKind.PROMPT: PromptPayload,
    EventKind.RETRY: RetryPayload,
    EventKind.INGESTED: IngestedPayload,
    EventKind.RESUMED: ResumedPayload,
    EventKind.RUN_FINISHED: RunFinishedPayload,
}

_missing = [k.value for k in EventKind if k not in PAYLOADS]
if _missing:  # pragma: no cover - a developer adding a kind sees this at once
    raise TypeError(f"event kinds without a payload model in autogen_pse.events.PAYLOADS: {_missing}")


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
                                     f"{', '.join(sorted(extra))}; add them to autogen_pse.events")
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
