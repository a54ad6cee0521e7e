"""What the :class:`~.verify.Verifier` compiles once from the evidence, and the fact lookups every
part of it shares (the parts — binding, counts, derived figures, figures, relations, statements —
are mixins over this state)."""

from __future__ import annotations

import re

from .catalogue import Catalogue
from .evidence import Count, Evidence, FactValue, Flag, Metric
from .model import Finding, Status
from .quantities import Quantity


class VerifierState:
    """The compiled evidence (set by ``Verifier.__init__``) and the lookups on it."""

    ev: Evidence
    catalogue: Catalogue
    metric_re: dict[str, re.Pattern[str] | None]
    after_re: dict[str, re.Pattern[str] | None]
    rank_re: list[tuple[re.Pattern[str], Metric, str, str]]
    rank_first: list[frozenset[str] | None]  # the first word of each ranking phrase (a quick test)
    metric_first: dict[str, frozenset[str] | None]  # the first words of each metric's phrases
    rank_any: re.Pattern[str]
    _spans: dict[str, list[tuple[int, int, Metric]]]
    alias: dict[str, str]
    changes: list[tuple[frozenset[str], frozenset[str]]]
    action_of: dict[str, list[str]]
    action_any: re.Pattern[str] | None
    flag_re: list[tuple[Flag, re.Pattern[str] | None]]
    flag_first: list[frozenset[str] | None]
    count_nouns: re.Pattern[str] | None
    count_re: list[tuple[Count, re.Pattern[str] | None]]
    count_any: re.Pattern[str] | None  # any phrase of a set of two or more entities (one search first)
    claim_words: re.Pattern[str] | None
    subject_re: re.Pattern[str] | None
    source_years: set[str]
    source_stems: set[str]
    vocab: frozenset[str]
    known: frozenset[str]
    known_prefixes: frozenset[str]
    two_signed: set[str]
    fact_owner: dict[str, str | None]
    facts_by_entity: dict[str | None, list[FactValue]]
    owners: set[str | None]

    def _supported(
        self, q: Quantity, hits: list[FactValue], direction: int, pair: str = "", *, unsigned: bool = False
    ) -> Finding:
        wrong_way = [f for f in hits if direction and self._sign_of(f) and self._sign_of(f) != direction]
        if unsigned and all(f.value < 0 and f.metric in self.two_signed for f in hits):
            # "Google's annualised return works out to roughly 8.7 %" of −8.73 %: a return written
            # with no sign and no direction word is a gain, where the metric takes both signs
            f = hits[0]
            return Finding(
                kind="direction",
                text=q.text,
                status=Status.CONTRADICTED,
                evidence=[f.id],
                note=f"{f.id} is {f.shown()}: a loss, written without a sign or a direction word",
            )
        if wrong_way and len(wrong_way) == len(hits):
            f = wrong_way[0]
            word = "a loss" if self._sign_of(f) < 0 else "a gain"
            return Finding(
                kind="direction",
                text=q.text,
                status=Status.CONTRADICTED,
                evidence=[f.id],
                note=f"{f.id} is {f.shown()}: {word}, not the direction written",
            )
        if pair and all(h.pair and h.pair != pair for h in hits):
            return Finding(
                kind="direction",
                text=q.text,
                status=Status.CONTRADICTED,
                evidence=[hits[0].id],
                note=f"the source has {hits[0].shown()} as the '{hits[0].pair}' figure: "
                f"“{hits[0].source or hits[0].id}”",
            )
        return Finding(
            kind="figure",
            text=q.text,
            status=Status.SUPPORTED,
            evidence=[h.id for h in hits[:3]],
            note=f"{hits[0].id} = {hits[0].shown()}",
        )

    def _facts(self, entity: str | None, unit: str | None = None) -> list[FactValue]:
        facts = self.facts_by_entity.get(entity, [])
        return [f for f in facts if unit is None or f.unit == unit]

    def _signed(self, f: FactValue) -> bool:
        metric = self.ev.metric(f.metric)
        return bool(f.direction) or bool(metric and metric.signed)

    def _sign_of(self, f: FactValue) -> int:
        if f.direction:
            return f.direction
        metric = self.ev.metric(f.metric)
        if metric and metric.signed and f.value:
            return 1 if f.value > 0 else -1
        return 0

    def _flag_before(self, text: str, at: int) -> bool:
        """Is the figure at ``at`` in a parenthesis right after a rule flag ("over the cap (43.85%)",
        "stop-loss (`-27.66%`)")? It is the holding's figure that trips the rule, whatever it measures."""
        paren = re.search(r"\(\s*[`*_]*[~≈]?\s*$", text[max(0, at - 8) : at])
        if paren is None:
            return False
        head = text[: at - len(paren.group(0))].rstrip()
        return any(rx is not None and any(m.end() == len(head) for m in rx.finditer(head)) for _f, rx in self.flag_re)
