"""Normalisation and dates shared by the CV parser and the claim checks.

Everything here is pure and deterministic. Dates are strings ``"YYYY-MM"`` (month known),
``"YYYY"`` (year only) or ``"present"``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from autogen_pse.claims import caps_lead as caps_lead  # (re-exported for the CV's structure)
from autogen_pse.claims import dates

# --- normalisation ---------------------------------------------------------------------------

_NON_WORD = re.compile(r"[^\w\s+#]")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


ORG_SUFFIXES = _words(
    "inc incorporated ltd limited llc llp lp gmbh mbh plc corp corporation co company ag sa sas "
    "sarl srl spa bv nv oy ab as asa pty pvt kg kgaa se ug group holdings"
)
_TITLE_ABBREV = {
    "sr": "senior",
    "snr": "senior",
    "jr": "junior",
    "jnr": "junior",
    "mgr": "manager",
    "eng": "engineer",
    "dev": "developer",
    "swe": "software engineer",
    "vp": "vice president",
    "assoc": "associate",
    "asst": "assistant",
    "sw": "software",
}
TITLE_WORDS = _words(
    "engineer developer programmer manager analyst scientist lead director intern consultant "
    "architect designer specialist officer head administrator coordinator associate assistant "
    "researcher technician owner president founder cofounder vp cto ceo cfo coo principal staff "
    "tester sre devops accountant editor writer teacher lecturer professor fellow trainee "
    "apprentice contractor freelancer advisor strategist partner executive supervisor "
    "representative"
)
SCHOOL_WORDS = _words(
    "university college institute school academy polytechnic universitat universitaet "
    "universidad universite universita hochschule conservatoire conservatory univ"
)


def fold(text: str) -> str:
    """Strip accents (NFKD) and lower-case."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


def norm_text(text: str) -> str:
    """Lower-case words separated by single spaces; ``&`` → ``and``; punctuation except ``+#`` dropped."""
    text = fold(text).replace("&", " and ")
    return " ".join(_NON_WORD.sub(" ", text).replace("_", " ").split())


def norm_org(name: str) -> str:
    """An organisation name for comparison: no legal suffix (Inc, Ltd, GmbH...), no leading "the"."""
    words = norm_text(name).split()
    while words and words[-1] in ORG_SUFFIXES:
        words.pop()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def norm_title(title: str) -> str:
    """A job title for comparison: abbreviations expanded (Sr → senior, Eng → engineer...)."""
    words = [_TITLE_ABBREV.get(w, w) for w in norm_text(title).split()]
    return " ".join(" ".join(words).split())


def has_title_word(text: str) -> bool:
    return any(w in TITLE_WORDS for w in norm_title(text).split())


def has_school_word(text: str) -> bool:
    return any(w in SCHOOL_WORDS for w in norm_text(text).split())


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPH = re.compile(r"(?<![\w*])[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?![\w*])")


_OUTLINE = re.compile(r"^\s*(?:\d{1,2}|[IVX]{1,4})(?:\.\d{1,2}){1,3}\.?\s+(?=[A-Z])")


def clean_inline(text: str) -> str:
    """Markdown inline markup removed: links → their text, bold/italic markers, backticks, and an
    outline number in front ("3.1 Senior Backend Engineer", "III.2 Backend Engineer")."""
    text = _LINK.sub(r"\1", text).replace("`", "")
    return _OUTLINE.sub("", _EMPH.sub("", text).strip())


# --- dates -------------------------------------------------------------------------------------

MONTHS = dates.MONTHS  # one month table for the engine and this task
MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_YEAR = r"(?:19[5-9]\d|20[0-4]\d)"
_ONE = (
    rf"(?:{_MONTH}\s+{_YEAR}|(?:0?[1-9]|1[0-2])[/.-]{_YEAR}|{_YEAR}-(?:0[1-9]|1[0-2])(?![-/]?\d)"
    rf"|{_YEAR})"
)
_SHORT = r"(?:0?[1-9]|1[0-2])/\d\d(?!\d)"  # "03/20–now": a two-digit year, only as a range's end
_NOW = r"(?:present|current|now|today|ongoing)"
DATE_RE = re.compile(
    rf"(?<![\w$€£¥.,/-])(?:(?P<a>{_ONE}|{_SHORT})\s*(?:–|—|-|→|->|\bto\b|\buntil\b|\btill\b)\s*"
    rf"(?P<b>{_ONE}|{_SHORT}|{_NOW}\b)"
    rf"|(?P<s>{_ONE}))(?![\w%/]|[.,]\d)",
    re.IGNORECASE,
)
PRESENT = "present"
ITEM_SEP = re.compile(r"\s+[·•▪◦‣∙|]\s+|\s*;\s+")  # several items on one line: "AWS … (2021) ▪ CKAD (2022)"


@dataclass(frozen=True)
class DateMention:
    """A date (``end is None``) or a date range in a text; ``start``/``end`` are date strings."""

    start: str
    end: str | None
    text: str
    span: tuple[int, int]

    @property
    def is_range(self) -> bool:
        return self.end is not None


_MONTH_YEAR = (  # (pattern, group of the month, group of the year)
    (re.compile(rf"(0?[1-9]|1[0-2])[/.-]({_YEAR})"), 1, 2),  # "03/2020", "06-2017"
    (re.compile(rf"({_YEAR})-(0[1-9]|1[0-2])"), 2, 1),  # "2020-03"
    (re.compile(r"(0?[1-9]|1[0-2])/(\d\d)"), 1, 2),  # "03/20" (in a range)
)


def parse_date(text: str) -> str:
    """``"Mar 2020"`` → ``"2020-03"``, ``"03/2020"``/``"06-2017"``/``"2020-03"`` → ``"2020-03"``, ``"03/20"``
    (in a range) → ``"2020-03"``, ``"2020"`` → ``"2020"``,
    ``"Present"`` → ``"present"``. Raises ``ValueError`` for anything else."""
    t = text.strip().lower().rstrip(".")
    if re.fullmatch(_NOW, t):
        return PRESENT
    m = re.fullmatch(rf"({_MONTH})\s+({_YEAR})", t)
    if m:
        return f"{m.group(2)}-{MONTHS[m.group(1)[:3]]:02d}"
    for rx, month, year in _MONTH_YEAR:
        m = rx.fullmatch(t)
        if m:
            y = m.group(year)
            if len(y) == 2:
                y = ("19" if int(y) > 50 else "20") + y
            return f"{y}-{int(m.group(month)):02d}"
    if re.fullmatch(_YEAR, t):
        return t
    raise ValueError(f"not a date: {text!r}")


def find_dates(text: str) -> list[DateMention]:
    """Every date and date range in ``text``, in order."""
    out = []
    for m in DATE_RE.finditer(text):
        if m.group("s"):
            out.append(DateMention(parse_date(m.group("s")), None, m.group(0), m.span()))
        else:
            out.append(DateMention(parse_date(m.group("a")), parse_date(m.group("b")), m.group(0), m.span()))
    return out


def date_year(d: str) -> int:
    return 9999 if d == PRESENT else int(d[:4])


def has_month(d: str) -> bool:
    return len(d) == 7


def date_key(d: str, *, upper: bool) -> tuple[int, int]:
    """Sort key; a year without a month is Jan (``upper=False``) or Dec (``upper=True``)."""
    if d == PRESENT:
        return (9999, 12)
    return (int(d[:4]), int(d[5:7]) if has_month(d) else (12 if upper else 1))


def not_before(a: str, b: str) -> bool:
    """``a >= b`` at the coarser of the two granularities (a year compares with years only)."""
    if PRESENT in (a, b) or (has_month(a) and has_month(b)):
        return date_key(a, upper=False) >= date_key(b, upper=False)
    return date_year(a) >= date_year(b)


def show_date(d: str) -> str:
    """``"2020-03"`` → ``"Mar 2020"``, ``"present"`` → ``"Present"``."""
    if d == PRESENT:
        return "Present"
    return f"{MONTH_NAMES[int(d[5:7]) - 1]} {d[:4]}" if has_month(d) else d
