"""Number and date formats of other locales, and text pasted from a PDF, rewritten in place to the
form the ledger reads.

A document that writes ``127.157,10 USD`` and ``43,85 %`` (a decimal comma) is read as
``127,157.10`` and ``43.85``; ``127 157 USD``, ``1 200 requêtes`` (spaces between thousands) as ``127,157``; in such a
document ``01/11/2007`` is the 1st of November. Every rewrite keeps the text's length, so claim
offsets still point into the artifact as written. Which convention a document follows is decided
once, from the whole document: the figures that only one convention can read. Inline code around a
figure ("`3,712` d") is read without its backticks.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_EU_ONLY = re.compile(
    r"\d\.\d{3},\d|(?<![\d,.])\d{1,3},\d{1,2}(?![\d])\s?(?:%|USD|EUR|€|\$|k\b|mio\b|Mio\b|per\s?cent|points?"
    r"|million\b|billion\b|mln\b|bn\b)"
    # a thousands dot: "420.000 USD", "USD 420.000", "1.200 requests" (three decimals of money or of a count)
    r"|(?<![\d,.])[1-9]\d{0,2}(?:\.\d{3})+(?![\d]|[.,]\d)\s?(?:USD|EUR|€|[^\W\dA-Z_]+s\b)"
    r"|(?:USD|EUR|€|\$)\s?[1-9]\d{0,2}(?:\.\d{3})+(?![\d]|[.,]\d)"
)
_US_ONLY = re.compile(r"\d,\d{3}\.\d|(?<![\d,.])\d{1,3}\.\d{1,2}(?![\d])\s?(?:%|USD|EUR|€|k\b|per\s?cent|points?)")
_EU_NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d{1,2})(?![\d.,]\d)")
_SLASH_DATE = re.compile(r"\b(?P<d>[0-3]\d)/(?P<m>[01]\d)/(?P<y>(?:19|20)\d\d)\b")
# inline code around a figure or a name and the word after it ("(`3,712` d)", "`79` units", "sell `IBM`"): read
# as "3,712 d  ", the backticks' places moved past the word
_CODE = re.compile(r"`([^`\n]{1,40})`( [A-Za-z%]+\b)?")
# spaces between thousands: a plain, no-break, narrow no-break, thin or figure space
_SPACES = "[ \u00a0\u202f\u2009\u2007]"
_SPACED = re.compile(
    rf"(?<![\d.,])\d{{1,3}}(?:{_SPACES}\d{{3}})+(?![\d])(?=(?:\.\d+)?\s?(?:USD|US\$|EUR|€|\$|days?|units?|"
    rf"shares?|k\b|[a-zà-ÿ]{{3,}}))|(?:(?<=[$€£] )|(?<=USD )|(?<=EUR ))\d{{1,3}}(?:{_SPACES}\d{{3}})+(?![\d])"
    rf"|(?<=[$€£])\d{{1,3}}(?:{_SPACES}\d{{3}})+(?![\d])"
)

_GROUPED = re.compile(rf"(?<![\d.,/:])\d{{1,3}}(?:{_SPACES}\d{{3}})+(?![\d/:]|{_SPACES}\d)")


def _readings(text: str) -> tuple[int, int]:
    """How many figures of ``text`` only a decimal comma reads, and how many only a decimal point."""
    return len(_EU_ONLY.findall(text)), len(_US_ONLY.findall(text))


def decimal_comma(text: str) -> bool:
    """Does ``text`` write decimals with a comma (more figures only that reading allows)?"""
    eu, us = _readings(text)
    return (eu >= 2 and eu > us) or (eu == 1 and us == 0)


def normaliser(document: str) -> Callable[[str], str]:
    """A rewrite for the units of ``document``: same length, figures in the ledger's format. A unit
    whose own figures only one convention reads follows it (a bilingual review writes "67,55 %" in
    its Spanish sentences and "67.55%" in its English ones); any other follows the document."""
    document_comma = decimal_comma(document)

    def rewrite(text: str) -> str:
        eu, us = _readings(text)
        comma = document_comma if bool(eu) == bool(us) else bool(eu)
        if comma:
            text = _EU_NUMBER.sub(lambda m: m.group(0).translate(str.maketrans(".,", ",.")), text)
            text = _SLASH_DATE.sub(lambda m: f"{m['y']}-{m['m']}-{m['d']}", text)
            # "| 1 885 |", "for a cost of 75 890,50.": a decimal-comma document groups thousands with spaces
            text = _GROUPED.sub(lambda m: re.sub(_SPACES, ",", m.group(0)), text)
        text = _CODE.sub(lambda m: m.group(1) + (m.group(2) or "") + "  ", text)
        return _SPACED.sub(lambda m: re.sub(_SPACES, ",", m.group(0)), text)

    return rewrite


_BROKEN = re.compile(r"(?<=[A-Za-z]{2})-\n([ \t]*)([a-z][A-Za-z]*)")  # "Post-\ngreSQL": broken at a line end
_PAGE = re.compile(r"\bPage \d+ of \d+\b")


# a soft hyphen or a zero-width character inside a word ("Ama\u00adzon"), as editors paste them
_INVISIBLE = re.compile(r"(\w*)([\u00ad\u200b\u200c\u200d\u2060\ufeff]+)(\w*)")
_HYPHENS = str.maketrans("\u2010\u2011", "--")  # the Unicode hyphen and non-breaking hyphen ("stop‑loss")


# a form's text box that lost the dashes and bullets pasted into it: "MSc ? University of Leeds ? 2015", "? Designed …"
_LOST = re.compile(r"(?<=\S) \?(?= \S)|^[ \t]*\?(?= )", re.MULTILINE)


def mend(document: str) -> str:
    """``document`` with words broken across lines joined ("Post-\ngreSQL" → "PostgreSQL\n ", but "long-\nheld"
    → "long-held\n" when the document writes "long-held" elsewhere), soft hyphens and zero-width characters
    moved out of words, Unicode hyphens made ASCII, dashes and bullets a text box turned into "?" (three or
    more) made dashes again and "Page 1 of 2" footers blanked — same length, same lines, so offsets still hold."""
    lowered = document.lower()

    def joined(m: re.Match[str]) -> str:
        head = re.search(r"[A-Za-z]+$", document[max(0, m.start() - 40) : m.start()])
        # "long-\nheld loss" where the document writes "long-held" elsewhere: a hyphen of the word, kept
        kept = head is not None and f"{head.group(0)}-{m.group(2)}".lower() in lowered
        return f"-{m.group(2)}\n{m.group(1)}" if kept else f"{m.group(2)}\n{m.group(1)} "

    document = _BROKEN.sub(joined, document)
    document = _INVISIBLE.sub(lambda m: m.group(1) + m.group(3) + " " * len(m.group(2)), document.translate(_HYPHENS))
    if len(_LOST.findall(document)) >= 3:
        document = _LOST.sub(lambda m: m.group(0).replace("?", "-"), document)
    return _PAGE.sub(lambda m: " " * len(m.group(0)), document)
