"""Figures that several facts make: ratios between entities, sums over a list or a named set,
spreads, units times the price, counts of the same thing in the source, the amounts before and after a cut."""

from __future__ import annotations

import itertools
import re
import statistics

from .catalogue import Mention
from .evidence import FactValue, Metric
from .model import Finding, Status
from .patterns import _LIST_SEP, _PAREN, _STRONG, _quantity_units, counted_noun
from .quantities import Quantity, find_quantities, matches
from .state import VerifierState

_OBJECT = re.compile(r"\b(?:of|as|than)\s+$", re.IGNORECASE)  # the other side of a ratio

# "… times the size of", "… as volatile as", "… larger than": a ratio of two entities' facts
_RELATIVE = re.compile(
    r"\s+(?:(?:the\s+)?(?P<size>size|weight|value|worth|bigger|larger|heavier|as\s+(?:big|large|heavy))\b"
    r"[^.;,]{0,20}?\b(?:of|as|than)\b|as\s+[\w-]+\s+as\b|more\s+than\b|that\s+of\b|than\b|as\b)",
    re.IGNORECASE,
)


# "~5x the 730-day threshold", "1.5 times our 30% cap": a multiple of a level the text writes
_OF_LEVEL = re.compile(r"\s+(?:the|our|your|its)\s+(?=[-−]?\d)", re.IGNORECASE)


_AGGREGATE = re.compile(r"\b(median|average|mean|avg\.?)\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)


class Derived(VerifierState):
    """Figures computed from several facts (a part of the Verifier)."""

    def _relative(
        self, text: str, q: Quantity, entity: str | None, spans: list[tuple[int, int, Metric]], mentions: list[Mention]
    ) -> Finding:
        """ "Apple is about 2.5 times the size of Google", "twice as volatile as IBM": the ratio of two
        entities' facts of the metric named in the comparison (or of ``relative_metric`` for size)."""
        m = _RELATIVE.match(text, q.end)
        assert m is not None
        subjects = [x.entity for x in mentions if x.end <= q.start and not _OBJECT.search(text, 0, x.start)]
        entity = subjects[-1] if subjects else entity  # "2.5 times the size of Google, three times IBM's"
        other = next((x.entity for x in mentions if m.end() <= x.start <= m.end() + 12), None)
        named = [metric for s, e, metric in spans if q.end <= s and e <= m.end() + 1]
        metric = named[0].name if named else self.ev.relative_metric if m.group("size") else ""
        mine = [f for f in self._facts(entity) if metric and f.metric == metric]
        theirs = [f for f in self._facts(other) if metric and f.metric == metric]
        if not (mine and theirs and other != entity and theirs[0].value):
            return Finding(kind="figure", text=q.text, status=Status.NONE, note="a relative comparison")
        ratio = mine[0].value / theirs[0].value
        status = Status.SUPPORTED if matches(q, ratio, signed=False) else Status.CONTRADICTED
        return Finding(
            kind="figure",
            text=q.text,
            status=status,
            evidence=[mine[0].id, theirs[0].id],
            note=f"{mine[0].id} / {theirs[0].id} = {mine[0].shown()} / {theirs[0].shown()} = {ratio:.2f}x",
        )

    def _of_level(self, text: str, q: Quantity, entity: str | None) -> Finding | None:
        """ "MSFT … ~5x the 730-day threshold": the entity's figure in the level's unit as a multiple of a
        level of the whole (a rule's), when the text names one; None otherwise."""
        at = _OF_LEVEL.match(text, q.end)
        level = next(iter(find_quantities(text[at.end() : at.end() + 24])), None) if at and entity else None
        if level is None or level.start != 0:
            return None
        units = _quantity_units(level)
        whole = [f for f in self.ev.facts
                 if f.entity is None and f.value and f.unit in units and matches(level, f.value)]
        mine = [f for f in self._facts(entity) if whole and f.unit == whole[0].unit and not f.named_only]
        if len(mine) != 1:
            return None  # (the entity has no figure in that unit, or several: "1.5x the 30% cap" of which one?)
        ratio = mine[0].value / whole[0].value
        return Finding(kind="figure", text=q.text,
                       status=Status.SUPPORTED if matches(q, ratio, signed=False) else Status.CONTRADICTED,
                       evidence=[mine[0].id, whole[0].id], note=f"{mine[0].id} / {whole[0].id} = {ratio:.2f}x")

    def _by_noun(self, text: str, q: Quantity, entity: str | None) -> Finding | None:
        """ "Migrated 18 Python services", "adopted across five teams": a count compared with the
        source's counts of the same thing (the entity's first), when the source counts it at all."""
        noun = counted_noun(text, q.end)
        same = [f for f in self.ev.facts if noun and f.noun == noun]
        if not same:
            return None
        hits = [f for f in same if matches(q, f.value)]
        if hits:
            return self._supported(q, [f for f in hits if f.entity == entity] or hits, 0)
        mine = [f for f in same if f.entity == entity] or same
        shown = ", ".join(f"{f.id} = {f.shown()}" for f in mine[:2])
        return Finding(
            kind="figure",
            text=q.text,
            status=Status.CONTRADICTED,
            evidence=[f.id for f in mine[:2]],
            note=f"{q.text} does not match the count in the source ({shown})",
        )

    def _priced(self, text: str, q: Quantity, entity: str | None, qs: list[Quantity]) -> list[FactValue]:
        """ "Sell 79 Apple shares, worth about $17,600": a number of units just before, times the price."""
        price = [f for f in self._facts(entity) if f.metric == self.ev.price_metric] if q.unit == "money" else []
        units = [o for o in qs if o.unit in ("units", "count") and 0 < q.start - o.end <= 40 and o.value > 1]
        if not price or not units or _STRONG.search(text, units[-1].end, q.start):
            return []
        n = units[-1].value
        return [FactValue(id=f"{n:g} × {price[0].id}", entity=entity, metric=price[0].metric,
                          value=n * price[0].value, unit="money", display=f"{n * price[0].value:,.2f}")]  # fmt: skip

    def _listed_before(self, text: str, q: Quantity, mentions: list[Mention]) -> set[str]:
        """ "Apple, Google and IBM make up 76 %", "… and two in loss (GOOG, MSFT), down USD 11.9k": the
        entities of the list right before the figure, when a list is its subject."""
        before = [m for m in mentions if m.end <= q.start]
        run = before[-1:]
        for a, b in itertools.pairwise(reversed(before)):
            if not _LIST_SEP.fullmatch(_PAREN.sub("", text[b.end : a.start]).replace("(", "").replace(")", "")):
                break
            run.append(b)
        if len(run) < 2 or _STRONG.search(text[before[-1].end : q.start]):
            return set()
        return {m.entity for m in run}

    def _sums(self, entities: set[str], metrics: list[Metric], compatible: tuple[str, ...]) -> list[FactValue]:
        """Facts summed over ``entities`` ("down about $11.9k between them")."""
        names = {m.same_as or m.name for m in metrics} or {f.metric for e in entities for f in self._facts(e)}
        out = []
        for name in sorted(names):
            facts = [f for e in sorted(entities) for f in self._facts(e) if f.metric == name and f.unit in compatible]
            if len(facts) == len(entities):
                out.append(
                    FactValue(
                        id="+".join(f.id for f in facts),
                        metric=name,
                        unit=facts[0].unit,
                        value=sum(f.value for f in facts),
                        display=f"{sum(f.value for f in facts):,.2f}",
                    )
                )
        return out

    def _spreads(self, entities: set[str], metrics: list[Metric], compatible: tuple[str, ...]) -> list[FactValue]:
        """Differences between two entities' facts of a metric ("AAPL and AMZN <1pp apart on σ")."""
        out = []
        for name in sorted({m.same_as or m.name for m in metrics}):
            facts = [f for e in sorted(entities) for f in self._facts(e) if f.metric == name and f.unit in compatible]
            for a, b in itertools.combinations(facts, 2):
                gap = abs(a.value - b.value)
                out.append(FactValue(id=f"{a.id}−{b.id}", metric=name, unit=a.unit, value=gap, display=f"{gap:.2f}"))
        return out

    def _aggregate(
        self, text: str, lo: int, q: Quantity, spans: list[tuple[int, int, Metric]], metrics: list[Metric]
    ) -> Finding | None:
        """ "Median annualised vol … is about 37%", "the average drawdown is −53%": the median or mean
        of the entities' facts of the metric the word qualifies."""
        for s, _e, metric in spans:
            word = _AGGREGATE.search(text, max(lo, s - 30), s)
            if word is None or s >= q.start or word.end() > s or q.unit not in metric.units \
                    or (metrics and metric not in metrics) or any(
                    a <= word.start() and b >= s for a, b, _m in spans):  # (not "your average cost of $39.81")
                continue
            values = sorted(f.value for f in self.ev.facts
                            if f.metric == (metric.same_as or metric.name) and f.entity is not None
                            and f.unit in ("pct", "money", "ratio", "days"))
            if len(values) < 3:
                continue
            kind = word.group(1).lower()
            value = statistics.median(values) if kind == "median" else statistics.fmean(values)
            kind = "median" if kind == "median" else "mean"
            return Finding(kind="figure", text=q.text,
                           status=Status.SUPPORTED if matches(q, value) else Status.CONTRADICTED,
                           note=f"the {kind} {metric.name} of the {len(values)} is {value:,.2f}")
        return None


def implied_amounts(facts: list[FactValue]) -> list[FactValue]:
    """ "Cut spend by 35% ($420,000 a year)": the amount before (a $1.2M bill) and after the cut."""
    cuts = [f for f in facts if f.unit == "pct" and f.direction < 0 and 0 < f.value < 100]
    amounts = [f for f in facts if f.unit == "money" and f.rate]
    out = []
    for cut in cuts[:1]:
        for amount in amounts:
            base = amount.value / (cut.value / 100)
            for key, value in (("base", base), ("after", base - amount.value)):
                out.append(amount.model_copy(update={"id": f"{amount.id}.{key}", "value": value,
                                                     "display": f"{value:,.0f} ({key} the cut)", "pair": ""}))
    return out
