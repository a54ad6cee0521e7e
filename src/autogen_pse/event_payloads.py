"""The event kinds and one typed payload model per kind: the contract :data:`PAYLOADS` that
:mod:`autogen_pse.events` validates every event against (see its docstring). A kind without a model
fails at import."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


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
    raise TypeError(f"event kinds without a payload model in autogen_pse.event_payloads.PAYLOADS: {_missing}")
