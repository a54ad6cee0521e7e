"""Parse a portfolio review (the artifact): sections, the Actions table, numbers, ticker symbols.

Used by ``checks.py``, ``sanitize.py`` and the benchmark. Line numbers are 1-based lines of the
artifact; table row numbers count data rows of the Actions table from 1 (the header and the
separator are not counted).
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from autogen_pse.facts import FACT_REF

REQUIRED_SECTIONS = ("Summary", "Findings", "Actions", "Next steps")
TABLE_HEADER = ("Priority", "Action", "Symbol", "Amount", "Reason")
NO_SYMBOL = {"", "-", "—", "–", "N/A", "NA", "ALL", "PORTFOLIO", "CASH"}

# Tolerance for the numbers check: |x - fact| <= max(REL_TOL * |fact|, ABS_TOL).
REL_TOL = 0.005
ABS_TOL = 0.01


class Section(NamedTuple):
    title: str  # as written
    line: int  # line of the heading
    body: str  # text up to the next heading of level 1 or 2
    body_line: int  # line of the body's first line


class Row(NamedTuple):
    index: int  # data row number, from 1
    line: int  # artifact line number
    cells: list[str]  # stripped cells as written


class Table(NamedTuple):
    header_line: int
    ok_header: bool
    rows: list[Row]


class Number(NamedTuple):
    value: float  # after multipliers (k, M, bn); sign applied when explicit
    signed: bool  # an explicit + or - was written
    pct: bool  # written with %, pp, percent
    text: str  # as written
    line: int


_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def normalise_title(title: str) -> str:
    """``"**2. Findings:**"`` → ``"findings"`` (emphasis, a trailing colon and numbering dropped)."""
    return re.sub(r"^\d+[.)]\s*", "", re.sub(r"[*_`:]", "", title).strip()).lower()


def sections(text: str) -> list[Section]:
    """Level-1/2 sections in order. Headings inside code fences are ignored, except in a fence
    labelled ``markdown``/``md`` (a model that wraps the whole review in one)."""
    lines = text.splitlines()
    found: list[tuple[int, int, str]] = []  # (line index, level, title)
    in_fence = in_markdown_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            info = line.strip().lstrip("`~").strip().lower()
            if not in_fence and info in ("markdown", "md"):
                in_markdown_fence = True  # a review wrapped in ```markdown is read as Markdown
            elif in_markdown_fence and not in_fence and not info:
                in_markdown_fence = False
            else:
                in_fence = not in_fence
            continue
        m = None if in_fence else _HEADING.match(line)
        if m:
            found.append((i, len(m.group(1)), m.group(2)))
    out: list[Section] = []
    for n, (i, level, title) in enumerate(found):
        if level > 2:
            continue
        end = next((j for j, lv, _t in found[n + 1:] if lv <= 2), len(lines))
        out.append(Section(title, i + 1, "\n".join(lines[i + 1:end]), i + 2))
    return out


def section_map(text: str) -> dict[str, Section]:
    """Required sections by normalised title (first occurrence wins)."""
    wanted = {t.lower() for t in REQUIRED_SECTIONS}
    out: dict[str, Section] = {}
    for sec in sections(text):
        key = normalise_title(sec.title)
        if key in wanted and key not in out:
            out[key] = sec
    return out


def split_row(line: str) -> list[str]:
    """Cells of a Markdown table line (``\\|`` is a literal pipe), stripped."""
    body = line.strip()
    body = body.removeprefix("|")
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def clean_cell(cell: str) -> str:
    """A cell without emphasis, code marks or a cashtag ``$``."""
    return re.sub(r"[*_`$]", "", cell).strip()


def actions_table(text: str) -> Table | None:
    """The first table in the ``## Actions`` section, or ``None`` when there is no table.

    ``ok_header`` says whether its header is exactly :data:`TABLE_HEADER` (case-insensitive).
    """
    sec = section_map(text).get("actions")
    if sec is None:
        return None
    lines = sec.body.splitlines()
    for i, line in enumerate(lines):
        if "|" not in line or i + 1 >= len(lines) or not _SEPARATOR.match(lines[i + 1]):
            continue
        header = [clean_cell(c).lower() for c in split_row(line)]
        ok = header == [h.lower() for h in TABLE_HEADER]
        rows: list[Row] = []
        for j in range(i + 2, len(lines)):
            if "|" not in lines[j] or not lines[j].strip():
                break
            rows.append(Row(len(rows) + 1, sec.body_line + j, split_row(lines[j])))
        return Table(sec.body_line + i, ok, rows)
    return None


def row_action(row: Row) -> str:
    return clean_cell(row.cells[1]).upper() if len(row.cells) > 1 else ""


def row_symbol(row: Row) -> str:
    return clean_cell(row.cells[2]).upper() if len(row.cells) > 2 else ""


def render_row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


# ---------------------------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------------------------

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATES = [
    re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b"),
    re.compile(r"\b\d{4}-\d{2}\b"),
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),
    re.compile(rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b", re.IGNORECASE),
    re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+\d{{4}}\b", re.IGNORECASE),
]
_LIST_MARKER = re.compile(r"^(\s*(?:#{1,6}\s+)?)(\d+)([.)]\s)", re.MULTILINE)
_TOP_N = re.compile(r"\btop[\s-]*(\d+)\b", re.IGNORECASE)
_NUMBER = re.compile(
    r"(?<![\w.,/\\])(?P<sign>[-+−](?=[$€£]?\d))?(?P<cur>[$€£])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<suffix>\s?%|\s?(?:pp|percentage points?|percent|per cent|k|K|M|mn|bn|million|billion|thousand)\b)?"
)
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def scrub(text: str) -> str:
    """``text`` with everything the numbers check ignores replaced by spaces (line numbers kept):
    unresolved fact references, dates, list markers, "top N", and the Priority cells of the
    Actions table."""
    for pattern in [FACT_REF, *_DATES]:
        for m in list(pattern.finditer(text)):
            text = _blank(text, m.start(), m.end())
    for m in list(_LIST_MARKER.finditer(text)):
        text = _blank(text, m.start(2), m.end(2))
    for m in list(_TOP_N.finditer(text)):
        text = _blank(text, m.start(1), m.end(1))
    table = actions_table(text)
    if table is not None:
        lines = text.split("\n")
        for row in table.rows:
            line = lines[row.line - 1]
            first = line.find("|") + 1 if line.lstrip().startswith("|") else 0
            end = line.find("|", first)
            cell = line[first:end if end >= 0 else len(line)]
            if re.fullmatch(r"\s*\d+\s*", cell):
                lines[row.line - 1] = line[:first] + " " * len(cell) + line[first + len(cell):]
        text = "\n".join(lines)
    return text


def numbers(text: str) -> list[Number]:
    """Numbers the numbers check verifies, in order. Ignored besides :func:`scrub`'s spans: years
    (plain integers 1900–2100) and numbers glued to letters (``3rd``, ``2x``, ``top3``)."""
    scrubbed = scrub(text)
    out: list[Number] = []
    line_starts = [0] + [i + 1 for i, ch in enumerate(scrubbed) if ch == "\n"]
    for m in _NUMBER.finditer(scrubbed):
        after = scrubbed[m.end():m.end() + 1]
        if after and (after.isalnum() or after == "_"):
            continue
        raw_num = m.group("num")
        value = float(raw_num.replace(",", ""))
        suffix = (m.group("suffix") or "").strip().lower()
        pct = suffix in ("%", "pp", "percent", "per cent") or suffix.startswith("percentage")
        plain = not (m.group("sign") or m.group("cur") or suffix or "," in raw_num or "." in raw_num)
        if plain and 1900 <= value <= 2100:
            continue
        value *= _MULTIPLIERS.get(suffix, 1.0)
        sign = m.group("sign")
        if sign in ("-", "−"):
            value = -value
        line = bisect.bisect_right(line_starts, m.start())
        out.append(Number(value, bool(sign), pct, m.group(0).strip(), line))
    return out


def within(x: float, f: float) -> bool:
    """The documented tolerance: relative 0.5% or absolute 0.01, whichever is larger."""
    return abs(x - f) <= max(REL_TOL * abs(f), ABS_TOL) + 1e-9  # 1e-9: binary rounding of decimals


# ---------------------------------------------------------------------------------------------
# Ticker-like symbols
# ---------------------------------------------------------------------------------------------

_NOT_TICKER_WORDS = """
BUY SELL TRIM HOLD REVIEW PASS FAIL PARTIAL BLOCKED OK NA TBD TODO FAQ NOTE NB PS WARNING
SUMMARY FINDINGS ACTIONS ACTION NEXT STEPS SYMBOL AMOUNT REASON PRIORITY HIGH LOW MEDIUM MED URGENT
AN AS AT BE BY DO GO IF IN IS IT NO OF ON OR SO TO UP US WE ALL AND ANY ARE BUT FOR NOT NOW OUT THE
TOO YES NONE ONLY MUST NEVER WITH THIS THAT WHEN THEN ALSO VERY KEY NEW OLD TOP MAX MIN AVG PER VS
USD EUR GBP JPY CHF CAD AUD CNY HKD SEK NOK DKK NZD SGD INR
HHI PNL PL ETF ETFS CAGR YTD MTD QTD ROI ROE EPS PE NAV IPO FX CEO CFO CTO COO AI GDP SEC FED NYSE
DJIA REIT ESG SMA EMA RSI MACD ATR VAR CVAR KPI BPS CSV JSON MD PDF ID IDS API URL UTC ISO TZ
Q1 Q2 Q3 Q4 H1 H2 FY II III IV VI VII VIII IX XI XII INC CORP LTD PLC AG SE SA NV LLC CO
UK EU USA EUROPE ASIA EM DM
"""
NOT_TICKERS = frozenset(_NOT_TICKER_WORDS.split())
_TICKER = re.compile(r"(?<![\w.\-/])\$?([A-Z][A-Z0-9]{1,5}(?:\.[A-Z])?)(?![\w])")


def ticker_tokens(text: str) -> list[tuple[str, int]]:
    """``(token, line)`` for each upper-case, ticker-like word not in :data:`NOT_TICKERS`
    (unresolved fact references are skipped)."""
    text = FACT_REF.sub(lambda m: " " * len(m.group(0)), text)
    out: list[tuple[str, int]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        for m in _TICKER.finditer(line):
            token = m.group(1)
            if token not in NOT_TICKERS and not token.isdigit():
                out.append((token, n))
    return out


# ---------------------------------------------------------------------------------------------
# Rules (data = Prepared.data: symbols, triggers, allowed_actions, rules, trigger_labels)
# ---------------------------------------------------------------------------------------------

def why_not_allowed(action: str, symbol: str, data: dict) -> str:
    """Why ``action`` is not allowed for ``symbol``, e.g. "no stop-loss or long-held-loss trigger
    for IBM" or "the stop-loss trigger forbids BUY for MSFT"."""
    labels = data.get("trigger_labels", {})
    rules = data["rules"]["triggers"]
    active = data["triggers"].get(symbol, [])
    forbidding = [labels.get(t, t) for t in active if action in rules[t]["forbids"]]
    if forbidding:
        verb = "triggers forbid" if len(forbidding) > 1 else "trigger forbids"
        return f"the {' and '.join(forbidding)} {verb} {action} for {symbol}"
    enablers = [labels.get(t, t) for t in rules if action in rules[t]["allows"]]
    if enablers:
        return f"no {' or '.join(enablers)} trigger for {symbol}"
    return f"the rules never allow {action}"


def row_violation(row: Row, data: dict) -> str | None:
    """The rule a valid Actions row breaks (``None`` when it obeys the rules, or when its action
    or symbol is invalid — the structure and symbols checks report those)."""
    action, symbol = row_action(row), row_symbol(row)
    if action not in data["actions"]:
        return None
    if symbol in NO_SYMBOL:
        if action in ("BUY", "SELL", "TRIM"):
            return f"row {row.index}: {action} needs a held symbol in the Symbol column"
        return None
    allowed = data["allowed_actions"].get(symbol)
    if allowed is None or action in allowed:
        return None
    return (f"row {row.index}: {action} {symbol} is not allowed: {why_not_allowed(action, symbol, data)} "
            f"(allowed for {symbol}: {', '.join(allowed)})")
