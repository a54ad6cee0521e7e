"""Optional redaction of e-mail addresses and phone numbers before text goes to a remote model.

A :class:`Redactor` replaces each distinct address or number with a stable placeholder
(``[[EMAIL_1]]``, ``[[PHONE_1]]``, ...) and remembers the mapping **in memory only**:

* the same value always gets the same placeholder within one redactor (phone numbers are compared
  by their digits, so ``+44 7700 900123`` and ``+447700900123`` share one placeholder; e-mail
  addresses case-insensitively);
* :meth:`Redactor.restore` puts the original text back (used for the final artifact only);
* the mapping is never serialised: ``repr()`` shows counts only, pickling and copying raise
  ``TypeError``. Everything recorded while a run goes on (messages, events, ``trace.json``) holds
  the *redacted* form; only the restored artifact file holds the real values.

Phone detection accepts international and national formats (``+44 20 7946 0958``,
``+1 (555) 123-4567``, ``0049 30 1234 5678``, ``555.123.4567``, ``07700 900123``) and rejects dates
(``2020-03-15``, ``15.03.2020``, ``03/2017 - 02/2020``), years and year ranges (``2019 - 2021``),
money (``$1,200,000``, ``€ 125 000 000``), IPv4 addresses and version numbers.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

__all__ = ["EMAIL_RE", "PLACEHOLDER_RE", "Redactor", "find_emails", "find_phones"]

EMAIL_RE = re.compile(
    r"(?<![\w.+%-])"
    r"(?:mailto:)?"
    r"(?P<addr>[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})"
    r"(?![\w-]|\.[A-Za-z0-9])"
)

# A phone candidate: optional "+" / "00" / "(", digits and single separators (space . - and
# parentheses around an area code). Validated further by _is_phone.
_PHONE_CANDIDATE = re.compile(
    r"(?<![\w+$€£¥/.,-])"
    r"(?P<num>(?:\+|\(\+?)?\d[\d().\- \u00a0]{5,24}\d\)?)"
    r"(?![\w%€$£/]|[.,]\d|-\d)"
)
_CURRENCY_BEFORE = re.compile(r"(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|INR|SEK|NOK|DKK))\s*\Z", re.I)
_CURRENCY_AFTER = re.compile(
    r"\A\s*(?:[$€£¥%]|(?:USD|EUR|GBP|CHF|JPY|k|m|bn|million|billion|thousand|percent)\b)", re.I
)
_DATE_SHAPE = re.compile(
    r"(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])"
    r"|(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:19|20)\d{2}"
)
_YEAR = re.compile(r"(?:19|20)\d{2}")
_GROUP_SPLIT = re.compile(r"[\s().\-\u00a0]+")
PLACEHOLDER_RE = re.compile(r"\[\[\s*(EMAIL|PHONE)_(\d+)\s*\]\]")


def _is_phone(raw: str, before: str, after: str) -> bool:
    """Decide whether a candidate digit run is a phone number (see module docstring)."""
    digits = re.sub(r"\D", "", raw)
    intl = raw.startswith(("+", "(+")) or raw.startswith("00")
    has_paren = "(" in raw
    if raw.count("(") != raw.count(")"):
        return False
    if re.search(r"[ .\-\u00a0]{2,}", raw.replace(") ", ")").replace(" (", "(")):
        return False  # doubled separators: a list of numbers, not one phone number
    if not intl and "." in raw and re.search(r"[\s\u00a0]", raw):
        return False  # "0.5 0.25 0.75": a list of decimals
    if not 8 <= len(digits) <= 15:
        return False
    if not intl and not has_paren and len(digits) < 9:
        return False
    if _CURRENCY_BEFORE.search(before) or _CURRENCY_AFTER.match(after):
        return False
    if _DATE_SHAPE.search(raw):
        return False
    groups = [g for g in _GROUP_SPLIT.split(raw.strip("+")) if g]
    if len(groups) > 1 and all(len(g) == 4 and _YEAR.fullmatch(g) for g in groups):
        return False  # "2019 - 2021", "2019 2020 2021"
    if len(groups) == 1 and not intl and not digits.startswith("0"):
        return False  # an unseparated run of digits: an id or an amount, not a phone number
    is_ipv4 = (
        not intl
        and set(raw) <= set("0123456789.")
        and len(groups) == 4
        and all(len(g) <= 3 and int(g) <= 255 for g in groups)
    )
    return not is_ipv4  # "192.168.0.1" is an address, not a phone number


def find_emails(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character spans of e-mail addresses in ``text`` (a ``mailto:`` included)."""
    return [m.span() for m in EMAIL_RE.finditer(text or "")]


def find_phones(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character spans of phone numbers in ``text``, in order."""
    spans: list[tuple[int, int]] = []
    for m in _PHONE_CANDIDATE.finditer(text or ""):
        raw = m.group("num")
        start, end = m.start("num"), m.end("num")
        # A trailing ")" that is not part of the number (e.g. "(call +44 20 7946 0958)").
        if raw.endswith(")") and raw.count("(") < raw.count(")"):
            raw, end = raw[:-1], end - 1
        elif raw.startswith("(") and raw.endswith(")") and raw.count("(") == 1:
            raw, start, end = raw[1:-1], start + 1, end - 1  # "(+44 7700 900123)": keep the brackets
        if _is_phone(raw, text[max(0, start - 6) : start], text[end : end + 12]):
            spans.append((start, end))
    return spans


class Redactor:
    """Replace e-mail addresses and phone numbers by placeholders; restore them at the end.

    Args:
        emails: redact e-mail addresses.
        phones: redact phone numbers.

    The mapping lives in this object only. ``repr()`` shows counts, never values; pickling,
    ``copy.copy`` and ``copy.deepcopy`` raise ``TypeError`` so the mapping cannot end up in a
    trace, a cache or a log by accident.
    """

    __slots__ = ("_by_key", "_emails", "_phones", "_values")

    def __init__(self, *, emails: bool = True, phones: bool = True) -> None:
        self._emails = emails
        self._phones = phones
        self._by_key: dict[tuple[str, str], str] = {}  # (kind, normalised value) → placeholder
        self._values: dict[str, str] = {}  # placeholder → first-seen original text

    # -- public API ---------------------------------------------------------------------------
    def redact(self, text: str) -> str:
        """``text`` with every e-mail address and phone number replaced by its placeholder.

        Already-redacted text is returned unchanged (placeholders are not re-redacted).
        """
        if not text:
            return text
        spans: list[tuple[int, int, str]] = []
        if self._emails:
            spans += [(m.start("addr"), m.end("addr"), "EMAIL") for m in EMAIL_RE.finditer(text)]
        if self._phones:
            taken = [(s, e) for s, e, _ in spans]
            spans += [
                (s, e, "PHONE")
                for s, e in find_phones(text)
                if not any(s < te and ts < e for ts, te in taken)
            ]
        if not spans:
            return text
        out: list[str] = []
        pos = 0
        for start, end, kind in sorted(spans):
            out.append(text[pos:start])
            out.append(self._placeholder(kind, text[start:end]))
            pos = end
        out.append(text[pos:])
        return "".join(out)

    def restore(self, text: str) -> str:
        """``text`` with every known placeholder replaced by the original value.

        Unknown placeholders (another redactor's, or invented by a model) stay as they are.
        Tolerates spaces inside the brackets (``[[ EMAIL_1 ]]``).
        """
        if not text or not self._values:
            return text

        def sub(m: re.Match[str]) -> str:
            return self._values.get(f"[[{m.group(1)}_{m.group(2)}]]", m.group(0))

        return PLACEHOLDER_RE.sub(sub, text)

    @property
    def counts(self) -> dict[str, int]:
        """How many distinct values of each kind were redacted: ``{"EMAIL": n, "PHONE": m}``."""
        result = {"EMAIL": 0, "PHONE": 0}
        for kind, _ in self._by_key:
            result[kind] += 1
        return result

    def placeholders(self) -> list[str]:
        """The placeholders handed out so far (no values), in order."""
        return list(self._values)

    def clear(self) -> None:
        """Forget every mapping (placeholders restart at 1)."""
        self._by_key.clear()
        self._values.clear()

    # -- no leaks ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        c = self.counts
        return (
            f"Redactor(emails={self._emails}, phones={self._phones}, redacted_emails={c['EMAIL']}, "
            f"redacted_phones={c['PHONE']})"
        )

    __str__ = __repr__

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        raise TypeError("a Redactor's mapping is kept in memory only and cannot be pickled or copied")

    def __copy__(self) -> NoReturn:
        self.__reduce_ex__(None)

    def __deepcopy__(self, memo: Any) -> NoReturn:
        self.__reduce_ex__(None)

    # -- internals -----------------------------------------------------------------------------
    def _placeholder(self, kind: str, value: str) -> str:
        key = (kind, value.lower() if kind == "EMAIL" else _phone_key(value))
        existing = self._by_key.get(key)
        if existing is not None:
            return existing
        n = sum(1 for k, _ in self._by_key if k == kind) + 1
        placeholder = f"[[{kind}_{n}]]"
        self._by_key[key] = placeholder
        self._values[placeholder] = value
        return placeholder


def _phone_key(value: str) -> str:
    """Digits of a phone number, an international ``00`` prefix written as ``+``."""
    digits = re.sub(r"\D", "", value.replace("(0)", ""))
    if value.lstrip("(").startswith("+"):
        return "+" + digits
    if digits.startswith("00"):
        return "+" + digits[2:]
    return digits
