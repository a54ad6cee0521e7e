"""Dates in free text: ``2010-03-01``, ``1 March 2010``, ``Mar 2020``, ``03/2020``, ``since 2004``, ``(2015)``.

Each date is ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` — the precision it is written at — and
:func:`same_date` compares a written date with a fact at that precision. Index names with digits
("S&P 500", "FTSE 100") are spans that are neither dates nor figures (:func:`name_spans`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MONTHS = {name: n for n, name in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}
_MON = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DIGITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())}
_TEENS = {w: 10 + i for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                          "nineteen".split())}
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth".split()
_DAY_WORD = (
    r"(?:(?:twenty|thirty)[\s-]+(?:" + "|".join(_ORDINALS + list(_DIGITS)[1:]) + r")|"
    + "|".join(_ORDINALS + list(_DIGITS)[1:] + list(_TEENS) + ["tenth", "eleventh", "twelfth", "twentieth",
                                                                "thirtieth", "twenty", "thirty"]) + r"|\w+teenth)"
)
_UNIT_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_TEEN_WORD = r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
# said only of a year: "twenty-fifteen", "twenty twenty-one", "two thousand and fifteen"
_YEAR_WORDS = rf"twenty[\s-](?:{_TEEN_WORD}|twenty(?:[\s-]{_UNIT_WORD})?)|two\s+thousand\s+(?:and\s+)?{_TEEN_WORD}"
_SPOKEN_YEAR = rf"oh[\s-]{_UNIT_WORD}|{_YEAR_WORDS}|two\s+thousand(?:\s+(?:and\s+)?{_UNIT_WORD})?"


def _spoken_year(words: str) -> str:
    """"oh-five" → 2005, "two thousand and seven" → 2007, "twenty-ten" → 2010, "twenty-twenty-one" → 2021."""
    parts = [w for w in re.split(r"[\s-]+", words.lower()) if w != "and"]
    if parts[:2] == ["twenty", "twenty"]:
        return str(2020 + (_DIGITS.get(parts[2], 0) if len(parts) > 2 else 0))
    last = parts[-1]
    if last in _TEENS:
        return str(2000 + _TEENS[last])
    return str(2000 + (_DIGITS.get(last, 0) if last != "thousand" else 0))


_PATTERNS = [
    re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)\b"),
    re.compile(rf"\b(?P<d>[0-3]?\d)(?:st|nd|rd|th)?(?:\s+|-){_MON}(?:\s*,?\s+|-)(?P<y>(?:19|20)\d\d)\b",
               re.IGNORECASE),  # (a statement's "01-MAR-2010")
    re.compile(rf"\b{_MON}\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)?,?\s+(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
    re.compile(rf"\b{_MON}(?:\s*'?,?\s*|-)(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
    re.compile(rf"\b{_MON}\s+'(?P<yy>\d\d)\b", re.IGNORECASE),
    re.compile(rf"\b{_MON}\s+(?P<yy>0\d|[4-9]\d)\b(?![\d%]|[.,:]\d|\s*,?\s*(?:19|20)\d\d)", re.IGNORECASE),  # "Jan 05"
    re.compile(r"\b(?:mid|early|late)[\s-](?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),  # "mid-2008"
    re.compile(r"(?<!/)\b(?P<y>(?:19|20)\d\d)-(?P<m>[01]\d)\b(?![-/]\d)"),  # not "09/2015-05/2017"
    # a changelog's version-style heading "[2020.03]" (never "$2020.03" or "2020.03%")
    re.compile(r"(?<![\w.,$€£])(?P<y>(?:19|20)\d\d)\.(?P<m>0[1-9]|1[0-2])(?![\d%]|\.\d|\s*(?:%|per\s*cent|k\b))"),
    re.compile(r"(?<=\()['’](?P<yy>\d\d)(?=\))"),
    re.compile(  # "since '98"
        r"(?:(?<=since )|(?<=in )|(?<=from )|(?<=of )|(?<=bought )|(?<=opened )|(?<=held since )|(?<=buy ))"
        r"['’](?P<yy>\d\d)\b(?![\d%])", re.IGNORECASE
    ),
    re.compile(r"\b(?P<d>[0-3]?\d)\.(?P<m>[01]?\d)\.(?P<y>(?:19|20)\d\d)\b"),  # 01.03.2010, 1.3.2010
    re.compile(r"\b(?P<m>[01]?\d)/(?P<d>[0-3]?\d)/(?P<y>(?:19|20)\d\d)\b"),
    re.compile(r"\b(?P<d>1[3-9]|2\d|3[01])/(?P<m>[01]?\d)/(?P<y>(?:19|20)\d\d)\b"),  # 25/11/2007: day first
    re.compile(r"\b(?P<m>[01]?\d)-(?P<d>[0-3]?\d)-(?P<y>(?:19|20)\d\d)\b"),  # a report's "03-01-2010"
    re.compile(r"\b(?P<d>1[3-9]|2\d|3[01])-(?P<m>[01]?\d)-(?P<y>(?:19|20)\d\d)\b"),
    # a terminal's or a US form's "07/01/06", "11/01/07" (month first; day first when the first is over 12)
    re.compile(r"(?<![\w/.])(?<![A-Z]{2}\s)(?P<m>0[1-9]|1[0-2])/(?P<d>[0-3]\d)/(?P<yy>\d\d)(?![\w/.%])"),
    re.compile(r"(?<![\w/.])(?<![A-Z]{2}\s)(?P<d>1[3-9]|2\d|3[01])/(?P<m>0[1-9]|1[0-2])/(?P<yy>\d\d)(?![\w/.%])"),
    re.compile(r"\b(?P<m>[01]?\d)/(?P<y>(?:19|20)\d\d)\b"),
    re.compile(r"(?<![\d-])(?P<m>0[1-9]|1[0-2])-(?P<y>(?:19|20)\d\d)\b(?!-)"),  # "06-2017 – 02-2020"
    # (after a hyphen only in a range of years: "bought 2005-2007")
    re.compile(r"(?<![\w.,$€£])(?:(?<=\d{4}-)|(?<!-))(?P<y>(?:19|20)\d\d)(?![\w%.,]\d|\s?%|[\w])"),
    # dictated: "January oh-five", "the first of March, twenty ten", "March one twenty-ten" (the day is read
    # but the date kept to the month)
    re.compile(
        rf"\b(?:(?:the\s+)?{_DAY_WORD}\s+of\s+)?{_MON},?\s+(?:(?:the\s+)?{_DAY_WORD},?\s+)?(?P<spoken>{_SPOKEN_YEAR})\b",
        re.IGNORECASE,
    ),
    # "from two thousand to two thousand ten": the year 2000 at the start of a span of years
    re.compile(rf"(?<=\bfrom\s)(?P<spoken>two\s+thousand)(?=\s+(?:to|until|through)\s+(?:{_SPOKEN_YEAR})\b)",
               re.IGNORECASE),
    # a year said alone: "from twenty-seventeen to twenty-twenty", "since two thousand and fifteen"
    re.compile(rf"\b(?P<spoken>{_YEAR_WORDS})\b(?![\s-]+(?:per\s*cent|percent|%|years?|months?|days?|people|engineers))",
               re.IGNORECASE),
]
_NAMES = re.compile(
    r"\b(?:S\s?&\s?P|S&amp;P|FTSE|Nasdaq|NASDAQ|Russell|Stoxx|STOXX|DAX|CAC|Nikkei|Dow(?:\s+Jones)?|MSCI|Euro\s+Stoxx)"
    r"(?:\s+(?:Composite|Industrial\s+Average|World|ACWI|EAFE))?\s*\d+\b"
    r"|\b(?!(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*-(?:19|20)\d\d\b)"  # (a date: "Jul-2006")
    r"[A-Z][A-Za-z]*-\d+\b"
    r"|\bQ[1-4]\b|\bH[12]\b|\bFY\s?\d{2,4}\b|\bp\d{2}\b|\b[A-Z]{1,4}\d{1,3}\b"
    r"|\b[Pp][ \t]+(?:fifty|ninety(?:[- ](?:five|nine))?)\b"  # "P ninety five latency": p95, dictated
    r"|\b(?:401|403|457)\s?\([kb]\)"  # US retirement accounts: "401(k) rollover IRA"
)
_RANGE_DASH = re.compile(r"^\s*(?:–|-|—|to|until|through|thru)\s*$")
PRESENT = re.compile(r"\b(?:present|now|current|today|date|ongoing)\b", re.IGNORECASE)


@dataclass(frozen=True)
class DateMention:
    value: str  # YYYY | YYYY-MM | YYYY-MM-DD
    text: str
    start: int
    end: int
    alt: str = ""  # the other reading of "01/03/2010" (1 March where the US reads 3 January)

    def agrees(self, fact: str) -> bool:
        """Does this date, read either way where its writing is ambiguous, agree with ``fact``?"""
        return same_date(self.value, fact) or bool(self.alt and same_date(self.alt, fact))


def _value(m: re.Match[str]) -> str | None:
    groups = m.groupdict()
    year = groups.get("y")
    if groups.get("spoken"):
        year = _spoken_year(groups["spoken"])
    if groups.get("yy"):
        year = ("19" if int(groups["yy"]) > 50 else "20") + groups["yy"]
    if not year:
        return None
    month = groups.get("m")
    if groups.get("mon"):
        month = str(MONTHS[groups["mon"].lower()[:3]])
    if month is None:
        return year
    if not 1 <= int(month) <= 12:
        return None
    day = groups.get("d")
    if day is None:
        return f"{year}-{int(month):02d}"
    if not 1 <= int(day) <= 31:
        return None
    return f"{year}-{int(month):02d}-{int(day):02d}"


def find_dates(text: str) -> list[DateMention]:
    """Dates of ``text`` in order, each span once (the most precise pattern wins)."""
    return list(_dates_of(text))


@lru_cache(maxsize=1024)
def _dates_of(text: str) -> tuple[DateMention, ...]:
    taken: list[tuple[int, int]] = [(m.start(), m.end()) for m in _NAMES.finditer(text)]
    out: list[DateMention] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            value = _value(m)
            if value is None:
                continue
            taken.append((m.start(), m.end()))
            ambiguous = re.fullmatch(r"(0?[1-9]|1[0-2])([/-])(0?[1-9]|1[0-2])\2(\d{4})", m.group(0))
            alt = "" if ambiguous is None else f"{ambiguous[4]}-{int(ambiguous[3]):02d}-{int(ambiguous[1]):02d}"
            out.append(DateMention(value, m.group(0), m.start(), m.end(), alt if alt != value else ""))
    for d in list(out):  # "Jun 2017 – Present": the range is still running
        running = re.match(r"\s*(?:–|-|—|to|until)\s*(present|now|current|today|date)\b", text[d.end:], re.I)
        if running:
            out.append(DateMention("present", running.group(1), d.end + running.start(1), d.end + running.end(1)))
    return tuple(sorted(out, key=lambda d: d.start))


# "para 4.1", "sections 2.2–2.4", "which of 1.2–1.4 to execute": references to a document's numbered paragraphs
_RULE_NO = r"(?:one|two|three|four|five|six|seven|eight|nine|ten)"
_REFERENCES = re.compile(
    r"\b(?:para(?:graph)?s?|sections?|§§?|clauses?|items?|points?)\.?\s+\d+(?:\.\d+)*"
    r"(?:\s*(?:[–-]|to|and)\s*\d+(?:\.\d+)*)?"
    r"|\b(?:slides?|steps?|pages?|chapters?|episodes?)\s+\d{1,2}(?:\s*(?:/|of)\s*\d{1,2})?\b(?![.,]\d)|(?<![\d.])[1-9]\.\d\s*[–-]\s*[1-9]\.\d(?![\d.%])"
    # "for the reason given at 3.3", "reason at 3.4", "see 2.1": a paragraph the reason is given in
    r"|\b(?:(?:given|reason|out|described|explained|discussed)\s+(?:at|in)|see)\s+[1-9]\.\d{1,2}(?![\d%]|\.\d)"
    # "rule two or three applies", "rules one and four": which of the rules, not how many
    rf"|\brules?\s+{_RULE_NO}(?:\s*(?:,|or|and|to|[–-])\s*{_RULE_NO})*\b",
    re.IGNORECASE,
)
_MONTH = _MON.replace("(?P<mon>", "(?:")
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+\.\d+(?:-[\w.]+)?(?![\w.%])")  # "[0.2.0]", "v1.4.2": a version
# a day of a month with no year (a journal's "Sat 27 Feb", "Feb 27th"): a day, but no date to check
_YEARLESS_DAY = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?)(?![\w,]|\s*,?\s*\d)",
    re.IGNORECASE,
)


# "Today at 21:09", "15:03 UTC": when a message was sent or a call made
_TIME_OF_DAY = re.compile(r"(?<![\d:.,])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s*[ap]\.?m\.?)?(?![\d:%])", re.I)
# "the two-minute version", "a 30-second pitch": how long the telling takes
_TELLING = re.compile(  # also "a 2 min profile + 3 stories"
    r"\b(?:\w+|\d+)[- ](?:minute|min|second|sec)\s+(?:version|pitch|intro(?:duction)?|answer|overview|summary|"
    r"profile|story|stories|walkthrough|spiel|read)\b", re.I
)


# "emarsh | 2 days ago", "London 1-2 days a week": when a post was written, how often she would travel
_WHEN_POSTED = re.compile(
    r"\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:seconds?|minutes?|hours?|days?|weeks?)\s+ago\b"
    r"|\b\d+(?:\s*[-–]\s*\d+)?\s+days?\s*(?:a|per|/)\s*(?:week|wk|month)\b",
    re.I,
)


# "p95 latency (the time within which 95 out of 100 requests are answered)", "the slowest 5% of requests": a
# percentile's own definition, no figure
_PERCENTILE = re.compile(r"\bp(\d{2})\b|\b(\d{2})(?:th|st|nd|rd)[\s-]+percentile\b", re.IGNORECASE)


def _percentile_definitions(text: str) -> list[tuple[int, int]]:
    """Spans of "N (out) of", "100 − N % of" and the 100 of "N out of 100", for a percentile N the text names."""
    ns = {int(m.group(1) or m.group(2)) for m in _PERCENTILE.finditer(text)}
    if not ns:
        return []
    values = "|".join(str(v) for n in ns for v in (n, 100 - n))
    rx = rf"\b(?:{values})\s*(?:%|per\s*cent|percent)?(?=\s+(?:out\s+)?of\b)|(?<=out of )100\b"
    return [(m.start(), m.end()) for m in re.finditer(rx, text, re.IGNORECASE)]


def name_spans(text: str) -> list[tuple[int, int]]:
    """Spans of names with digits ("S&P 500", "EC2", "p95", "Q1", "401(k)"), of paragraph references
    ("para 4.1"), of days of a month with no year ("Sat 27 Feb"), of times of day ("at 21:09"), of a
    telling's length ("the two-minute version"), of a post's age or a schedule ("2 days ago", "1-2
    days a week") and of version numbers ("[0.2.0]"): neither dates nor figures."""
    return [(m.start(), m.end())
            for rx in (_NAMES, _REFERENCES, _YEARLESS_DAY, _TIME_OF_DAY, _TELLING, _WHEN_POSTED, _VERSION)
            for m in rx.finditer(text)] + _percentile_definitions(text)


def same_date(written: str, fact: str) -> bool:
    """Does ``written`` (at its precision) agree with ``fact``? "2005" agrees with "2005-01-01"."""
    n = min(len(written), len(fact))
    return written[:n] == fact[:n]


def is_range_joint(between: str) -> bool:
    """Is the text between two dates a range dash ("–", "to", "until")?"""
    return bool(_RANGE_DASH.match(between))
