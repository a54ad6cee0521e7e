"""Parse a portfolio review (the artifact): sections and the Actions table; the rules of an action row.

Used by ``checks.py``, ``sanitize.py`` and the benchmark. Line numbers are 1-based lines of the
artifact; table row numbers count data rows of the Actions table from 1 (the header and the
separator are not counted).
"""

from __future__ import annotations

import re
from typing import NamedTuple

REQUIRED_SECTIONS = ("Summary", "Findings", "Actions", "Next steps")
TABLE_HEADER = ("Priority", "Action", "Symbol", "Amount", "Reason")
NO_SYMBOL = {"", "-", "—", "–", "N/A", "NA", "ALL", "PORTFOLIO", "CASH"}


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
