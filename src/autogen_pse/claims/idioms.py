"""Idioms that change what a figure is: money per dollar ("72 cents per dollar invested"), the
count "one" of "only one of the five positions", and a figure taken back ("fifty— no, sorry, forty-four")."""

from __future__ import annotations

import re
from dataclasses import replace

from .quantities import Quantity

_CENTS = re.compile(
    # ("30 cents on the dollar": a share, as "of every dollar" is; "per dollar invested": a multiple)
    r"(?:¢|\s*cents?)\s+(?:(?P<per>per|for)|on|of|in|out of)\s+(?:every|each|a|the)?\s*dollar\b"
    r"(?P<paid>\s+(?:(?:you|we|I)\s+)?(?:invested|put in|paid|spent)|\s+of cost)?",
    re.IGNORECASE,
)
_DOLLARS_IN = re.compile(
    r"(?:\s+dollars?)?\s+(?:in|of|out of)\s+(?:every\s+)?(?P<d>ten|10|a hundred|hundred|100)\b(?:\s+dollars?\b)?",
    re.IGNORECASE,
)  # ("nine dollars in every ten", "nine out of every ten dollars")
_EVERY_DOLLAR = re.compile(
    r"\b(?:(?:for|on)\s+)?(?:every|each)\s+dollar\s+(?:(?:you|we|I)\s+)?(?:invested|put\s+in(?:to)?|paid|spent)\b"
    r"[^.;]{0,40}?$",  # ("every dollar put into Apple has turned into roughly $5.80")
    re.IGNORECASE,
)
_DOLLAR_AND = re.compile(r"\ba\s+dollar\s+and\s+$", re.IGNORECASE)
_CENTS_WORD = re.compile(r"\s*cents?\b", re.IGNORECASE)


def per_dollar(text: str, qs: list[Quantity]) -> list[Quantity]:
    """Money per dollar: "72 cents per dollar invested" (a multiple of cost, 0.72×), "44 cents of every
    dollar" and "nine dollars in every ten" (shares: 44 %, 90 %), "for every dollar invested you now
    have $1.68" / "… a dollar and sixty-eight cents" (a multiple, 1.68×)."""
    out: list[Quantity] = []
    taken = -1  # the end of a phrase read whole ("nine out of every ten dollars": no figure "ten dollars")
    for q in qs:
        if q.start < taken:
            continue
        cents = _CENTS.match(text, q.end) if q.unit == "count" else None
        dollars = _DOLLARS_IN.match(text, q.end) if q.unit in ("count", "money") else None
        if dollars and q.unit == "count" and "dollar" not in dollars.group(0).lower():
            dollars = None  # "3 of 10 holdings": a count
        if cents and q.value < 1000:
            worth = re.search(r"\bworth\b[^.;]{0,25}$", text[: q.start], re.IGNORECASE)
            if cents.group("per") or cents.group("paid") or worth:  # per dollar: a multiple; of every dollar: a share
                q = replace(q, value=q.value / 100, unit="multiple", tol=q.tol / 100, kind="digits")
            else:  # "forty-seven cents" is as exact as "47": a cent is a cent
                q = replace(q, unit="pct", kind="digits")
        elif dollars and q.value <= 100:
            per = 10.0 if dollars.group("d") in ("ten", "10") else 100.0
            taken = dollars.end()
            q = replace(q, value=q.value * 100 / per, unit="pct", tol=q.tol * 100 / per, end=taken,
                        text=text[q.start : taken])
        elif _EVERY_DOLLAR.search(text[: q.start]):
            if q.unit == "money" and q.value < 100:  # "… you now have roughly $1.68"
                q = replace(q, unit="multiple")
            elif q.unit == "count" and _DOLLAR_AND.search(text[: q.start]) and _CENTS_WORD.match(text, q.end):
                q = replace(q, value=1 + q.value / 100, unit="multiple", tol=q.tol / 100)
        out.append(q)
    return out


_ONE_OF = re.compile(r"\b(?:[Oo]nly |[Jj]ust )?([Oo]ne)(?=\s+of\s+(?:the|our|your|my|its|their|these|those|all)\s)")


def with_one_of(text: str, qs: list[Quantity]) -> list[Quantity]:
    """``qs`` and the count "one" of "only one of the five positions …" (a bare "one" is too often a
    pronoun to be read as a figure anywhere else)."""
    extra = [
        Quantity(1.0, "count", m.group(1), m.start(1), m.end(1), 0.5, kind="words")
        for m in _ONE_OF.finditer(text)
        if not any(q.start < m.end(1) and m.start(1) < q.end for q in qs)
    ]
    return sorted([*qs, *extra], key=lambda q: q.start) if extra else qs


_HELD_BEFORE = re.compile(
    r"\b(?:held|owned|kept|had\s+it)\s+(?:for\s+)?(?:about|around|roughly|nearly|almost|just\s+over)?\s*$",
    re.IGNORECASE,
)
_A_BIT_MORE = re.compile(r"\s+and\s+a\s+bit\b|-ish\b|\s+or\s+so\b", re.IGNORECASE)


def elided_periods(text: str, qs: list[Quantity]) -> list[Quantity]:
    """ "a position held ten years (Microsoft) with one held two and a bit (Google)": a bare number
    after "held", in a sentence that has just given a period, is a period in the same unit."""
    out: list[Quantity] = []
    for q in qs:
        period = next((o for o in reversed(out) if o.unit in ("years", "months")), None)
        if q.unit == "count" and period is not None and _HELD_BEFORE.search(text, max(0, q.start - 30), q.start) \
                and not re.match(r"\s*[A-Za-z]", text[q.end :].replace(" and a bit", "", 1)):
            q = replace(q, unit=period.unit, hedge="over" if _A_BIT_MORE.match(text, q.end) else q.hedge)
        out.append(q)
    return out


_TAKEN_BACK = re.compile(r"\s*(?:[—–-]+|\.\.\.|…|,)\s*(?:no(?=\s*[—–,.!-]|\s+(?:sorry|wait|I mean))|sorry|wait|I mean"
                         r"|scratch that|correction|rather)\b[,.!]?",  # (not "12.13%, no trigger")
                         re.IGNORECASE)


def taken_back(text: str, qs: list[Quantity]) -> set[int]:
    """Indexes of figures the speaker corrects at once ("Apple is fifty— no, sorry, forty-four percent"):
    said, then withdrawn, so no claim."""
    return {i for i, q in enumerate(qs) if _TAKEN_BACK.match(text, q.end)}
