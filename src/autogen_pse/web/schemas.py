"""Request and response schemas of the web API (separate from the store's rows and documents).

The trace document is in :mod:`.trace_schemas`; the frontend's TypeScript types are generated from
these through the OpenAPI schema (``frontend/scripts/export_openapi.py``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, StringConstraints

from autogen_pse.events import EventKind, TypedEvent
from autogen_pse.store.rows import RunRow
from autogen_pse.web.schema_base import _Out
from autogen_pse.web.trace_schemas import ClaimOut


# --- tasks -----------------------------------------------------------------------------------
class TaskOut(_Out):
    name: str
    title: str
    description: str = ""
    artifact: str = Field(description="message | files")
    has_prepare: bool = Field(description="the task has a prepare hook (facts from inputs)")
    has_evidence: bool = Field(description="the task has an evidence.py: its documents can be checked claim by "
                                           "claim (POST /api/check)")
    needs_prepare: bool = Field(description="its inputs are newer than the prepared facts (or none yet)")
    vars: dict[str, str] = Field(default_factory=dict, description="default template values")
    tools: dict[str, list[str]] = Field(default_factory=dict)
    knowledge: dict[str, list[str]] = Field(default_factory=dict)
    inputs: list[str] = Field(default_factory=list, description="every --var the task reads (registry vars and "
                                                                 "task.md fields)")
    error: str | None = Field(default=None, description="why the task cannot be loaded, if it cannot")


class RunDefaults(_Out):
    model: str
    max_cycles: int


class TaskList(_Out):
    data: list[TaskOut]
    count: int
    defaults: RunDefaults


# --- runs ------------------------------------------------------------------------------------
VarName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
VarValue = Annotated[str, StringConstraints(max_length=2000, pattern=r"^[^\x00-\x08\x0b-\x1f\x7f]*$")]
_ESCAPE = re.compile(r"(^|[/\\])\.\.([/\\]|$)")


def project_relative_vars(value: dict[str, str]) -> dict[str, str]:
    """Template values from the web may name files relative to the project only.

    Raises:
        ValueError: a value is an absolute path, starts with ``~`` or has a ``..`` segment.
    """
    for key, text in value.items():
        stripped = text.strip()
        if stripped.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", stripped) or _ESCAPE.search(stripped):
            raise ValueError(f"vars.{key}: absolute paths, ~ and .. are not accepted from the web")
    return value


TaskName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
TaskVars = Annotated[dict[VarName, VarValue], Field(max_length=50, json_schema_extra={"additionalProperties": False}),
                     AfterValidator(project_relative_vars)]


class RunCreate(BaseModel):
    """Body of ``POST /api/runs``; ``model`` and ``max_cycles`` default to the server settings.

    ``vars`` are template values (``--var`` of the CLI). From the web they may name files relative
    to the project only: absolute paths, ``~`` and ``..`` segments are refused (422)."""

    model_config = ConfigDict(extra="forbid")

    task: TaskName
    model: str | None = Field(default=None, min_length=1, max_length=300, pattern=r"^[^\x00-\x1f\x7f]+$",
                              description="local | openai:<model> | scripted:<file.json> (default: the server's)")
    max_cycles: int | None = Field(default=None, ge=1, le=50, strict=True)
    vars: TaskVars = Field(default_factory=dict)


class VarsIn(BaseModel):
    """Body of ``POST /api/tasks/{name}/vars``: template values to check (as for a run)."""

    model_config = ConfigDict(extra="forbid")

    vars: dict[VarName, VarValue] = Field(default_factory=dict, max_length=50)


class VarsOk(_Out):
    ok: Literal[True] = True
    task: str
    vars: dict[str, str] = Field(description="the values a run would use: the task's defaults, then these")


class RerunIn(BaseModel):
    """Body of ``POST /api/runs/{run_id}/rerun``: the same task, vars and limits, with the run's
    model or ``model``."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(default=None, min_length=1, max_length=300, pattern=r"^[^\x00-\x1f\x7f]+$",
                              description="another model (default: the run's own)")


class ResumeIn(BaseModel):
    """Body of ``POST /api/runs/{run_id}/resume`` (``{}``: the run's own model)."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(default=None, min_length=1, max_length=300, pattern=r"^[^\x00-\x1f\x7f]+$")


class Empty(BaseModel):
    """An empty JSON object: the body of state changes that need no parameters (send ``{}``)."""

    model_config = ConfigDict(extra="forbid")


class RunAccepted(_Out):
    run_id: str
    status: Literal["queued"] = "queued"
    prepare: bool = Field(description="the task's inputs were (re)prepared before queueing")
    events_url: str
    run_url: str


class RunSummary(_Out):
    """One row of ``GET /api/runs``. Tokens are counts; ``cost`` is in ``currency``, None when unknown."""

    run_id: str
    task: str | None = None
    model: str | None = None
    status: str
    verdict: str | None = None
    reason: str | None = None
    cycles: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost: float | None = None
    currency: str | None = None
    started_at: str = ""
    ended_at: str | None = None
    verified: bool | None = None
    error: str | None = None

    @classmethod
    def from_row(cls, row: RunRow) -> RunSummary:
        data = row.model_dump(exclude={"trace_dir"})
        return cls(**data, total_tokens=row.prompt_tokens + row.completion_tokens)


class RunPageOut(_Out):
    data: list[RunSummary]
    count: int = Field(description="runs matching the filters, over all pages")
    next_cursor: str | None = Field(default=None, description="pass as ?cursor= for the next page")


class CancelOut(_Out):
    run_id: str
    cancelled: bool
    status: str


class CheckDiffOut(_Out):
    name: str
    recorded: bool | None = Field(description="the check's result in the run (None: not run then)")
    now: bool | None = Field(description="its result now (None: no such check any more)")
    severity: str
    detail: str


class RecheckOut(_Out):
    run_id: str
    passed: bool = Field(description="every current error check passes on the recorded artifact")
    changed: int = Field(description="checks whose result differs from the recorded one")
    checks: list[CheckDiffOut]


class SpanOut(_Out):
    kind: Literal["setup", "model", "retry", "tool", "checks"]
    cycle: int = Field(description="0: before the first cycle")
    role: str
    label: str
    start: float = Field(description="seconds after the run started")
    seconds: float
    seq: int = Field(description="the event that closed the span")
    tokens: int | None = None
    error: bool = False


class TimelineOut(_Out):
    run_id: str
    started_at: str | None = None
    seconds: float = Field(description="first to last event")
    spans: list[SpanOut]


class PointOut(_Out):
    t: str = Field(description="the bucket's start, or the run's (bucket run), ISO 8601 UTC")
    runs: int
    passed: int
    pass_rate: float
    tokens: float = Field(description="mean tokens per run")
    cost: float | None = Field(description="mean cost of the priced runs; None when none is")
    seconds: float | None = Field(description="mean wall time per run")
    run_id: str | None = None


class SeriesOut(_Out):
    task: str
    model: str
    runs: int
    points: list[PointOut]


class SeriesPage(_Out):
    bucket: Literal["run", "hour", "day", "week"]
    runs: int
    series: list[SeriesOut]


# --- document check --------------------------------------------------------------------------
class CheckIn(BaseModel):
    """Body of ``POST /api/check``: a Markdown document to verify against ``task``'s evidence.

    ``vars`` are the task's template values (as for a run: files relative to the project only)."""

    model_config = ConfigDict(extra="forbid")

    task: TaskName
    text: str = Field(description="the Markdown document")
    name: str = Field(default="document.md", min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f/\\]+$",
                      description="a file name for messages")
    vars: TaskVars = Field(default_factory=dict)


class DocumentReportOut(_Out):
    """The claim ledger of a checked document; claim offsets are into the document as checked (fact
    references rendered)."""

    file: str
    claims: list[ClaimOut] = Field(default_factory=list)
    factual: int = 0
    supported: int = 0
    contradicted: int = 0
    unverifiable: int = 0
    grounding: float | None = Field(default=None, description="supported / factual claims; None without any")
    policy: str = Field(default="warning", description="what an unverifiable claim is: warning | error")


# --- events, auth, health --------------------------------------------------------------------
class RunEventOut(RootModel[TypedEvent]):
    """The ``data`` of every SSE frame of ``GET /api/runs/{run_id}/events`` (``id`` = ``seq``): one
    of the typed events of :mod:`autogen_pse.events`, discriminated on ``kind``."""


class RunLevelEventOut(_Out):
    """The ``data`` of ``GET /api/events`` frames: a run-level event plus the run's index row."""

    run_id: str
    seq: int
    cycle: int
    ts: str
    kind: EventKind
    payload: dict[str, Any]
    run: RunSummary | None = None


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=512)


class AuthState(_Out):
    auth_required: bool
    authenticated: bool


class Health(_Out):
    status: Literal["ok"] = "ok"
    version: str
    auth_required: bool
    running: int = Field(description="runs executing now")
    queued: int = Field(description="runs waiting for a slot")
    concurrency: int | None = None


class ErrorOut(_Out):
    detail: Any
