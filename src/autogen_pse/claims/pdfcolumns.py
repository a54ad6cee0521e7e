"""A page of two columns pasted from a PDF as text, read column by column."""

from __future__ import annotations

import re

from .formats import Builder, Reading

_GAP = re.compile(r"\S( {5,})(?=\S)")


def two_columns(text: str) -> Reading | None:
    """A page of two columns pasted as text ("building payment …          SKILLS"): the left column
    read first, then the right one — when most lines that reach the right column start it at the same
    place and no line has a second gap (that is a table)."""
    lines = text.split("\n")
    starts: dict[int, int] = {}
    for line in lines:
        gaps = list(_GAP.finditer(line))
        if len(gaps) == 1 and not re.search(r"\d[\d,.%]*\s*$", line[: gaps[0].start(1)]):
            col = gaps[0].end(1)
            starts[col] = starts.get(col, 0) + 1
        elif len(gaps) > 1:
            return None
    if not starts:
        return None
    col, n = max(starts.items(), key=lambda kv: kv[1])
    near = sum(v for c, v in starts.items() if abs(c - col) <= 2)
    if n < 6 or near < 0.25 * sum(1 for line in lines if line.strip()):
        return None
    left, right = Builder(), Builder()
    pos = 0
    for line in lines:
        cut = next((m.end(1) for m in _GAP.finditer(line) if abs(m.end(1) - col) <= 2), None)
        if cut is None and len(line) > col and line[:col].strip() == "" and line[col:].strip():
            cut = col  # a line of the right column only
        if cut is None:
            left.emit(line + "\n", pos)
        else:
            left.emit(line[:cut].rstrip() + "\n", pos)
            right.emit(line[cut:] + "\n", pos + cut)
        pos += len(line) + 1
    out = Builder()
    for part in (left, right):
        for (_at, orig), piece in zip(part.pieces, part.parts, strict=True):
            out.emit(piece, orig)
        out.emit("\n", pos)
    return out.reading()
