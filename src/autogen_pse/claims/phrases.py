"""Figures written as words and signs other than number words: "tripled", "halved", "half an
hour", "¼", "sevenfold", "two dozen", "a decade", "twice"."""

from __future__ import annotations

import re
from collections.abc import Callable

from .quantities import _NUMERATORS, FRACTION_REL, MULTIPLE_REL, Quantity, _hedge_before, _overlaps

_MULTIPLE_VERBS = {
    "doubled": 2, "tripled": 3, "trebled": 3, "quadrupled": 4, "quintupled": 5,
    "doubling": 2, "tripling": 3, "trebling": 3, "quadrupling": 4,
}  # fmt: skip
_MULTIPLE_VERBS.update({"double": 2, "triple": 3, "treble": 3, "quadruple": 4})
_MULTIPLE_VERB_RE = re.compile(  # "double what it cost", not "double-check" or "double down"
    r"\b(" + "|".join(_MULTIPLE_VERBS) + r")\b(?<!double)(?<!triple)(?<!treble)(?<!quadruple)"
    r"|\b(double|triple|treble|quadruple)\b(?=\s+(?:what|its|their|the|his|her|our|your)\b)",
    re.IGNORECASE,
)
_TIME_PHRASES = {
    "half an hour": 30.0, "quarter of an hour": 15.0, "a quarter of an hour": 15.0, "three-quarters of an hour": 45.0,
    "three quarters of an hour": 45.0, "an hour and a half": 90.0, "a full day": 1440.0, "a whole day": 1440.0,
}  # fmt: skip
_TIME_PHRASE_RE = re.compile("|".join(sorted(map(re.escape, _TIME_PHRASES), key=len, reverse=True)), re.IGNORECASE)
_GLYPHS = {"¼": 25.0, "½": 50.0, "¾": 75.0, "⅓": 100 / 3, "⅔": 200 / 3, "⅕": 20.0}
_FOLDS = {**_NUMERATORS, "ten": 10, "twelve": 12, "twenty": 20}
_FOLD_RE = re.compile(  # "sevenfold"; "a ten-bagger" (worth ten times its cost)
    r"\b(two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)(?:fold|[\s-]bagger)\b", re.IGNORECASE
)
_DOZEN_RE = re.compile(
    r"\b(?:a|one|two|three|half\s+a)\s+dozen\b|\b(?:a|one)\s+decade\b"
    r"|\btwice\b(?=\s+(?:as|the|that|what|its|their|our|his|her|my|your)\b)", re.IGNORECASE  # not "moving money twice"
)
_DOZENS = {"a": 1, "one": 1, "two": 2, "three": 3, "half a": 0.5}


def phrase_quantities(text: str, taken: list[tuple[int, int]], add: Callable[[Quantity], None]) -> None:
    """Add each figure written as a phrase in ``text`` outside the ``taken`` spans."""
    for m in _MULTIPLE_VERB_RE.finditer(text):
        if _overlaps(taken, m.start(), m.end()):
            continue
        hedge, _h = _hedge_before(text, m.start())
        value = _MULTIPLE_VERBS[(m.group(1) or m.group(2)).lower()]
        add(Quantity(value, "multiple", m.group(0), m.start(), m.end(), value * MULTIPLE_REL, hedge, kind="multiple"))

    for m in re.finditer(r"\bhalv(?:ed|ing)\b", text, re.IGNORECASE):  # "halved p95 latency": down 50 %
        if not _overlaps(taken, m.start(), m.end()):
            hedge, _h = _hedge_before(text, m.start())
            if re.search(r"\b(?:and then some|or more|and more|at least)\b", text[m.end() : m.end() + 40], re.I):
                hedge = "over"  # "halved latency — and then some": 60 % is more than half
            add(Quantity(50.0, "pct", m.group(0), m.start(), m.end(), 50 * FRACTION_REL, hedge, kind="fraction"))

    for m in _TIME_PHRASE_RE.finditer(text):  # "half an hour", "a full day": minutes
        if not _overlaps(taken, m.start(), m.end()):
            hedge, _h = _hedge_before(text, m.start())
            minutes = _TIME_PHRASES[re.sub(r"\s+", " ", m.group(0).lower())]
            add(Quantity(minutes, "minutes", m.group(0), m.start(), m.end(), minutes * 0.1, hedge, kind="words"))

    for m in re.finditer(r"[¼½¾⅓⅔⅕]", text):  # "lighten by ~¼"
        if not _overlaps(taken, m.start(), m.end()):
            hedge, _h = _hedge_before(text, m.start())
            share = _GLYPHS[m.group(0)]
            add(Quantity(share, "pct", m.group(0), m.start(), m.end(), share * FRACTION_REL, hedge, kind="fraction"))

    for m in _FOLD_RE.finditer(text):  # "sevenfold", "tenfold" ("my concerns are twofold" is no figure)
        twofold = m.group(0).lower().endswith("fold") and bool(
            re.search(r"\b(?:is|are|was|were)\s+$", text[: m.start()], re.IGNORECASE)
        )  # "my concerns are twofold": a number of points, not a multiple
        if not _overlaps(taken, m.start(), m.end()) and not twofold:
            fold = float(_FOLDS[m.group(1).lower()])
            hedge, _h = _hedge_before(text, m.start())
            tol = fold * MULTIPLE_REL
            add(Quantity(fold, "multiple", m.group(0), m.start(), m.end(), tol, hedge, kind="multiple"))

    for m in _DOZEN_RE.finditer(text):
        if _overlaps(taken, m.start(), m.end()):
            continue
        word = m.group(0).lower()
        hedge, _h = _hedge_before(text, m.start())
        if "dozen" in word:
            n = _DOZENS[re.sub(r"\s+", " ", word.rsplit(" ", 1)[0])]
            add(Quantity(12 * n, "count", m.group(0), m.start(), m.end(), 0.5, hedge, kind="words"))
        elif "decade" in word:
            add(Quantity(10, "years", m.group(0), m.start(), m.end(), 0.5, hedge, kind="words"))
        else:
            add(Quantity(2, "multiple", m.group(0), m.start(), m.end(), 2 * MULTIPLE_REL, hedge, kind="multiple"))
