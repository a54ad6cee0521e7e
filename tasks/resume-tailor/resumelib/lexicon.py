"""Numbers (percentages, money, counts, multipliers) and technology names in free text.

Numbers are normalised to ``(kind, value, currency)``: ``"1,200"`` and ``"1200"`` are the count
1200; ``"$2M"``, ``"$2 million"`` and ``"$2,000,000"`` are the money value 2e6 USD; ``"35%"`` and
``"35 percent"`` the percentage 35; ``"3x"``/``"3 times"`` the multiplier 3. Dates, phone
numbers, e-mail addresses, URLs, version numbers, redaction placeholders and digits that are
part of a name (``EC2``, ``p95``, ``S3``) are not numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from autogen_pse.redact import PLACEHOLDER_RE, find_emails, find_phones

from .text import DATE_RE

_CURRENCY = {
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "usd": "USD",
    "eur": "EUR",
    "gbp": "GBP",
    "chf": "CHF",
    "cad": "CAD",
    "aud": "AUD",
    "sek": "SEK",
    "nok": "NOK",
    "dkk": "DKK",
    "jpy": "JPY",
}
_MULT = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}
NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "dozen": 12,
}

_NUM = re.compile(
    r"(?P<cur>[$€£¥]\s?|\b(?:USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|JPY)\s?)?"
    r"(?<![\w.,/])"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{1,2}(?!\d)|\d+(?:\.\d+)?)"
    r"(?![.,]?\d)"
    r"(?:\s?(?P<mult>k|mn|mm|m|bn|b|thousand|million|billion)(?![A-Za-z]))?"
    r"(?P<plus>\+)?"
    r"(?:\s?(?P<pct>%|percent\b|per\s?cent\b|pct\b))?"
    r"(?:\s?(?P<x>[x×](?![A-Za-z0-9])|times\b))?"
    r"(?:\s?(?P<cur2>[$€£¥]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|JPY)\b))?",
    re.IGNORECASE,
)
_URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w.-]+\.(?:com|org|io|dev|net|co\.uk|me|app)(?:/\S*)?", re.I)
_VERSION = re.compile(r"\bv?\d+(?:\.\d+){2,}\b")
_LIST_MARK = re.compile(r"^(\s*)(\d{1,2}[.)])(?=\s)", re.M)
_FACT_REF = re.compile(r"\{\{\s*fact:[^}]*\}\}")
_NAME_DIGITS = re.compile(r"\b[A-Za-z]+\d+[A-Za-z\d]*\b")


@dataclass(frozen=True)
class NumberClaim:
    """One number in a text. ``kind``: ``percent`` | ``money`` | ``count`` | ``multiplier``."""

    kind: str
    value: float
    currency: str
    text: str
    span: tuple[int, int]
    context: tuple[str, ...] = ()  # up to 3 significant words after the number (its unit: "years")


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by spaces (positions are kept)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def non_claim_spans(text: str, *, dates: bool = True) -> list[tuple[int, int]]:
    """Spans that hold no number claim: e-mails, phones, URLs, placeholders, fact references,
    versions, list markers, names with digits (EC2, p95) and — when ``dates`` — dates."""
    spans = find_emails(text) + find_phones(text)
    for rx in (_URL, PLACEHOLDER_RE, _FACT_REF, _VERSION, _NAME_DIGITS):
        spans += [m.span() for m in rx.finditer(text)]
    spans += [m.span(2) for m in _LIST_MARK.finditer(text)]
    if dates:
        spans += [m.span() for m in DATE_RE.finditer(text)]
    return spans


def find_numbers(text: str) -> list[NumberClaim]:
    """Every number claim in ``text`` (see the module docstring for what is excluded)."""
    masked = mask(text, non_claim_spans(text))
    out = []
    for m in _NUM.finditer(masked):
        raw = m.group("num")
        decimal_comma = re.fullmatch(r"\d+,\d{1,2}", raw) is not None  # "12,7" (European 12.7)
        value = float(raw.replace(",", ".") if decimal_comma else raw.replace(",", ""))
        mult = (m.group("mult") or "").lower()
        value *= _MULT.get(mult, 1.0)
        cur = (m.group("cur") or m.group("cur2") or "").strip().lower()
        if m.group("pct"):
            kind = "percent"
        elif cur:
            kind = "money"
        elif m.group("x"):
            kind = "multiplier"
        else:
            kind = "count"
        start = m.start("cur") if m.group("cur") else m.start("num")
        out.append(
            NumberClaim(
                kind,
                value,
                _CURRENCY.get(cur, ""),
                text[start : m.end()].strip(),
                (start, m.end()),
                context_after(text, m.end()),
            )
        )
    return out


_UNIT_SKIP = frozenset(["of", "a", "an", "the", "to", "per", "in", "and", "or", "at", "over", "across"])
_UNIT_ALIAS = {
    "yrs": "years",
    "yr": "year",
    "mins": "minutes",
    "min": "minutes",
    "hrs": "hours",
    "hr": "hour",
    "secs": "seconds",
    "sec": "seconds",
    "mo": "months",
    "mos": "months",
    "ppl": "people",
}


def context_after(text: str, end: int) -> tuple[str, ...]:
    """Up to 3 significant lower-case words right after position ``end`` (same sentence)."""
    rest = re.split(r"[.;:!?()\n]", text[end:], maxsplit=1)[0]
    words = [_UNIT_ALIAS.get(w, w) for w in re.findall(r"[a-z]+", rest.lower())]
    return tuple(w for w in words if w not in _UNIT_SKIP)[:3]


def _same_unit(unit: str, context: list[str] | tuple[str, ...]) -> bool:
    return any(w[:4] == unit[:4] for w in context)


def word_numbers(text: str) -> list[tuple[float, tuple[str, ...]]]:
    """Number words with their context (``"six engineers"`` → ``(6, ("engineers",))``); CV side only."""
    return [
        (float(NUMBER_WORDS[m.group(0).lower()]), context_after(text, m.end()))
        for m in re.finditer(r"[A-Za-z]+", text)
        if m.group(0).lower() in NUMBER_WORDS
    ]


def number_supported(claim: NumberClaim, cv_numbers: list[dict[str, object]]) -> bool:
    """A claim is supported by a CV number of the same value and a compatible kind: percent and
    money need the same kind (money: same currency when both say one); a multiplier may match a
    count; a bare count matches any kind. A count followed by a word (its unit: "12 years") that
    matches a CV count needs the same unit near the CV's number ("12 clients" does not support it)."""
    for n in cv_numbers:
        value = float(n["value"])  # type: ignore[arg-type]
        if abs(value - claim.value) > 1e-9 * max(1.0, abs(value)):
            continue
        kind = n["kind"]
        context = n.get("context") or ()
        if (
            claim.kind == "count"
            and kind == "count"
            and claim.context
            and context
            and not _same_unit(claim.context[0], context)
        ):  # type: ignore[arg-type]
            continue
        if claim.kind == "count" or claim.kind == kind:
            if claim.kind == "money" and claim.currency and n["currency"] and claim.currency != n["currency"]:
                continue
            return True
        if claim.kind == "multiplier" and kind == "count":
            return True
    return False


# --- technologies ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tech:
    canonical: str
    names: tuple[str, ...]  # names prefixed with "!" match case-sensitively


def parse_vocab(text: str) -> list[Tech]:
    """Parse ``technologies.txt`` (``Canonical | alias | !CaseSensitiveAlias``, ``#`` comments)."""
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0] if raw.lstrip().startswith("#") else raw
        names = tuple(n.strip() for n in line.split("|") if n.strip())
        if names:
            out.append(Tech(names[0].lstrip("!"), names))
    return out


_LEFT = r"(?<![A-Za-z0-9_.+#-])"
_RIGHT_CI = r"(?![A-Za-z0-9_+#]|\.[A-Za-z0-9])"
_RIGHT_CS = r"(?![A-Za-z0-9_+#-]|\.[A-Za-z0-9])"


class TechMatcher:
    """Find technology names (longest name wins; overlapping shorter names are dropped)."""

    def __init__(self, techs: tuple[Tech, ...]):
        self.ci: dict[str, str] = {}
        self.cs: dict[str, str] = {}
        for tech in techs:
            for name in tech.names:
                if name.startswith("!"):
                    self.cs.setdefault(name[1:], tech.canonical)
                else:
                    self.ci.setdefault(name.lower(), tech.canonical)
        self._ci = self._compile(self.ci, case_sensitive=False)
        self._cs = self._compile(self.cs, case_sensitive=True)

    @staticmethod
    def _compile(names: dict[str, str], *, case_sensitive: bool) -> re.Pattern[str] | None:
        if not names:
            return None
        alts = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
        right = _RIGHT_CS if case_sensitive else _RIGHT_CI
        return re.compile(f"{_LEFT}(?:{alts}){right}", 0 if case_sensitive else re.IGNORECASE)

    def find(self, text: str) -> list[tuple[str, str, tuple[int, int]]]:
        """``(canonical, matched_text, span)`` for each technology mention, in order."""
        masked = mask(text, find_emails(text) + [m.span() for m in _URL.finditer(text)])
        found: list[tuple[str, str, tuple[int, int]]] = []
        if self._ci is not None:
            found += [(self.ci[m.group(0).lower()], m.group(0), m.span()) for m in self._ci.finditer(masked)]
        if self._cs is not None:
            for m in self._cs.finditer(masked):
                if not any(s < m.end() and m.start() < e for _, _, (s, e) in found):
                    found.append((self.cs[m.group(0)], m.group(0), m.span()))
        return sorted(found, key=lambda f: f[2])


@lru_cache(maxsize=16)
def matcher_for(techs: tuple[Tech, ...]) -> TechMatcher:
    return TechMatcher(techs)
