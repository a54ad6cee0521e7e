"""Grid tables (pandoc's and reStructuredText's ``+----+----+`` tables, a Word document converted by
pandoc) read as Markdown pipe tables.

A grid table's row spans the lines between two rules, and a cell's text wraps over those lines
("Idempotent payments API in Go, 1,200" / "requests/second at peak"): each cell's pieces are joined,
so a figure and what it measures are one cell of one row. The rule made of ``=`` closes the header
rows; a table without one gets an empty header. The columns are where the first rule has its ``+``.
Each piece keeps where it came from (:class:`~.formats.Reading`), so a claim points at its line.
"""

from __future__ import annotations

import itertools
import re

from .formats import Builder, Reading, line_starts

_RULE = re.compile(r"^[ \t]*\+(?:[-=:]+\+)+[ \t]*$")
_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")


def has_grid_table(text: str) -> bool:
    return bool(re.search(r"^[ \t]*\+(?:-+\+){2,}[ \t]*\n[ \t]*\|", text, re.M))


def read_grid_tables(text: str) -> Reading:
    """``text`` with each grid table as a pipe table (see the module docstring)."""
    lines = text.split("\n")
    starts = line_starts(lines)
    out = Builder()
    i = 0
    while i < len(lines):
        if _RULE.match(lines[i]) and i + 1 < len(lines) and _ROW.match(lines[i + 1]):
            i = _table(lines, i, starts, out)
            continue
        out.emit(lines[i] + "\n", starts[i])
        i += 1
    return out.reading()


def _table(lines: list[str], i: int, starts: list[int], out: Builder) -> int:
    """The grid table whose first rule is line ``i``; the index of the line after it."""
    bars = [m.start() for m in re.finditer(r"\+", lines[i])]
    columns = list(itertools.pairwise(bars))
    rows: list[list[list[tuple[str, int]]]] = []  # per row, per column: the pieces of its text
    header_rows = 0
    current: list[list[tuple[str, int]]] | None = None
    i += 1
    while i < len(lines) and (_RULE.match(lines[i]) or _ROW.match(lines[i])):
        line = lines[i]
        if _RULE.match(line):
            if current is not None:
                rows.append(current)
            current = None
            if "=" in line and not header_rows:
                header_rows = len(rows)
        else:
            current = current or [[] for _ in columns]
            for k, (a, b) in enumerate(columns):
                piece = line[a + 1 : b] if b <= len(line) else line[a + 1 :]
                if piece.strip():
                    lead = len(piece) - len(piece.lstrip())
                    current[k].append((piece.strip(), starts[i] + a + 1 + lead))
        i += 1
    if current is not None:
        rows.append(current)
    width = len(columns)
    at = starts[i - 1]
    out.block(at)
    if not header_rows:
        out.emit("|" + "   |" * width + "\n" + "|---" * width + "|\n", at)
    for n, row in enumerate(rows, start=1):
        _emit_row(row, out, at)
        if n == header_rows:
            out.emit("|---" * width + "|\n", at)
    out.block(at)
    return i


def _emit_row(row: list[list[tuple[str, int]]], out: Builder, at: int) -> None:
    for k, pieces in enumerate(row):
        out.emit("| " if k == 0 else " | ", pieces[0][1] if pieces else at)
        for m, (text, pos) in enumerate(pieces):
            if m:
                out.emit(" ", pos)
            out.emit(text.replace("|", "/"), pos)
    out.emit(" |\n", at)


__all__ = ["has_grid_table", "read_grid_tables"]
