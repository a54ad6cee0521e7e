"""Verify any Markdown document against a task's evidence: the service behind ``pse check`` and
``POST /api/check``.

The task is prepared from the same vars a run would use (cached like a run's), fact references are
rendered, and the claim ledger of each document is returned as a :class:`DocumentReport`. An
optional judge model (:mod:`autogen_pse.claims.judge`) reviews the unverifiable claims.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .checking import Checker
from .claims import Ledger
from .config import Settings
from .errors import RunError, UserError

MAX_DOCUMENT_CHARS = 200_000


class DocumentReport(BaseModel):
    """The ledger of one document: every claim with status and evidence, and the counts."""

    file: str
    claims: list[dict[str, Any]] = Field(default_factory=list)
    factual: int = 0
    supported: int = 0
    contradicted: int = 0
    unverifiable: int = 0
    grounding: float | None = None
    policy: str = "warning"

    @classmethod
    def of(cls, name: str, ledger: Ledger) -> DocumentReport:
        return cls(
            file=name,
            claims=[c.model_dump(mode="json") for c in ledger.claims],
            factual=ledger.factual,
            supported=len(ledger.supported),
            contradicted=len(ledger.contradicted),
            unverifiable=len(ledger.unverifiable),
            grounding=ledger.grounding,
            policy=ledger.policy,
        )

    @property
    def fails(self) -> bool:
        """A contradicted claim (or, where the policy says so, an unverifiable one) fails the document."""
        return self.contradicted > 0 or (self.policy == "error" and self.unverifiable > 0)


def document_checker(task_name: str, vars: dict[str, str], settings: Settings) -> Checker:
    """A :class:`Checker` of ``task_name`` prepared from ``vars``.

    Raises:
        UserError: unknown task, a task without evidence (``evidence.py``), bad inputs.
    """
    from .preparation import ensure_prepared
    from .registry import load_task

    task = load_task(settings.tasks_dir, task_name)
    if not (task.dir / "evidence.py").is_file():
        raise UserError(f"task {task_name!r} has no evidence.py: its documents cannot be checked claim by claim")
    prepared = ensure_prepared(task, settings.state_dir, vars).prepared
    return Checker(task, facts=prepared.facts, data=prepared.data, workspace=settings.state_dir, vars=vars)


def check_document(checker: Checker, name: str, text: str, *, judge: Any = None) -> DocumentReport:
    """The ledger of ``text`` (fact references rendered first); ``judge`` reviews unverifiable claims.

    Raises:
        UserError: the document is empty or too large.
    """
    if not text.strip():
        raise UserError(f"{name}: the document is empty; pass a Markdown artifact")
    if len(text) > MAX_DOCUMENT_CHARS:
        raise UserError(f"{name}: {len(text):,} characters is more than {MAX_DOCUMENT_CHARS:,}; split the document")
    verifier = checker.verifier()
    assert verifier is not None  # document_checker refused tasks without evidence
    rendered, _unknown = checker.render(text)
    from .claims import build_ledger

    try:
        ledger = build_ledger(rendered, verifier)
    except Exception as exc:  # a bug in the verifier: one line naming the document, never a traceback
        raise RunError(f"{name}: the claim check failed ({type(exc).__name__}: {exc}); please report it") from exc
    if judge is not None:
        judge.review(ledger, verifier.ev)
    return DocumentReport.of(name, ledger)
