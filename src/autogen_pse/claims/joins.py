"""Adjacent figures read together: "47 and 48 %" share a unit, "fifty-five, fifty-six thousand" is one
figure said as a range, "5 years 2 months" one duration."""

from __future__ import annotations

import re

from .quantities import Quantity


def shared_units(text: str, qs: list[Quantity]) -> list[Quantity]:
    """ "47 and 48 %", "15–20 %": a bare figure joined to the next one takes that one's unit;
    "six minutes instead of forty-five": one joined to the previous one takes that one's."""
    out = list(qs)
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if (
            b.unit == "count"
            and a.unit in ("minutes", "days", "years")
            and re.fullmatch(
                r"\s*(?:instead of|rather than|from|down from|up from|compared with|vs\.?|versus)\s*",
                text[a.end : b.start],
                re.IGNORECASE,
            )
        ):
            scale = 60.0 if a.unit == "minutes" and re.search(r"\bhours?\b", text[b.end : b.end + 8]) else 1.0
            out[i] = Quantity(b.value * scale, a.unit, b.text, b.start, b.end, b.tol * scale, b.hedge, b.sign, b.kind)
        elif (  # "from 45 minutes to 16", "from 40% to 85": the end of a change takes the start's unit
            b.unit == "count"
            and a.unit in ("minutes", "days", "years", "months", "pct", "money")
            and re.fullmatch(r"\s*(?:to|down to|up to|→|->)\s*", text[a.end : b.start], re.IGNORECASE)
            and re.search(r"\bfrom\s+(?:about\s+|around\s+|~)?$", text[: a.start], re.IGNORECASE)
            and not re.match(r"\s*(?:[A-Za-z]{3,}|%)", text[b.end :])  # "from 45 minutes to 6 services"
        ):
            scale = 60.0 if a.unit == "minutes" and re.search(r"\bhours?\b", a.text) else 1.0
            out[i] = Quantity(b.value * scale, a.unit, b.text, b.start, b.end, b.tol * scale, b.hedge, b.sign, b.kind)
    for i in range(len(out) - 2, -1, -1):  # "fifty-five, fifty-six thousand": one figure said as a range
        a, b = out[i], out[i + 1]
        scale = next((k for k in (1e3, 1e6, 1e9) if a.value and 0.5 <= b.value / (a.value * k) <= 2), 0.0)
        if a.unit == "count" and a.kind == "words" == b.kind and scale and abs(a.value) < 1000 and re.fullmatch(
            r"\s*(?:,|or)\s*", text[a.end : b.start]
        ):
            low, high = sorted((a.value * scale, b.value))
            out[i : i + 2] = [Quantity((low + high) / 2, b.unit, text[a.start : b.end], a.start, b.end,
                                       (high - low) / 2 + b.tol, a.hedge or b.hedge, b.sign, b.kind)]
        elif a.unit == "count" and a.kind == "words" == b.kind and scale and abs(a.value) < 1000 and re.fullmatch(
            r"\s*(?:to|and|-|–)\s*", text[a.end : b.start]
        ):  # "between five and six million": two bounds of one scale
            out[i] = Quantity(a.value * scale, b.unit, a.text, a.start, a.end, a.tol * scale, a.hedge, a.sign, a.kind)
    for i in range(len(out) - 2, -1, -1):
        a, b = out[i], out[i + 1]
        if (
            a.unit == "count"
            and a.kind in ("digits", "words")
            and b.unit in ("pct", "money", "minutes", "hours", "years", "months", "days")
            and re.fullmatch(r"\s*(?:and|to|or|-|–|/|→|->|[≥≤]|[<>]=?)\s*", text[a.end : b.start])  # ("851 ≥ 730 days")
            and (not a.value or not b.value or max(abs(a.value), abs(b.value)) <= 20 * min(abs(a.value), abs(b.value)))
            and not (b.sign and not a.sign)
        ):  # ("P/L 9,115 → +241.97 %", "cost 39.81 → -27.66%": two figures of different kinds, not one range)
            compared = bool(re.search(r"[≥≤<>]", text[a.end : b.start]))  # ("≥ 730": the bound is the rule's)
            hedge = a.hedge if compared else a.hedge or b.hedge
            out[i] = Quantity(a.value, b.unit, a.text, a.start, a.end, a.tol, hedge, a.sign, a.kind)
    for i in range(len(out) - 2, -1, -1):  # "5 years 2 months", "three years and eight months": one duration
        a, b = out[i], out[i + 1]
        if (
            a.unit == "years"
            and b.unit == "months"
            and not re.search(r"\by(?:ea)?rs?\b", b.text, re.IGNORECASE)  # b is no compound itself
            and re.fullmatch(r"\s*,?\s*(?:and\s+)?(?:(?:about|around|roughly|nearly|almost|just over)\s+)?",
                             text[a.end : b.start])
        ):
            months = a.value * 12 + b.value
            out[i : i + 2] = [
                Quantity(months, "months", text[a.start : b.end], a.start, b.end, 1.0, a.hedge or b.hedge, 0, a.kind)
            ]
    return out
