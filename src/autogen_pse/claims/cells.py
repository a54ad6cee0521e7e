"""The cells of a table row, with their offsets: Markdown pipe rows, plain-text rows aligned with
spaces, word-processor rows separated by tabs (used by :mod:`.split`)."""

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
        return cells if all(len(c) <= 60 for c, _o in cells) else []
    cells = [(m.group(0), base + m.start()) for m in re.finditer(r"\S+(?: \S+)*", line)]
    return cells if all(len(c) <= 60 for c, _o in cells) else []  # prose with double spaces is no table


def aligned(cells: list[tuple[str, int]], base: int, columns: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """A plain-text row with blank cells, its cells put under the header columns they sit under (the
    most overlap, else the nearest); the row as it is when two cells would share a column."""
    out: list[tuple[str, int]] = [("", -1)] * len(columns)
    for c, o in cells:
        a, b = o - base, o - base + len(c)
        overlap = [min(b, e) - max(a, s) for s, e in columns]
        best = max(range(len(columns)), key=lambda k: (overlap[k], -abs((a + b) - sum(columns[k]))))
        if out[best][1] != -1:
            return cells
        out[best] = (c, o)
    return [(c, o if o != -1 else base + columns[k][0]) for k, (c, o) in enumerate(out)]


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
