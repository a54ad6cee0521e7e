"""Quantities in free text, in every common form, with the precision they are written at.

``find_quantities(text)`` returns each figure once: digits (``1,200``, ``14.8``), currency (``$13k``,
``US$420,000``, ``€2.5m``), percentages (``15 %``, ``15 percent``, ``40 bps``), scales (``k``, ``m``,
``bn``, ``million``), number words (``eleven``, ``twenty-three`` — parsed by ``text2num``), fractions
(``a third``, ``two-thirds``, ``nearly half``), multiples (``5.8x``, ``six-fold``, ``tripled``,
``three times``) and durations (``500 days``, ``three years``, ``a decade``, ``45 minutes``).

A quantity carries a tolerance: half a unit of the last digit written (``15 %`` is true of 14.81 %,
``15.3 %`` is not; ``$13k`` is true of 12,882) and a hedge (``about``, ``nearly``, ``over``, ``under``)
that widens or bounds it. :func:`matches` is the one place that compares a written quantity with a
value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from .number_words import words_precision, words_value

Unit = str  # "pct" | "money" | "count" | "multiple" | "days" | "months" | "years" | "hours" | "minutes"

_AS_AS = re.compile(r"\s+as\s+[\w-]+\s+as\b", re.IGNORECASE)
HEDGE_REL = 0.075  # "about 15 %": within 7.5 % of the value as well as half a unit
FRACTION_REL = 0.10  # "a third" is 30–36.7 %
MULTIPLE_REL = 0.08  # "tripled" is 2.76–3.24 ×

_UNITS_WORDS = """
zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
""".split()
_SCALE_WORDS = ("hundred", "thousand", "million", "billion")
_NUMBER_WORD = "|".join(_UNITS_WORDS + list(_SCALE_WORDS))
_DIGIT_WORD = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
_WORD_SEQ = re.compile(  # "one hundred and twenty-seven thousand, one hundred and fifty-seven"; "… point eight five"
    rf"\b(?:{_NUMBER_WORD})(?:(?:[\s-]+|(?:(?<=hundred)|(?<=thousand)|(?<=million))\s+and\s+|\s+oh\s+|(?<=thousand),\s+|(?<=million),\s+)(?:{_NUMBER_WORD}))*\b"
    rf"(?:\s+point(?:[\s-]+(?:{_DIGIT_WORD}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    rf"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)\b)+(?:\s+(?:thousand|million|billion)\b)?)?",
    re.IGNORECASE,
)
# "… and a half", "… and a third", "… and two thirds" after a number in words ("two and a third years")
_AND_A_PART = re.compile(r"[\s-]+and[\s-]+(a|one|two|three)[\s-]+(halfs?|thirds?|quarters?)\b"
                         r"(?:\s+(thousand|million|billion)\b)?", re.IGNORECASE)
_TIME_AFTER = re.compile(r"\s+(?:years?|yrs?|months?|weeks?|days?|hours?|minutes?)\b", re.IGNORECASE)
_PARTS = {"a": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "half": 0.5, "third": 1 / 3, "quarter": 0.25}
_FRACTIONS = {
    "half": 1 / 2,
    "a half": 1 / 2,
    "one half": 1 / 2,
    "a third": 1 / 3,
    "one third": 1 / 3,
    "one-third": 1 / 3,
    "two thirds": 2 / 3,
    "two-thirds": 2 / 3,
    "a quarter": 1 / 4,
    "one quarter": 1 / 4,
    "one-quarter": 1 / 4,
    "three quarters": 3 / 4,
    "three-quarters": 3 / 4,
    "a fifth": 1 / 5,
    "one fifth": 1 / 5,
    "one-fifth": 1 / 5,
    "two fifths": 2 / 5,
    "two-fifths": 2 / 5,
    "a tenth": 1 / 10,
    "one tenth": 1 / 10,
    "one-tenth": 1 / 10,
    "a sixth": 1 / 6,
    "an eighth": 1 / 8,
}
_NUMERATORS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_DENOMINATORS = {"thirds": 3, "quarters": 4, "fifths": 5, "sixths": 6, "eighths": 8, "tenths": 10}
_FRACTIONS.update(
    {
        f"{n}{sep}{d}": nv / dv
        for n, nv in _NUMERATORS.items()
        for d, dv in _DENOMINATORS.items()
        for sep in (" ", "-")
        if nv < dv
    }
)
_FRACTION_RE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(k) for k in _FRACTIONS), key=len, reverse=True)) + r")\b", re.IGNORECASE
)

_CURRENCY_PREFIX = r"(?P<cur>US\$|USD\s?|\$|€|£|EUR\s?|GBP\s?)"
_NUM = r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<vulgar>[¼½¾⅓⅔⅛⅜⅝⅞])?"  # "23½"
_VULGAR = {"¼": 0.25, "½": 0.5, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875}
# a time that "m" after a figure gives in minutes: "deploy 45m→6m", "data delay 24h→15m"
_TIMED = re.compile(r"\b(?:deploy\w*|delays?|latency|build\w*|downtime|mttr|lead\s+time|\d+\s?h\s?→)", re.I)
_SCALE = r"(?P<scale>\s?(?:k|K|m|M|mn|MM|bn|b|B)(?![A-Za-z])|[\s-](?:thousand|million|billion|grand|[Mm]io)\b)?"
_AFTER = (
    r"(?P<after>\s?%|\s?(?:percent|per\s?cent|pct|percentage\s+points?|pp|pts?|points?|bps|basis\s+points)\b"
    r"|\s?(?:x|×)(?![A-Za-z])(?!\s*\(?\s*[$€£]?\d)|\s?-?fold\b|\s(?:times)\b|[\s-]baggers?\b"  # "a 3.4-bagger"
    r"|[\s-]?(?:days?|d|months?|mths?|mos?|years?|yrs?|y|hours?|hrs?|h|minutes?|mins?|weeks?)\b"
    r"|[\s-]?(?:DAYS?|MONTHS?|YEARS?|YRS?|HOURS?|HRS?|MINUTES?|MINS?|WEEKS?)\b"  # "11+ YEARS EXPERIENCE"
    r"|\s?(?:PCT|PERCENT|PTS?|POINTS?|BPS)\b"  # "-19.2 PCT", "+13.85 PTS OVER CAP": a terminal's capitals
    r"|\s?(?:USD|dollars?|EUR|euros?|GBP|pounds?)\b"
    r"|\s?[$€£](?!\w))?"  # "420 000 $", "12,50 €": the symbol after the figure (French, German usage)
)
_DIGITS = re.compile(
    rf"(?<![\w.,/\\:#'’^])(?:(?<![A-Za-z_]-)|(?<=\bsub-))(?<!\d{4}-)(?<![Qq][1-4]-)(?<![Qq][1-4]\s)(?P<sign>[-+−–](?=(?:US\$|\$|€|£)?\d))?\s?{_CURRENCY_PREFIX}?{_NUM}{_SCALE}(?P<plus>\+)?{_AFTER}"
)
_WORD_AFTER = re.compile(
    r"^(?P<after>\s?%|\s(?:percent|per\s?cent|percentage\s+points?)\b|\s?-?fold\b|\s(?:times)\b"
    r"|[\s-](?:days?|months?|years?|yrs?|hours?|minutes?|weeks?)\b|\s(?:US\s)?dollars?\b|\s(?:grand|[kK])\b"
    r"|\sbucks\b)?"
)

_HEDGES = [
    ("about", r"about|around|roughly|approximately|approx\.?|circa|c\.|some|an estimated|~|≈|±"),
    (
        "nearly",
        r"nearly|almost|close\s+to|just\s+(?:under|shy\s+of|below)|not\s+quite|a\s+(?:little|bit)\s+(?:under|below|"
        r"less\s+than)|slightly\s+(?:under|below|less\s+than)",
    ),
    (
        "just_over",
        r"just\s+(?:over|above|past|north\s+of)|a\s+(?:little|bit)\s+(?:over|above|more\s+than)|slightly\s+"
        r"(?:over|above|more\s+than)",
    ),
    (
        "over",
        r"over|more\s+than|above|north\s+of|upwards\s+of|at\s+least|well\s+over|in\s+excess\s+of"
        r"|exceeding|better\s+than|greater\s+than|worse\s+than|deeper\s+than|longer\s+than|beyond|past|>|≥"
        r"|(?:larger|bigger|greater|deeper|worse)\s+(?:[a-z-]+\s+){1,2}than",  # "a larger drawdown than 20%"
    ),
    (
        "under",
        r"under|less\s+than|below|at\s+most|(?<!\badd\s)(?<!\badds\s)(?<!\badded\s)(?<!\bsum\s)(?<!\bsums\s)"
        r"(?<!\bcome\s)(?<!\bcomes\s)up\s+to|no\s+more\s+than|well\s+under|fewer\s+than|within"  # not "add up to"
        r"|<|≤|shy\s+of|short\s+of|shorter\s+than|(?:smaller|shallower)\s+(?:[a-z-]+\s+){1,2}than|\bsub-",
    ),
]
_HEDGE_RE = re.compile(
    r"(?:" + "|".join(f"(?P<{name}>(?:{pat}))" for name, pat in _HEDGES) + r")\s*(?:a\s+|an\s+)?$", re.IGNORECASE
)

_TIME_UNITS = {
    "day": "days", "days": "days", "d": "days", "week": "weeks", "weeks": "weeks", "month": "months",
    "months": "months", "mth": "months", "mths": "months", "mo": "months", "mos": "months", "year": "years",
    "years": "years", "yr": "years", "yrs": "years", "y": "years", "hour": "hours", "hours": "hours", "hr": "hours",
    "hrs": "hours", "h": "hours", "minute": "minutes", "minutes": "minutes", "min": "minutes", "mins": "minutes",
}  # fmt: skip
_SCALES = {
    "k": 1e3,
    "thousand": 1e3,
    "grand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "mio": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}


@dataclass(frozen=True)
class Quantity:
    """One figure as written. ``value`` is in the unit's base (percent points for ``pct``)."""

    value: float
    unit: Unit
    text: str
    start: int
    end: int
    tol: float  # half a unit of the last digit written, in ``value``'s scale
    hedge: str = ""  # "" | about | nearly | just_over | over | under
    sign: int = 0  # +1 / -1 when a sign is written
    kind: str = "digits"  # digits | words | spoken (read out in groups) | fraction | multiple

    def describe(self) -> str:
        return self.text


def _precision(num: str) -> float:
    """Half a unit of the last digit written: "14.81" → 0.005, "15" → 0.5, "13,000" → 500."""
    plain = num.replace(",", "")
    if "." in plain:
        return 0.5 * 10 ** -len(plain.split(".")[1])
    if len(plain) >= 4:  # "13,000" or "2000": trailing zeros of a large figure are rounding
        zeros = len(plain) - len(plain.rstrip("0"))
        return 0.5 * 10**zeros
    return 0.5


def _hedge_before(text: str, start: int) -> tuple[str, int]:
    """The hedge written just before ``start`` and where it begins (``("", start)`` when none)."""
    window = text[max(0, start - 30) : start]
    m = _HEDGE_RE.search(window)
    if not m:
        return "", start
    name = next(n for n, _p in _HEDGES if m.group(n))
    return name, start - (len(window) - m.start())


_MONEY_AFTER = frozenset("usd dollar dollars eur euro euros gbp pound pounds bucks $ € £".split())


def _unit_from_after(after: str, cur: str) -> tuple[Unit, float]:
    """``(unit, multiplier)`` of a suffix such as ``%``, ``bps``, ``x``, ``days``, ``USD``."""
    a = re.sub(r"\s+", " ", after.strip().lower()).lstrip("-")
    if cur or a in _MONEY_AFTER:
        return "money", 1.0
    if a in ("grand", "k"):  # "fifty-one grand", "forty-six K"
        return "money", 1e3
    if a in ("%", "percent", "per cent", "pct", "pp", "pt", "pts", "point", "points") or a.startswith("percentage"):
        return "pct", 1.0
    if a in ("bps", "basis points"):
        return "pct", 0.01
    if a in ("x", "×", "fold", "times", "bagger", "baggers"):
        return "multiple", 1.0
    unit = _TIME_UNITS.get(a, "count")
    if unit == "hours":
        return "minutes", 60.0  # process times compare in one unit: "24 hours" is 1,440 minutes
    return unit, 1.0


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in spans)


def _word_sequences(text: str, taken: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """Figures in words outside ``taken`` (read lazily: spans taken meanwhile count); a run that
    overlaps a taken span (a date: "January two thousand, ten years") is read again after it."""
    pos = 0
    while (m := _WORD_SEQ.search(text, pos)) is not None:
        inside = [e for s, e in taken if s < m.end() and m.start() < e]
        if inside:
            pos = max(max(inside), m.start() + 1)
            continue
        pos = m.end()
        yield m


def find_quantities(text: str, skip: list[tuple[int, int]] | None = None) -> list[Quantity]:
    """Every quantity of ``text`` in order; spans in ``skip`` (dates, names with digits) are ignored."""
    taken: list[tuple[int, int]] = list(skip or [])
    out: list[Quantity] = []

    def add(q: Quantity) -> None:
        out.append(q)
        taken.append((q.start, q.end))

    for m in _DIGITS.finditer(text):
        if _overlaps(taken, m.start("num"), m.end("num")):
            continue
        nxt = text[m.end() : m.end() + 1]
        if nxt and (nxt.isalnum() or nxt == "_") and nxt not in "²³" and not m.group("after"):
            continue  # glued to letters: "3rd", "p95", "EC2" (not a power: "0.4385²")
        num, cur, after = m.group("num"), (m.group("cur") or "").strip(), m.group("after") or ""
        scale = (m.group("scale") or "").strip().strip("-").strip().lower()
        value = float(num.replace(",", "")) + _VULGAR.get(m.group("vulgar") or "", 0.0)
        tol = _precision(num) if not m.group("vulgar") else 0.125
        mult = _SCALES.get(scale, 1.0)
        if scale == "m" and not cur and not after:
            # "6 m" without a currency is not millions: "(36 m)" in a dashboard is months
            mult = 1e6 if (m.group("scale") or "").strip() == "M" else 1.0
            timed = mult == 1.0 and _TIMED.search(text, max(0, m.start() - 30), m.start())
            if mult == 1.0 and (timed or re.match(r"\s*[),:;]", text[m.end() :])):
                add(
                    Quantity(
                        value,
                        "minutes" if timed else "months",  # "(deploy 45m→6m)": minutes
                        text[m.start("num") : m.end()],
                        m.start("num"),
                        m.end(),
                        tol,
                        _hedge_before(text, m.start("num"))[0],
                    )
                )
                continue
        value, tol = value * mult, tol * mult
        unit, factor = _unit_from_after(after, cur)
        if unit == "count" and mult != 1.0 and cur == "" and re.match(r"\s?(?:USD|dollars?)", after or ""):
            unit = "money"
        value, tol = value * factor, tol * factor
        sign_text = m.group("sign") or ("-" if re.search(r"\bminus\s*$", text[max(0, m.start() - 7):m.start()],
                                                          re.IGNORECASE) else "")
        sign = -1 if sign_text in ("-", "−", "–") else (1 if sign_text == "+" else 0)
        start = m.start("sign") if m.group("sign") else (m.start("cur") if cur else m.start("num"))
        hedge, _h = _hedge_before(text, start)
        post = re.match(r"\s*(?:or\s+(?:worse|more|higher|above|greater|better|longer|deeper)|plus\b)|\+(?![\d\w])",
                        text[m.end() :])  # "80%+"
        if m.group("plus") or post:
            hedge = "over"
        elif re.match(r"\s*or\s+(?:less|lower|below|fewer|shorter)", text[m.end() :]):
            hedge = "under"
        add(Quantity(value * (sign or 1), unit, text[start : m.end()].strip(), start, m.end(), tol, hedge, sign))

    from .phrases import phrase_quantities  # words and signs for figures (imported late: it uses Quantity)

    phrase_quantities(text, taken, add)

    for m in _FRACTION_RE.finditer(text):
        if _overlaps(taken, m.start(), m.end()) or re.search(
            rf"\b(?:{_NUMBER_WORD}|\d+)[\s-]+and[\s-]+(?:a-)?$", text[max(0, m.start() - 16) : m.start()], re.IGNORECASE
        ):
            continue  # "three and a half" ("three-and-a-half") is one number
        frac = _FRACTIONS[m.group(1).lower()]
        if m.group(1).lower() == "half" and re.search(r"\b(?:in|by)\s+$", text[max(0, m.start() - 4) : m.start()]):
            hedge, _h = _hedge_before(text, m.start())
            if re.search(r"\b(?:and then some|or more|and more|at least)\b", text[m.end() : m.end() + 40], re.I):
                hedge = "over"  # "halved latency — and then some": 60 % is more than half
            add(Quantity(50.0, "pct", m.group(0), m.start(), m.end(), 50 * FRACTION_REL, hedge, kind="fraction"))
            continue
        if re.match(
            r"\s*(?:a|an|of\s+a|of\s+an)?\s*(?:hour|day|year|month|decade|point)", text[m.end() : m.end() + 14]
        ):
            continue  # "half an hour", "half a point": not a share
        hedge, _h = _hedge_before(text, m.start())
        if _AS_AS.match(text, m.end()):  # "about half as volatile as Amazon": a ratio of two facts
            add(Quantity(frac, "multiple", m.group(0), m.start(), m.end(), frac * FRACTION_REL, hedge, kind="fraction"))
            continue
        add(
            Quantity(
                frac * 100, "pct", m.group(0), m.start(), m.end(), frac * 100 * FRACTION_REL, hedge, kind="fraction"
            )
        )

    for m in _word_sequences(text, taken):
        phrase = m.group(0)
        if phrase.lower() in ("zero", "one") and (
            not re.match(r"\s+(?:holding|position|stock|name|engineer|team|client|year|day|month)", text[m.end() :])
            or re.search(r"\b(?:any|each|every|no|a single)\s+$", text[max(0, m.start() - 10) : m.start()], re.I)
            or re.match(rf"\s+\w+\s+of\s+(?:\d|(?:{_NUMBER_WORD})\b)", text[m.end() :], re.I)  # "one team of six"
        ):
            continue  # "one" is mostly a pronoun: only a count before a counted noun
        read = words_value(phrase)
        if read is None:
            continue
        value = read
        spoken = value < 0  # digits read out in groups: 51,267 or, as a price, 38.45 ("thirty-eight forty-five")
        value = abs(value)
        half = _AND_A_PART.match(text, m.end())
        if half and not half.group(2).lower().startswith("half") and not _TIME_AFTER.match(text, half.end()):
            half = None  # "two and a third years" is one figure; "… about two and a third —" is left as it was
        half_scale = _SCALES[half.group(3).lower()] if half and half.group(3) else 1.0
        if half:  # "seventeen and a half thousand dollars": 17,500; "two and a third years": 2.33
            value = (value + _PARTS[half.group(2).lower().rstrip("s")] * _PARTS[half.group(1).lower()]) * half_scale
            taken.append((m.end(), half.end()))
        rest = text[half.end() if half else m.end() :][:22]
        am = _WORD_AFTER.match(rest)
        after = am.group("after") or "" if am else ""
        unit, factor = _unit_from_after(after, "")
        end = (half.end() if half else m.end()) + len(after)
        cents = re.match(rf"\s+and\s+((?:{_NUMBER_WORD})(?:[\s-]+(?:{_NUMBER_WORD}))?)\s+cents\b", text[end:], re.I)
        if unit == "money" and not cents and after.strip():  # "… ninety dollars fifty"
            cents = re.match(
                rf"\s+((?:{_NUMBER_WORD})(?:[\s-]+(?:{_NUMBER_WORD}))?)(?=\s*(?:[.,;)]|$))", text[end:], re.I
            )
        if unit == "money" and cents and (words_value(cents.group(1)) or 0) < 100:  # "… dollars and sixty cents"
            value += (words_value(cents.group(1)) or 0) / 100
            end += cents.end()
        minus = re.search(r"\bminus\s+$", text[max(0, m.start() - 7) : m.start()], re.IGNORECASE)  # "minus ten"
        hedge, _h = _hedge_before(text, m.start() - (len(minus.group(0)) if minus else 0))
        add(
            Quantity(
                value * factor * (-1 if minus else 1),
                unit,
                text[m.start() : end],
                m.start(), end,
                (0.25 * half_scale if half
                 else _SCALES.get(phrase.lower().rsplit(None, 1)[-1], 1.0) * words_precision(phrase))
                * (100 if phrase.lower().endswith("hundred") else 1)
                * factor,
                hedge, -1 if minus else 0,
                kind="spoken" if spoken else "words",
            )
        )

    out.sort(key=lambda q: q.start)
    from .joins import shared_units  # (imported late: it imports Quantity from here)

    # "the deployment time divided by ten", "cut deploy times by a factor of twelve": a multiple
    out = [replace(q, unit="multiple") if q.unit == "count" and q.value >= 2
           and _FACTOR_BEFORE.search(text, max(0, q.start - 24), q.start) else q for q in out]
    return shared_units(text, out)


# ("one divided by 0.274" is a computation)
_FACTOR_BEFORE = re.compile(
    r"(?<!\d )(?<!one )\b(?:divided\s+by|(?:by\s+)?a\s+factor\s+of)\s+(?:about\s+|roughly\s+)?$", re.IGNORECASE
)



def matches(q: Quantity, value: float, *, signed: bool = True) -> bool:
    """Is ``q`` (as written, with its precision and hedge) true of ``value``?

    Without an explicit sign magnitudes are compared (direction words are checked apart);
    ``signed=False`` compares magnitudes even when a sign is written. Plain digits may be rounded
    or truncated at the precision written ("43.8 %" and "43.9 %" are both true of 43.85 %).
    """
    if signed and q.sign and value != 0 and (value < 0) != (q.value < 0):
        return False
    x = abs(q.value)
    shown = abs(float(Decimal(repr(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)))
    # "43.9 %" is the displayed 43.85 % rounded again: accept the figure as shown to two decimals too
    return any(_matches_magnitude(q, x, v) for v in {abs(value), shown})


def _matches_magnitude(q: Quantity, x: float, v: float) -> bool:
    if q.kind == "spoken" and abs(x / 100 - v) <= q.tol / 100 + 1e-9:  # "thirty-eight forty-five": $38.45
        return True
    tol = q.tol + 1e-9 + v * 1e-6
    if q.kind == "digits" and q.tol < 0.0005 <= v:  # "10.130775" printed by a program: true of 10.13 as shown
        tol = max(tol, 0.005 + 1e-9)
    if q.hedge == "about":  # "about 15 %" is loose; "about $137.2k" is precise to a few tenths of a percent
        rel = HEDGE_REL if q.kind != "digits" or q.tol * 2 >= x * 0.05 else max(4 * q.tol / max(x, 1e-9), 0.01)
        return abs(x - v) <= max(tol, x * rel)
    if q.hedge == "nearly":
        return x * (1 - 2 * HEDGE_REL) - tol <= v <= x + tol
    if q.hedge == "just_over":
        return x - tol <= v <= x * (1 + 2 * HEDGE_REL) + tol
    if q.hedge == "over":
        return x - tol <= v
    if q.hedge == "under":
        return v <= x + tol
    if abs(x - v) <= tol:
        return True
    if q.unit in ("count", "units") and v == round(v):
        return False  # a whole count is not truncated: "2" is not true of 3
    return q.kind in ("digits", "words") and v - 2 * q.tol - 1e-9 <= x <= v  # "… two sixty-six" of 51,266.60


def as_percent(q: Quantity) -> Quantity | None:
    """A fraction printed by a program ("0.4712", "-0.5691", "4.800260": three or more decimals, or
    two below one: "max_position_weight = 0.30"; no unit) read as the percentage it is (47.12 %), or None."""
    if q.unit != "count" or q.kind != "digits" or abs(q.value) >= 20:
        return None
    digits = re.search(r"\.(\d+)", q.text)
    if digits is None or len(digits.group(1)) < (2 if abs(q.value) < 1 else 3):
        return None
    return Quantity(q.value * 100, "pct", q.text, q.start, q.end, q.tol * 100, q.hedge, q.sign, q.kind)


def precise(q: Quantity) -> bool:
    """``q`` is written to four or more significant digits, unhedged ("43.85%", "$223.02"), or is a
    whole count of days or shares of two or more digits ("3,712 days", "79 shares"): a figure that
    equals a fact to every digit is that fact, whatever the sentence calls it."""
    if q.kind != "digits" or q.hedge:
        return False
    digits = re.sub(r"\D", "", q.text).lstrip("0")
    return (len(digits) >= 4 and "." in q.text) or (q.unit in ("days", "units") and len(digits) >= 2)
