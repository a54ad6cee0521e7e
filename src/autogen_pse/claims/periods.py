"""Time in figures: the period a figure is per ("$420k a year", "2M events per day", "~$35k/month"),
converted so "$35,000 a month" is compared with "$420,000 a year"; durations read as completed years;
a table's column of periods held."""

from __future__ import annotations

import re

from .quantities import Quantity, matches

RATE_SECONDS = {
    "second": 1.0,
    "minute": 60.0,
    "hour": 3600.0,
    "day": 86400.0,
    "week": 604800.0,
    "month": 2629800.0,
    "year": 31557600.0,
}
_RATE_WORDS = {
    "s": "second", "sec": "second", "second": "second", "min": "minute", "minute": "minute",
    "h": "hour", "hr": "hour", "hour": "hour", "day": "day", "week": "week", "wk": "week",
    "month": "month", "mo": "month", "year": "year", "yr": "year", "annum": "year",
    "daily": "day", "weekly": "week", "monthly": "month", "annually": "year", "yearly": "year",
}  # fmt: skip
_RATE = re.compile(
    r"^(?:\s+[A-Za-z][\w-]*){0,2}?\s*(?:(?:/|\ba\s+|\bper\s+|\beach\s+|\bevery\s+|\bin\s+(?:an?|one)\s+)"
    r"(s|sec|second|min|minute|h|hr|hour|day|week|wk|month|mo|year|yr|annum)s?\b"
    r"|\s+(daily|weekly|monthly|annually|yearly)\b|\s+p\.a\.)",
    re.IGNORECASE,
)


_RATE_LEAD = re.compile(
    r"^\W*(?:that\s+is\s+)?(monthly|weekly|daily|annually|yearly|per\s+(?:month|year|day|week)|a\s+(?:month|year))"
    r"\s*[,:]",
    re.IGNORECASE,
)


def rate_before(text: str, start: int) -> str:
    """The period a clause opens with ("Monthly, that is roughly $35,000"), or ``""``."""
    m = _RATE_LEAD.match(text[:start])
    if not m:
        return ""
    word = m.group(1).lower().split()[-1]
    return _RATE_WORDS[word]


def rate_after(text: str, end: int) -> str:
    """The period a figure is per ("$420k a year", "2M events per day", "~$35k/month"), or ``""``."""
    m = _RATE.match(text[end : end + 40])
    if not m:
        return ""
    word = (m.group(1) or m.group(2) or "year").lower()
    return _RATE_WORDS[word]


def completed_years(q: Quantity, years: float) -> bool:
    """A duration in whole years is read as completed years ("three years" = 2.8 ≤ held < 4)."""
    if q.hedge or (q.kind == "digits" and q.tol < 0.5):
        return matches(q, years)
    n = abs(q.value)
    return n - 0.2 <= years < n + 1


_YEARS_COLUMN = re.compile(r"\W*(?:(?:≈|~|approx\.?)\s*(?:years|yrs)|(?:years|yrs)\s+held|held\s*\((?:years|yrs)\))\W*",
                           re.I)


def in_years_column(column: str, q: Quantity) -> bool:
    """A bare number under a column of periods held ("≈ Years", "Held (yrs)"; a DataFrame's "years" when
    the number has decimals: a skills matrix's "Years | 7" is experience, "2017–20" a range)."""
    name = re.sub(r"[*_`]", "", column)
    return bool(_YEARS_COLUMN.fullmatch(name)) or (
        bool(re.fullmatch(r"\W*(?:years|yrs)\W*", name, re.I)) and not float(q.value).is_integer())
