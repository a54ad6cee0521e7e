"""What a figure, a rank or an action is about: its entity, its direction, pairs of lists (its metric:
:mod:`.naming`)."""

from __future__ import annotations

import itertools
import re

from .asides import aside_before, in_parenthesis
from .catalogue import Mention
from .lexicon import DOWN_RE, UP_RE
from .naming import _SUMMED_UP, MetricNaming
from .patterns import (
    _CLAUSE,
    _COMPARED,
    _CONCEDED,
    _LIST_SEP,
    _PAREN,
    _POSSESSED,
    _PRONOUN,
    _RUN_SEP,
    _STRONG,
)
from .quantities import Quantity

_APPOSED = re.compile(r"\s*,\s*(?:about|around|roughly|approximately|some|nearly|almost|just|~)?\s*", re.IGNORECASE)
_AS_ROLE_AT = re.compile(r"\s+as\s+(?:an?\s+|the\s+)?[A-Za-z][\w /&-]{0,50}?\s+(?:at|with|for)\s+(?:the\s+)?")


# "a short time compared with how long we sat on MSFT": the other side of a comparison, named in a clause
_ITEM_SEP = re.compile(r"\s[·•]\s")
_COMPARED_CLAUSE = re.compile(r"\bcompared\s+(?:with|to)\s+(?:how|what|the\s+time)\b[^,;.()]{0,40}$", re.IGNORECASE)
_IT_START = re.compile(r"\W*(?:it|it['’]s|its)\b", re.IGNORECASE)
_IT_BEFORE = re.compile(r"\b(?:it['’]s|it\s+is|it\s+was)\s+(?:at\s+|down\s+|up\s+|only\s+)?$", re.IGNORECASE)


class Binding(MetricNaming):
    """What a figure, a rank or an action is about (a part of the Verifier)."""

    @staticmethod
    def _boundaries(text: str, a: int, b: int) -> int:
        lo, hi = min(a, b), max(a, b)
        return len(_CLAUSE.findall(text[lo:hi]))

    @staticmethod
    def _aside(text: str, m: Mention) -> bool:
        """Is ``m`` the other side of a comparison or of a concession ("than Apple", "even though Apple's …",
        "second-best after Apple")?"""
        return bool(_COMPARED.search(text, max(0, m.start - 20), m.start)
                    or _CONCEDED.search(text, max(0, m.start - 60), m.start)
                    or re.search(r"\b(?:after|behind)\s+(?:only\s+)?$", text[max(0, m.start - 16) : m.start]))

    @staticmethod
    def _owner(text: str, pos: int, mentions: list[Mention]) -> str | None:
        """The entity whose possessive the figure at ``pos`` follows ("Apple's ~40.6%"), if any."""
        return next((m.entity for m in reversed(mentions) if m.end <= pos and _POSSESSED.fullmatch(text, m.end, pos)),
                    None)

    @staticmethod
    def _tagged(text: str, pos: int, end: int | None, mentions: list[Mention], *, strict: bool = False) -> str | None:
        """The entity a figure is tagged with right after it: "48 % (the AMZN holding)", "3,712 days (MSFT, …)",
        "$17.6k from Apple", "−$6,606.00 on MSFT", "two years as a Software Developer at Copperleaf" (and,
        unless ``strict``, a name right after it: "79 shares Apple", which in a row may start the next item)."""
        tagged = next(
            (
                m
                for m in mentions
                if re.fullmatch(r"[^\w(]{0,3}\(\s*(?:the\s+)?", text[end or pos : m.start])
                # "48 % (the AMZN Holding)"
                and re.match(r"\s*(?:holding|position|shares|stock)?\s*(?:\)|[,;:])", text[m.end :], re.I)
                # ("3,712 days (MSFT, ~10.2 years)")
            ),
            None,
        )
        tagged = tagged or next(  # "about $17.6k from Apple and $17.3k from Microsoft"
            (
                m
                for m in mentions
                if end is not None
                and re.fullmatch(  # "… for Apple", "47-48% for aapl/amzn" (a range's first end too), "… for `AAPL`"
                    r"(?:(?:\s*[-–]\s*[\d.,]+\s*%?)?\s+(?:from|in|of|for|at|on)\s+"
                    + ("" if strict else r"|[\s-]*(?:units?|shares?|pieces?|pcs)?\s+") + r")[*_`]*",
                    text[end : m.start],
                )
            ),
            None,
        )
        tagged = tagged or next(  # "just under two years as a Software Developer at Copperleaf Studio"
            (m for m in mentions if end is not None and _AS_ROLE_AT.fullmatch(text[end : m.start])), None
        )
        return tagged.entity if tagged is not None else None

    def _entity_for(
        self, text: str, pos: int, mentions: list[Mention], scope: list[str], end: int | None = None
    ) -> str | None:
        """The entity a word at ``pos`` is about: the nearest mention (an earlier one preferred, one
        right before a parenthesis holding ``pos`` wins; after "it"/"its"/"being" the sentence's
        subject), the only one, or the unit's scope."""
        aside = [m for m in mentions if aside_before(text, m, pos)]
        if scope and aside and len(aside) == len(mentions):  # "(…, with Google and IBM), and its squared weight"
            return scope[-1]  # (the subject of the sentences before; with none, "(msft) and its" is msft's)
        inside = [m for m in mentions if m.end <= pos and re.fullmatch(r"\s*\([^()]*", text[m.end : pos])]
        if inside:  # "just ahead of Apple (47.12 %)": the figure in the parenthesis is Apple's
            return inside[-1].entity
        owner = self._owner(text, pos, mentions)
        if owner is not None:  # "against Apple's 40.6%": the figure is Apple's, compared or not
            return owner
        compared = [m for m in mentions if _COMPARED.search(text[max(0, m.start - 16) : m.start])
                    or _COMPARED_CLAUSE.search(text, max(0, m.start - 50), m.start)]
        for a, b in itertools.pairwise(mentions):  # "below AAPL and AMZN": the list after "below" is compared
            gap = re.sub(r"^['’]s\b", "", text[a.end : b.start])  # "than Amazon's and Apple's"
            if a in compared and b not in compared and _LIST_SEP.fullmatch(gap):
                compared.append(b)
        if compared and not scope and end is not None and all(m.start >= end for m in mentions) \
                and re.match(r"\s*(?:vs\.?|versus|against|compared\s+(?:with|to))\s", text[end:], re.IGNORECASE):
            return None  # "(47.52% vs AAPL's 40.58%)": the figure is what Apple's is compared with, not Apple's
        if compared and (len(compared) < len(mentions) or scope):
            mentions = [m for m in mentions if m not in compared]  # "faster than Apple": not the subject
            if not mentions:
                return scope[-1]
        # "It's +72.70% on cost, … (23.50%, against 47.12% for Apple)": "it" is the holding the sentences
        # before were about, a holding named only after the figure is compared with it
        it_first = bool(scope) and bool(_IT_START.match(text) or _IT_BEFORE.search(text, max(0, pos - 30), pos)) \
            and all(m.start >= (end or pos) for m in mentions)
        if scope and mentions and all(m.start >= (end or pos) and self._boundaries(text, pos, m.start)
                                      and self._aside(text, m) for m in mentions):
            return scope[-1]  # "**Amazon.** … 47.52% a year — faster than Apple, even though Apple's …": the entry's
        if mentions and all(m.start >= (end or pos) and _ITEM_SEP.search(text, end or pos, m.start) for m in mentions):
            # "Go payments API (1,200 req/s peak) · … · Kafka streams replacing nightly batch at Harbourside": a
            # name in a later item of a dotted list is that item's
            return scope[-1] if scope else None
        if len({m.entity for m in mentions}) == 1 and not it_first:
            return mentions[0].entity
        tagged = self._tagged(text, pos, end, mentions)
        if tagged is not None:  # "10.2y (MSFT)"
            return tagged
        if it_first:
            return scope[-1]
        best, best_d, best_m = None, 10**9, None
        for m in mentions:
            if m.end <= pos:
                d = pos - m.end
                if re.fullmatch(r"\s*\([^()]*", text[m.end : pos]):
                    d = 0
                elif in_parenthesis(text, m, pos):  # "A has the highest CAGR (…, B next at …) and the highest
                    d += 200  # vol": B is named in passing, A is the subject
            else:
                d = m.start - pos + 60
            d += 80 * self._boundaries(text, pos, m.end if m.end <= pos else m.start)
            if d < best_d:
                best, best_d, best_m = m.entity, d, m
        if (
            best_m is not None
            and best_m.end <= pos
            and mentions[0] is not best_m
            and _PRONOUN.search(text[best_m.end : pos])
        ):
            return mentions[0].entity  # "A beat B because it rose 242 %": "it" is the subject
        if best is not None and best_d < 240:
            return best
        return scope[-1] if scope else None

    def _pair_lists(self, text: str, mentions: list[Mention], qs: list[Quantity], index: list[int]) -> dict[int, str]:
        """ "A and B are up 5 % and 7 % (respectively)", "A (…) and B (…) are at 10 % and 15 %": a run of
        k figures after a list of k entities pairs with them in order. Keys are the caller's ``index``."""
        out: dict[int, str] = {}
        if len(mentions) < 2 or len(qs) < 2:
            return out
        groups: list[list[Mention]] = [[mentions[0]]]
        for m in mentions[1:]:
            if _LIST_SEP.fullmatch(_PAREN.sub("", text[groups[-1][-1].end : m.start])):
                groups[-1].append(m)
            else:
                groups.append([m])
        runs: list[list[int]] = [[0]]
        for i in range(1, len(qs)):
            if qs[i].unit == qs[runs[-1][-1]].unit and _RUN_SEP.fullmatch(text[qs[i - 1].end : qs[i].start]):
                runs[-1].append(i)
            else:
                runs.append([i])
        distinct: list[Mention] = []
        for m in mentions:
            if all(m.entity != d.entity for d in distinct):
                distinct.append(m)
        for run in runs:
            follow = [
                g
                for g in groups
                if len(g) == len(run) > 1
                and re.fullmatch(r"\s*(?:for|of|at|in|by)\s+", text[qs[run[-1]].end : g[0].start])
            ]
            if follow:
                for m, i in zip(follow[0], run, strict=True):
                    out.setdefault(index[i], m.entity)
            tail = text[qs[run[-1]].end : qs[run[-1]].end + 20]
            if len(run) > 1 and re.match(r"\W*respectively", tail) and len(distinct) >= len(run):
                for m, i in zip(distinct[: len(run)], run, strict=True):
                    out.setdefault(index[i], m.entity)
        for group in groups:
            if len(group) < 2:
                continue
            for run in runs:
                first = qs[run[0]]
                if (
                    len(run) != len(group)
                    or first.start < group[-1].end
                    or (_STRONG.search(text[group[-1].end : first.start]) and "respectively" not in text[first.start :])
                ):
                    continue
                if any(group[-1].end <= x.start < first.start for x in mentions):
                    continue
                for m, i in zip(group, run, strict=True):
                    out[index[i]] = m.entity
        return out

    def _direction_near(self, text: str, q: Quantity, qs: list[Quantity] | None = None) -> int:
        """+1 / -1 for a direction word written for this figure: before it with no other figure in
        between ("down about 19 %"), or right after it ("27.7 % lower"). Prices in "from X to Y" have none."""
        if re.search(r"\b(?:from|at|to)\s*[~≈]?\s*$", text[max(0, q.start - 6) : q.start]) or (
            re.search(r"\bto\s*[~≈]?\s*$", text[max(0, q.start - 4) : q.start])
            and re.search(r"\bfrom\b", text[max(0, q.start - 60) : q.start])
        ):
            return 0
        others = [o for o in (qs or []) if o is not q]
        best, best_d = 0, 10**9
        # "increasing monthly cloud expenditure by 35 %": a verb, its object, then "by" and the figure
        reach = 60 if re.search(r"\bby\s+(?:about|around|roughly|some|nearly|almost|~)?\s*$", text[: q.start]) else 35
        for rx, sign in ((UP_RE, 1), (DOWN_RE, -1)):
            if rx is None:
                continue
            for m in rx.finditer(text, max(0, q.start - reach), min(len(text), q.end + 24)):
                if "/" in text[max(0, m.start() - 1):m.end() + 1] or re.match(r"\s+and\s+loss", text[m.end():]):
                    continue  # "profit/loss", "gain/loss", "profit and loss" name the metric, not a direction
                if m.group(0).lower() == "up" and (re.match(r"\s+to\b", text[m.end() :])
                                                   or _SUMMED_UP.search(text, 0, m.start())):
                    continue  # "up to a day old": at most, not a rise; "add them up": the whole
                if m.end() <= q.start:
                    gap = text[m.end() : q.start]
                    apposed = _APPOSED.fullmatch(gap)  # "a small positive, about 3 percent a year"
                    if (
                        any(m.end() <= o.start and o.end <= q.start for o in others)
                        or (_CLAUSE.search(gap) and not apposed)
                        or ("," in gap and not apposed)
                    ):
                        continue
                    d = len(gap)
                elif m.start() >= q.end:
                    between = text[q.end : m.start()]
                    named_by = re.fullmatch(  # "$11.9k of unrealised losses" (not "30% of the winner": a part)
                        r"[\s`*_]*of\s+(?!(?:the|a|an|its|your|my|our|their)\b)(?:\w+[\s`*_]+)?", between)
                    if not (re.fullmatch(r"[\s`*_]*(?:\w+[\s`*_]+)?", between) or named_by) or re.search(
                        r"\b(?:against|versus|vs|than|compared|while|whereas|but)\b", between
                    ):
                        continue  # "losses of $11.9k against gains of $63.2k": the word is the next figure's
                    d = 0 if named_by else m.start() - q.end
                else:
                    continue
                if d < best_d:
                    best, best_d = sign, d
        return best

    # --- figures ------------------------------------------------------------------------------
