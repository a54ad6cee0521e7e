"""Evidence before judgement: the evaluator sees the programmatic check results and the claim ledger
of the artifact it judges before it writes its verdict (the checks still run after it and override).

:func:`check_report` turns check results and a ledger into a short text; :class:`EvidenceContext` is
the evaluator's model context: on every inference it finds the specialist's latest message, asks
the cycle loop for that artifact's evidence (:data:`EvidenceFn`) and shows it to the model — appended
to the chat, or, in compact mode (small local models), *instead of* the chat: the artifact as
rendered plus the report, so the evaluator's prompt stays within its token budget.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from autogen_core.model_context import UnboundedChatCompletionContext
from autogen_core.models import LLMMessage, UserMessage

from .claims import Ledger
from .hooks import CheckResult

DETAIL_LIMIT = 160  # characters of one check's detail in the report
MAX_CLAIMS = 2  # contradicted claims quoted in the report
HEADER = "## Programmatic checks of this artifact (computed from the data; they override any verdict)"


@dataclass(frozen=True)
class Evidence:
    """What the evaluator is shown: the artifact as the checks read it, and the check report."""

    artifact: str
    report: str
    show_artifact: bool = False  # show the rendered artifact with the report (a structured run's
    # specialist message is a JSON object, not the review the checks read)


EvidenceFn = Callable[[str], Awaitable[Evidence]]


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_report(results: list[CheckResult], ledger: Ledger | None = None, *, error: str | None = None) -> str:
    """One line per check (PASS / FAIL / WARN with its detail), the ledger's counts and the first
    contradicted claims. ``error``: the artifact could not be read (an invalid object)."""
    lines = [HEADER]
    if error is not None:
        lines.append(f"- artifact: FAIL — {_short(error, DETAIL_LIMIT)}")
    for r in results:
        mark = "PASS" if r.ok else ("FAIL" if r.severity == "error" else "WARN")
        lines.append(f"- {r.name}: {mark} — {_short(r.detail, DETAIL_LIMIT)}" if r.detail else f"- {r.name}: {mark}")
    if ledger is not None and ledger.factual:
        lines.append(f"- claim ledger: {len(ledger.supported)} supported, {len(ledger.contradicted)} contradicted, "
                     f"{len(ledger.unverifiable)} unverifiable of {ledger.factual} factual claims")
        for claim in ledger.contradicted[:MAX_CLAIMS]:
            lines.append(f"  - contradicted, line {claim.line}: {_short(claim.text, 100)} ({_short(claim.why(), 100)})")
    errors = [r.name for r in results if not r.ok and r.severity == "error"]
    verdict = (f"Failing error checks: {', '.join(errors)} — the verdict cannot be PASS." if errors or error
               else "Every error check passed.")
    lines.append(verdict)
    return "\n".join(lines)


class EvidenceContext(UnboundedChatCompletionContext):
    """The evaluator's model context; see the module docstring.

    Args:
        evidence: artifact text of the specialist's message → :class:`Evidence` (cached by the loop).
        compact: show the rendered artifact and report instead of the whole chat.
        specialist: the name of the role whose message is the artifact.
    """

    def __init__(self, evidence: EvidenceFn, *, compact: bool = False, specialist: str = "specialist") -> None:
        super().__init__()
        self._evidence = evidence
        self._compact = compact
        self._specialist = specialist

    async def get_messages(self) -> list[LLMMessage]:
        messages = list(self._messages)
        last = max((i for i, m in enumerate(messages) if getattr(m, "source", None) == self._specialist),
                   default=None)
        if last is None:
            return messages
        content = messages[last].content
        found = await self._evidence(content if isinstance(content, str) else str(content))
        if self._compact:
            view = UserMessage(content=f"## The artifact to judge\n\n{found.artifact.strip()}\n\n{found.report}",
                               source="user")
            return [view, *messages[last + 1:]]
        report = (f"## The artifact as rendered\n\n{found.artifact.strip()}\n\n{found.report}" if found.show_artifact
                  else found.report)
        return [*messages, UserMessage(content=report, source="checks")]
