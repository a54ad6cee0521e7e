"""Programmatic checks and sanitizing of an artifact, with fact references rendered first."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .claims import Evidence, Ledger, Verifier, build_ledger, ledger_checks
from .claims.formats import read_document, relined
from .errors import PseError, RunError
from .facts import FACT_REF, render, unknown_fact_check
from .hooks import CheckContext, CheckResult, Fact, Sanitized
from .registry import TaskSpec

if TYPE_CHECKING:
    from .config import Settings

T = TypeVar("T")


class Checker:
    """Runs a task's ``checks.py`` / ``sanitize.py`` and its claim ledger (``evidence.py``) against the
    task's facts. :attr:`ledger` is the ledger of the last checked artifact (None without evidence).

    Raises:
        RunError: a hook raised or returned the wrong type (a bug in the task, not in the artifact).
    """

    def __init__(
        self,
        task: TaskSpec,
        *,
        facts: dict[str, Fact],
        data: dict[str, Any],
        workspace: Path,
        vars: dict[str, str],
        settings: Settings | None = None,
        cancel: threading.Event | None = None,
    ) -> None:
        self._task = task
        self._settings = settings
        self._cancel = cancel
        self._facts = facts
        self._data = data
        self._workspace = workspace
        self._vars = vars
        self._checks = task.hook("checks", "checks")
        self._sanitize = task.hook("sanitize", "sanitize")
        self._evidence = task.hook("evidence", "evidence")
        self._verifier: Verifier | None = None
        self.ledger: Ledger | None = None

    @property
    def has_sanitize(self) -> bool:
        return self._sanitize is not None

    @property
    def has_hooks(self) -> bool:
        """True when the task has a ``checks.py``, ``sanitize.py`` or ``evidence.py`` hook."""
        return self._checks is not None or self._sanitize is not None or self._evidence is not None

    async def off_loop(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` (one of this checker's methods) in a worker thread when the task
        has hooks (they may run pytest or a claim ledger: never on the event loop); inline when it has
        none (rendering fact references only: the thread hop would cost more than the work)."""
        if self.has_hooks:
            return await asyncio.to_thread(fn, *args, **kwargs)
        return fn(*args, **kwargs)

    def render(self, raw: str) -> tuple[str, list[str]]:
        """``(rendered, unknown_fact_ids)`` — see :func:`autogen_pse.facts.render`."""
        return render(raw, self._facts)

    def run(self, raw: str) -> tuple[str, list[CheckResult]]:
        """Render ``raw`` and run every check on it; returns ``(rendered, results)``."""
        rendered, unknown = self.render(raw)
        return rendered, self.check(rendered, raw=raw, unknown=unknown)

    def check(self, rendered: str, *, raw: str = "", unknown: list[str] | None = None) -> list[CheckResult]:
        """Run the checks on an already rendered artifact."""
        results: list[CheckResult] = []
        if unknown or FACT_REF.search(raw or ""):
            results.append(unknown_fact_check(unknown or []))
        if self._checks is not None:
            # an HTML or LaTeX document is checked in its Markdown reading, as the ledger reads it
            reading = read_document(rendered)
            out = self._call("checks", self._checks, self._ctx(reading.text, raw, written=rendered))
            if not isinstance(out, list) or not all(isinstance(r, CheckResult) for r in out):
                raise RunError(f"{self._task.dir / 'checks.py'}: checks() must return list[CheckResult]")
            results.extend(relined(r, reading, rendered) for r in out)
        verifier = self.verifier()
        if verifier is not None:
            self.ledger = build_ledger(rendered, verifier)
            results.extend(ledger_checks(self.ledger))
        return results

    def verifier(self) -> Verifier | None:
        """The claim verifier built from the task's evidence (once), or None when it has none."""
        if self._verifier is None and self._evidence is not None:
            evidence = self._call("evidence", self._evidence, self._ctx("", ""))
            if not isinstance(evidence, Evidence):
                raise RunError(f"{self._task.dir / 'evidence.py'}: evidence() must return Evidence")
            self._verifier = Verifier(evidence)
        return self._verifier

    def sanitize(self, rendered: str) -> Sanitized:
        """Apply the task's sanitize rules (identity when the task has none)."""
        if self._sanitize is None:
            return Sanitized(artifact=rendered)
        out = self._call("sanitize", self._sanitize, self._ctx(rendered, rendered, written=rendered))
        if not isinstance(out, Sanitized):
            raise RunError(f"{self._task.dir / 'sanitize.py'}: sanitize() must return Sanitized")
        return out

    def _ctx(self, rendered: str, raw: str, *, written: str = "") -> CheckContext:
        return CheckContext(
            artifact=rendered,
            raw_artifact=raw,
            written=written,
            facts=self._facts,
            data=self._data,
            workspace=self._workspace,
            task_dir=self._task.dir,
            vars=self._vars,
            settings=self._settings,
            cancel=self._cancel,
        )

    def _call(self, hook: str, fn: Any, ctx: CheckContext) -> Any:
        try:
            return fn(ctx)
        except PseError:
            raise
        except Exception as exc:
            raise RunError(f"{self._task.dir / (hook + '.py')}: {hook}() raised {type(exc).__name__}: {exc}") from exc


def sanitize_repairs(evaluator_pass: bool, sanitized: Sanitized, after: list[CheckResult]) -> bool:
    """The one rule for "PASS after sanitizing" (in a cycle and at the run's end): the evaluator
    said PASS, the task's deterministic sanitize rules changed the artifact, and every
    error-severity check passes on the sanitized artifact."""
    return evaluator_pass and bool(sanitized.changes) and all_pass(after)


def failed(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if not r.ok]


def all_pass(results: list[CheckResult]) -> bool:
    """True when no error-severity check failed."""
    return not any(not r.ok and r.severity == "error" for r in results)


def ledger_payload(ledger: Ledger, phase: str) -> dict[str, Any]:
    """The ``ledger`` event payload: every claim with its status and evidence, and the counts."""
    return {"phase": phase, **ledger.summary(), "claims": [c.model_dump(mode="json") for c in ledger.claims]}


def grounding(results: list[CheckResult], ledger: Ledger | None = None) -> dict[str, Any] | None:
    """Grounding score. With a claim ledger: supported / all factual claims, with the contradicted and
    unverifiable claims listed; otherwise supported / checked claims over the checks. None if nothing
    was checked."""
    if ledger is not None:
        if not ledger.factual:
            return None
        return {"score": ledger.grounding, "checked": ledger.factual, "supported": len(ledger.supported),
                "contradicted": len(ledger.contradicted), "unverifiable": len(ledger.unverifiable),
                "unsupported": [f"line {c.line}: {c.text}" for c in ledger.contradicted + ledger.unverifiable]}
    checked = sum(r.claims_checked for r in results)
    if checked == 0:
        return None
    supported = sum(r.claims_supported for r in results)
    unsupported = [u for r in results for u in r.unsupported]
    return {"score": round(supported / checked, 4), "checked": checked, "supported": supported,
            "unsupported": unsupported}
