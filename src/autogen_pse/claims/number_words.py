"""The value of a figure written in words, as people write and dictate them: "one hundred and
twenty-seven", "fifty-three hundred", "forty-three point eight five", "fifty-five thousand seven
fifty-five", "thirty-eight forty-five" (digits read out in groups)."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=4096)
def words_value(phrase: str) -> float | None:
    """The value of a figure in words: "one hundred and twenty-seven", "fifty-three hundred",
    "forty-three point eight five", "forty-six thousand one hundred forty-two fifty" (and cents);
    a negative value marks digits read out in groups ("fifty-one two sixty-seven", "thirty-eight
    forty-five"); ``None`` when the words are no single number."""
    from text_to_num import alpha2digit, text2num

    cleaned = re.sub(r"\s+and\s+", " ", phrase.lower().replace("-", " ").replace(",", " ")).strip()
    scaled = _POINT_SCALE.search(cleaned)
    if scaled:  # "one point two thousand": 1,200
        base = words_value(cleaned[: scaled.start(1)].strip())
        return base * _SCALES[scaled.group(1)] if base is not None and base >= 0 else None
    digits = alpha2digit(re.sub(r"\boh\b", "zero", cleaned), "en")
    left, thousand, right = cleaned.partition(" thousand ")
    if thousand and "point" not in right:  # "fifty-five thousand seven fifty-five": 55,755
        try:
            rest = _grouped(alpha2digit(re.sub(r"\boh\b", "zero", right), "en"))
            return float(text2num(left, "en")) * 1000 + rest if rest is not None else None
        except ValueError:
            return None
    grouped = _grouped(digits) if "point" not in cleaned else None
    if grouped is not None:
        return grouped
    if re.fullmatch(r"\d{1,2}(?: \d{1,2})?(?: \d\d)", digits):  # read out in groups
        return -float(digits.replace(" ", ""))
    try:
        return float(text2num(cleaned, "en"))
    except ValueError:
        pass
    if " point " in f" {cleaned} " or "hundred" in cleaned:
        digits = digits.replace(" ", "")
    return float(digits) if re.fullmatch(r"\d+(?:\.\d+)?", digits) else None


def _grouped(digits: str) -> float | None:
    """Digits read out in groups after the thousands: "7 55" is 755, "142 50" is 142.50 (and cents),
    "890" is 890; ``None`` for other groupings."""
    groups = digits.split()
    if len(groups) == 1 and groups[0].isdigit():
        return float(groups[0])
    if len(groups) == 2 and all(g.isdigit() for g in groups) and len(groups[1]) == 2:
        if len(groups[0]) == 1:
            return float(groups[0]) * 100 + float(groups[1])
        if len(groups[0]) >= 3:
            return float(groups[0]) + float(groups[1]) / 100
    return None


_POINT_SCALE = re.compile(r"\bpoint\b.*\s(thousand|million|billion)$")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}


def words_precision(phrase: str) -> float:
    """Half a unit of the last place a figure in words is spoken to ("point eight five": 0.005; "one
    point two thousand": 0.05, in thousands)."""
    scaled = _POINT_SCALE.search(phrase.lower())
    if scaled:
        return words_precision(phrase[: scaled.start(1)].strip())
    decimals = re.search(r"\bpoint\b(.*)$", phrase, re.IGNORECASE)
    if not decimals:
        return 0.5
    from text_to_num import alpha2digit

    spoken = alpha2digit(decimals.group(1).lower().replace("-", " ").replace(" oh", " zero"), "en")
    return 0.5 * 10 ** -max(1, len(re.sub(r"\D", "", spoken)))
