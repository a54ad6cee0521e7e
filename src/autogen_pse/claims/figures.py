"""Figures checked against the facts of their entity and metric (durations: :mod:`.durations`)."""

from __future__ import annotations

import functools
import re

from .binding import Binding
from .catalogue import Mention
from .counts import Counts
from .derived import _RELATIVE, Derived
from .durations import Durations
from .evidence import FactValue, Metric
from .lexicon import phrase_regex
from .model import Finding, Status
from .patterns import (
    _A_HOLDING,
    _ACCOUNTING,
    _ANY_DIRECTION,
    _CHAIN,
    _COMPARATOR,
    _COMPARED_PAREN,
    _DENIED,
    _DISCOURSE_COUNT,
    _GLOBAL_NEAR,
    _HEDGE_WORDS,
    _HYPOTHETICAL,
    _NORM,
    _OF_RULES,
    _ORDERS,
    _OVER_CAP,
    _PAREN,
    _PCT_KEY,
    _PRONOUN_SUBJECT,
    _RATING,
    _REQUIRED,
    _RULES_BROKEN,
    _SCORE_AFTER,
    _SCORE_BEFORE,
    _SPREAD,
    _STRONG,
    _TOGETHER_ANY,
    _UNIT_NOUNS,
    _UNROUNDED,
    _bare,
    _pair_role,
    _quantity_units,
)
from .periods import RATE_SECONDS, rate_after, rate_before
from .quantities import Quantity, as_percent, matches, precise

_RULE_WORDS = r"(?:rule|limit|threshold|cap|ceiling|level|trigger|stop[\s-]?loss|stop|maximum|max|floor)s?"
_RULE_BEFORE = re.compile(
    rf"\b{_RULE_WORDS}\W{{0,3}}(?:(?:pct|percent|days?|d)\W{{1,3}})?(?:(?:at|of|is|=|set\s+at)\W{{0,3}})?(?:[−-]|minus\s+)?$"
    r"|[≥≤]\s*[−-]?$|\((?:[<>]=?|[≥≤])\s*[−-]?$|"  # "threshold pct: -10.00" (a log's field), "851 DAYS (>=730)"
    r"\bexcess\s+(?:over|above|beyond)\s+(?:the\s+)?$"  # "the exact excess over 30 % is $17,607.87"
    r"|\b(?:exceed(?:s|ed|ing)?|breach(?:es|ed|ing)?)\s+(?:the\s+)?$"  # "(851 days) exceeds 730 days"
    r"|\bback\s+(?:down\s+|under\s+)?(?:to|under|below)\s+(?:the\s+)?$"  # "sell 79 to get back down to 30%"
    # "trim aapl to 30": the level a trim brings it to
    r"|\b(?:trim|trimming|cut|cutting|reduce|reducing|bring|bringing)\s+(?:[\w'’]+\s+){1,2}?(?:down\s+)?to\s+$",
    re.I,
)
_RULE_AFTER = re.compile(rf"\W{{0,3}}(?:\w+\W+)?{_RULE_WORDS}\b", re.I)
_HELD_TO = re.compile(r"\s*(?:vs\.?|versus|against|compared\s+(?:with|to)|[≥≤]|[<>]=?)\s*[-−–+]?\s*[$€£]?\d",
                      re.IGNORECASE)  # ("851 ≥ 730 days": the holding's figure, then the rule's)
_RULE_HIT = re.compile(r"\b(?:hit|breached|triggered|crossed|tripped|loss)\s*[:=]?\s*[(\[]?\s*$", re.IGNORECASE)


_ONE_OF = re.compile(r"\s+of\s+(?:the|your|ur|these|those|its|my|our|his|her|their|them)\b", re.IGNORECASE)


def _elliptical(text: str) -> bool:
    """A sentence that leaves its subject to the one before: a short reply ("Gain about forty-six
    thousand.") or a pronoun ("… and it's down more than ten percent"), not about the whole."""
    return not _GLOBAL_NEAR.search(text) and (len(text.split()) <= 12 or bool(_PRONOUN_SUBJECT.search(text)))


_action_words = functools.lru_cache(maxsize=16)(phrase_regex)


class Figures(Binding, Derived, Counts, Durations):
    """Figures and durations against the facts of their entity and metric (a part of the Verifier)."""

    def _fixed_amount(self, text: str, entity: str) -> FactValue | None:
        """The fact an action named in ``text`` must trade exactly ("TRIM" → trim_units), if any."""
        for action, metric in self.ev.proposal_amounts.items():
            words = _action_words(tuple(self.ev.actions.get(action, [])))
            if words is not None and words.search(text):
                return next((f for f in self._facts(entity) if f.metric == metric), None)
        return None

    def _figure(
        self,
        text: str,
        q: Quantity,
        entity: str | None,
        spans: list[tuple[int, int, Metric]],
        qs: list[Quantity],
        prev: tuple[Quantity, list[Metric]] | None,
        paired: bool,
        *,
        others: list[str | None],
        mentions: list[Mention],
        column: str,
        named: list[Metric] | None = None,
    ) -> tuple[Finding, list[Metric]]:
        unit = q.unit
        if unit in ("minutes", "hours") and not any(f.unit == unit for f in self.ev.facts):
            return Finding(kind="figure", text=q.text, status=Status.NONE,  # "Call lasted about twenty minutes."
                           note=f"{q.text}: the evidence measures nothing in {unit}"), []
        if _RATING.search(text, max(0, q.start - 30), q.start) or _SCORE_BEFORE.search(text, max(0, q.start - 40),
                                                                                        q.start) \
                or (q.unit == "count" and _SCORE_AFTER.match(text, q.end)):
            return Finding(kind="figure", text=q.text, status=Status.NONE, note=f"{q.text}: a rating, not a fact"), []
        if _UNROUNDED.match(text, q.end):
            return Finding(kind="figure", text=q.text, status=Status.NONE,
                           note=f"{q.text}: working before rounding"), []
        if _REQUIRED.match(text, q.end):
            return Finding(kind="figure", text=q.text, status=Status.NONE, note=f"{q.text}: a requirement"), []
        if _DENIED.search(text, max(0, q.start - 30), q.start):
            return Finding(kind="figure", text=q.text, status=Status.NONE, note=f"{q.text}: a figure denied"), []
        if unit == "count" and _OF_RULES.match(text, q.end) and _RULES_BROKEN.search(text, max(0, q.start - 25),
                                                                                     q.start):
            return Finding(kind="figure", text=q.text, status=Status.NONE, note=f"{q.text}: rules broken"), []
        if unit == "count" and (_UNIT_NOUNS.match(text[q.end :]) or (
                q.sign and float(q.value).is_integer() and _ORDERS.search(text, 0, q.start))):  # "Orders: AAPL -79"
            unit = "units"
            q = Quantity(q.value, "units", q.text, q.start, q.end, q.tol, q.hedge, q.sign, q.kind)
        if unit in ("years", "months", "weeks") or (unit == "days" and not self._facts(entity, "days")):
            return self._duration(q, entity, text), []
        if unit == "multiple" and _RELATIVE.match(text, q.end):
            return self._relative(text, q, entity, spans, mentions), []
        if unit == "multiple" and (of_level := self._of_level(text, q, entity)) is not None:
            return of_level, []
        if not paired and self._portfolio_level(text, q) and None not in others:
            others = [None, *others]
        metrics = named or self._share_metrics(text, q, spans) or self._metrics_for(text, q, spans, qs) or \
            self._list_head(text, q, spans, qs)
        if metrics and all(m.units == ["units"] for m in metrics):
            if not float(q.value).is_integer():
                metrics = []  # "Math says I own 3.65": no count of shares has a fraction
            elif re.search(r"\bat\s+$", text[max(0, q.start - 4) : q.start]):  # "a reason to own it at 560": a price
                metrics = [m for m in self.ev.metrics if "money" in m.units]
        if metrics and not named and self._flag_before(text, q.start):
            metrics = []  # "AAPL over the cap (43.85%)": the figure that trips the rule, whichever it is
        if metrics and _pair_role(text, q) == "from":  # "the price went from $38.45 to $223.02": from the price paid
            metrics = metrics + [m for m in self.ev.metrics if m.then in {x.name for x in metrics} and m not in metrics]
        if metrics and all(m.scope == "global" for m in metrics) and (
            _HELD_TO.match(text, q.end) or _RULE_HIT.search(text, max(0, q.start - 20), q.start)
        ):  # "-19.16% vs -20%", "Stop-loss hit: -27.66%": the holding's figure held to the rule's level
            metrics = []
        if not metrics and prev is not None and prev[1] and _COMPARED_PAREN.match(text, prev[0].end, q.start):
            metrics = prev[1]  # "the most volatile (48.04 %), just ahead of Apple (47.12 %)": the same measure
        if entity is not None:  # words naming a metric this entity has no fact of ("sell the 600 shares")
            kinds = ("count", "units") if _bare(q) else _quantity_units(q)
            metrics = [m for m in metrics if m.scope == "global" or self._pool(entity, m, kinds, 0)]
        # a bare number has no direction; nor has a difference in points ("▲ 13.85pp" above the cap)
        points = re.search(r"(?:pp|pts?|points?|bps)$", q.text, re.IGNORECASE)
        direction = 0 if _bare(q) or points or q.sign or _OVER_CAP.match(text, q.end) \
            else self._direction_near(text, q, qs)  # a sign decides; "43.85% ↑ cap": over the cap, no gain
        if not metrics and not direction and None not in others:
            others = [*others, None]  # a threshold named beside a holding ("meet the 730-day test")
        bare = _bare(q) or (q.kind in ("fraction", "words") and unit == "pct")
        compatible = _quantity_units(q)
        chained = (
            not paired
            and not metrics
            and prev is not None
            and bool(prev[1])
            and prev[0].unit == q.unit
            and not (q.sign and not prev[0].sign)  # "cost ~$76k → +$51k": a change, not the next state
            and _CHAIN.fullmatch(_HEDGE_WORDS.sub("", _PAREN.sub("", text[prev[0].end : q.start]))) is not None
        )
        if chained and prev is not None:
            metrics = prev[1]
            if _pair_role(text, q) == "to":  # "went from 38.45 to 223.02": from the price paid to the close
                metrics = metrics + [t for m in metrics if m.then for t in [self.ev.metric(m.then)] if t is not None]
            pools = [
                self._pool(e, m, compatible, direction, anywhere=entity is None)
                for e in [entity, *others]
                for m in metrics
            ]
            if entity is None:
                pools += [
                    [f for f in self.ev.facts if f.metric == (m.same_as or m.name) and f.unit in compatible]
                    for m in metrics
                ]
        else:
            pools = [
                self._pool(e, m, compatible, direction, anywhere=entity is None)
                for e in [entity, *others]
                for m in metrics
            ]
        capped = bool(metrics) and q.hedge in ("under", "over") and q.unit == "money"  # a bound of an amount named
        pools += [
            self._pool(e, alternate, compatible, direction, anywhere=entity is None)
            for m in metrics
            for alternate in (self.ev.metric(name) for name in m.alternates)
            if alternate is not None and not capped
            for e in [entity, *others]
        ]
        if entity is None and not mentions and _A_HOLDING.search(text):  # "a sub-$23k position bought for $27.7k":
            # a holding the sentence does not name (the turn before did)
            pools += [[f for f in self.ev.facts if f.entity and f.metric == (m.same_as or m.name)
                       and f.unit in compatible] for m in metrics]
        if not any(m.strict for m in metrics) and not capped:  # any fact of the entity; a sign ("+19 %") is a change's
            signed = direction or (q.sign if not points else 0)
            pools += [self._pool(e, None, compatible, signed, anywhere=entity is None) for e in [entity, *others]]
        pools += [
            self._pool(e, m, compatible, direction, anywhere=entity is None)
            for s, _e, m in spans
            if m.sentence and m not in metrics
            for e in [entity, *others]
        ]
        lo = max((c.end() for c in _STRONG.finditer(text, 0, q.start)), default=0)
        hi = min((c.start() for c in _STRONG.finditer(text, q.end)), default=len(text))
        if re.search(r"\b(?:range|ranges|ranging|spread|span)\b", text[lo : q.start], re.IGNORECASE):
            pools += [self._pool(None, m, compatible, direction, anywhere=True) for m in metrics]  # over holdings
        if re.search(
            r"\b(?:every|all|each)\b[^.;]{0,40}\b(?:except|bar|but|other than|save|apart from|besides)\b",
            text[lo:hi],
            re.IGNORECASE,
        ):
            return Finding(
                kind="figure", text=q.text, status=Status.NONE, note=f"{q.text}: a bound for several holdings"
            ), metrics
        bounded = self._group_bound(text, lo, q, metrics) or self._aggregate(text, lo, q, spans, metrics)
        if bounded is not None:  # "four of the five have fallen more than half from a peak"
            return bounded, metrics
        group = {m.entity for m in mentions if lo <= m.start < hi}
        together = _TOGETHER_ANY.search(text, lo, hi)
        if together and len(group) < 2 and len(set(others) - {None}) + (entity is not None) > 1:
            group = {e for e in [entity, *others] if e is not None}  # "together they …": the paragraph's
        listed = self._listed_before(text, q, mentions)
        if len(group) > 1 and together:
            pools.append(self._sums(group, metrics, compatible))
        if listed:
            pools.append(self._sums(listed, metrics, compatible))
        if _SPREAD.search(text, lo, hi) and len({x.entity for x in mentions}) > 1:  # "~24.5pp spread", "<1pp apart"
            pools.append(self._spreads({x.entity for x in mentions}, metrics or [m for _s, _e, m in spans], compatible))
        # "the three triggered holdings together …", "Losers' MV ≈ $39.7k": the set a count phrase names
        pools += [self._sums(set(c.entities), metrics, compatible) for c in self._named_sets(text[lo : q.start])]
        # "(51.6k USD of 75.9k) was put in the two positions which are now in loss": the set named after it
        clause = re.split(r"[,;]", text[q.end : hi], maxsplit=1)[0] if q.unit == "money" else ""  # (an amount)
        pools += [self._sums(set(c.entities), metrics, compatible) for c in self._named_sets(clause)]
        if together:  # "the two losers … together carry $11,918.40": a total the evidence states
            pools += [self._pool(None, m, compatible, direction) for m in metrics]
        pools.append(self._priced(text, q, entity, qs))
        if _bare(q) and entity is None and not mentions and metrics and all("units" in m.units for m in metrics):
            # "(5 held)", "it behaves like she owns fewer than four": units held of nothing named — the
            # number of entities, or their effective number
            pools.append([f for f in self._facts(None) if f.unit in ("count", "ratio")])
        if q.unit == "count" and not bare and direction:  # "we're up fifty-one thousand two sixty-six": a sum
            for e in [entity, *others]:
                pools.append([f for f in self._facts(e) if self._signed(f) and f.unit in compatible])
        rule_paren = re.search(r"\b(?:rule|limit|threshold|cap|level)s?\W{0,3}\([^()]*$", text[: q.start], re.I)
        # "threshold 730 days", "vs a 30% limit", "beyond the (20%) level", "Stop-loss at -20%", "≥730d": a rule's level
        rule_near = _RULE_BEFORE.search(text, 0, q.start) or _RULE_AFTER.match(text, q.end)
        norm = _NORM.search(text)  # (named before any holding is: "the rule only bites if there's a loss of ten
        # percent or more, and only two of them are losing money: Google and Microsoft")
        stated_rule = norm is not None and not any(m.start < max(norm.end(), q.start) for m in mentions)
        if stated_rule or rule_paren or rule_near:  # "No position may exceed 30 %"
            rules = [m for m in self.ev.metrics if m.scope == "global"]
            pool = [f for m in rules for f in self._pool(None, m, compatible, 0)]
            # "The rules set … a long-held loss at 730 days and a loss of 10 per cent or more": the rule's
            # level before any total the words might also name
            pools.insert(0 if stated_rule else len(pools), pool)
        pair = _pair_role(text, q)
        rate = rate_after(text, q.end) or rate_before(text, q.start)
        if not rate and pair == "from":  # "from roughly $100k to $65k a month": both a month
            nxt = next((o for o in qs if o.start >= q.end), None)
            rate = rate_after(text, nxt.end) if nxt is not None else ""
        ratio = as_percent(q)
        wrong_way: Finding | None = None  # a fact the figure matches the other way round: "the other four are
        # up about $5k combined" matches GOOG's −5,312.40 before the four's sum
        for pool in pools:
            hits = [f for f in pool if matches(q, _per(f, rate) * (f.direction or 1) if q.sign else _per(f, rate),
                                               signed=self._signed(f))  # "−$420k/yr" of an unsigned saving
                    or (ratio is not None and f.unit == "pct" and matches(ratio, f.value))]
            if hits:
                unsigned = (  # no sign, no direction word anywhere in the sentence, the metric named
                    not direction
                    and not q.sign
                    and bool(metrics)
                    and (q.unit == "pct" or bool(_PCT_KEY.search(text, 0, q.start)))  # "pnl_pct: 8.73"
                    and not _ANY_DIRECTION.search(text)
                    and not (_ACCOUNTING.search(text[: q.start]) and text[q.end :].lstrip().startswith(")"))
                    # "(19.16%)": a loss in an accountant's hand
                )
                found = self._supported(q, hits, direction, pair, unsigned=unsigned)
                if found.kind == "direction" and entity is None and not mentions and _elliptical(text):
                    # "… and it's down more than ten percent": of the holding just discussed, not the whole
                    names = {m.same_as or m.name for m in metrics}
                    held = [f for f in self.ev.facts if f.entity and f.unit in compatible and matches(q, f.value)
                            and (f.metric in names if names else self._signed(f)) and self._sign_of(f) == direction]
                    if held:
                        return Finding(kind="figure", text=q.text, status=Status.NONE, evidence=[held[0].id],
                                       note=f"{q.text} is {held[0].id}, of a holding the sentence does not name"
                                       ), metrics
                if found.kind == "direction" or (wrong_way is not None and found.status is not Status.SUPPORTED):
                    wrong_way = wrong_way or found
                    continue
                return found, metrics
        if wrong_way is not None:
            return wrong_way, metrics
        if chained and prev is not None and _COMPARATOR.fullmatch(
            _HEDGE_WORDS.sub("", _PAREN.sub("", text[prev[0].end : q.start]))
        ):
            return Finding(
                kind="figure",
                text=q.text,
                status=Status.NONE,
                note=f"{q.text}: a point of comparison, matched by no fact",
            ), metrics
        counted = self._by_noun(text, q, entity) if not metrics and q.unit in ("count", "units") else None
        if counted is not None:
            return counted, metrics
        if q.value == 1 and q.text.lower() == "one" and _ONE_OF.match(text, q.end):
            return Finding(kind="figure", text=q.text, status=Status.NONE,  # "the only one of your shares to …"
                           note=f"{q.text}: one of several, no figure"), metrics
        if q.unit in ("count", "units") and _DISCOURSE_COUNT.match(text, q.end):  # "Two pieces of evidence here."
            return Finding(kind="figure", text=q.text, status=Status.NONE,
                           note=f"{q.text}: counts the document's own points"), metrics
        whole = entity is None and q.unit == "multiple" and bool(_GLOBAL_NEAR.search(text))
        if not metrics and not direction and (bare or entity is None) and not whole:  # "the portfolio has doubled"
            # what a bare number (or a figure about nothing named) measures is unknown: not checkable
            status = Status.UNVERIFIABLE if entity is None and not bare else Status.NONE
            exact = [f for f in self.ev.facts if not f.named_only and (
                (f.unit in compatible and matches(q, f.value)) or (ratio is not None and f.unit == "pct"
                                                                     and matches(ratio, f.value)))
                     ] if status is Status.UNVERIFIABLE and precise(q) else []  # (a fraction: "0.4385")
            if exact:  # "At $223.02 that's 78.95 shares": written to the cent, a figure of the evidence
                return Finding(kind="figure", text=q.text, status=Status.SUPPORTED, evidence=[f.id for f in exact[:2]],
                               note=f"{q.text} is {exact[0].id} to every digit written"), metrics
            return Finding(
                kind="figure", text=q.text, status=status, note=f"{q.text}: what it measures is not named"
            ), metrics
        # "the effective number … puts you at 3.65: you own five stocks but we're diversified like someone
        # who owns three and a half": the whole's measure named before the figure, no holding named between
        named_whole = [f for _s, e, m in spans if m.scope == "global" and e <= q.start
                       and not any(e <= x.start < q.start for x in mentions)
                       for f in self._pool(None, m, compatible, 0) if matches(q, f.value)]
        if named_whole:
            return self._supported(q, named_whole, direction, pair), metrics
        pool = pools[0]
        elsewhere = [f for f in self.ev.facts if f.unit in compatible and matches(q, f.value) and f not in pool]
        metric = metrics[0] if metrics else None
        about = f"{entity if metric is None or metric.scope != 'global' else ''} " if entity else ""
        what = f"{about}{metric.name if metric else 'figures'}".strip()
        shown = ", ".join(f"{f.id} = {f.shown()}" for f in sorted(pool, key=lambda f: abs(f.value - q.value))[:2])
        to_cent = precise(q) or (not q.hedge and bool(re.search(r"\.\d\d(?!\d)", q.text)))
        own = [f for f in elsewhere if f.entity == entity] if entity and not metrics and not direction and to_cent \
            else []
        if own:  # "GOOG … −132.81" in a sheet's unnamed column: the holding's own change per share, to the cent
            return Finding(kind="figure", text=q.text, status=Status.SUPPORTED, evidence=[own[0].id],
                           note=f"{q.text} is {own[0].id} to every digit written"), metrics
        note = f"{q.text} does not match {what} ({shown or 'no such fact'})"
        if elsewhere:
            note += f"; {q.text} is {elsewhere[0].id}"
        status = Status.NONE if _HYPOTHETICAL.search(text) else Status.CONTRADICTED  # a hypothesis claims nothing
        # (or written to every digit: "It is — 241.97% on cost", "241.97%" being Amazon's to the digit)
        loose = _elliptical(text) or (precise(q) and not _GLOBAL_NEAR.search(text))
        unnamed = entity is None and not mentions and loose and [
            f for f in self.ev.facts if f.entity and not f.named_only and f.unit in compatible and matches(q, f.value)
            and (precise(q) or any(f.metric == m.name for m in metrics))]  # ("a long-held loss (851 days)")
        if status is Status.CONTRADICTED and unnamed:  # "Gain about forty-six thousand one hundred.": a reply
            # about the holding just discussed, which the sentence does not name — true of one, not checkable
            return Finding(kind="figure", text=q.text, status=Status.NONE, evidence=[unnamed[0].id],
                           note=f"{q.text} is {unnamed[0].id}, of a holding the sentence does not name"), metrics
        proposal = column in self.ev.proposal_columns or bool(
            self.action_any
            and self.action_any.search(text[max(0, q.start - 22) : q.start])
            and re.search(r"(?:\b(?:the|all|some|about|roughly|~)\s*)?$", text[max(0, q.start - 8) : q.start])
        )
        named_facts = any(self._pool(entity, m, compatible, 0) for m in metrics) if metrics else False
        if proposal and entity is not None and (not named_facts or column in self.ev.proposal_columns):
            # "sell the 40", "| TRIM | AAPL | 79 | … | Est value 17,618.58 |": an amount, not a fact
            bare_as = "money" if re.search(r"value|notional", column) else "units"  # "| Est value | 17,618.58 |"
            limit = self.ev.proposal_bounds.get(bare_as if unit == "count" else unit)
            fixed = self._fixed_amount(text, entity) if (bare_as if unit == "count" else unit) == "units" else None
            if fixed is not None:  # "| TRIM | AAPL | 97 units |": the rules fix a trim's size
                ok = matches(q, -fixed.value if q.value < 0 else fixed.value)  # "TRIM -79": 79 sold
                return Finding(kind="figure", text=q.text, status=Status.SUPPORTED if ok else Status.CONTRADICTED,
                               evidence=[fixed.id], note=("" if ok else f"{q.text}: the rules fix it at ")
                               + f"{fixed.id} = {fixed.shown()}"), metrics
            bound = [f for f in self._facts(entity) if f.metric == limit]
            named_here = {m.entity for m in mentions} - {entity}  # "sell X and Y, keep the $35k of proceeds"
            within = sum(f.value for e in named_here for f in self._facts(e) if f.metric == limit)
            if bound and abs(q.value) <= bound[0].value + within + q.tol:
                return Finding(
                    kind="figure",
                    text=q.text,
                    status=Status.NONE,
                    evidence=[bound[0].id],
                    note=f"a proposed amount within {bound[0].id} = {bound[0].shown()}",
                ), metrics
            if bound:
                note = f"{q.text} is more than {bound[0].id} = {bound[0].shown()}"
        return Finding(
            kind="figure",
            text=q.text,
            status=status,
            note=note,
            evidence=[f.id for f in pool[:2]] + [f.id for f in elsewhere[:1]],
        ), metrics

    def _portfolio_level(self, text: str, q: Quantity) -> bool:
        """A figure whose own phrase speaks of the whole ("the book is worth …", "… of the portfolio")."""
        lo = max((m.end() for m in re.finditer(r"[,;:—–(]|\band\b|\. ", text[: q.start])), default=0)
        segment = text[lo : q.start]
        if _GLOBAL_NEAR.search(segment) and not self.catalogue.find(segment):
            return True
        return bool(_GLOBAL_NEAR.match(text[q.end : q.end + 14].lstrip()) and not self.catalogue.find(segment))

    def _pool(
        self,
        entity: str | None,
        metric: Metric | None,
        compatible: tuple[str, ...],
        direction: int,
        *,
        anywhere: bool = False,
    ) -> list[FactValue]:
        """The facts a figure about ``entity`` and ``metric`` is compared with; ``anywhere``: the figure
        names no entity at all, so an entity-level metric may be any entity's ("the 43.85 % weight")."""
        if metric is not None and metric.scope == "global":
            entity = None
        pool = [f for f in self._facts(entity) if f.unit in compatible]
        if metric is not None:
            name = metric.same_as or metric.name
            named = [f for f in pool if f.metric == name]
            if not named and entity is None and anywhere:
                named = [f for f in self.ev.facts if f.metric == name and f.unit in compatible]
            return named
        pool = [f for f in pool if not f.named_only]  # "proceeds" only where proceeds are named
        if direction and any(self._signed(f) for f in pool):
            return [f for f in pool if self._signed(f)]
        if not pool and anywhere:
            pool = [f for f in self.ev.facts if f.unit in compatible and not f.named_only]
        return pool


def _per(f: FactValue, rate: str) -> float:
    """``f`` converted to the period a figure is written per ("$35k a month" of "$420,000 a year")."""
    if rate and f.rate and rate != f.rate:
        return f.value * RATE_SECONDS[rate] / RATE_SECONDS[f.rate]
    return f.value
