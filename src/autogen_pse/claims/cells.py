"""The cells of a table row, with their offsets: Markdown pipe rows, plain-text rows aligned with
spaces, word-processor rows separated by tabs; and a plain-text table's rules, header and column
groups (used by :mod:`.split`)."""

from __future__ import annotations

import re


def fixed_cells(line: str, base: int) -> list[tuple[str, int]]:
    """Cells of a plain-text table row: text separated by two or more spaces, or by tabs (a table
    pasted from a word processor: each tab ends a cell, so two tabs leave an empty one)."""
    if "\t" in line.strip():
        cells, at = [], 0
        for part in line.split("\t"):
            lead = len(part) - len(part.lstrip())
            cells.append((part.strip(), base + at + lead))
            at += len(part) + 1
        while cells and not cells[0][0]:
            cells.pop(0)
        while cells and not cells[-1][0]:
            cells.pop()
        longest = 200 if line.count("\t") >= 3 else 60  # (a pasted table's last cell may be a sentence)
        return cells if all(len(c) <= longest for c, _o in cells) else []
    # (a no-break or thin space is part of a cell: "43.85\u00a0%", "$7\u2009927.50")
    cells = [(m.group(0), base + m.start()) for m in re.finditer(r"[^ \t\n\r\f\v]+(?: [^ \t\n\r\f\v]+)*", line)]
    return cells if all(len(c) <= 60 for c, _o in cells) else []  # prose with double spaces is no table


def aligned(cells: list[tuple[str, int]], base: int, columns: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """A plain-text row with blank cells, its cells put under the header columns they sit under (the
    most overlap, else the nearest; a cell spanning several columns with a word for each, split); the row
    as it is when two cells would share a column."""
    split = [part for cell in cells for part in _split_spanning(cell, base, columns)]
    return _placed(split, base, columns) or _placed(cells, base, columns) or cells


def _placed(cells: list[tuple[str, int]], base: int, columns: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """``cells`` each under the column it overlaps most; nothing when two would share a column."""
    out: list[tuple[str, int]] = [("", -1)] * len(columns)
    for c, o in cells:
        a, b = o - base, o - base + len(c)
        overlap = [min(b, e) - max(a, s) for s, e in columns]
        best = max(range(len(columns)), key=lambda k: (overlap[k], -abs((a + b) - sum(columns[k]))))
        if out[best][1] != -1:
            return []
        out[best] = (c, o)
    return [(c, o if o != -1 else base + columns[k][0]) for k, (c, o) in enumerate(out)]


def _split_spanning(cell: tuple[str, int], base: int, columns: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """A cell under several header columns whose words are one per column, split ("47.12 -56.91 OW" under
    "VOL   MAXDD  FLG": the columns of a report printed with single spaces between its last figures)."""
    c, o = cell
    a, b = o - base, o - base + len(c)
    under = [k for k, (s, e) in enumerate(columns) if min(b, e) > max(a, s)]
    words = [(m.group(0), o + m.start()) for m in re.finditer(r"\S+", c)]
    coded = all(re.search(r"\d", w) or re.fullmatch(r"[A-Z]{1,3}", w) for w, _o in words)  # figures and flags
    if coded and len(under) >= 2 and len(words) > len(under) and all(w.isalpha() for w, _o in words[len(under):]):
        last = words[len(under) - 1]  # "… -63.42 SL LH" under "MAXDD  FLG": the flags share the last column
        words = [*words[: len(under) - 1], (c[last[1] - o :], last[1])]
    if len(under) < 2 or len(words) != len(under) or not coded:
        return [cell]
    # each word under a column of its own, in order
    own = [next((k for k in under if min(wo - base + len(w), columns[k][1]) > max(wo - base, columns[k][0])), -1)
           for w, wo in words]
    return words if own == under else [cell]


def pipe_cells(line: str, base: int) -> list[tuple[str, int]]:
    """Cells of a table line with the absolute offset of each cell's text."""
    out: list[tuple[str, int]] = []
    body_start = line.find("|") + 1 if line.lstrip().startswith("|") else 0
    pos = body_start
    for part in re.split(r"(?<!\\)\|", line[body_start:]):
        stripped = part.strip()
        lead = len(part) - len(part.lstrip())
        out.append((stripped, base + pos + lead))
        pos += len(part) + 1
    if out and not out[-1][0]:
        out.pop()
    return out


# a table's total row ("| Total | 100% |"), a row's number or record code before it, words of a sum ("G7 sums
# to 100%"), and a column of values whose row says what each is ("| Cell | Value | What it means |")
TOTAL_ROW = re.compile(r"(?i:total|totals|tot\.?|sum|Σ|all|portfolio|port|book|overall|grand total)(?![\w])")
ROW_INDEX = re.compile(  # "7 | TOTAL | …": a spreadsheet's row number; "T01 TOTAL …": a report's record code
    r"^[\s*_|]*(?:\d{1,3}\s*\|[\s*_|]*|[A-Z]{1,3}\d{0,3}\s+(?=(?i:total|totals|tot\b|sum\b|grand\b)))?")
SUMS_TO = re.compile(r"\b(?:sums?|summing|adds?\s+up|adding\s+up|totals?|totalling|totaling)\b", re.IGNORECASE)
VALUE_COLUMN = re.compile(r"(?i:values?)")
MEANING_COLUMN = re.compile(r"(?i:mean|description|explanation|what|label|metric|measure|item|field)")
TEXT_RULE = re.compile(r"[-=─━_ ]{5,}")
_GROUP = re.compile(r"[-=─━]{2,} .+ [-=─━]{2,}")  # "---- PRO-FORMA ----": a group of columns
_FIGURE_DIGIT = re.compile(r"(?<![A-Za-z(\d])\d(?!\d*[MYDW]\b)")  # a figure's digit, not a name's ("VOL(36M)",
# "VOL 36M", "TOP3")


def header_like(line: str) -> bool:
    return len(fixed_cells(line, 0)) >= 3 and not _FIGURE_DIGIT.search(line)


def grouped(header: list[str], columns: list[tuple[int, int]], above: str) -> list[str]:
    """A plain-text table's column names, each with the name of the group spanning it on the line
    above ("---- PRO-FORMA ----" over "QTY  MV  WGT": "PRO-FORMA QTY", …)."""
    cells = fixed_cells(above, 0)
    if not 1 <= len(cells) < len(header) or not all(_GROUP.fullmatch(c) for c, _o in cells):
        return header
    out = []
    for name, (a, b) in zip(header, columns, strict=True):
        group = next((c.strip("-=─━ ") for c, o in cells if o <= b and a <= o + len(c)), "")
        out.append(f"{group} {name}" if group else name)
    return out


_INDEX_NAME = re.compile(r"[ \t]*[a-z_]\w{0,30}[ \t]*")  # pandas prints the index's name under the header


def skipped(lines: list[str], j: int) -> bool:
    """Line ``j`` is a plain-text table's rule ("-------") or, under its header, the name of a printed
    DataFrame's index ("symbol")."""
    return bool(TEXT_RULE.fullmatch(lines[j].strip())) or (
        j > 0 and _INDEX_NAME.fullmatch(lines[j]) is not None and header_like(lines[j - 1]))


def neighbours(lines: list[str], i: int) -> list[int]:
    """The lines next to line ``i`` that are not :func:`skipped`."""
    out = []
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(lines) and skipped(lines, j):
            j += step
        if 0 <= j < len(lines):
            out.append(j)
    return out
