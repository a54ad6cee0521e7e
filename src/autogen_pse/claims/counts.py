"""Counts ("three of the five holdings are losing") checked against the entities' facts."""

from __future__ import annotations

import re

from .evidence import Count, Metric
from .model import Finding
from .patterns import _CLAUSE, _bare, checked
from .quantities import Quantity, find_quantities
from .state import VerifierState

# a possessive or a verb of owning before a count of all the holdings: the whole, whatever follows
_WHOLE_BEFORE = re.compile(r"\b(?:your|my|our|his|her|their|has|have|owns?|holds?)\s+$", re.IGNORECASE)


_LISTED_SUBJECT = re.compile(r"((?:[A-Z][\w.&]*(?:\s*,\s*|\s+and\s+|\s*&\s*))+[A-Z][\w.&]*)\s+(?:are|were)\s+"
                             r"(?:the\s+)?(?:only\s+)?$")


_GROUP_BOUND = re.compile(  # "four of the five holdings have fallen more than …"
    r"\b(?P<n>[\w-]+)\s+(?:out\s+)?of\s+(?:the\s+|your\s+|our\s+|my\s+|its\s+|them\b)?\s*(?:\w+\s+)?"
    r"(?:holdings?|positions?|stocks?|names?|shares?)?\b[^.;:]{0,50}?"
    r"\b(?P<cmp>more than|over|at least|less than|under|above|below|beyond|in excess of|deeper than|worse than)\s*"
    r"(?:about\s+|roughly\s+|around\s+|~\s*)?$",
    re.IGNORECASE,
)


_HOLDINGS_NOUN = re.compile(r"\b(?:holdings?|positions?|stocks?|names?|shares?|them)\b", re.IGNORECASE)
_ONLY_SPARED = re.compile(  # "Only IBM has avoided a peak-to-trough fall of more than …"
    r"\bonly\s+(?P<who>[\w.&]+(?:\s+(?:and|&)\s+[\w.&]+)?)\s+(?:has|have|had)\s+(?:avoided|escaped|been\s+spared|"
    r"not\s+(?:had|seen|suffered)|never\s+(?:had|seen|suffered))\b[^.;:]{0,50}?"
    r"\b(?P<cmp>more than|over|at least|beyond|in excess of|deeper than|worse than)\s*(?:about\s+|roughly\s+|~\s*)?$",
    re.IGNORECASE,
)


def _count_value(word: str) -> int | None:
    found = find_quantities(word)
    return int(found[0].value) if found and found[0].unit == "count" else None


_LABELLED = re.compile(
    r"\b(?:number|no\.|#|count)\s+of\s+(?P<what>[^:|=*\n]{3,80}?)\s*(?:\*\*|__)?\s*[:|=]\s*(?:\*\*|__)?\s*(?P<n>\d{1,2})\b"
    # "holdings in profit: 4 of 5": a label that starts with what is counted, then "N of M"
    r"|^\W*(?P<what2>[a-z][^:|=*\n]{3,60}?)\s*(?:\*\*|__)?\s*[:|=]\s*(?:\*\*|__)?\s*(?P<n2>\d{1,2})"
    r"\s*(?:of|out of|/)\s*\d",
    re.IGNORECASE,
)
_FIELD_GAP = re.compile(r"\S(\s{2,}|\s*→\s*)(?=\S)")
_LEAD = re.compile(
    r"(?:(?:\*\*|__)?\s+|\s*/\s*)(?:(?:out\s+)?of\s+(?!them\b)(?:the|our|my|its|these|those)?\s*(?:\w+(?:\*\*|__)?\s+)?)?"
)
_APPOSITION = re.compile(r"\s*[,:(—–-]\s*[A-Z][\w.&]*(?:\s*(?:,|and|&)\s*[A-Z][\w.&]*){1,5}\s*[,)—–-]")


# "two gainers carry most of the weight in the top 3": a count within a subset, not of all the holdings
_WITHIN_TOP = re.compile(r"\b(?:in|among|of)\s+the\s+(?:top|largest|biggest)\s+(?:two|three|four|[2-4])\b",
                         re.IGNORECASE)
_SCALE_WORD = re.compile(r"\b(?:scores?|scored|rated|ratings?|marks?)\b", re.IGNORECASE)  # "scores out of 10"
# a size or standing between the number and its noun picks some of them: "the two big winners"
_PICKED = re.compile(r"\b(?:big|bigger|large|larger|huge|main|major|top|star|standout|clear|real|heavy|worse|first|"
                     r"principal|following)\b", re.IGNORECASE)  # (superlatives, "the two biggest winners", are ranks;
# "the three first lines", French order: the top three; "the three following lines": those listed next)


class Counts(VerifierState):
    """How many entities a count phrase speaks of, against the evidence's sets (a part of the Verifier)."""

    def _counts(self, text: str, qs: list[Quantity], used: set[int]) -> list[Finding]:
        """ "three of the five holdings are losing": counts checked against the entities' facts."""
        if self.count_nouns is None:
            return []
        out = []
        labelled = _LABELLED.search(text)  # "**Number of holdings triggering rules:** 2": "2 holdings triggering …"
        if labelled:
            n, what = ("n", "what") if labelled.group("n") else ("n2", "what2")
            i = next((i for i, q in enumerate(qs) if q.start == labelled.start(n)), None)
            if i is not None and i not in used:
                phrase = f"{labelled.group(n)} {labelled.group(what)}"
                found = self._counts(phrase, find_quantities(phrase), set())
                if found:
                    used.add(i)
                    out += found
        everything = next((c for c in self.ev.counts if not c.words), None)
        for i, q in enumerate(qs):
            if i in used or q.unit != "count" or q.value != int(q.value) or q.value > 50:
                continue
            before = text[max(0, q.start - 12) : q.start].lower()
            owned = re.search(r"\b(?:own|hold|have)\s+(?:only\s+|just\s+)?$", before) and re.match(
                r"\s*(?:[.,;)]|$)" if q.value > 12 else r"\s*(?:(?:shares|stocks|companies)\b\s*)?(?:[.,;)]|$)",
                text[q.end :])  # "even though you own 5.", "you own five shares, but" (not "you own 40 shares.")
            scale = _SCALE_WORD.search(text, max(0, q.start - 25), q.start)
            if everything is not None and not scale and (re.search(r"\bout of\s*$", before) or owned):
                # "even though you own 5." (not "scores out of 10")
                used.add(i)
                out.append(self._count_finding(q.text, int(q.value), everything))
                continue
            tail = text[q.end : q.end + 60]
            noun, rest = None, ""
            lead = _LEAD.match(tail)  # "three of the five", "**4 out of 5** holdings", "2/5 holdings"
            after_of = tail[lead.end() :] if lead else tail.lstrip()
            for k in range(3):
                words = re.match(rf"(?:[\w-]+\s+){{{k}}}", after_of)
                if words is None:
                    break
                rest = text[q.end + (len(tail) - len(after_of)) + words.end() :]
                noun = self.count_nouns.match(rest)
                if noun is not None:
                    break
            implied = re.match(r"\s+(?:out\s+)?of\s+(?:(?:the|our|your|ur|yr|my|its|these|those|all)\s+)?(\w+)\b", tail)
            if (
                noun is None
                and implied
                and everything is not None
                and (_count_value(implied.group(1)) == len(everything.entities))
            ):  # "two of the five have hit the stop": the total names the holdings
                rest = text[q.end + implied.end() :]
                noun = re.match(r"", rest)
            shares = re.match(r"\s+of\s+(?:your|ur|the|our|my)\s+shares\b", tail)
            if noun is None and shares and everything is not None and q.value <= len(everything.entities):
                rest = text[q.end + shares.end() :]  # "Two of your shares fall under this rule": holdings
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
                or (q.value == 1 and re.search(r"%\s+(?:in|into|on)\s+$", text[max(0, q.start - 12) : q.start]))
            ):  # ("max 30% in one name": a cap per holding)
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
                of_set = next((c for c, rx in self.count_re if rx is not None and c is not everything
                               and rx.search(text, qs[total].end, noun_end)), None)
                if of_set is not None:  # "one of the two losers", "two of three flagged holdings": the total
                    # counts the set the noun names, the first number a part of it
                    phrase = f"{qs[total].text} {text[qs[total].end : noun_end].strip()}"
                    out.append(self._count_finding(phrase, int(qs[total].value), of_set, qs[total].hedge))
                    continue
                out.append(self._count_finding(qs[total].text, int(qs[total].value), everything))
            lo = max(
                [m.end() for m in _CLAUSE.finditer(text, 0, q.start)]
                + [m.end() for m in _FIELD_GAP.finditer(text, 0, q.start + 1)]  # "… on cost  5 pos; 2 in the red"
                + [o.end for o in qs if o.end <= q.start and _bare(o)],
                default=0,
            )
            hi = min(
                [m.start() for m in _CLAUSE.finditer(text, noun_end)]
                + [o.start for o in qs if o.start >= noun_end and _bare(o)],
                default=len(text),
            )
            if _WITHIN_TOP.search(text, noun_end, hi):
                continue  # "two gainers carry most of the weight in the top 3": counted within a subset
            rule, best = None, 10**9
            hi = min(hi, noun_end + (40 if q.value != 1 else 25))  # the predicate stays near its count
            paren = re.search(r"\(\s*$", text[max(0, q.start - 3) : q.start])
            if paren:  # "… MSFT stop-loss + long-held loss (3 holdings)": only what the parenthesis says
                lo, hi = q.start, min(hi, text.find(")", q.end) if ")" in text[q.end :] else hi)
            lo = max(lo, q.start - 25)
            for count, rx in self.count_re:
                if rx is None:
                    continue
                for m in rx.finditer(text, lo, hi):
                    if m.group(0).lower().startswith("rule") and re.search(
                            r"\b(?:this|that|the\s+same)\s+$", text[max(0, m.start() - 10) : m.start()]):
                        continue  # "fall under this rule": the rule named before, not which rule
                    d = abs(m.start() - noun_end) if m.start() >= noun_end else abs(q.start - m.end())
                    if q.start <= m.start() < noun_end:
                        d = 0
                    if d < best:
                        rule, best = count, d
            apposition = _APPOSITION.match(text, noun_end)
            apposed = (
                [m.entity for m in self.catalogue.find(apposition.group(0))]
                if apposition
                else []
            )
            if len(set(apposed)) == q.value:  # "the two holdings, Microsoft and Google, …": the list is the count
                continue
            subject = _LISTED_SUBJECT.search(text, 0, q.start)  # "IBM and Amazon are the only two names …"
            if subject and len({m.entity for m in self.catalogue.find(subject.group(1))}) == q.value:
                continue
            by_noun = next((c for c, rx in self.count_re if rx is not None and rx.fullmatch(noun.group(0))), None)
            whole = everything is not None and q.value == len(everything.entities) and (
                bool(_WHOLE_BEFORE.search(before))
                or bool(re.match(r"\s*[,;|]\s*\w+\s+[-−+]?\d", text[noun_end:])))  # "5 holdings, cap 30%, …"
            if by_noun is not None:
                rule = by_noun  # "the two losers": the noun says what is counted
            elif whole:
                rule = everything  # "your five holdings", "has five US stocks and a rule book": all of them
            elif everything is not None and re.search(r"\bof\s+(?:the|our|its|these|all)\s*$", before) and (
                    rule is None or q.value == len(everything.entities)):
                rule = everything  # "of the five holdings, three …": the total (not "of the three holdings that …")
            if rule is None:
                if everything is None or q.value == 1 or text[q.end : q.end + 1] == "-" or not re.search(
                    # "the five holdings", "has seven holdings" (not "3-and-a-bit positions")
                    r"\b(?:the|all|our|these|its|your|my|has|have|holds?|owns?|consists\s+of|comprises|contains)\s*$",
                    before,
                ):
                    continue
                rule = everything
            if _PICKED.search(between) and q.value <= len(rule.entities):
                continue  # "the two big winners": the biggest of them, not how many there are
            out.append(self._count_finding(f"{q.text} {noun.group(0)}", int(q.value), rule, q.hedge))
        return out

    def _group_bound(self, text: str, lo: int, q: Quantity, metrics: list[Metric]) -> Finding | None:
        """ "four of the five have fallen more than half from a peak": a bound that ``n`` of the
        entities pass, counted on the facts of the metric named."""
        bound = _ONLY_SPARED.search(text, lo, q.start) or _GROUP_BOUND.search(text, lo, q.start)
        spared = bound is not None and "who" in bound.groupdict()  # "Only IBM has avoided a fall of more than 50%"
        word = bound.group("n").lower() if bound and not spared else ""
        n = _count_value(word) if bound and not spared else None
        metric = next((m for m in metrics if m.scope == "entity"), None)
        if bound is None or metric is None or (n is None and not spared and not (
                word in ("most", "all") and _HOLDINGS_NOUN.search(bound.group(0)))):
            return None  # ("all of it, so he's up just over fifty-one grand": no count of holdings)
        name = metric.same_as or metric.name
        unit = "pct" if q.unit == "pct" else None
        values = {f.entity: abs(f.value) for e in self.owners for f in self._facts(e, unit)
                  if f.metric == name and f.entity is not None}
        below = bound.group("cmp").lower() in ("less than", "under", "below")
        level = abs(q.value)  # "worse than -50%": the size of the fall
        passing = sorted(e for e, v in values.items() if (v < level if below else v > level))
        if not values:
            return None
        if spared:  # the only one(s) not past the bound
            who = {m.entity for m in self.catalogue.find(bound.group("who"))}
            ok = bool(who) and who == set(values) - set(passing)
        else:
            ok = len(passing) == n if n is not None else (
                len(passing) > len(values) / 2 if word == "most" else len(passing) == len(values))
        return checked("figure", q.text, ok, [f"{e}.{name}" for e in passing],
                       f"{len(passing)} of {len(values)} by {name} are {bound.group('cmp')} {q.text}: "
                       f"{', '.join(passing) or 'none'}")

    def _named_sets(self, text: str) -> list[Count]:
        """The sets of entities a count phrase in ``text`` names ("the three triggered holdings")."""
        if not text or self.count_any is None or not self.count_any.search(text):
            return []
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
