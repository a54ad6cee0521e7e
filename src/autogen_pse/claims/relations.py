"""Ranks, counts, actions, flags, directions and dates checked against the evidence."""

from __future__ import annotations

import re

from .catalogue import Mention
from .dates import same_date
from .evidence import Count, FactValue, Metric
from .lexicon import NEAR_WORDS, NEGATIONS, ORDINALS
from .model import Finding, Status
from .patterns import (
    _CLAUSE,
    _OBJECT_GAP,
    _OBJECT_WORDS,
    _PERF_DOWN,
    _PERF_UP,
    _POSSESSIVE,
    _STRONG,
    _bare,
    _fold,
    checked,
)
from .quantities import Quantity, find_quantities

_PLACEHOLDERS = {"", "-", "—", "–", "N/A", "NA", "ALL", "PORTFOLIO", "CASH", "ALL HOLDINGS"}


def _count_value(word: str) -> int | None:
    found = find_quantities(word)
    return int(found[0].value) if found and found[0].unit == "count" else None


_APPOSITION = re.compile(r"\s*[,:(—–-]\s*[A-Z][\w.&]*(?:\s*(?:,|and|&)\s*[A-Z][\w.&]*){1,5}\s*[,)—–-]")


class Relations:
    """Ranks, counts, actions, flags, directions and dates (a part of the Verifier)."""

    # --- ranks, counts, actions, flags, directions ------------------------------------------

    def _ranks(self, text: str, mentions: list[Mention], scope: list[str]) -> list[Finding]:
        out: list[Finding] = []
        if not self.rank_any.search(text):
            return out
        for rx, metric, phrase, order in self.rank_re:
            if rx is None:
                continue
            for m in rx.finditer(text):
                before = text[max(0, m.start() - 16) : m.start()].lower()
                figure_follows = re.match(
                    r"\s*(?:was|is|of|at|:|=|—|-)?\s*(?:nearly|about|around|roughly|almost|~)?\s*[-−]?\d",
                    text[m.end() :],
                )
                of_holdings = re.search(r"position|holding|name|stake|performer|winner|loser", m.group(0), re.I)
                if re.search(r"\bone of the\s*$|\bamong the\s*$", before) or (figure_follows and not of_holdings):
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

    def _ranking(self, metric: Metric, order: str) -> list[FactValue]:
        facts = [f for f in self.ev.facts if f.metric == metric.name and f.entity is not None]
        if metric.entity_kind:
            kinds = {e.id for e in self.ev.entities if e.kind == metric.entity_kind}
            facts = [f for f in facts if f.entity in kinds]
        return sorted(facts, key=lambda f: (-f.value if order == "max" else f.value, f.entity or ""))

    def _counts(self, text: str, qs: list[Quantity], used: set[int]) -> list[Finding]:
        """ "three of the five holdings are losing": counts checked against the entities' facts."""
        if self.count_nouns is None:
            return []
        out = []
        everything = next((c for c in self.ev.counts if not c.words), None)
        for i, q in enumerate(qs):
            if i in used or q.unit != "count" or q.value != int(q.value) or q.value > 50:
                continue
            before = text[max(0, q.start - 12) : q.start].lower()
            if everything is not None and re.search(r"\bout of\s*$", before):
                used.add(i)
                out.append(self._count_finding(q.text, int(q.value), everything))
                continue
            tail = text[q.end : q.end + 60]
            noun, rest = None, ""
            lead = re.match(r"\s+(?:of\s+(?:the|our|my|its|these|those)?\s*(?:\w+\s+)?)?", tail)
            after_of = tail[lead.end() :] if lead else tail.lstrip()
            for k in range(3):
                words = re.match(rf"(?:[\w-]+\s+){{{k}}}", after_of)
                if words is None:
                    break
                rest = text[q.end + (len(tail) - len(after_of)) + words.end() :]
                noun = self.count_nouns.match(rest)
                if noun is not None:
                    break
            implied = re.match(r"\s+of\s+(?:the|our|your|my|its|these|those|all)\s+(\w+)\b", tail)
            if noun is None and implied and everything is not None and (
                _count_value(implied.group(1)) == len(everything.entities)
            ):  # "two of the five have hit the stop": the total names the holdings
                rest = text[q.end + implied.end() :]
                noun = re.match(r"", rest)
            between = text[q.end : len(text) - len(rest)]
            if re.search(
                r"\b(?:other|remaining|further|additional|last|first|latter|former|these|those|both)\s*$"
                r"|[A-Z][\w.]*,\s+the\s*$",  # "these two positions", "Amazon or IBM, the two …": named before
                text[max(0, q.start - 12) : q.start],
                re.IGNORECASE,
            ):
                continue  # "the other two winners": relative to holdings named before
            if (
                re.search(r"\b(?:or|to|-|–)\s*$", text[max(0, q.start - 5) : q.start])
                or re.match(r"\s*(?:or|to|-|–)\s+\w", text[q.end :])
                or re.search(
                    r"\b(?:like|than|as if|equivalent to|as many as)\s+(?:\w+\s+)?$"
                    r"|\b(?:any|each|every|per|a single)\s+$",
                    text[max(0, q.start - 20) : q.start],
                )
            ):
                continue  # "three or four stocks", "behaves like four stocks": not a count of holdings
            if (
                noun is None
                or re.search(r"\b(?:most|least|\w+est|further|more|other|additional|remaining|else)\b", between)
                or text[len(text) - len(rest) + noun.end() :].startswith(("'s", "’s"))
            ):
                continue
            used.add(i)
            noun_end = len(text) - len(rest) + noun.end()
            total = next((k for k, q2 in enumerate(qs) if k != i and q2.start >= q.end and q2.end <= noun_end), None)
            if total is not None and everything is not None:  # "three of the five holdings"
                used.add(total)
                out.append(self._count_finding(qs[total].text, int(qs[total].value), everything))
            lo = max(
                [m.end() for m in _CLAUSE.finditer(text, 0, q.start)]
                + [o.end for o in qs if o.end <= q.start and _bare(o)],
                default=0,
            )
            hi = min(
                [m.start() for m in _CLAUSE.finditer(text, noun_end)]
                + [o.start for o in qs if o.start >= noun_end and _bare(o)],
                default=len(text),
            )
            rule, best = None, 10**9
            hi = min(hi, noun_end + (30 if q.value != 1 else 25))  # the predicate stays near its count
            paren = re.search(r"\(\s*$", text[max(0, q.start - 3) : q.start])
            if paren:  # "… MSFT stop-loss + long-held loss (3 holdings)": only what the parenthesis says
                lo, hi = q.start, min(hi, text.find(")", q.end) if ")" in text[q.end :] else hi)
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
            apposed = [m.entity for m in self.catalogue.find(_APPOSITION.match(text, noun_end).group(0))] if (
                _APPOSITION.match(text, noun_end)
            ) else []
            if len(set(apposed)) == q.value:  # "the two holdings, Microsoft and Google, …": the list is the count
                continue
            by_noun = next((c for c, rx in self.count_re if rx is not None and rx.fullmatch(noun.group(0))), None)
            if by_noun is not None:
                rule = by_noun  # "the two losers": the noun says what is counted
            elif everything is not None and re.search(r"\bof\s+(?:the|our|its|these|all)\s*$", before):
                rule = everything  # "of the five holdings, three …": the total
            if rule is None:
                if everything is None or q.value == 1 or not re.search(r"\b(?:the|all|our|these|its)\s*$", before):
                    continue
                rule = everything
            out.append(self._count_finding(f"{q.text} {noun.group(0)}", int(q.value), rule, q.hedge))
        return out

    def _named_sets(self, text: str) -> list[Count]:
        """The sets of entities a count phrase in ``text`` names ("the three triggered holdings")."""
        return [c for c, rx in self.count_re if rx is not None and len(c.entities) > 1 and rx.search(text)]

    @staticmethod
    def _count_finding(text: str, value: int, rule: Count, hedge: str = "") -> Finding:
        actual = len(rule.entities)
        ok = actual >= value if hedge == "over" else actual == value
        return checked(
            "count",
            text,
            ok,
            [rule.id],
            f"{rule.id} = {actual} ({', '.join(rule.entities) or 'none'})",
        )

    def _actions(
        self, text: str, mentions: list[Mention], scope: list[str], row: dict[str, str] | None
    ) -> list[Finding]:
        """Recommended actions (table cells and prose) must be allowed for the entity they name."""
        out = []
        if row is not None:
            action = re.sub(r"[*_`]", "", row.get("action", "")).strip().upper()
            symbol = re.sub(r"[*_`$]", "", row.get("symbol", "")).strip()
            entity = self.catalogue.find(row.get("symbol", ""))
            if action in self.ev.actions and entity:
                out.append(self._allowed([action], entity[0].entity, action))
            elif action in self.ev.actions and symbol.upper() not in _PLACEHOLDERS:
                out.append(
                    Finding(
                        kind="entity",
                        text=symbol,
                        status=Status.CONTRADICTED,
                        note=f"{symbol} is not a holding ({', '.join(self.ev.allowed)})",
                    )
                )
            elif action in self.ev.actions and action not in self.ev.entityless_actions:
                out.append(
                    Finding(
                        kind="action",
                        text=action,
                        status=Status.CONTRADICTED,
                        note=f"{action} needs a holding in the Symbol column",
                    )
                )
            text = row.get("reason", "")
            mentions, scope = self.catalogue.find(text), [entity[0].entity] if entity else scope
        for m in self.action_any.finditer(text) if self.action_any else []:
            actions = self.action_of[_fold(m.group(0))]
            clause_before = _CLAUSE.split(text[max(0, m.start() - 40) : m.start()])[-1]
            if NEGATIONS.search(clause_before) or (
                NEGATIONS.search(text[m.end() : m.end() + 40])
                and not re.search(r"\b(?:allowed|permitted)\b", text[m.end() : m.end() + 40])
            ):
                continue
            owner = next(
                (x for x in mentions if x.end <= m.start() and re.fullmatch(r"[’'s\s]*", text[x.end : m.start()])), None
            )  # "the Apple trim", "AAPL's sale"
            target = next(
                (
                    x
                    for x in mentions
                    if m.end() <= x.start <= m.end() + 30 and _OBJECT_GAP.fullmatch(text[m.end() : x.start])
                ),
                None,
            )
            noun_use = re.search(
                r"\b(?:the|a|an|this|that|any|each)\s+$", text[max(0, m.start() - 6) : m.start()], re.IGNORECASE
            )
            if owner is not None:
                entity: str | None = owner.entity
            elif noun_use and target is None and not re.search(
                r"\b(?:worth|consider|suggest|recommend|propose|time for|room for|case for)\b"
                r"[\w\s]{0,12}$",
                text[max(0, m.start() - 28) : m.start()],
                re.IGNORECASE,
            ):
                continue  # "the trim", "a sale": which position it is comes from its owner only
            elif target is not None:
                entity = target.entity
            else:
                obj = re.match(
                    r"\s*(?:\w+ly\s+)?(?:(?:some|more|part|all|half|a\s+bit|a\s+few|a\s+little|a\s+small|"
                    r"a\s+couple\s+of|a\s+handful\s+of|a\s+modest|modestly|selectively)\s+(?:of\s+)?)?(?:the|its|it|"
                    r"our|your|my|this|that|them|back|down)?\s*(\w+)?",
                    text[m.end() : m.end() + 45],
                )
                word = (obj.group(1) or "").lower() if obj else ""
                ends = re.match(
                    r"\s*(?:[.;!?]|$|\s(?:at|on|here|now|again|into|in|if|when|while|once|before|after|"
                    r"as|on weakness|on dips|to (?:bank|lock|take|book|realise|realize|capture|secure))\b)",
                    text[m.end() :],
                )
                if (word == "" and not ends) or (
                    word
                    and word not in _OBJECT_WORDS
                    and not ends
                    and not (self.subject_re and self.subject_re.fullmatch(word))
                ):
                    continue
                entity = self._entity_for(text, m.start(), mentions, scope)
            if entity is None or entity not in self.ev.allowed:
                continue
            tail = text[m.end() : m.end() + 40]
            actions = next(
                (
                    [a]
                    for a, words in self.ev.action_objects.items()
                    if any(re.search(rf"\b{re.escape(w)}\b", tail, re.IGNORECASE) for w in words)
                ),
                actions,
            )
            out.append(self._allowed(actions, entity, m.group(0)))
        return out

    def _allowed(self, actions: list[str], entity: str, written: str) -> Finding:
        allowed = self.ev.allowed.get(entity, [])
        ok = any(a in allowed for a in actions)
        said = "/".join(actions)
        return checked(
            "action",
            written,
            ok,
            [f"rules:{entity}"],
            f"{said} {'is' if ok else 'is not'} allowed for {entity} (allowed: {', '.join(allowed)})",
        )

    def _flags(self, text: str, mentions: list[Mention], scope: list[str]) -> list[Finding]:
        out = []
        for flag, rx in self.flag_re:
            if rx is None:
                continue
            for m in rx.finditer(text):
                entity = self._entity_for(text, m.start(), mentions, scope)
                if entity != flag.entity:
                    continue
                clause = _CLAUSE.split(text[max(0, m.start() - 60) : m.start()])[-1]
                if (
                    NEAR_WORDS.search(clause)
                    or NEAR_WORDS.search(text[m.end() : m.end() + 20])
                    or (
                        re.search(r"\b(?:level|rule|threshold|limit|line|cap)s?\b", text[m.end() : m.end() + 12])
                        and not re.search(r"\b(?:hit|breach|trigger|past|through|below|beyond|crossed|tripped)", clause)
                    )
                ):
                    continue
                negated = bool(NEGATIONS.search(re.split(r"[,;:(]", clause)[-1]))
                said = not negated
                ok = said == flag.value
                out.append(checked("flag", m.group(0), ok, [flag.id], f"{flag.id} = {'yes' if flag.value else 'no'}"))
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
                    facts = [
                        f
                        for f in self._facts(entity)
                        if (metric := self.ev.metric(f.metric)) and metric.direction_default
                    ]
                    if not facts:
                        continue
                    f = facts[0]
                    ok = self._sign_of(f) == sign
                    out.append(
                        checked(
                            "direction",
                            m.group(0),
                            ok,
                            [f.id],
                            f"{f.id} = {f.shown()}",
                        )
                    )
        return out

    def _dates(self, text: str, dates: list, mentions: list[Mention], scope: list[str], advice: bool) -> list[Finding]:
        out = []
        as_of = next((d.value for d in self.ev.dates if d.metric == "as_of"), None)
        for d in dates:
            if as_of and d.value != "present" and d.value[: len(as_of)] > as_of[: len(d.value)]:
                continue  # a date after the valuation date is a plan, not a fact
            entity = self._entity_for(text, d.start, mentions, scope)
            lo = max((c.end() for c in _STRONG.finditer(text, 0, d.start)), default=0)
            hi = min((c.start() for c in _STRONG.finditer(text, d.end)), default=len(text))
            near = {m.entity for m in mentions if lo <= m.start < hi} | {entity}
            near |= {e for n in list(near) for e in self.catalogue.sharing.get(n or "", ())}
            pool = [x for x in self.ev.dates if x.entity in near] if entity else []
            if not pool:
                pool = [x for x in self.ev.dates if x.entity is None]
            if not pool:
                continue
            if d.value == "present":
                ended = [x for x in pool if x.metric == "end"]
                running = {x.entity for x in pool if x.metric == "start"} - {x.entity for x in ended}
                if ended and not running:
                    out.append(
                        Finding(
                            kind="date",
                            text=d.text,
                            status=Status.CONTRADICTED,
                            evidence=[ended[0].id],
                            note=f"{ended[0].entity} ended {ended[0].display or ended[0].value}",
                        )
                    )
                continue
            ok = [x for x in pool if same_date(d.value, x.value)]
            if not ok and entity is None and d.value[:4] in self.source_years:
                continue  # a date the sources state ("prices from 2000 to 2010")
            finer = [x for x in ok if len(d.value) > len(x.value)]
            if ok and len(finer) == len(ok):
                x = finer[0]
                out.append(
                    Finding(
                        kind="date",
                        text=d.text,
                        status=Status.UNVERIFIABLE,
                        evidence=[x.id],
                        note=f"the sources give only {x.display or x.value} ({x.id})",
                    )
                )
                continue
            if not ok and advice:
                continue
            if ok:
                out.append(
                    Finding(
                        kind="date",
                        text=d.text,
                        status=Status.SUPPORTED,
                        evidence=[ok[0].id],
                        note=f"{ok[0].id} = {ok[0].display or ok[0].value}",
                    )
                )
            else:
                shown = ", ".join(f"{x.id} = {x.display or x.value}" for x in pool[:3])
                out.append(
                    Finding(
                        kind="date",
                        text=d.text,
                        status=Status.CONTRADICTED,
                        evidence=[x.id for x in pool[:3]],
                        note=f"{d.text} is not a date of {entity or 'the sources'} ({shown})",
                    )
                )
        return out
