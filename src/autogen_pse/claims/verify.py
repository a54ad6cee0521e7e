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
from dataclasses import replace
from typing import Any

from .absence import says_absent
from .arithmetic import check_computations, worked_at
from .asides import aside_before, in_parenthesis
from .attribution import misattribution
from .catalogue import Catalogue, is_label
from .cells import MEANING_COLUMN, ROW_INDEX, SUMS_TO, TOTAL_ROW, VALUE_COLUMN
from .dates import find_dates, name_spans
from .derived import implied_amounts
from .evidence import Evidence, FactValue, Metric
from .formulas import check_formulas
from .idioms import elided_periods, per_dollar, taken_back, with_one_of
from .lexicon import (
    ADVICE,
    IMPERATIVE_START,
    UNSEEN,
    content_words,
    factual_part,
    first_tokens,
    phrase_regex,
    rank_regex,
    stem,
    unhedged,
)
from .model import Claim, Finding, Status
from .patterns import (
    _COMPARED,
    _CONCEDED,
    _GLOBAL_NEAR,
    _MARKERS,
    _OF_THE_WHOLE,
    _PLAN_BEFORE,
    _TOGETHER_ANY,
    _TOP_N,
    _UNIT_NOUNS,
    _VERSUS_FIGURE,
    GENERIC,
    _bare,
    _fold,
    _pair_role,
    _quantity_units,
    _status,
    counted_noun,
    list_indexes,
)
from .periods import in_years_column, rate_after
from .quantities import Quantity, find_quantities
from .relations import Relations
from .revisions import VERDICT_WORDS
from .scenarios import excuse_projected, projected_column, projection_start
from .statements import Statements
from .transitions import reversed_change, terms

# "Rust and gRPC are not on her CV", "gaps: Rust": naming what the sources lack claims nothing
_TOTAL_UP = re.compile(r"\b(?:add|adds|added|adding|sum|sums|summed|come|comes|tot|tots|totted)\s+$", re.IGNORECASE)
_TOPIC_LABEL = re.compile(r"\W{0,3}(?:\*\*|__)[^*_\n]{1,40}?(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)")


_REACH = r"(?:📧|📞|✉️?|☎️?|\b(?:e-?mail|phone|tel|mobile)\b)"
_PROFILE_MARK = re.compile(r"[🐙🔗🌐💼]\ufe0f?\s*$")  # "🐙 github": a link to her profile
_CONTACT_LINE = re.compile(
    rf"{_REACH}[^·|\n]{{0,40}}[·|•][^\n]*(?:github|gitlab|linkedin)|(?:github|gitlab|linkedin)[^\n]*[·|•][^·|\n]{{0,40}}{_REACH}",
    re.IGNORECASE,
)
_LINK_TEXT_END = re.compile(r"[\w ]{0,20}\](?:\s*[\[(]|\s*$)")
_PROFILE_KEY = re.compile(r"\b(?:network|profiles?|platform|site)\s*:\s*$", re.IGNORECASE)

class Verifier(Relations, Statements):
    """Compiled once per :class:`Evidence`; :meth:`verify` checks one unit."""

    def __init__(self, evidence: Evidence) -> None:
        self.ev = evidence
        self.catalogue = Catalogue(evidence)
        self.metric_re = {m.name: phrase_regex(m.words, phrase_end=True, modifiers=True)
                          for m in evidence.metrics if m.words}
        self.after_re = {
            m.name: phrase_regex(m.after_words, phrase_end=True) for m in evidence.metrics if m.after_words
        }
        self.metric_first = {m.name: first_tokens(m.words) for m in evidence.metrics if m.words}
        self.rank_re = [(rank_regex(p), m, p, order) for m in evidence.metrics for p, order in m.rank.items()]
        self.rank_first = [first_tokens([p]) for m in evidence.metrics for p in m.rank]
        # one pass to tell whether a claim has any ranking phrase at all (most have none)
        firsts = sorted({p.split()[0] for m in evidence.metrics for p in m.rank}, key=len, reverse=True)
        self.rank_any = re.compile("|".join(re.escape(w) for w in firsts) or "(?!)", re.IGNORECASE)
        self._spans: dict[str, list[tuple[int, int, Metric]]] = {}
        self.alias = {stem(w): e.id for e in evidence.entities for n in e.names + e.symbols for w in n.split()
                      if len(n.split()) == 1}  # fmt: skip
        self.changes = [
            (terms(t.source, self.alias), terms(t.target, self.alias)) for t in evidence.transitions
        ]
        self.action_of: dict[str, list[str]] = {}
        for action, words in evidence.actions.items():
            for w in words:
                self.action_of.setdefault(_fold(w), []).append(action)
        self.action_any = phrase_regex(list({w for words in evidence.actions.values() for w in words}))
        self.flag_re = [(f, phrase_regex(f.words)) for f in evidence.flags]
        self.flag_first = [first_tokens(f.words) for f in evidence.flags]
        self.count_nouns = phrase_regex([n for c in evidence.counts for n in c.nouns])
        self.count_re = [(c, phrase_regex(c.words)) for c in evidence.counts]
        self.count_any = phrase_regex([w for c in evidence.counts if len(c.entities) > 1 for w in c.words])
        self.claim_words = phrase_regex(evidence.claim_words)
        self.subject_re = phrase_regex(evidence.subject_words)
        self.source_years = {d.value[:4] for s in evidence.sources for d in find_dates(s.text)}
        self.source_stems = {stem(w) for s in evidence.sources for w, _a, _b in content_words(s.text)}
        vocab = set(self.source_stems)
        vocab |= {stem(w) for text in [*evidence.vocabulary, *VERDICT_WORDS] for w, _a, _b in content_words(text)}
        for e in evidence.entities:
            vocab |= {stem(w) for n in e.names + e.symbols for w, _a, _b in content_words(n)}
        for m in evidence.metrics:
            vocab |= {stem(w) for p in [*m.words, *m.rank] for w, _a, _b in content_words(p)}
        for words in evidence.actions.values():
            vocab |= {stem(w) for p in words for w, _a, _b in content_words(p)}
        self.vocab = frozenset(vocab)
        self.known = frozenset(w.lower() for s in evidence.sources for w, _a, _b in content_words(s.text)) | frozenset(
            w.lower() for text in [*evidence.vocabulary, *VERDICT_WORDS] for w, _a, _b in content_words(text)
        )
        lexical = [w for m in evidence.metrics for w in [*m.words, *m.after_words, *m.rank]]
        lexical += [w for words in evidence.actions.values() for w in words]
        self.known = self.known | frozenset(w.lower() for text in lexical for w, _a, _b in content_words(text))
        # "Assoc." of "associate": abbreviations of known words, four letters or more
        self.known_prefixes = frozenset(w[:n] for w in self.known for n in range(4, len(w)))
        signs: dict[str, set[bool]] = {}
        for f in evidence.facts:
            if f.entity is not None and f.value:
                signs.setdefault(f.metric, set()).add(f.value > 0)
        self.two_signed = {m for m, seen in signs.items() if len(seen) == 2}  # gains and losses: the sign matters
        self.fact_owner = {f.id: f.entity for f in evidence.facts}
        self.facts_by_entity: dict[str | None, list[FactValue]] = {}
        for f in evidence.facts:
            self.facts_by_entity.setdefault(f.entity, []).append(f)
        self.owners = (
            {f.entity for f in evidence.facts}
            | {d.entity for d in evidence.dates}
            | {d.entity for d in evidence.durations}
            | set(evidence.allowed)
        )

    # --- the unit ----------------------------------------------------------------------------

    def _retry(
        self, args: tuple[Any, ...], implied: str, finding: Finding, named: list[Metric]
    ) -> tuple[Finding, list[Metric]]:
        """``finding`` for a figure of no entity, or the implied entity's when that supports it."""
        text, q, spans, qs, prev, paired, others, mentions, column, header = args
        retry, retry_named = self._figure(text, q, implied, spans, qs, prev, paired, others=others,
                                          mentions=mentions, column=column, named=header)
        return (retry, retry_named) if retry.status is Status.SUPPORTED else (finding, named)

    def verify(
        self,
        claim: Claim,
        text: str,
        scope: list[str],
        *,
        row: dict[str, str] | None = None,
        columns: list[tuple[str, int, int]] | None = None,
        carried: list[str] | None = None,
        projected: bool = False,
    ) -> Claim:
        """Fill ``claim`` (status, entities, findings) from ``text``. ``scope``: the entities its
        context names (heading, entry, table row, bullet lead-in); ``carried``: the entity of the
        previous sentence of the paragraph (a weaker guess); ``row``: the header→cell map of a table
        row and ``columns`` where each cell's text is in ``text``; ``projected``: the unit is part of
        a projection (a table introduced as the state after the proposed trades)."""
        carried = carried or []
        scope = [*scope, *carried]
        markers = [(m.start(), m.end()) for m in _MARKERS.finditer(text)]
        found = [m for m in self.catalogue.find(text) if not any(a <= m.start < b for a, b in markers)]
        generic = not row and GENERIC.search(text) and not any(m.entity in self.owners for m in found)
        if generic:
            scope = []  # "A holding down 20 per cent or more has hit its stop-loss": a rule, of no one holding
        claim.entities = list(dict.fromkeys(m.entity for m in found)) or list(scope)
        mentions = [m for m in found if m.entity in self.owners]  # what figures, dates and actions can be about
        plain = text
        for d in find_dates(text):  # "May 2017" is not the modal "may"
            plain = plain[: d.start] + " " * (d.end - d.start) + plain[d.end :]
        plain = unhedged(plain)
        imperative = self.ev.imperatives and IMPERATIVE_START.search(plain)
        advice = bool(ADVICE.search(plain) or imperative or text.rstrip().endswith("?"))
        skip = name_spans(text) + markers + list_indexes(text)
        skip += [(m.start(), m.end()) for m in _TOP_N.finditer(text)]
        dates = find_dates(text)
        skip += [(d.start, d.end) for d in dates]
        metric_spans = [  # "they add up to $127k": a total, not a gain ("up")
            x
            for x in self._metric_spans(text)
            if not (text[x[0] : x[1]].lower() == "up" and _TOTAL_UP.search(text[: x[0]]))
        ]
        topic = _TOPIC_LABEL.match(text)
        if topic and len(re.findall(r"[A-Za-z]{2,}", text[topic.end() :])) >= 4:
            # "**Cap breach:** AAPL at 43.85 % vs a 30 % limit": the label is the topic; the sentence
            # after it says what its figures measure ("**Volatility:** 47 %" keeps its label)
            metric_spans = [x for x in metric_spans if x[0] >= topic.end()]
        skip += [(s, e) for s, e, m in metric_spans if any(ch.isdigit() for ch in text[s:e])]
        # "only one of the five …"; "held ten years …, one held two and a bit"
        quantities = elided_periods(text, with_one_of(text, per_dollar(text, find_quantities(text, skip))))
        findings: list[Finding] = []
        used: set[int] = taken_back(text, quantities)  # "fifty— no, sorry, forty-four percent"
        own = [*(m.entity for m in mentions), *scope]
        computed = check_formulas(text, quantities, self.ev.facts, used)  # "5.80^(1/5.16) ≈ 1.406"
        computed += check_computations(text, quantities, self.ev.facts, used, own)  # "Cost 250 × 38.45 = 9,612.50"
        findings += computed
        findings += self._counts(text, quantities, used)
        findings += self._ranks(text, mentions, scope, [name for name, _a, _b in columns or []])
        findings += self._actions(text, mentions, scope, row)
        findings += self._flags(text, mentions, scope, table=row is not None)
        bindings = self._pair_lists(
            text,
            mentions,
            [q for i, q in enumerate(quantities) if i not in used],
            [i for i in range(len(quantities)) if i not in used],
        )
        metric_pairs = self._pair_metrics(text, quantities, metric_spans)
        prev: tuple[Quantity, list[Metric]] | None = None
        worked = worked_at(text, computed, self.fact_owner)  # each entity's computations, where they are
        # the one entity whose facts support this sentence's figures so far (at first: its computations')
        implied: str | None = worked[0][1] if len({e for _at, e in worked}) == 1 else None
        pending: list[tuple[int, tuple[Any, ...]]] = []  # figures of no entity to retry once one is implied
        for i, q in enumerate(quantities):
            if i in used:
                continue
            entity = bindings.get(i) or self._entity_for(text, q.start, mentions, scope, q.end)
            if entity is not None and _OF_THE_WHOLE.search(text, max(0, q.start - 30), q.start) and any(
                    o.end <= q.start and o.unit == q.unit and q.start - o.end <= 24 for o in quantities):
                entity = None  # "Apple alone contributes about $46.1k of the $51.3k net gain": the whole's
            others: list[str | None] = []
            if i not in bindings and (
                not mentions or _GLOBAL_NEAR.search(text) or all(m.start > q.end for m in mentions)
            ):
                others.append(None)  # a sentence naming no entity, or speaking of the whole, may be portfolio-level
            if not mentions and entity in carried:
                others += [e for e in carried if e != entity]  # guessed from the paragraph: any it names
            if not mentions and _TOGETHER_ANY.search(text):  # "**IBM** … Amazon … Together they're about a
                others += [e for e in scope if e not in (entity, *others)]  # quarter": the entry's and the last
            named_before = list(dict.fromkeys(m.entity for m in mentions
                                              if m.end <= q.start and not (scope and aside_before(text, m, q.start))))
            if len({m.entity for m in mentions}) > 1:
                others += [e for e in named_before if e != entity]  # a sentence walking through several; a
                # row's names wherever they are ("| … p95 latency −60% … | Brightline; Harbourside |")
                others += [m.entity for m in mentions if row is not None and m.entity not in (entity, *others)]
            if self._owner(text, q.start, mentions) or self._tagged(text, q.start, q.end, mentions, strict=True):
                others = []  # "against Apple's 40.6%", "−$6,606.00 on MSFT": that holding's and no one else's
            elif _VERSUS_FIGURE.search(text, max(0, q.start - 12), q.start):  # "−6,606.00 vs −5,312.40"
                others += [e for e in self.owners if e and e not in (entity, *others)]  # (any holding's)
            column = next((h for h, a, b in columns or [] if a <= q.start < b), "")
            if q.unit == "count" and in_years_column(column, q):  # "| ≈ Years | 10.2 |"
                q = replace(q, unit="years")
            total_row = row is not None and (
                bool(TOTAL_ROW.match(ROW_INDEX.sub("", text)))
                or any(TOTAL_ROW.fullmatch(c.strip(" *_,.:")) for c in row.values())  # "| # |" holds "Total"
            )
            if (total_row or SUMS_TO.search(text)) and abs(q.value - 100) < 0.5 and q.unit != "money":
                # "| Total | 100% | 127,157.10 |": the whole portfolio's share of itself
                findings.append(Finding(kind="figure", text=q.text, status=Status.SUPPORTED, note="a total row: 100 %"))
                continue
            if total_row and column and (summed := self._column_sum(column, q)) is not None:
                findings.append(summed)  # "| Total | … | 0.2740 |" under "Weight²": the column's sum
                continue
            accepted = ("count", "units") if _bare(q) else _quantity_units(q)
            # a key/value table names the metric in the row's first cell ("Total cost | $75,890.50"),
            # other tables in the column's header ("| Holding | Wt | P&L |")
            label = (text[: columns[0][2]] if columns and len(columns) == 2
                     and not columns[0][1] <= q.start < columns[0][2] else "")
            header_metrics = [m for source in (label, column) for _s, _e, m in self._metric_spans(source)
                              if any(u in accepted for u in m.units)] if column else []
            if header_metrics and label and self._metrics_for(text, q, metric_spans, quantities):
                header_metrics = []  # "Mentoring | Mentored 6 engineers; adopted by 3 teams": the cell's own words
            if VALUE_COLUMN.fullmatch(column.strip(" *_")) and columns:  # "| Cell | Value | What it means |": the
                described = [m for name, a, b in columns if MEANING_COLUMN.search(name)  # row's words say what it is
                             for _s, _e, m in self._metric_spans(text[a:b]) if any(u in accepted for u in m.units)]
                header_metrics = described or header_metrics
            finding, named = self._figure(
                text,
                q,
                entity,
                metric_spans,
                quantities,
                prev,
                i in bindings,
                others=others,
                mentions=mentions,
                column=column,
                named=header_metrics or ([metric_pairs[i]] if i in metric_pairs else None),
            )
            args = (text, q, metric_spans, quantities, prev, i in bindings, others, mentions, column,
                    header_metrics or None)  # (to check the figure again as another entity's)
            if entity is None and finding.status in (Status.CONTRADICTED, Status.UNVERIFIABLE):
                # the sentence names no entity, but its other figures are one entity's: "… from 45 minutes
                # to 6 minutes (a cut of roughly 87%)", "It is — 241.97% on cost, and 47.52% a year"
                if implied:
                    finding, named = self._retry(args, implied, finding, named)
                else:
                    pending.append((len(findings), args))
            by = next((owner for at, owner in reversed(worked) if 0 <= at < q.start), None)
            if by and entity != by and i not in bindings and finding.status is Status.CONTRADICTED \
                    and not any(m.start < q.start for m in mentions):
                finding, named = self._retry(args, by, finding, named)
            if entity is None and finding.status is Status.SUPPORTED:
                owners = {self.fact_owner.get(e) for e in finding.evidence}
                implied = owners.pop() if len(owners) == 1 else implied
            planned = finding.kind == "duration" or q.unit in ("minutes", "hours", "days", "weeks")
            if planned and finding.status is Status.CONTRADICTED and (advice or _PLAN_BEFORE.search(text, 0, q.start)):
                finding.status = Status.NONE  # "review again in a month", "take 10 minutes": a plan, not a fact
            if projected_column(column):  # "| PRO-FORMA MV |": after the proposed trades
                excuse_projected([finding])
            findings.append(finding)
            ranked = self._rank_of_figure(text, q, finding, quantities) if finding.status is Status.SUPPORTED else None
            findings += [ranked] if ranked else []  # "47.52% — the second-best in the portfolio"
            prev = (q, named)
        for at, args in pending:  # an entity the sentence's later figures imply
            findings[at] = self._retry(args, implied, findings[at], [])[0] if implied else findings[at]
        findings += self._dates(text, dates, mentions, scope, advice)
        if not quantities:
            findings += self._directions(text, mentions, scope, advice)
        stated = text if not (advice or UNSEEN.search(plain)) else factual_part(plain, bool(self.ev.imperatives))
        findings += self._names(text, found, skip, stated if advice else None, heading=claim.kind == "heading")
        for m in found:
            known = self.ev.entity(m.entity)
            lo = max((x.end() for x in re.finditer(r"[;.]\s", text[: m.start])), default=0)
            hi = min((m.end + x.start() for x in re.finditer(r";|\.\s", text[m.end :])), default=len(text))
            link = re.match(rf"\s*[:|]?\s*(?:https?://)?(?:www\.)?{re.escape(m.text.lower())}\.", text[m.end :].lower())
            labelled = (is_label(text, m.start, m.end) or text[m.end : m.end + 3].lstrip("*_").startswith(":")
                        or bool(_PROFILE_KEY.search(text, 0, m.start))  # JSON Resume: "network": "GitHub"
                        or bool(_CONTACT_LINE.search(text))  # "📧 email · 🐙 github · 📞 +44 …": where to reach her
                        or bool(_PROFILE_MARK.search(text, max(0, m.start - 4), m.start))
                        or (text[m.start - 1 : m.start] == "[" and bool(_LINK_TEXT_END.match(text, m.end))))
                        # "Code: [GitHub profile][gh]": the text of a link to a profile
            asked = text[lo:hi].rstrip(" *_)").endswith("?")  # "Any Rust or gRPC?": asked, not claimed
            if known is not None and not known.in_sources and not says_absent(text, lo, hi, m.start) and not link \
                    and not labelled and not asked:  # "**GitHub:** github.com/…": a profile's label, not a skill
                findings.append(
                    Finding(
                        kind="entity",
                        text=m.text,
                        status=Status.CONTRADICTED,
                        note=f"{m.text} is in no source ({known.kind})",
                    )
                )
        if not advice and (swapped := misattribution(plain, found, self.ev)) is not None:
            findings.append(swapped)  # an achievement the sources state of another entity than the one named
        turned = reversed_change(text, self.changes, self.alias) if self.changes else None
        if turned is not None:
            findings.append(
                Finding(kind="direction", text=turned[0], status=Status.CONTRADICTED,
                        note=f"the source states the change the other way: {turned[1]}")
            )  # fmt: skip
        # in advice, the clauses that state something: "Google announced a buyback, which …"
        if not any(f.status is Status.CONTRADICTED for f in findings) and stated.strip():
            phrases = [(a, b) for a, b, _m in metric_spans if " " in text[a:b]]  # "acquisition costs": a metric
            findings += self._statement(stated, found, skip + phrases + [(q.start, q.end) for q in quantities],
                                        claim_words_only=advice, heading=claim.kind == "heading")
        findings += self._first_dated(text, mentions)
        if (not advice and not any(f.status is Status.CONTRADICTED for f in findings)
                and self.ev.unranked_superlatives and not any(f.kind == "rank" for f in findings)):
            findings += self._superlatives(text)
        if projected:  # a table of the state after the proposed trades
            excuse_projected(findings)
        elif (begins := projection_start(text)) is not None:  # "after the trim the weight is just under 30 %"
            excuse_projected(findings, text, begins)
        if generic:  # a rule's direction ("a loss of 10 per cent") is no holding's or the portfolio's
            for f in findings:
                if f.kind in ("direction", "flag") and f.status is Status.CONTRADICTED:
                    f.status = Status.NONE
        claim.findings = findings
        claim.status = _status(findings)
        return claim

    def owner_mentions(self, text: str) -> list[str]:
        """Entities named in ``text`` that facts, dates or rules are about (not mere vocabulary)."""
        return [m.entity for m in self.catalogue.find(text) if m.entity in self.owners]

    def subject_mentions(self, text: str) -> list[str]:
        """Owner mentions that may be what the next sentence's "it" is about: not the other side of
        a comparison ("… compounded faster than Apple. It is also the most volatile …"), nor of a
        concession ("…, even though Apple's total gain is larger")."""
        found = [m for m in self.catalogue.find(text) if m.entity in self.owners
                 and not _COMPARED.search(text, max(0, m.start - 20), m.start)
                 and not _CONCEDED.search(text, max(0, m.start - 60), m.start)
                 and not re.search(r"\banother\s+$", text[max(0, m.start - 9) : m.start])]  # "another MSFT": a kind
        outside = [m for m in found if not in_parenthesis(text, m)]  # "A (…, B next at …)": A's sentence
        return [m.entity for m in outside or found]

    def source_figures(self, text: str, entity: str | None, prefix: str) -> list[FactValue]:
        """The figures of a source sentence as facts of ``entity``, read the way an artifact's are:
        the metric named beside each (the second of "from A to B" takes the first's), its direction
        ("cut", "raised") and its place in "from A to B" — plus the ratio, difference and change of such a pair."""
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
            unit = "units" if q.unit == "count" and _UNIT_NOUNS.match(text[q.end :]) else q.unit
            fact = FactValue(
                id=f"{prefix}.n{n}",
                entity=entity,
                metric=metrics[0].name if metrics else "",
                value=q.value,
                unit=unit,
                display=q.text,
                direction=direction,
                pair=pair,
                source=text,
                rate=rate_after(text, q.end),
                noun=counted_noun(text, q.end) if unit in ("count", "units") else "",
            )
            if pair == "to" and out and out[-1].pair == "from" and out[-1].unit == unit and out[-1].value:
                start = out[-1]
                if not start.direction:
                    start.direction = direction or (1 if q.value > start.value else -1)
                fact.direction = start.direction
                ratio = max(q.value, start.value) / max(min(q.value, start.value), 1e-9)
                difference = abs(q.value - start.value)  # "+45 pts", "39 minutes saved"
                change = difference / start.value * 100
                for key, value, kind, shown, sign in (
                    ("ratio", ratio, "multiple", f"{ratio:.2f}x", 0),
                    ("difference", difference, unit, f"{difference:g} {unit}", start.direction),
                    ("change", change, "pct", f"{change:.1f}%", start.direction),
                ):
                    out.append(FactValue(id=f"{fact.id}.{key}", entity=entity, metric=fact.metric, value=value,
                                         unit=kind, display=shown, direction=sign, source=text))  # fmt: skip
            out.append(fact)
        return out + implied_amounts(out)
