"""Types shared by task hooks (``prepare.py``, ``checks.py``, ``sanitize.py`` in ``tasks/<name>/``).

A task folder may hold:

* ``prepare.py`` with ``prepare(ctx: PrepareContext) -> Prepared`` — deterministic facts and the
  prepared task text, computed from the task's ``data/`` (or ``--var`` overrides).
* ``checks.py`` with ``checks(ctx: CheckContext) -> list[CheckResult]`` — programmatic checks run
  after the evaluator in every cycle and again after sanitizing.
* ``sanitize.py`` with ``sanitize(ctx: CheckContext) -> Sanitized`` — deterministic rules applied to
  the final artifact; every change is logged.

Facts are a flat mapping ``fact_id -> Fact``; agents may write ``{{fact:<id>}}`` in artifacts and
the reference is resolved when the artifact is rendered (see :mod:`autogen_pse.facts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning"]


class Fact(BaseModel):
    """One deterministic fact. ``value`` is a number or a string; ``unit`` e.g. ``USD``, ``%``."""

    id: str
    value: float | int | str
    unit: str = ""
    label: str = ""
    display: str = Field(default="", description="How the value is written when a reference renders")

    def render(self) -> str:
        """The text a ``{{fact:id}}`` reference renders to."""
        if self.display:
            return self.display
        if isinstance(self.value, float):
            return f"{self.value:,.2f}"
        return str(self.value)


class CheckResult(BaseModel):
    """Outcome of one programmatic check."""

    name: str
    ok: bool
    severity: Severity = "error"
    detail: str = ""
    claims_checked: int = 0
    claims_supported: int = 0
    unsupported: list[str] = Field(default_factory=list)


class SanitizeChange(BaseModel):
    """One deterministic edit made by a sanitize rule."""

    rule: str
    before: str
    after: str


class Sanitized(BaseModel):
    artifact: str
    changes: list[SanitizeChange] = Field(default_factory=list)


class Prepared(BaseModel):
    """What a task's ``prepare`` returns: the task text to run and the facts to check against."""

    task_text: str
    facts: dict[str, Fact] = Field(default_factory=dict)
    data: dict[str, Any] = Field(default_factory=dict, description="Extra structured inputs for checks")


@dataclass(frozen=True)
class PrepareContext:
    task_dir: Path
    vars: dict[str, str]
    out_dir: Path  # where prepare may write files (facts.json, prepared task text)


@dataclass(frozen=True)
class CheckContext:
    """What checks and sanitize rules see. ``artifact`` is the *rendered* artifact text."""

    artifact: str
    facts: dict[str, Fact]
    data: dict[str, Any]
    workspace: Path
    task_dir: Path
    vars: dict[str, str] = field(default_factory=dict)
    raw_artifact: str = ""
