"""The trace document of the web API (``GET /api/runs/{id}``): it mirrors ``trace.json``
(``docs/trace-format.md``) with every field optional and unknown fields allowed, so a newer trace
still serialises."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from autogen_pse.web.schema_base import RunStatusOut, _Open


class AgentUsage(_Open):
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None


class Usage(AgentUsage):
    currency: str | None = None
    per_agent: dict[str, AgentUsage] = Field(default_factory=dict)


class MessageUsage(_Open):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None


class ToolCall(_Open):
    id: str | None = None
    name: str | None = None
    arguments: Any = None


class ToolResult(_Open):
    call_id: str | None = None
    name: str | None = None
    content: Any = None
    is_error: bool | None = None


class Message(_Open):
    seq: int | None = None
    ts: str | None = None
    source: str | None = None
    type: str | None = None
    content: Any = None
    usage: MessageUsage | None = None
    tool_calls: list[ToolCall] | None = None
    tool_results: list[ToolResult] | None = None


class VerdictOut(_Open):
    outcome: str | None = None
    reason: str | None = None
    issues: list[str] = Field(default_factory=list)
    summary: str | None = None


class Check(_Open):
    seq: int | None = None
    name: str | None = None
    ok: bool | None = None
    severity: str | None = None
    detail: str | None = None
    claims_checked: int | None = None
    claims_supported: int | None = None
    unsupported: list[Any] = Field(default_factory=list)
    phase: str | None = None


class Chunk(_Open):
    id: str | None = None
    source: str | None = None
    heading: str | None = None
    score: float | None = None


class Retrieval(_Open):
    seq: int | None = None
    role: str | None = None
    query: str | None = None
    partition: str | None = None
    chunks: list[Chunk] = Field(default_factory=list)


class ClaimFinding(_Open):
    kind: str | None = None
    text: str | None = None
    status: str | None = None
    note: str | None = None
    evidence: list[str] = Field(default_factory=list)


class ClaimOut(_Open):
    """One claim of the artifact: ``start``/``end`` are character offsets in the checked artifact."""

    id: int
    text: str
    line: int
    start: int
    end: int
    kind: str | None = None
    section: str | None = None
    entities: list[str] = Field(default_factory=list)
    status: str
    findings: list[ClaimFinding] = Field(default_factory=list)
    judge: dict[str, Any] | None = None


class LedgerOut(_Open):
    """The claim ledger of an artifact (a cycle's, or the final one)."""

    seq: int | None = None
    phase: str | None = None
    claims: list[ClaimOut] = Field(default_factory=list)
    factual: int | None = None
    supported: int | None = None
    contradicted: int | None = None
    unverifiable: int | None = None
    grounding: float | None = None
    policy: str | None = None


class PromptOut(_Open):
    """The system prompt one role received in a cycle (rules and retrieved passages included)."""

    sha256: str | None = None
    chars: int | None = None
    text: str | None = None


class RetryOut(_Open):
    seq: int | None = None
    ts: str | None = None
    role: str | None = None
    attempt: int | None = None
    error_kind: str | None = None
    wait: float | None = None


class Cycle(_Open):
    index: int
    kind: str | None = None
    task_text: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    messages: list[Message] = Field(default_factory=list)
    verdict: VerdictOut | None = None
    verdict_origin: str | None = None
    checks: list[Check] = Field(default_factory=list)
    ledger: LedgerOut | None = None
    retrievals: list[Retrieval] = Field(default_factory=list)
    prompts: dict[str, PromptOut] = Field(default_factory=dict)
    retries: list[RetryOut] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)


class ArtifactInfo(_Open):
    path: str | None = None
    raw_path: str | None = None
    verified: bool | None = None
    issues: list[str] = Field(default_factory=list)


class GroundingOut(_Open):
    score: float | None = None
    checked: int | None = None
    supported: int | None = None
    contradicted: int | None = None
    unverifiable: int | None = None
    unsupported: list[Any] = Field(default_factory=list)


class Prepared(_Open):
    facts: int | None = None
    reprepared: bool | None = None
    facts_path: str | None = None


class Trace(_Open):
    """``trace.json`` of a run (status ``queued`` while it waits for a slot: then mostly empty)."""

    schema_version: int | None = None
    run_id: str
    task: str | None = None
    model: str | None = None
    status: RunStatusOut
    verdict: str | None = None
    reason: str | None = None
    limit: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    vars: dict[str, Any] = Field(default_factory=dict)
    limits: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    prepared: Prepared | None = None
    retrievals: list[Retrieval] = Field(default_factory=list)
    cycles: list[Cycle] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    final_checks: list[Check] = Field(default_factory=list)
    sanitize_changes: list[dict[str, Any]] = Field(default_factory=list)
    artifact: ArtifactInfo | None = None
    grounding: GroundingOut | None = None
    ledger: LedgerOut | None = None
    warnings: list[dict[str, Any]] = Field(default_factory=list)
    last_seq: int = 0
    active: bool = Field(default=False, description="queued or running in this server right now")
