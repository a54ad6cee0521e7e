"""The artifact side of a cycle: what the specialist's message makes of the artifact, its checks
(once per distinct artifact), the evaluator's evidence and the specialist's one re-ask on failing
checks. A part of :class:`autogen_pse.cycle.CycleLoop`."""

from __future__ import annotations

from .agents import Team
from .artifact import files_artifact, materialize_code_blocks, message_artifact
from .artifacts import try_render
from .claims import Ledger
from .cycle_types import CycleInputs
from .hooks import CheckResult
from .judgement import Evidence, check_report

RECHECK_CHECKS, RECHECK_DETAIL = 3, 420  # failing checks (and characters of each) in the specialist's re-ask


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ArtifactChecks:
    """Artifact, checks and evidence of a cycle loop (``inp``, ``artifact`` and ``_checked`` are the loop's)."""

    inp: CycleInputs
    artifact: str
    # artifact text → (rendered, results, ledger): the evaluator's evidence and the checks after
    # it read the same artifact, so the checks run once per artifact.
    _checked: dict[str, tuple[str, list[CheckResult], Ledger | None]]

    async def _review_object(self, text: str) -> str | None:
        """The failing error checks of the document rendered from a valid object ``text`` (for the
        specialist's one re-ask), or ``None`` when every error check passes. Cached per artifact, so
        the evaluator's evidence and the checks after it reuse the results."""
        artifact, error = self._artifact_of(text)
        if error is not None:
            return None
        _rendered, results = await self._run_checks(artifact)
        bad = [r for r in results if not r.ok and r.severity == "error"]
        if not bad:
            return None
        return " ".join(f"{r.name}: {_short(r.detail, RECHECK_DETAIL)}" for r in bad[:RECHECK_CHECKS])

    def _artifact_error(self, text: str) -> str | None:
        assert self.inp.schema is not None
        return try_render(self.inp.schema, text)[1]

    def _artifact_of(self, text: str) -> tuple[str, str | None]:
        """``(artifact, error)`` of a specialist message: the rendered object (structured), the
        message (prose) or the workspace files; ``error`` when the object is invalid (the previous
        artifact stands)."""
        task = self.inp.task
        if task.entry.artifact == "files":
            if text:
                materialize_code_blocks(text, self.inp.workspace)
            return files_artifact(self.inp.workspace, task.entry.artifact_glob), None
        if self.inp.schema is not None:
            rendered, error = try_render(self.inp.schema, text)
            if rendered is None:
                return self.artifact, error
            return (self.inp.redact(rendered) if self.inp.redact is not None else rendered), None
        return (message_artifact(text) if text else self.artifact), None

    async def _run_checks(self, artifact: str) -> tuple[str, list[CheckResult]]:
        """Render and check ``artifact`` (once per distinct artifact; checks may run pytest, so they
        run off the event loop); restores the checker's ledger of that artifact."""
        cached = self._checked.get(artifact)
        if cached is None:
            rendered, results = await self.inp.checker.off_loop(self.inp.checker.run, artifact)
            cached = self._checked[artifact] = (rendered, results, self.inp.checker.ledger)
        self.inp.checker.ledger = cached[2]
        return cached[0], cached[1]

    async def _evidence(self, text: str) -> Evidence:
        """What the evaluator sees of the specialist's message ``text``: the artifact as rendered and
        its check report (see :mod:`autogen_pse.judgement`)."""
        artifact, error = self._artifact_of(text)
        if error is not None:
            return Evidence(artifact=text, report=check_report([], error=error))
        rendered, results = await self._run_checks(artifact)
        return Evidence(artifact=rendered, report=check_report(results, self.inp.checker.ledger),
                        show_artifact=self.inp.schema is not None)

    def _update_artifact(self, team: Team) -> None:
        text = team.state.last_text.get("specialist")
        if text is not None or self.inp.task.entry.artifact == "files":
            self.artifact = self._artifact_of(text or "")[0]
