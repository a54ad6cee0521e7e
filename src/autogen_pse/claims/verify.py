"""Verify one claim unit against the task's evidence: figures, ranks, counts, actions, flags,
directions, dates, durations, named organisations and statements no source covers.

Binding rules (what a figure is *about*):

* the entity is the nearest catalogue mention in the same clause (an earlier one preferred); a list
  of entities followed by as many figures ("Amazon and IBM are up 242 % and 72.7 %") pairs them in
  order; with no mention, the unit's scope (table row, bold lead-in, heading, or the previous
  sentence of the paragraph) is used;
* the metric is the nearest metric word within 40 characters in the same clause; without one, a
  direction word ("up", "fell") selects the signed metrics; otherwise every fact of the entity in
  the figure's unit is a candidate;
* a figure is compared at the precision it is written with (:func:`quantities.matches`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .catalogue import _STOP_CAPS, Catalogue, Mention, unknown_names
from .catalogue import GENERIC_ABBREVIATIONS as _ABBREVIATIONS
from .dates import find_dates, name_spans, same_date
from .evidence import Count, Evidence, FactValue, Metric
from .lexicon import (
    ADVICE,
    DOWN_RE,
    IMPERATIVE_START,
    NEAR_WORDS,
    NEGATIONS,
    ORDINALS,
    UP_RE,
    content_words,
    phrase_regex,
    rank_regex,
    stem,
)
from .model import Claim, Finding, Status
from .quantities import Quantity, completed_years, find_quantities, matches

_CLAUSE = re.compile(r";|\s[—–]\s|\s-\s|\bwhile\b|\bwhereas\b|\bbut\b|\bhowever\b|\balthough\b|\. |\|")
_STRONG = re.compile(r";|\. |\bbut\b|\bwhile\b|\bwhereas\b|\bhowever\b")
_PERF_UP = phrase_regex(["is up", "are up", "was up", "'s up", "’s up", "sits up", "stands up", "now up",
                         "still up", "both up", "in profit", "profitable", "in the green", "above water", "above cost", "gained",
                         "gaining", "a gain", "winner", "appreciated", "rose", "has risen", "positive return"])
_PERF_DOWN = phrase_regex(["is down", "are down", "was down", "'s down", "’s down", "sits down", "now down",
                           "still down", "both down", "at a loss", "in the red", "under water", "underwater", "below cost",
                           "under cost", "losing", "lost money", "a loss", "loser", "declined", "fell", "has fallen",
                           "negative return", "losing money", "loss-making"])
_COMPAT = {
    "pct": ("pct",), "money": ("money",), "multiple": ("multiple",), "units": ("units", "count"),
    "count": ("count", "units", "ratio", "money", "days", "minutes", "hours", "pct"),
    "days": ("days",), "months": ("months",), "years": ("years",), "minutes": ("minutes",), "hours": ("hours",),
    "weeks": ("weeks",),
}
_UNIT_NOUNS = re.compile(r"^\s*(?:shares?|units?|sh|shs)\b", re.IGNORECASE)
_INITIAL = re.compile(r"(?:^|[.!?:;|•>(—–]|\*\*|__|\s-)[\s\"'*_]*$")
_PRONOUN = re.compile(r"(?:\b(?:because|as|since|so|and|but|while|when|where)|,)\s+(?:it|it's|it has|it is)\b"
                      r"|\b(?:despite|while|since|as) being\b", re.IGNORECASE)
_COMPARED = re.compile(r"\b(?:than|versus|vs\.?|compared (?:with|to)|unlike|like|behind|after)\s+(?:the\s+)?$",
                       re.IGNORECASE)
_LIST_SEP = re.compile(r"[\s,]*(?:and|&|or|,|/)?[\s,]*", re.IGNORECASE)
_RUN_SEP = re.compile(r"[\s,]*(?:and|&|/|vs\.?|versus|or|–|-|to)?[\s,]*", re.IGNORECASE)
_TOGETHER = re.compile(r"^\W{0,3}(?:\w+\s+){0,2}?(?:between them|combined|together|jointly|in total|altogether|"
                       r"collectively|between the two|across (?:the )?(?:two|both))", re.IGNORECASE)
_NEXT_FIGURE = re.compile(r"\s*(?:by|of|at|=|:)?\s*[~≈]?\s*[-+−]?\s*[$€£]?\d")
_OBJECT_GAP = re.compile(r"\s*(?:\w+ly\s+)?(?:(?:some|more|part|all|half|a\s+bit|a\s+few|a\s+little|a\s+small|"
                         r"a\s+couple|a\s+handful|a\s+modest|little|few|further|additional)\s+(?:\w+\s+)?(?:of\s+)?)?"
                         r"(?:the|its|our|this|that|back|down|into|out\s+of|to|of|in|on|up)?\s*(?:the|our|its)?\s*",
                         re.IGNORECASE)
_TOGETHER_ANY = re.compile(r"\b(?:between them|combined|together|jointly|altogether|collectively|between the two|"
                           r"across (?:the )?(?:two|both))\b", re.IGNORECASE)
_PAREN = re.compile(r"\([^()]*\)|\s[—–]\s[^—–]{1,60}\s[—–]\s")
_HYPOTHETICAL = re.compile(r"\b(?:if it were|were it|would have|would be at|evenly|equal-weight|equally weighted|"
                           r"hypothetical|suppose|imagine|for example|e\.g\.)", re.IGNORECASE)
_POSSESSIVE = re.compile(r"(?:['’]s|\bits|\btheir|\bhis|\bher)\s+$", re.IGNORECASE)
_SUPERLATIVE = re.compile(
    r"\b(?:the\s+)?(?:most|least)\s+(?!recent|recently|relevant|important|of\b)[a-z-]+|\b(?:largest|biggest|highest|fastest|youngest|"
    r"greatest|best|top-rated|top-performing|highest-traffic|highest-volume|first|only|sole|No\.?\s*1|number one)"
    r"\s+(?!(?:for|at|in|as|to|on|of|with|a|an|the|and|or|step|time|two|three|few|one|ones|relevant|recent|"
    r"important|notably|recently)\b)[A-Za-z-]+",
    re.IGNORECASE)
_NUMBER_WORDS = frozenset([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty",
    "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million", "billion", "dozen", "half",
    "third", "thirds", "quarter", "quarters", "fifth", "fifths", "tenth", "tenths",
])
_OBJECT_WORDS = {"position", "stake", "holding", "shares", "stock", "it", "them", "exposure", "units", "name",
                 "allocation", "weight", "some", "more", "part", "all", "half"}
_AFTER_GAP = re.compile(r"[\s:=(]{0,3}(?:of\s+|in\s+|on\s+|as\s+)?(?:the\s+|its\s+|a\s+)?")
_COMPARATOR = re.compile(r"\s*(?:vs\.?|versus|against|compared (?:with|to)|instead of|rather than)\s*", re.IGNORECASE)
_CHAIN = re.compile(r"\s*(?:vs\.?|versus|against|compared (?:with|to)|and|or|to|→|->|–|-|down to|up to|(?:,\s*)?now|"
                    r"instead of|rather than|from|down from|up from|(?:,\s*)?(?:down|up) from)\s*"
                    r"(?:for\s+\S+\s+)?", re.IGNORECASE)
_GLOBAL_NEAR = re.compile(r"\b(?:portfolio|book|overall|in aggregate|aggregate|in total|total|whole|combined)\b",
                          re.IGNORECASE)
_TOP_N = re.compile(r"\btop[\s-]*(?:\d|one|two|three|four|five)\b|\b(?:\d|two|three|four|five)\s+(?:largest|biggest)\b",
                    re.IGNORECASE)
_MARKERS = re.compile(r"^\s*(?:#{1,6}\s*)?\d{1,2}[.)](?=\s)|\{\{[^}]*\}\}|https?://\S+|\S+@\S+"
                      r"|\b[\w.-]+\.(?:com|io|org|net|dev|co|uk|de)(?:/\S*)?|\+?\d[\d ().-]{7,}\d")


@dataclass
class Scope:
    """Entities a unit is about when it names none itself."""

    entities: list[str]


class Verifier:
    """Compiled once per :class:`Evidence`; :meth:`verify` checks one unit."""

    def __init__(self, evidence: Evidence) -> None:
        self.ev = evidence
        self.catalogue = Catalogue(evidence)
        self.metric_re = {m.name: phrase_regex(m.words) for m in evidence.metrics if m.words}
        self.after_re = {m.name: phrase_regex(m.after_words) for m in evidence.metrics if m.after_words}
        self.rank_re = [(rank_regex(p), m, p, order) for m in evidence.metrics for p, order in m.rank.items()]
        self.action_of: dict[str, list[str]] = {}
        for action, words in evidence.actions.items():
            for w in words:
                self.action_of.setdefault(_fold(w), []).append(action)
        self.action_any = phrase_regex(list({w for words in evidence.actions.values() for w in words}))
        self.flag_re = [(f, phrase_regex(f.words)) for f in evidence.flags]
        self.count_nouns = phrase_regex([n for c in evidence.counts for n in c.nouns])
        self.count_re = [(c, phrase_regex(c.words)) for c in evidence.counts]
        self.claim_words = phrase_regex(evidence.claim_words)
        self.subject_re = phrase_regex(evidence.subject_words)
        self.source_stems = {stem(w) for s in evidence.sources for w, _a, _b in content_words(s.text)}
        vocab = set(self.source_stems)
        vocab |= {stem(w) for text in evidence.vocabulary for w, _a, _b in content_words(text)}
        for e in evidence.entities:
            vocab |= {stem(w) for n in e.names + e.symbols for w, _a, _b in content_words(n)}
        for m in evidence.metrics:
            vocab |= {stem(w) for p in [*m.words, *m.rank] for w, _a, _b in content_words(p)}
        for words in evidence.actions.values():
            vocab |= {stem(w) for p in words for w, _a, _b in content_words(p)}
        self.vocab = vocab
        self.known = frozenset(w.lower() for s in evidence.sources for w, _a, _b in content_words(s.text)) | frozenset(
            w.lower() for text in evidence.vocabulary for w, _a, _b in content_words(text))
        lexical = [w for m in evidence.metrics for w in [*m.words, *m.after_words, *m.rank]]
        lexical += [w for words in evidence.actions.values() for w in words]
        self.known = self.known | frozenset(w.lower() for text in lexical for w, _a, _b in content_words(text))
        self.facts_by_entity: dict[str | None, list[FactValue]] = {}
        for f in evidence.facts:
            self.facts_by_entity.setdefault(f.entity, []).append(f)
        self.owners = {f.entity for f in evidence.facts} | {d.entity for d in evidence.dates} | {
            d.entity for d in evidence.durations} | set(evidence.allowed)

    # --- the unit ----------------------------------------------------------------------------

    def verify(self, claim: Claim, text: str, scope: list[str], *, row: dict[str, str] | None = None,
               columns: list[tuple[str, int, int]] | None = None, carried: list[str] | None = None) -> Claim:
        """Fill ``claim`` (status, entities, findings) from ``text``. ``scope``: the entities its
        context names (heading, entry, table row, bullet lead-in); ``carried``: the entity of the
        previous sentence of the paragraph (a weaker guess); ``row``: the header→cell map of a table
        row and ``columns`` where each cell's text is in ``text``."""
        carried = carried or []
        scope = [*scope, *carried]
        markers = [(m.start(), m.end()) for m in _MARKERS.finditer(text)]
        found = [m for m in self.catalogue.find(text) if not any(a <= m.start < b for a, b in markers)]
        claim.entities = list(dict.fromkeys(m.entity for m in found)) or list(scope)
        mentions = [m for m in found if m.entity in self.owners]  # what figures, dates and actions can be about
        plain = text
        for d in find_dates(text):  # "May 2017" is not the modal "may"
            plain = plain[:d.start] + " " * (d.end - d.start) + plain[d.end:]
        advice = bool(ADVICE.search(plain) or IMPERATIVE_START.search(plain) or text.rstrip().endswith("?"))
        skip = name_spans(text) + markers
        skip += [(m.start(), m.end()) for m in _TOP_N.finditer(text)]
        dates = find_dates(text)
        skip += [(d.start, d.end) for d in dates]
        metric_spans = self._metric_spans(text)
        skip += [(s, e) for s, e, m in metric_spans if any(ch.isdigit() for ch in text[s:e])]
        quantities = find_quantities(text, skip)
        findings: list[Finding] = []
        used: set[int] = set()
        findings += self._counts(text, quantities, used)
        findings += self._ranks(text, mentions, scope)
        findings += self._actions(text, mentions, scope, row)
        findings += self._flags(text, mentions, scope)
        bindings = self._pair_lists(text, mentions, [q for i, q in enumerate(quantities) if i not in used],
                                    [i for i in range(len(quantities)) if i not in used])
        metric_pairs = self._pair_metrics(text, quantities, metric_spans)
        prev: tuple[Quantity, list[Metric]] | None = None
        for i, q in enumerate(quantities):
            if i in used:
                continue
            entity = bindings.get(i) or self._entity_for(text, q.start, mentions, scope, q.end)
            others: list[str | None] = []
            if i not in bindings and (not mentions or _GLOBAL_NEAR.search(text) or all(m.start > q.end for m in mentions)):
                others.append(None)  # a sentence naming no entity, or speaking of the whole, may be portfolio-level
            if not mentions and entity in carried:
                others += [e for e in carried if e != entity]  # guessed from the paragraph: any it names
            named_before = list(dict.fromkeys(m.entity for m in mentions if m.end <= q.start))
            if len({m.entity for m in mentions}) > 1:
                others += [e for e in named_before if e != entity]  # a sentence walking through several
            column = next((h for h, a, b in columns or [] if a <= q.start < b), "")
            header_metrics = [m for _s, _e, m in self._metric_spans(column)
                              if any(u in _quantity_units(q) for u in m.units)] if column else []
            finding, named = self._figure(text, q, entity, metric_spans, quantities, prev, i in bindings,
                                          others=others, mentions=mentions, column=column,
                                          named=header_metrics or ([metric_pairs[i]] if i in metric_pairs else None))
            if advice and finding.kind == "duration" and finding.status is Status.CONTRADICTED:
                finding.status = Status.NONE  # "review again in a month": a plan, not a fact
            findings.append(finding)
            prev = (q, named)
        findings += self._dates(text, dates, mentions, scope, advice)
        if not quantities:
            findings += self._directions(text, mentions, scope, advice)
        findings += self._names(text, found, skip, advice)
        for m in found:
            entity = self.ev.entity(m.entity)
            if entity is not None and not entity.in_sources:
                findings.append(Finding(kind="entity", text=m.text, status=Status.CONTRADICTED,
                                        note=f"{m.text} is in no source ({entity.kind})"))
        if not advice and not any(f.status is Status.CONTRADICTED for f in findings):
            findings += self._statement(text, found, skip + [(q.start, q.end) for q in quantities])
            if self.ev.unranked_superlatives and not any(f.kind == "rank" for f in findings):
                findings += self._superlatives(text)
        claim.findings = findings
        claim.status = _status(findings)
        return claim

    def owner_mentions(self, text: str) -> list[str]:
        """Entities named in ``text`` that facts, dates or rules are about (not mere vocabulary)."""
        return [m.entity for m in self.catalogue.find(text) if m.entity in self.owners]

    def source_figures(self, text: str, entity: str | None, prefix: str) -> list[FactValue]:
        """The figures of a source sentence as facts of ``entity``, read the way an artifact's are:
        the metric named beside each (the second of "from A to B" takes the first's), its direction
        ("cut", "raised") and its place in "from A to B" — plus the ratio and the change of such a pair."""
        qs = find_quantities(text, name_spans(text) + [(d.start, d.end) for d in find_dates(text)])
        spans = self._metric_spans(text)
        out: list[FactValue] = []
        for n, q in enumerate(qs, 1):
            if q.unit in ("years", "months", "weeks") and entity is not None:
                continue
            metrics = self._metrics_for(text, q, spans, qs)
            pair = _pair_role(text, q)
            direction = self._direction_near(text, q, qs)
            if pair == "to" and out and out[-1].pair == "from":
                metrics = metrics or [m for m in self.ev.metrics if m.name == out[-1].metric]
                direction = direction or out[-1].direction
            unit = "units" if q.unit == "count" and _UNIT_NOUNS.match(text[q.end:]) else q.unit
            fact = FactValue(id=f"{prefix}.n{n}", entity=entity, metric=metrics[0].name if metrics else "",
                             value=q.value, unit=unit, display=q.text, direction=direction, pair=pair, source=text)
            if pair == "to" and out and out[-1].pair == "from" and out[-1].unit == unit and out[-1].value:
                start = out[-1]
                if not start.direction:
                    start.direction = direction or (1 if q.value > start.value else -1)
                fact.direction = start.direction
                ratio = max(q.value, start.value) / max(min(q.value, start.value), 1e-9)
                change = abs(q.value - start.value) / start.value * 100
                out.append(FactValue(id=f"{fact.id}.ratio", entity=entity, metric=fact.metric, value=ratio,
                                     unit="multiple", display=f"{ratio:.2f}x", source=text))
                out.append(FactValue(id=f"{fact.id}.change", entity=entity, metric=fact.metric, value=change,
                                     unit="pct", display=f"{change:.1f}%", direction=start.direction, source=text))
            out.append(fact)
        return out

    # --- binding ----------------------------------------------------------------------------

    def _metric_spans(self, text: str) -> list[tuple[int, int, Metric]]:
        """Metric words in ``text``; one phrase may name several metrics ("cost", "gain")."""
        spans: list[tuple[int, int, Metric]] = []
        for metric in self.ev.metrics:
            rx = self.metric_re.get(metric.name)
            if rx is None:
                continue
            spans += [(m.start(), m.end(), metric) for m in rx.finditer(text)]
        spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
        out: list[tuple[int, int, Metric]] = []
        for span in spans:
            clash = [o for o in out if span[0] < o[1] and o[0] < span[1]]
            if clash and any((o[0], o[1]) != (span[0], span[1]) for o in clash):
                continue
            out.append(span)
        return out

    @staticmethod
    def _boundaries(text: str, a: int, b: int) -> int:
        lo, hi = min(a, b), max(a, b)
        return len(_CLAUSE.findall(text[lo:hi]))

    def _entity_for(self, text: str, pos: int, mentions: list[Mention], scope: list[str],
                    end: int | None = None) -> str | None:
        """The entity a word at ``pos`` is about: the nearest mention (an earlier one preferred, one
        right before a parenthesis holding ``pos`` wins; after "it"/"its"/"being" the sentence's
        subject), the only one, or the unit's scope."""
        compared = [m for m in mentions if _COMPARED.search(text[max(0, m.start - 16):m.start])]
        if compared and (len(compared) < len(mentions) or scope):
            mentions = [m for m in mentions if m not in compared]  # "faster than Apple": not the subject
            if not mentions:
                return scope[-1]
        if len({m.entity for m in mentions}) == 1:
            return mentions[0].entity
        tagged = next((m for m in mentions if re.fullmatch(r"[^\w(]{0,3}\(\s*", text[end or pos:m.start])
                       and re.match(r"\s*\)", text[m.end:])), None)
        if tagged is not None:  # "10.2y (MSFT)"
            return tagged.entity
        best, best_d, best_m = None, 10**9, None
        for m in mentions:
            if m.end <= pos:
                d = pos - m.end
                if re.fullmatch(r"\s*\([^()]*", text[m.end:pos]):
                    d = 0
            else:
                d = m.start - pos + 60
            d += 80 * self._boundaries(text, pos, m.end if m.end <= pos else m.start)
            if d < best_d:
                best, best_d, best_m = m.entity, d, m
        if best_m is not None and best_m.end <= pos and mentions[0] is not best_m and _PRONOUN.search(
                text[best_m.end:pos]):
            return mentions[0].entity  # "A beat B because it rose 242 %": "it" is the subject
        if best is not None and best_d < 240:
            return best
        return scope[-1] if scope else None

    def _pair_lists(self, text: str, mentions: list[Mention], qs: list[Quantity], index: list[int]) -> dict[int, str]:
        """"A and B are up 5 % and 7 % (respectively)", "A (…) and B (…) are at 10 % and 15 %": a run of
        k figures after a list of k entities pairs with them in order. Keys are the caller's ``index``."""
        out: dict[int, str] = {}
        if len(mentions) < 2 or len(qs) < 2:
            return out
        groups: list[list[Mention]] = [[mentions[0]]]
        for m in mentions[1:]:
            if _LIST_SEP.fullmatch(_PAREN.sub("", text[groups[-1][-1].end:m.start])):
                groups[-1].append(m)
            else:
                groups.append([m])
        runs: list[list[int]] = [[0]]
        for i in range(1, len(qs)):
            if qs[i].unit == qs[runs[-1][-1]].unit and _RUN_SEP.fullmatch(text[qs[i - 1].end:qs[i].start]):
                runs[-1].append(i)
            else:
                runs.append([i])
        distinct: list[Mention] = []
        for m in mentions:
            if all(m.entity != d.entity for d in distinct):
                distinct.append(m)
        for run in runs:
            follow = [g for g in groups if len(g) == len(run) > 1 and re.fullmatch(
                r"\s*(?:for|of|at|in|by)\s+", text[qs[run[-1]].end:g[0].start])]
            if follow:
                for m, i in zip(follow[0], run, strict=True):
                    out.setdefault(index[i], m.entity)
            tail = text[qs[run[-1]].end:qs[run[-1]].end + 20]
            if len(run) > 1 and re.match(r"\W*respectively", tail) and len(distinct) >= len(run):
                for m, i in zip(distinct[:len(run)], run, strict=True):
                    out.setdefault(index[i], m.entity)
        for group in groups:
            if len(group) < 2:
                continue
            for run in runs:
                first = qs[run[0]]
                if len(run) != len(group) or first.start < group[-1].end or (_STRONG.search(
                        text[group[-1].end:first.start]) and "respectively" not in text[first.start:]):
                    continue
                if any(group[-1].end <= x.start < first.start for x in mentions):
                    continue
                for m, i in zip(group, run, strict=True):
                    out[index[i]] = m.entity
        return out

    def _pair_metrics(self, text: str, qs: list[Quantity], spans: list[tuple[int, int, Metric]]) -> dict[int, Metric]:
        """"the lowest volatility and the mildest drawdown (23.5 % and -36.4 %)": the k figures of a
        parenthesis take the k metrics named just before it, in order."""
        out: dict[int, Metric] = {}
        for paren in re.finditer(r"\(([^()]*)\)", text):
            inside = [i for i, q in enumerate(qs) if paren.start() < q.start and q.end < paren.end()]
            if len(inside) < 2 or not all(_RUN_SEP.fullmatch(text[qs[a].end:qs[b].start])
                                          for a, b in zip(inside, inside[1:], strict=False)):
                continue
            lo = max((c.end() for c in _STRONG.finditer(text, 0, paren.start())), default=0)
            phrases: list[list[Metric]] = []
            last = (-1, -1)
            for s_, e_, m in spans:
                if lo <= s_ < paren.start():
                    if (s_, e_) != last:
                        phrases.append([])
                        last = (s_, e_)
                    phrases[-1].append(m)
            if len(phrases) < len(inside):
                continue
            chosen = []
            for i, group in zip(inside, phrases[-len(inside):], strict=True):
                fit = [m for m in group if any(u in _quantity_units(qs[i]) for u in m.units)]
                chosen.append(fit[0] if fit else None)
            if all(chosen):
                out.update({i: m for i, m in zip(inside, chosen, strict=True) if m is not None})
        return out

    def _without_mentions(self, text: str, start: int, end: int) -> str:
        """``text[start:end]`` with entity mentions and the separators of a list of them removed."""
        piece = text[start:end]
        for m in reversed(self.catalogue.find(piece)):
            piece = piece[:m.start] + piece[m.end:]
        return re.sub(r"^[\s,/&]*(?:and\s+)?", " ", piece) if piece.strip(" ,/&") == "" else piece

    def _metrics_for(self, text: str, q: Quantity, spans: list[tuple[int, int, Metric]],
                     qs: list[Quantity]) -> list[Metric]:
        """Metrics named for ``q``: a word up to 40 characters before it with no other figure in
        between ("weight of 43.85 %"; a parenthesis is skipped), or right after it ("43.85 % wt",
        "14.8 % of the book"). A word right after another figure is that figure's."""
        found: list[tuple[int, Metric]] = []
        accepted = ("count", "units") if _bare(q) else _quantity_units(q)
        for s, e, metric in spans:
            if not any(u in accepted for u in metric.units):
                continue
            if e <= q.start:
                gap = _PAREN.sub("", self._without_mentions(text, e, q.start))
                blocking = [o for o in qs if e <= o.start and o.end <= q.start and not _bare(o)]
                owned = any(o.end <= s and _AFTER_GAP.fullmatch(text[o.end:s])
                            and any(u in _quantity_units(o) for u in metric.units) for o in qs if o is not q)
                if len(gap) > 40 or blocking or owned or _CLAUSE.search(gap) or ("," in gap and len(gap) > 25):
                    continue
                found.append((len(gap), metric))
            elif s >= q.end:
                gap_ok = _AFTER_GAP.fullmatch(text[q.end:s]) or (
                    q.kind in ("multiple", "fraction") and re.fullmatch(r"\s*(?:the\s+|its\s+|our\s+)?(?:[\w'’-]+\s+){0,2}",
                                                                       text[q.end:s]))
                if not gap_ok or _NEXT_FIGURE.match(text, e):
                    continue
                found.append((len(text[q.end:s]) + 1, metric))
        for metric in self.ev.metrics:  # words that name a metric only right after a figure ("half the book")
            rx = self.after_re.get(metric.name)
            m = rx.match(text, q.end + len(_AFTER_GAP.match(text, q.end).group(0))) if rx else None
            if m and any(u in accepted for u in metric.units):
                found.append((m.start() - q.end + 1, metric))
        found.sort(key=lambda x: x[0])
        out: list[Metric] = []
        for _d, m in found:
            if all(m.name != o.name for o in out):
                out.append(m)
        return out

    def _direction_near(self, text: str, q: Quantity, qs: list[Quantity] | None = None) -> int:
        """+1 / -1 for a direction word written for this figure: before it with no other figure in
        between ("down about 19 %"), or right after it ("27.7 % lower"). Prices in "from X to Y" have none."""
        if re.search(r"\b(?:from|at|to)\s*[~≈]?\s*$", text[max(0, q.start - 6):q.start]) or (
                re.search(r"\bto\s*[~≈]?\s*$", text[max(0, q.start - 4):q.start])
                and re.search(r"\bfrom\b", text[max(0, q.start - 60):q.start])):
            return 0
        others = [o for o in (qs or []) if o is not q]
        best, best_d = 0, 10**9
        for rx, sign in ((UP_RE, 1), (DOWN_RE, -1)):
            if rx is None:
                continue
            for m in rx.finditer(text, max(0, q.start - 35), min(len(text), q.end + 14)):
                if m.end() <= q.start:
                    gap = text[m.end():q.start]
                    if any(m.end() <= o.start and o.end <= q.start for o in others) or _CLAUSE.search(gap) \
                            or "," in gap:
                        continue
                    d = len(gap)
                elif m.start() >= q.end:
                    if not re.fullmatch(r"\s*(?:\w+\s+)?", text[q.end:m.start()]):
                        continue
                    d = m.start() - q.end
                else:
                    continue
                if d < best_d:
                    best, best_d = sign, d
        return best

    # --- figures ------------------------------------------------------------------------------

    def _figure(self, text: str, q: Quantity, entity: str | None, spans: list[tuple[int, int, Metric]],
                qs: list[Quantity], prev: tuple[Quantity, list[Metric]] | None, paired: bool, *,
                others: list[str | None], mentions: list[Mention], column: str,
                named: list[Metric] | None = None) -> tuple[Finding, list[Metric]]:
        unit = q.unit
        if unit == "count" and _UNIT_NOUNS.match(text[q.end:]):
            unit = "units"
            q = Quantity(q.value, "units", q.text, q.start, q.end, q.tol, q.hedge, q.sign, q.kind)
        if unit in ("years", "months", "weeks") or (unit == "days" and not self._facts(entity, "days")):
            return self._duration(q, entity, text), []
        if unit == "multiple" and re.match(r"\s+(?:as|more than|that of|than)\b", text[q.end:q.end + 14]):
            return Finding(kind="figure", text=q.text, status=Status.NONE, note="a relative comparison"), []
        if not paired and self._portfolio_level(text, q) and None not in others:
            others = [None, *others]
        metrics = named if named else self._metrics_for(text, q, spans, qs)
        direction = 0 if _bare(q) else self._direction_near(text, q, qs)
        if not metrics and not direction and None not in others:
            others = [*others, None]  # a threshold named beside a holding ("meet the 730-day test")
        bare = _bare(q) or (q.kind in ("fraction", "words") and unit == "pct")
        compatible = _quantity_units(q)
        chained = not paired and not metrics and prev is not None and bool(prev[1]) and prev[0].unit == q.unit \
            and _CHAIN.fullmatch(_PAREN.sub("", text[prev[0].end:q.start])) is not None
        if chained and prev is not None:
            metrics = prev[1]
            pools = [self._pool(e, m, compatible, direction, anywhere=entity is None) for e in [entity, *others]
                     for m in metrics]
            if entity is None:
                pools += [[f for f in self.ev.facts if f.metric == (m.same_as or m.name) and f.unit in compatible]
                          for m in metrics]
        else:
            pools = [self._pool(e, m, compatible, direction, anywhere=entity is None) for e in [entity, *others]
                     for m in metrics]
        if not any(m.strict for m in metrics):
            pools += [self._pool(e, None, compatible, direction, anywhere=entity is None) for e in [entity, *others]]
        lo = max((c.end() for c in _STRONG.finditer(text, 0, q.start)), default=0)
        hi = min((c.start() for c in _STRONG.finditer(text, q.end)), default=len(text))
        if re.search(r"\b(?:range|ranges|ranging|spread|span)\b", text[lo:q.start], re.IGNORECASE):
            pools += [self._pool(None, m, compatible, direction, anywhere=True) for m in metrics]  # over holdings
        if re.search(r"\b(?:every|all|each)\b[^.;]{0,40}\bexcept\b", text[lo:hi], re.IGNORECASE):
            return Finding(kind="figure", text=q.text, status=Status.NONE,
                           note=f"{q.text}: a bound for several holdings"), metrics
        group = {m.entity for m in mentions if lo <= m.start < hi}
        together = _TOGETHER_ANY.search(text, lo, hi)
        if together and len(group) < 2 and len(set(others) - {None}) + (entity is not None) > 1:
            group = {e for e in [entity, *others] if e is not None}  # "together they …": the paragraph's
        if len(group) > 1 and (together or self._listed_before(text, q, mentions)):
            pools.append(self._sums(group, metrics, compatible))
        pair = _pair_role(text, q)
        for pool in pools:
            hits = [f for f in pool if matches(q, f.value * (f.direction or 1) if q.sign else f.value)]
            if hits:
                return self._supported(q, hits, direction, pair), metrics
        if chained and prev is not None and _COMPARATOR.fullmatch(_PAREN.sub("", text[prev[0].end:q.start])):
            return Finding(kind="figure", text=q.text, status=Status.NONE,
                           note=f"{q.text}: a point of comparison, matched by no fact"), metrics
        if not metrics and not direction and (bare or entity is None):
            # what a bare number (or a figure about nothing named) measures is unknown: not checkable
            status = Status.UNVERIFIABLE if entity is None and not bare else Status.NONE
            return Finding(kind="figure", text=q.text, status=status,
                           note=f"{q.text}: what it measures is not named"), metrics
        pool = pools[0]
        elsewhere = [f for f in self.ev.facts if f.unit in compatible and matches(q, f.value) and f not in pool]
        metric = metrics[0] if metrics else None
        about = f"{entity if metric is None or metric.scope != 'global' else ''} " if entity else ""
        what = f"{about}{metric.name if metric else 'figures'}".strip()
        shown = ", ".join(f"{f.id} = {f.shown()}" for f in sorted(pool, key=lambda f: abs(f.value - q.value))[:2])
        note = f"{q.text} does not match {what} ({shown or 'no such fact'})"
        if elsewhere:
            note += f"; {q.text} is {elsewhere[0].id}"
        status = Status.UNVERIFIABLE if _HYPOTHETICAL.search(text) else Status.CONTRADICTED
        proposal = column in self.ev.proposal_columns or bool(
            self.action_any and self.action_any.search(text[max(0, q.start - 22):q.start])
            and re.search(r"(?:\b(?:the|all|some|about|roughly|~)\s*)?$", text[max(0, q.start - 8):q.start]))
        if proposal and entity is not None:
            bound = [f for f in self._facts(entity) if f.metric == self.ev.proposal_bounds.get(unit)]
            if bound and abs(q.value) <= bound[0].value + q.tol:
                return Finding(kind="figure", text=q.text, status=Status.NONE, evidence=[bound[0].id],
                               note=f"a proposed amount within {bound[0].id} = {bound[0].shown()}"), metrics
            if bound:
                note = f"{q.text} is more than {bound[0].id} = {bound[0].shown()}"
        return Finding(kind="figure", text=q.text, status=status, note=note,
                       evidence=[f.id for f in pool[:2]] + [f.id for f in elsewhere[:1]]), metrics

    def _listed_before(self, text: str, q: Quantity, mentions: list[Mention]) -> bool:
        """"Apple, Google and IBM make up 76 %": a list of entities is the subject of the figure."""
        before = [m for m in mentions if m.end <= q.start]
        if len(before) < 2:
            return False
        joined = all(_LIST_SEP.fullmatch(_PAREN.sub("", text[a.end:b.start])) for a, b in zip(before, before[1:],
                                                                                                strict=False))
        return joined and not _STRONG.search(text[before[-1].end:q.start])

    def _sums(self, entities: set[str], metrics: list[Metric], compatible: tuple[str, ...]) -> list[FactValue]:
        """Facts summed over ``entities`` ("down about $11.9k between them")."""
        names = {m.same_as or m.name for m in metrics} or {f.metric for e in entities for f in self._facts(e)}
        out = []
        for name in sorted(names):
            facts = [f for e in sorted(entities) for f in self._facts(e) if f.metric == name and f.unit in compatible]
            if len(facts) == len(entities):
                out.append(FactValue(id="+".join(f.id for f in facts), metric=name, unit=facts[0].unit,
                                     value=sum(f.value for f in facts), display=f"{sum(f.value for f in facts):,.2f}"))
        return out

    def _portfolio_level(self, text: str, q: Quantity) -> bool:
        """A figure whose own phrase speaks of the whole ("the book is worth …", "… of the portfolio")."""
        lo = max((m.end() for m in re.finditer(r"[,;:—–(]|\band\b|\. ", text[:q.start])), default=0)
        segment = text[lo:q.start]
        if _GLOBAL_NEAR.search(segment) and not self.catalogue.find(segment):
            return True
        return bool(_GLOBAL_NEAR.match(text[q.end:q.end + 14].lstrip()) and not self.catalogue.find(segment))

    def _pool(self, entity: str | None, metric: Metric | None, compatible: tuple[str, ...],
              direction: int, *, anywhere: bool = False) -> list[FactValue]:
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
        if direction and any(self._signed(f) for f in pool):
            return [f for f in pool if self._signed(f)]
        if not pool and anywhere:
            pool = [f for f in self.ev.facts if f.unit in compatible]
        return pool

    def _supported(self, q: Quantity, hits: list[FactValue], direction: int, pair: str = "") -> Finding:
        wrong_way = [f for f in hits if direction and self._sign_of(f) and self._sign_of(f) != direction]
        if wrong_way and len(wrong_way) == len(hits):
            f = wrong_way[0]
            word = "a loss" if self._sign_of(f) < 0 else "a gain"
            return Finding(kind="direction", text=q.text, status=Status.CONTRADICTED, evidence=[f.id],
                           note=f"{f.id} is {f.shown()}: {word}, not the direction written")
        if pair and all(h.pair and h.pair != pair for h in hits):
            return Finding(kind="direction", text=q.text, status=Status.CONTRADICTED, evidence=[hits[0].id],
                           note=f"the source has {hits[0].shown()} as the '{hits[0].pair}' figure: "
                                f"“{hits[0].source or hits[0].id}”")
        return Finding(kind="figure", text=q.text, status=Status.SUPPORTED, evidence=[h.id for h in hits[:3]],
                       note=f"{hits[0].id} = {hits[0].shown()}")

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

    def _duration(self, q: Quantity, entity: str | None, text: str) -> Finding:
        per_year = {"days": 365.25, "weeks": 52.18, "months": 12}.get(q.unit, 1)
        years = q.value / per_year
        own = [d for d in self.ev.durations if entity and d.entity == entity]
        worded = [d for d in self.ev.durations if d.words and any(
            re.search(rf"\b{re.escape(w)}", text, re.IGNORECASE) for w in d.words)]
        pool = own + [d for d in worded if d not in own]
        pool += [d for d in self.ev.durations if d.entity is None and d not in pool and (not own or d.default)]
        if not pool:
            return Finding(kind="duration", text=q.text, status=Status.NONE)
        scaled = Quantity(years, "years", q.text, q.start, q.end, q.tol / per_year, q.hedge, q.sign, q.kind)
        ok = [d for d in pool if (q.hedge == "over" and d.years >= years - scaled.tol)
              or (d.open_ended and years >= d.years - 0.5 and q.hedge not in ("under", "nearly"))
              or (completed_years(scaled, d.years) if q.unit == "years" else matches(scaled, d.years))]
        if ok:
            return Finding(kind="duration", text=q.text, status=Status.SUPPORTED, evidence=[d.id for d in ok[:2]],
                           note=f"{ok[0].id} = {ok[0].display or round(ok[0].years, 2)}")
        d = pool[0]
        return Finding(kind="duration", text=q.text, status=Status.CONTRADICTED, evidence=[d.id],
                       note=f"{q.text} does not match {d.id} = {d.display or f'{d.years:.2f} years'}")

    # --- ranks, counts, actions, flags, directions ------------------------------------------

    def _ranks(self, text: str, mentions: list[Mention], scope: list[str]) -> list[Finding]:
        out = []
        for rx, metric, phrase, order in self.rank_re:
            if rx is None:
                continue
            for m in rx.finditer(text):
                before = text[max(0, m.start() - 16):m.start()].lower()
                if re.search(r"\bone of the\s*$|\bamong the\s*$", before) or re.match(
                        r"\s*(?:was|is|of|at|:|=|—|-)?\s*(?:nearly|about|around|roughly|almost|~)?\s*[-−]?\d", text[m.end():]):
                    continue  # "worst drawdown was nearly 58 %": the figure, not a ranking
                owner = next((x for x in mentions if x.end <= m.start() and re.fullmatch(r"['’]s\s*",
                                                                                      text[x.end:m.start()])), None)
                if owner is not None or (_POSSESSIVE.search(before) and not re.search(
                        r"position|holding|name|stake|weight|wt", m.group(0), re.IGNORECASE)
                        and not re.search(r"(?:portfolio|book|fund)['’]s\s*$", before, re.IGNORECASE)):
                    continue  # "IBM's worst drawdown" is IBM's own figure, not a ranking
                n = next((v for k, v in ORDINALS.items() if re.search(rf"\b{k}[\s-]*$", before)), 1)
                entity = self._entity_for(text, m.start(), mentions, scope)
                if entity is None:
                    continue
                ranked = self._ranking(metric, order)
                ids = [f.entity for f in ranked]
                if entity not in ids:
                    continue
                pos = ids.index(entity) + 1
                expected = ranked[n - 1] if n <= len(ranked) else None
                lo = max((c.end() for c in _CLAUSE.finditer(text, 0, m.start())), default=0)
                group = {x.entity for x in mentions if lo <= x.start < m.end() + 20}
                plural = re.match(r"[\w-]*s\b", text[m.end() - 1:m.end() + 1]) is not None or len(group) > 1
                if pos == n or (plural and pos <= max(n, len(group))):
                    out.append(Finding(kind="rank", text=m.group(0), status=Status.SUPPORTED,
                                       evidence=[f.id for f in ranked[:max(n, 2)]],
                                       note=f"{entity} is #{n} by {metric.name}"))
                else:
                    top = f"{expected.entity} ({expected.shown()})" if expected else "no entity"
                    out.append(Finding(kind="rank", text=m.group(0), status=Status.CONTRADICTED,
                                       evidence=[f.id for f in ranked],
                                       note=f"{phrase!r} is {top}; {entity} is #{pos} by {metric.name}"))
        return out

    def _ranking(self, metric: Metric, order: str) -> list[FactValue]:
        facts = [f for f in self.ev.facts if f.metric == metric.name and f.entity is not None]
        if metric.entity_kind:
            kinds = {e.id for e in self.ev.entities if e.kind == metric.entity_kind}
            facts = [f for f in facts if f.entity in kinds]
        return sorted(facts, key=lambda f: (-f.value if order == "max" else f.value, f.entity or ""))

    def _counts(self, text: str, qs: list[Quantity], used: set[int]) -> list[Finding]:
        """"three of the five holdings are losing": counts checked against the entities' facts."""
        if self.count_nouns is None:
            return []
        out = []
        everything = next((c for c in self.ev.counts if not c.words), None)
        for i, q in enumerate(qs):
            if i in used or q.unit != "count" or q.value != int(q.value) or q.value > 50:
                continue
            before = text[max(0, q.start - 12):q.start].lower()
            if everything is not None and re.search(r"\bout of\s*$", before):
                used.add(i)
                out.append(self._count_finding(q.text, int(q.value), everything))
                continue
            tail = text[q.end:q.end + 60]
            noun, rest = None, ""
            lead = re.match(r"\s+(?:of\s+(?:the|our|my|its|these|those)?\s*(?:\w+\s+)?)?", tail)
            after_of = tail[lead.end():] if lead else tail.lstrip()
            for k in range(3):
                words = re.match(r"(?:[\w-]+\s+){%d}" % k, after_of)
                if words is None:
                    break
                rest = text[q.end + (len(tail) - len(after_of)) + words.end():]
                noun = self.count_nouns.match(rest)
                if noun is not None:
                    break
            between = text[q.end:len(text) - len(rest)]
            if re.search(r"\b(?:other|remaining|further|additional|last|first|latter|former)\s*$",
                         text[max(0, q.start - 12):q.start], re.IGNORECASE):
                continue  # "the other two winners": relative to holdings named before
            if re.search(r"\b(?:or|to|-|–)\s*$", text[max(0, q.start - 5):q.start]) or re.match(
                    r"\s*(?:or|to|-|–)\s+\w", text[q.end:]) or re.search(
                    r"\b(?:like|than|as if|equivalent to|as many as)\s+(?:\w+\s+)?$", text[max(0, q.start - 20):q.start]):
                continue  # "three or four stocks", "behaves like four stocks": not a count of holdings
            if noun is None or re.search(r"\b(?:most|least|\w+est|further|more|other|additional|remaining|else)\b",
                                         between) or text[len(text) - len(rest) + noun.end():].startswith(("'s", "’s")):
                continue
            used.add(i)
            noun_end = len(text) - len(rest) + noun.end()
            total = next((k for k, q2 in enumerate(qs) if k != i and q2.start >= q.end and q2.end <= noun_end), None)
            if total is not None and everything is not None:  # "three of the five holdings"
                used.add(total)
                out.append(self._count_finding(qs[total].text, int(qs[total].value), everything))
            lo = max([m.end() for m in _CLAUSE.finditer(text, 0, q.start)]
                     + [o.end for o in qs if o.end <= q.start and _bare(o)], default=0)
            hi = min([m.start() for m in _CLAUSE.finditer(text, noun_end)]
                     + [o.start for o in qs if o.start >= noun_end and _bare(o)], default=len(text))
            rule, best = None, 10**9
            hi = min(hi, noun_end + (30 if q.value != 1 else 25))  # the predicate stays near its count
            paren = re.search(r"\(\s*$", text[max(0, q.start - 3):q.start])
            if paren:  # "… MSFT stop-loss + long-held loss (3 holdings)": only what the parenthesis says
                lo, hi = q.start, min(hi, text.find(")", q.end) if ")" in text[q.end:] else hi)
            lo = max(lo, q.start - 25)
            for count, rx in self.count_re:
                if rx is None:
                    continue
                for m in rx.finditer(text, lo, hi):
                    d = abs(m.start() - noun_end) if m.start() >= noun_end else abs(q.start - m.end())
                    if q.start <= m.start() < noun_end:
                        d = 0
                    if d < best:
                        rule, best = count, d
            if everything is not None and re.search(r"\bof\s+(?:the|our|its|these|all)\s*$", before):
                rule = everything  # "of the five holdings, three …": the total
            if rule is None:
                if everything is None or q.value == 1 or not re.search(r"\b(?:the|all|our|these|its)\s*$", before):
                    continue
                rule = everything
            out.append(self._count_finding(f"{q.text} {noun.group(0)}", int(q.value), rule, q.hedge))
        return out

    @staticmethod
    def _count_finding(text: str, value: int, rule: Count, hedge: str = "") -> Finding:
        actual = len(rule.entities)
        ok = actual >= value if hedge == "over" else actual == value
        return Finding(kind="count", text=text, status=Status.SUPPORTED if ok else Status.CONTRADICTED,
                       evidence=[rule.id], note=f"{rule.id} = {actual} ({', '.join(rule.entities) or 'none'})")

    def _actions(self, text: str, mentions: list[Mention], scope: list[str],
                 row: dict[str, str] | None) -> list[Finding]:
        """Recommended actions (table cells and prose) must be allowed for the entity they name."""
        out = []
        if row is not None:
            action = re.sub(r"[*_`]", "", row.get("action", "")).strip().upper()
            entity = self.catalogue.find(row.get("symbol", ""))
            if action in self.ev.actions and entity:
                out.append(self._allowed([action], entity[0].entity, action))
            text = row.get("reason", "")
            mentions, scope = self.catalogue.find(text), [entity[0].entity] if entity else scope
        for m in self.action_any.finditer(text) if self.action_any else []:
            actions = self.action_of[_fold(m.group(0))]
            clause_before = _CLAUSE.split(text[max(0, m.start() - 40):m.start()])[-1]
            if NEGATIONS.search(clause_before) or (NEGATIONS.search(text[m.end():m.end() + 40])
                                                   and not re.search(r"\b(?:allowed|permitted)\b",
                                                                     text[m.end():m.end() + 40])):
                continue
            owner = next((x for x in mentions if x.end <= m.start() and re.fullmatch(
                r"[’'s\s]*", text[x.end:m.start()])), None)  # "the Apple trim", "AAPL's sale"
            target = next((x for x in mentions if m.end() <= x.start <= m.end() + 30
                           and _OBJECT_GAP.fullmatch(text[m.end():x.start])), None)
            noun_use = re.search(r"\b(?:the|a|an|this|that|any|each)\s+$", text[max(0, m.start() - 6):m.start()],
                                 re.IGNORECASE)
            if owner is not None:
                entity: str | None = owner.entity
            elif noun_use and not re.search(r"\b(?:worth|consider|suggest|recommend|propose|time for|room for|case for)\b"
                                            r"[\w\s]{0,12}$", text[max(0, m.start() - 28):m.start()], re.IGNORECASE):
                continue  # "the trim", "a sale": which position it is comes from its owner only
            elif target is not None:
                entity = target.entity
            else:
                obj = re.match(r"\s*(?:\w+ly\s+)?(?:(?:some|more|part|all|half|a\s+bit|a\s+few|a\s+little|a\s+small|"
                               r"a\s+couple\s+of|a\s+handful\s+of|a\s+modest|modestly|selectively)\s+(?:of\s+)?)?(?:the|its|it|"
                               r"our|this|that|them|back|down)?\s*(\w+)?", text[m.end():m.end() + 45])
                word = (obj.group(1) or "").lower() if obj else ""
                ends = re.match(r"\s*(?:[.;!?]|$|\s(?:at|on|here|now|again|into|in|if|when|while|once|before|after|"
                                r"as|on weakness|on dips)\b)", text[m.end():])
                if (word == "" and not ends) or (word and word not in _OBJECT_WORDS and not ends and not (
                        self.subject_re and self.subject_re.fullmatch(word))):
                    continue
                entity = self._entity_for(text, m.start(), mentions, scope)
            if entity is None or entity not in self.ev.allowed:
                continue
            tail = text[m.end():m.end() + 40]
            actions = next(([a] for a, words in self.ev.action_objects.items()
                            if any(re.search(rf"\b{re.escape(w)}\b", tail, re.IGNORECASE) for w in words)), actions)
            out.append(self._allowed(actions, entity, m.group(0)))
        return out

    def _allowed(self, actions: list[str], entity: str, written: str) -> Finding:
        allowed = self.ev.allowed.get(entity, [])
        ok = any(a in allowed for a in actions)
        said = "/".join(actions)
        return Finding(kind="action", text=written, status=Status.SUPPORTED if ok else Status.CONTRADICTED,
                       evidence=[f"rules:{entity}"],
                       note=f"{said} {'is' if ok else 'is not'} allowed for {entity} (allowed: {', '.join(allowed)})")

    def _flags(self, text: str, mentions: list[Mention], scope: list[str]) -> list[Finding]:
        out = []
        for flag, rx in self.flag_re:
            if rx is None:
                continue
            for m in rx.finditer(text):
                entity = self._entity_for(text, m.start(), mentions, scope)
                if entity != flag.entity:
                    continue
                clause = _CLAUSE.split(text[max(0, m.start() - 60):m.start()])[-1]
                if NEAR_WORDS.search(clause) or NEAR_WORDS.search(text[m.end():m.end() + 20]) or (re.search(
                        r"\b(?:level|rule|threshold|limit|line|cap)s?\b", text[m.end():m.end() + 12]) and not re.search(
                        r"\b(?:hit|breach|trigger|past|through|below|beyond|crossed|tripped)", clause)):
                    continue
                negated = bool(NEGATIONS.search(re.split(r"[,;:(]", clause)[-1]))
                said = not negated
                ok = said == flag.value
                out.append(Finding(kind="flag", text=m.group(0), status=Status.SUPPORTED if ok else Status.CONTRADICTED,
                                   evidence=[flag.id], note=f"{flag.id} = {'yes' if flag.value else 'no'}"))
        return out

    def _directions(self, text: str, mentions: list[Mention], scope: list[str], advice: bool) -> list[Finding]:
        if advice:
            return []
        out = []
        for rx, sign in ((_PERF_UP, 1), (_PERF_DOWN, -1)):
            for m in rx.finditer(text):
                clause_ents = [x.entity for x in mentions if not self._boundaries(text, x.start, m.start())]
                ents = clause_ents or ([self._entity_for(text, m.start(), mentions, scope)] if not mentions else [])
                for entity in ents:
                    facts = [f for f in self._facts(entity) if (metric := self.ev.metric(f.metric))
                             and metric.direction_default]
                    if not facts:
                        continue
                    f = facts[0]
                    ok = self._sign_of(f) == sign
                    out.append(Finding(kind="direction", text=m.group(0),
                                       status=Status.SUPPORTED if ok else Status.CONTRADICTED,
                                       evidence=[f.id], note=f"{f.id} = {f.shown()}"))
        return out

    def _dates(self, text: str, dates: list, mentions: list[Mention], scope: list[str], advice: bool) -> list[Finding]:
        out = []
        as_of = next((d.value for d in self.ev.dates if d.metric == "as_of"), None)
        for d in dates:
            if as_of and d.value[:len(as_of)] > as_of[:len(d.value)]:
                continue  # a date after the valuation date is a plan, not a fact
            entity = self._entity_for(text, d.start, mentions, scope)
            lo = max((c.end() for c in _STRONG.finditer(text, 0, d.start)), default=0)
            hi = min((c.start() for c in _STRONG.finditer(text, d.end)), default=len(text))
            near = {m.entity for m in mentions if lo <= m.start < hi} | {entity}
            pool = [x for x in self.ev.dates if x.entity in near] if entity else []
            if not pool:
                pool = [x for x in self.ev.dates if x.entity is None]
            if not pool:
                continue
            ok = [x for x in pool if same_date(d.value, x.value)]
            if not ok and advice:
                continue
            if ok:
                out.append(Finding(kind="date", text=d.text, status=Status.SUPPORTED, evidence=[ok[0].id],
                                   note=f"{ok[0].id} = {ok[0].display or ok[0].value}"))
            else:
                shown = ", ".join(f"{x.id} = {x.display or x.value}" for x in pool[:3])
                out.append(Finding(kind="date", text=d.text, status=Status.CONTRADICTED,
                                   evidence=[x.id for x in pool[:3]], note=f"{d.text} is not a date of {entity or 'the sources'} ({shown})"))
        return out

    def _names(self, text: str, mentions: list[Mention], skip: list[tuple[int, int]], advice: bool) -> list[Finding]:
        taken = skip + [(m.start, m.end) for m in mentions]
        out = []
        for name in unknown_names(text, self.catalogue, self.known, taken):
            near = text[max(0, name.start - 40):name.end + 40]
            subject = bool(self.subject_re and self.subject_re.search(near)) or name.entity == "?ticker"
            if not subject and advice:
                continue
            out.append(Finding(kind="entity", text=name.text,
                               status=Status.CONTRADICTED if subject else Status.UNVERIFIABLE,
                               note=f"{name.text} is in no source" + (" but is presented as part of the subject"
                                                                       if subject else "")))
        return out

    def _statement(self, text: str, mentions: list[Mention], skip: list[tuple[int, int]]) -> list[Finding]:
        """A factual statement whose content words no source or vocabulary explains: a claim word
        ("announced", "dividend", "award") or a proper noun that no source names."""
        taken = [(m.start, m.end) for m in mentions] + skip
        words = [(w, s) for w, s, _e in content_words(text) if not any(a <= s < b for a, b in taken)]
        unexplained = [(w, s) for w, s in words if stem(w) not in self.vocab and not self.catalogue.knows(w)
                       and w.lower() not in _NUMBER_WORDS]
        # a claim word ("dividend", "sales", "award") is explained by the sources only, never by the
        # vocabulary of ordinary words
        strong = [w for w, _s in words if self.claim_words and self.claim_words.fullmatch(w)
                  and stem(w) not in self.source_stems and not self.catalogue.knows(w)]
        if not unexplained and not strong:
            return []
        proper = [w for w, s in unexplained if w[:1].isupper() and len(w) > 2 and w.upper() not in _ABBREVIATIONS
                  and w not in _STOP_CAPS and not _INITIAL.search(text[:s])]
        out = []
        if strong or proper:
            shown = ", ".join(dict.fromkeys(strong + proper))
            out.append(Finding(kind="statement", text=shown, status=Status.UNVERIFIABLE,
                               note=f"no source supports: {shown}"))
        return out

    def _superlatives(self, text: str) -> list[Finding]:
        """A superlative ("the most senior engineer", "the largest migration") that no source states
        and no ranking of facts decides."""
        out = []
        for m in _SUPERLATIVE.finditer(text):
            phrase = " ".join(m.group(0).lower().split())
            if any(phrase in " ".join(s.text.lower().split()) for s in self.ev.sources):
                continue
            out.append(Finding(kind="rank", text=m.group(0), status=Status.UNVERIFIABLE,
                               note=f"“{m.group(0)}”: no source states it and no figure decides it"))
        return out


def _pair_role(text: str, q: Quantity) -> str:
    """"from" / "to" when ``q`` is one end of "from A to B" (or "A → B"), else ""."""
    before = text[max(0, q.start - 12):q.start]
    if re.search(r"\bfrom\s*[~≈]?\s*$", before):
        return "from"
    if re.search(r"(?:\bto|→|->)\s*[~≈]?\s*$", before) and re.search(r"\bfrom\b|→|->", text[max(0, q.start - 70):q.start]):
        return "to"
    if re.match(r"\s*(?:→|->)", text[q.end:]):
        return "from"
    return ""


def _bare(q: Quantity) -> bool:
    """A small whole number written without a unit ("the five holdings", "two problems")."""
    return q.unit == "count" and q.tol >= 0.5 and float(q.value).is_integer() and abs(q.value) <= 20


def _quantity_units(q: Quantity) -> tuple[str, ...]:
    """Fact units a quantity can be compared with (a bare decimal such as "17.62" may be a percentage)."""
    if q.unit == "count":
        return ("count", "units", "ratio", "money", "days", "minutes", "hours") + (("pct",) if not _bare(q) else ())
    return _COMPAT.get(q.unit, (q.unit,))


def _fold(phrase: str) -> str:
    return re.sub(r"[\s-]+", " ", phrase.strip().lower())


def _status(findings: list[Finding]) -> Status:
    statuses = {f.status for f in findings}
    for s in (Status.CONTRADICTED, Status.UNVERIFIABLE, Status.SUPPORTED):
        if s in statuses:
            return s
    return Status.NONE
