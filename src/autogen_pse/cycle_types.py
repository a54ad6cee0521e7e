"""The cycle loop's inputs and result: :class:`Limits`, :class:`CycleInputs`, :class:`RunOutcome`
(built by :mod:`autogen_pse.runner`, read by :mod:`autogen_pse.cycle`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autogen_core.tools import BaseTool

from .artifacts import ArtifactSchema
from .checking import Checker
from .events import EventEmitter
from .hooks import CheckResult
from .registry import TaskSpec
from .resume import ResumePoint
from .usage import UsageTotals
from .verdict import Verdict

__all__ = ["CycleInputs", "Limits", "RunOutcome"]


@dataclass(frozen=True)
class Limits:
    """Run limits; see :mod:`autogen_pse.cycle` for how they count."""

    max_cycles: int = 6
    max_partial: int = 3
    max_fail: int = 2
    max_turns: int = 9
    run_timeout: float = 1800.0
    token_budget: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class CycleInputs:
    """Everything the loop needs; built by :mod:`autogen_pse.runner`."""

    task: TaskSpec
    task_text: str
    provider: Any  # autogen_pse.models.ModelProvider
    emitter: EventEmitter
    checker: Checker
    workspace: Path
    limits: Limits
    usage: UsageTotals
    tools: dict[str, list[BaseTool]] = field(default_factory=dict)
    context: dict[str, str] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    output_cap: int = 16_000
    schema: ArtifactSchema | None = None  # structured run: the specialist fills this schema
    plan_schema: ArtifactSchema | None = None  # compact runs: the planner's list of steps
    compact: bool = False  # compact prompts, a shared system prefix and evidence-only evaluator view
    system_prefix: str = ""
    # PII redaction for remote models (None: none). A structured run's artifact is written by the
    # renderer from the task's data, not by the model, so it is redacted as soon as it is rendered:
    # the checks, the ledger, the trace, the evaluator and the fix task then see what a prose run's
    # model would have written (placeholders); the runner restores the final artifact file.
    redact: Callable[[str], str] | None = None
    resume: ResumePoint | None = None  # continue after this completed cycle (``pse run --resume``)
    on_checkpoint: Callable[[ResumePoint], None] | None = None  # after each cycle that does not end the run


@dataclass
class RunOutcome:
    """How the loop ended. ``status`` is finished | error | cancelled."""

    status: str
    verdict: Verdict | None
    cycles: int
    raw_artifact: str
    evaluator_pass: bool = False
    limit: str | None = None
    error: str | None = None
    artifact_issues: list[str] = field(default_factory=list)
    last_checks: list[CheckResult] | None = None  # the last cycle's results on ``raw_artifact``
