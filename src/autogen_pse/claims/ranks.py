"""Rankings and superlatives ("the second-largest position", "the most volatile") computed from the facts."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .binding import Binding
from .catalogue import Mention
from .evidence import Count, FactValue, Metric
from .lexicon import ORDINALS, phrase_matches, token_starts
from .model import Finding, Status
from .patterns import _CLAUSE, _LIST_SEP, _PAREN, _POSSESSIVE
from .quantities import Quantity

# "my first job", "her first developer role", "the earliest position she held"
_FIRST_OF_RECORD = re.compile(  # also a label: "First role: Copperleaf Studio, Leeds, September 2015"
    r"\b(?:(?:my|her|his|their|the)\s+(?:very\s+)?(?:first|earliest)\s+(?:[a-z-]+\s+){0,2}?(?:job|role|position|employer)\b"
    r"|(?:^|(?<=[\[(*_:]\s)|(?<=[\[(*_]))(?:first|earliest)\s+(?:job|role|position|employer)(?=\s*[:—–|-]))",
    re.IGNORECASE,
)


# "48.04% volatility, the highest here", "47.52% — the second-best in the portfolio": a ranking of the figure's fact
_AFTER_FIGURE = re.compile(
    r"[^.;()]{0,40}?(?:[—–,:-]|\bis\b)\s*(?:the\s+)?(?:(?P<n>second|third|fourth|2nd|3rd|4th)[\s-]*)?"
    r"(?P<word>best|worst|highest|lowest|largest|smallest|biggest|deepest|mildest|shallowest|fastest|slowest)\b"
    r"(?=\s+(?:in\s+the\s+(?:portfolio|book|group)|of\s+the\s+(?:five|lot|group|bunch)|here|of\s+all|overall)\b|\s*[.;,)]|$)",
    re.IGNORECASE,
)
_AMONG = re.compile(r"\s+(?:among|amongst|of)\s+(?:the|our|your|my)\s+(?:(?:two|three|four|[2-9])\s+)?", re.I)
_PER_YEAR = re.compile(r"(?:per|a|each|every)\s+year|annually|per\s+annum|p\.a\.?", re.IGNORECASE)
# "By cost, GOOG is …", "On an annualised basis AMZN is …", "In annualised terms, …"
_FRONTED_BASIS = re.compile(r"\s*,|\s+(?:basis|terms)\b", re.IGNORECASE)
_BY_SIZE = {"largest", "biggest", "deepest", "smallest", "mildest", "shallowest"}  # by magnitude
_LEAST = {"worst", "lowest", "smallest", "mildest", "shallowest", "slowest"}


# "Best/worst CAGR:", "highest / lowest vol": a label over a whole ordering, not a ranking of one
_TOP_END = r"(?:best|highest|largest|biggest|top|most)"
_LOW_END = r"(?:worst|lowest|smallest|bottom|least)"
_BOTH_ENDS = re.compile(rf"\b{_TOP_END}\s*/\s*{_LOW_END}\b|\b{_LOW_END}\s*/\s*{_TOP_END}\b", re.I)
_BOTH = re.compile(
    r"[\W_]*(?:both(?:\s+of\s+them)?|they\s+both|the\s+two|the\s+pair)\b(?!\s+(?:of|most|least|largest|biggest))",
    re.IGNORECASE,
)

# "the deepest drawdown since purchase is -56.91%": the holding's own extreme over time, with its figure
_OWN_HISTORY = re.compile(
    r"[*_]*\s+(?:since\s+(?:purchase|inception|(?:it\s+was\s+)?(?:bought|opened|acquired)\b|(?:we|you|I)\s+"
    r"(?:bought|opened|acquired)\b)|(?:ever\s+)?on\s+record|in\s+its\s+(?:history|holding\s+period)|while\s+held|"
    r"over\s+the\s+holding\s+period)(?=[\s*_,:]*(?:is|was|of|at|=|—|-)?[\s*_]*[-−+]?\d)",
    re.IGNORECASE,
)


class Ranks(Binding):
    """Rankings checked against the facts ranked by their metric (a part of the Verifier)."""

    def _rank_of_figure(self, text: str, q: Quantity, supported: Finding, qs: list[Quantity]) -> Finding | None:
        """ "Annualised return of 47.52% — the second-best in the portfolio after Apple": the rank the
        words after a supported figure give its fact among the entities' facts of its metric."""
        m = _AFTER_FIGURE.match(text, q.end)
        fact = next((f for f in self.ev.facts if supported.evidence and f.id == supported.evidence[0]), None)
        if m is None or fact is None or fact.entity is None or any(q.end <= o.start < m.start("word") for o in qs):
            return None  # (not "Vol twenty-nine, drawdown sixty-three, the worst": the next figure's rank)
        word = m.group("word").lower()
        size = word in _BY_SIZE
        ranked = sorted((f for f in self.ev.facts if f.metric == fact.metric and f.entity is not None),
                        key=lambda f: abs(f.value) if size else f.value, reverse=word not in _LEAST)
        n = next((v for k, v in ORDINALS.items() if (m.group("n") or "").lower() == k), 1)
        ids = [f.entity for f in ranked]
        if len(ids) < 3 or fact.entity not in ids:
            return None
        pos = ids.index(fact.entity) + 1
        phrase = m.group(0)[m.start("word") - m.start() if not m.group("n") else m.start("n") - m.start():]
        return Finding(kind="rank", text=phrase, status=Status.SUPPORTED if pos == n else Status.CONTRADICTED,
                       evidence=[f.id for f in ranked[: max(n, 2)]],
                       note=f"{fact.entity} is #{pos} by {fact.metric} ({ranked[0].entity} is #1)")

    def _ranks(
        self, text: str, mentions: list[Mention], scope: list[str], headers: Sequence[str] = ()
    ) -> list[Finding]:
        out: list[Finding] = []
        if not self.rank_any.search(text):
            return out
        starts = token_starts(text)
        found = [
            (m, metric, phrase, order)
            for (rx, metric, phrase, order), first in zip(self.rank_re, self.rank_first, strict=True)
            if rx
            for m in phrase_matches(rx, first, text, starts)
        ]
        longest = [  # "the best return per year" is that, not "the best return"
            f
            for f in found
            if not any(
                o[0].start() <= f[0].start() and f[0].end() <= o[0].end() and len(o[0].group(0)) > len(f[0].group(0))
                for o in found
            )
        ]
        for m, metric, phrase, order in longest:
            before = text[max(0, m.start() - 16) : m.start()].lower()
            figure_before = re.search(r"[-−+]?\d[\d.,]*\s*%?\s*$", text[max(0, m.start() - 12) : m.start()])
            figure_follows = figure_before or re.match(
                r"[*_]*(?:\s*(?:in\s+(?:cell\s+)?|\()[A-Z]{1,2}\d{1,4}\)?)?"  # "the worst drawdown in K3 is …": a cell
                r"\s*(?:was|is|of|at|:|=|—|-)?[*_]*\s*(?:nearly|about|around|roughly|almost|~|c\.|circa|approx\.?|"
                r"approximately|some|(?:just|a\s+(?:shade|touch|bit))\s+(?:over|under))?\s*(?:minus\s+|negative\s+)?(?:[-−]?\d|"
                r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|"
                r"eighty|ninety)\b)",
                text[m.end() :],
                re.IGNORECASE,
            )
            of_holdings = re.search(r"position|holding|name|stake|performer|winner|loser", m.group(0), re.I)
            top_n = re.search(r"\b(?:two|three|four|five|[2-9])\s*$", before)  # "the three largest positions"
            among = re.search(r"\b(?:one of|among) the(?:\s+(?:two|three|top))?\s*$|\bnot\s+(?:the\s+)?$", before)
            if m.start() > 0 and text[m.start() - 1] in "\"“'‘" and re.match(r"[\"”'’]", text[m.end() : m.end() + 1]):
                continue  # 'so "best performer" and "smoothest ride" aren't the same thing': the words, not a rank
            if top_n or among or _BOTH_ENDS.search(text, max(0, m.start() - 12), m.end()) or _OWN_HISTORY.match(
                text, m.end()
            ) or (
                figure_follows and not of_holdings
            ):
                continue  # "worst drawdown was nearly 58 %": the figure, not a ranking
            owner = next(
                (x for x in mentions if x.end <= m.start() and re.fullmatch(r"['’]s\s*", text[x.end : m.start()])),
                None,
            )
            if owner is not None or (
                _POSSESSIVE.search(before)
                and not re.search(r"position|holding|name|stake|weight|wt", m.group(0), re.IGNORECASE)
                and not re.search(r"(?:portfolio|book|fund)['’]s\s*$", before, re.IGNORECASE)
            ):
                continue  # "IBM's worst drawdown" is IBM's own figure, not a ranking
            metric = self._qualified(text, m.end(), metric, fronted=bool(of_holdings))  # "… on an annualised basis"
            metric = self._by_column(m.group(0), metric, headers)  # "highest return" under "Annualised Return"
            n = next((v for k, v in ORDINALS.items() if re.search(rf"\b{k}[\s-]*$", before)), 1)
            # "Highest vol is AMZN (…), deepest drawdown is MSFT": the name right after the ranking
            named = next((x for x in mentions if x.start >= m.end()
                          and re.fullmatch(r"[*_\s]*(?:is|was|:|=)[*_\s]*", text[m.end() : x.start])), None)
            ahead = [x for x in mentions if not (x.start >= m.end() and self._aside(text, x))]  # "second-best after
            # Apple": Apple is ahead of what is ranked
            entity = named.entity if named else self._entity_for(text, m.start(), ahead, scope)
            lo = max((c.end() for c in _CLAUSE.finditer(text, 0, m.start())), default=0)
            group = self._listed_around(text, m, [x for x in mentions if lo <= x.start < m.end() + 20])
            if not group and _BOTH.match(text) and len(pair := list(dict.fromkeys(reversed(scope)))[:2]) == 2:
                group = set(pair)  # "Both also carry the highest volatility": the two the sentences before named
            negated = [x for x in mentions if x.entity == entity and re.search(r"\bnot\s+$", text[: x.start])]
            if negated and len(group) == 1:
                entity = next(iter(group))  # "AMZN, not AAPL, is (narrowly) the most volatile name"
            if entity is None:
                continue
            ranked = self._ranking(metric, order)
            subset = self._among(text, m.end())  # "the lowest annualised return among the three winners"
            if subset is not None and entity in subset.entities:
                ranked = [f for f in ranked if f.entity in subset.entities]
            ids = [f.entity for f in ranked]
            if entity not in ids:
                continue
            before_it = [x.entity for x in ahead if x.end <= m.start() and x.entity in ids]
            if named is None and n <= len(ids) and ids[n - 1] in before_it and ids[n - 1] != entity and not any(
                    x.entity == entity and x.end <= m.start() for x in ahead):
                entity = ids[n - 1]  # "BUY on AMZN is allowed, but adding to the most volatile name … where we cut
                # Apple": the name before the ranking, not the one a later clause brings
            pos = ids.index(entity) + 1
            expected = ranked[n - 1] if n <= len(ranked) else None
            plural = re.match(r"[\w-]*s\b", text[m.end() - 1 : m.end() + 1]) is not None or len(group) > 1
            if pos == n or (plural and pos <= max(n, len(group))):
                out.append(
                    Finding(
                        kind="rank",
                        text=m.group(0),
                        status=Status.SUPPORTED,
                        evidence=[f.id for f in ranked[: max(n, 2)]],
                        note=f"{entity} is #{n} by {metric.name}",
                    )
                )
            else:
                top = f"{expected.entity} ({expected.shown()})" if expected else "no entity"
                out.append(
                    Finding(
                        kind="rank",
                        text=m.group(0),
                        status=Status.CONTRADICTED,
                        evidence=[f.id for f in ranked],
                        note=f"{phrase!r} is {top}; {entity} is #{pos} by {metric.name}",
                    )
                )
        return out

    def _first_dated(self, text: str, mentions: list[Mention]) -> list[Finding]:
        """ "My first job was Copperleaf Studio", "her earliest role, at Copperleaf": the entity whose
        start date is the earliest of the record, when the claim names one."""
        m = _FIRST_OF_RECORD.search(text)
        if m is None:
            return []
        starts = sorted((d.value, d.entity) for d in self.ev.dates if d.metric == "start" and d.entity)
        named = list(dict.fromkeys(x.entity for x in mentions if x.entity in {e for _v, e in starts}))
        if len(named) != 1:
            return []
        first = starts[0][1]
        return [Finding(kind="rank", text=m.group(0), status=Status.SUPPORTED if named[0] == first else
                        Status.CONTRADICTED, evidence=[f"{first}.start"],
                        note=f"the earliest start of the record is {first}'s ({starts[0][0]})")]

    @staticmethod
    def _listed_around(text: str, m: re.Match[str], near: list[Mention]) -> set[str]:
        """The entities a ranking speaks of together: the list just before it ("Apple and Google are
        the two biggest") or right after it ("the two biggest: Apple and Google")."""
        before = [x for x in near if x.end <= m.start() and not re.search(r"\bnot\s+$", text[: x.start])]
        after = [x for x in near if x.start >= m.end()]
        run = before[-1:]
        for x in reversed(before[:-1]):  # "Amazon (48 per cent) and Apple (47 per cent) are the most volatile"
            if not _LIST_SEP.fullmatch(_PAREN.sub("", text[x.end : run[0].start])):
                break
            run.insert(0, x)
        if after and re.fullmatch(r"[\s*_]*(?:[:(—–-]|are|were)?[\s*_]*", text[m.end() : after[0].start]):
            run.append(after[0])
            for x in after[1:]:
                if not _LIST_SEP.fullmatch(text[run[-1].end : x.start]):
                    break
                run.append(x)
        return {x.entity for x in run}

    def _among(self, text: str, end: int) -> Count | None:
        """The set a ranking is confined to right after it: "among the three winners", "of the losers"."""
        lead = _AMONG.match(text, end)
        if lead is None:
            return None
        return next((c for c, rx in self.count_re if rx is not None and len(c.entities) > 1
                     and rx.match(text, lead.end())), None)

    def _qualified(self, text: str, end: int, metric: Metric, *, fronted: bool = False) -> Metric:
        """The metric a ranking is qualified by right after it ("best performer on an annualised basis",
        "largest by value") or, for a ranking of positions, at the head of its sentence ("By cost, GOOG is our
        largest position"),
        when that metric has facts to rank; else ``metric``."""
        spans = sorted(self._metric_spans(text), key=lambda x: x[2].signed != metric.signed)  # "annualised":
        for s, e, other in spans:  # the return for a performer, not the volatility
            if (
                other.name != metric.name
                and other.scope == "entity"
                and (re.fullmatch(r"\s*(?:on|by|in|for|per)\s+(?:an?\s+|the\s+|its\s+)?", text[end:s])
                     or (s >= end and not text[end:s].strip() and _PER_YEAR.fullmatch(text, s, e))  # "… per year"
                     or (fronted and re.fullmatch(r"\W*(?:(?:by|in|on)\s+(?:the\s+|an?\s+)?)?", text[:s], re.I)
                         and _FRONTED_BASIS.match(text, e)))
                and any(f.metric == other.name for f in self.ev.facts)
            ):
                return other
        return metric

    def _by_column(self, phrase: str, metric: Metric, headers: Sequence[str]) -> Metric:
        """In a table row, the ranking's noun qualified by a column's header ("highest return" in a
        row whose "Annualised Return" column holds the return): the metric that header names."""
        noun = phrase.split()[-1].lower()
        for header in headers:
            if header.endswith(noun) and header != noun:
                named = sorted(self._metric_spans(header), key=lambda x: x[0] - x[1])
                other = next((m for _s, _e, m in named if m.scope == "entity"), metric)
                if other.name != metric.name and any(f.metric == other.name for f in self.ev.facts):
                    return other
        return metric

    def _ranking(self, metric: Metric, order: str) -> list[FactValue]:
        facts = [f for f in self.ev.facts if f.metric == metric.name and f.entity is not None]
        if metric.entity_kind:
            kinds = {e.id for e in self.ev.entities if e.kind == metric.entity_kind}
            facts = [f for f in facts if f.entity in kinds]
        return sorted(facts, key=lambda f: (-f.value if order == "max" else f.value, f.entity or ""))
