"""An optional judge model for the claims no evidence decides (Chain-of-Verification style).

For each unverifiable claim the judge gets the claim and the source passages that share most of its
words, and answers one verification question *from those passages only*: SUPPORTED,
CONTRADICTED or NOT_ENOUGH_INFO, with a quote. Its answer is recorded on the claim
(``claim.judge``); SUPPORTED makes the claim supported and CONTRADICTED contradicted (each with a
``judge`` finding naming the quote), NOT_ENOUGH_INFO — or a reply that is not one of the three —
leaves it unverifiable. Never needed offline: without ``PSE_JUDGE_MODEL`` nothing is asked.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

from .evidence import Evidence
from .lexicon import content_words, stem
from .model import Finding, Ledger, Status

if TYPE_CHECKING:
    from ..config import Settings

MAX_PASSAGES = 3
SYSTEM = (
    "You check one claim against source passages. Use only the passages, never your own knowledge. "
    "Answer with one line: VERDICT: SUPPORTED, CONTRADICTED or NOT_ENOUGH_INFO, then one line "
    "QUOTE: the passage words that decide it (empty when NOT_ENOUGH_INFO)."
)
_VERDICT = re.compile(r"\b(SUPPORTED|CONTRADICTED|NOT_ENOUGH_INFO)\b")
_QUOTE = re.compile(r"QUOTE:\s*(.*)", re.IGNORECASE)


def passages(claim: str, evidence: Evidence, k: int = MAX_PASSAGES) -> list[tuple[str, str]]:
    """The ``k`` source passages (id, text) sharing most content-word stems with ``claim``."""
    wanted = {stem(w) for w, _s, _e in content_words(claim)}
    scored = []
    for source in evidence.sources:
        for n, para in enumerate(p for p in re.split(r"\n\s*\n", source.text) if p.strip()):
            overlap = len(wanted & {stem(w) for w, _s, _e in content_words(para)})
            if overlap:
                scored.append((overlap, f"{source.id}#{n + 1}", para.strip()))
    scored.sort(key=lambda x: -x[0])
    return [(pid, text) for _o, pid, text in scored[:k]]


def question(claim: str, found: list[tuple[str, str]]) -> str:
    listed = "\n\n".join(f"[{pid}]\n{text}" for pid, text in found) or "(no passage shares its words)"
    return f"Claim: {claim}\n\nIs this claim stated by the passages below?\n\nPassages:\n{listed}"


def parse(reply: str) -> tuple[str, str]:
    """``(verdict, quote)`` of a judge reply; a reply without a verdict is NOT_ENOUGH_INFO."""
    m = _VERDICT.search(reply or "")
    q = _QUOTE.search(reply or "")
    return (m.group(1) if m else "NOT_ENOUGH_INFO"), (q.group(1).strip() if q else "")


class Judge:
    """Asks a chat model about each unverifiable claim of a ledger (one call per claim). The
    provider is opened for each review and closed after it, so a review may run in any thread."""

    def __init__(self, spec: str, settings: Settings) -> None:
        from ..models import parse_spec

        parse_spec(spec)  # a bad spec is a user error now, not at the first claim
        self.spec, self._settings = spec, settings

    @classmethod
    def open(cls, spec: str, settings: Settings) -> Judge:
        """A judge on the model ``spec`` (``openai:…``, ``scripted:…``, ``local``).

        Raises:
            UserError: a bad model spec.
        """
        return cls(spec, settings)

    def review(self, ledger: Ledger, evidence: Evidence) -> None:
        """Ask about every unverifiable claim of ``ledger`` and record the answers on it."""
        if ledger.unverifiable:
            asyncio.run(self.areview(ledger, evidence))

    async def areview(self, ledger: Ledger, evidence: Evidence) -> None:
        from autogen_core.models import SystemMessage, UserMessage

        from ..models import open_provider
        from ..redact import Redactor

        provider = open_provider(self.spec, self._settings)
        # a remote judge sees e-mail addresses and phone numbers as placeholders only (a CV's contact
        # line may be an unverifiable claim); the provider says whether it is remote
        redactor = Redactor() if provider.remote else None
        try:
            client = provider.client_for("evaluator")
            for claim in ledger.unverifiable:
                found = passages(claim.text, evidence)
                asked = question(claim.text, found)
                result = await client.create(
                    [SystemMessage(content=SYSTEM),
                     UserMessage(content=redactor.redact(asked) if redactor else asked, source="user")]
                )  # fmt: skip
                verdict, quote = parse(result.content if isinstance(result.content, str) else "")
                quote = redactor.restore(quote) if redactor else quote
                claim.judge = {
                    "model": provider.name,
                    "verdict": verdict,
                    "quote": quote,
                    "passages": ", ".join(pid for pid, _t in found),
                }
                status = {"SUPPORTED": Status.SUPPORTED, "CONTRADICTED": Status.CONTRADICTED}.get(verdict)
                if status is not None and (status is Status.CONTRADICTED or quote):
                    claim.findings.append(
                        Finding(
                            kind="judge",
                            text=claim.text,
                            status=status,
                            note=f"judge {provider.name}: {verdict.lower()} — “{quote}”",
                            evidence=[pid for pid, _t in found],
                        )
                    )
                    claim.status = status
        finally:
            await provider.close()
