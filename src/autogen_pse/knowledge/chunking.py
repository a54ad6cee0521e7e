"""Split documents into retrieval chunks (~800 characters, ~100 characters of overlap).

* Markdown: a chunk never crosses an ATX heading (``#`` … ``######``; headings inside fenced code
  are ignored); each chunk carries the path of headings above it (``"Guide > Install > Linux"``).
  Inside a section, text is cut at paragraph breaks first, then line breaks, then sentence ends,
  then spaces, and only as a last resort in the middle of a word.
* Plain text: the same, without headings.
* CSV rows: whole rows grouped up to the target size, the header row repeated in every chunk.

Consecutive chunks of one section share ~``overlap`` characters (the previous chunk's tail, cut at
a word boundary) so a sentence split across two chunks is still found whole in one of them.
Pure functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TARGET_CHARS = 800
OVERLAP_CHARS = 100
HEADING_SEP = " > "

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# (separator put back between parts, pattern that splits), coarse to fine.
_LEVELS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("\n\n", re.compile(r"\n[ \t]*\n\s*")),
    ("\n", re.compile(r"\n")),
    (" ", re.compile(r"(?<=[.!?;:])\s+")),
    (" ", re.compile(r"\s+")),
)


@dataclass(frozen=True)
class Chunk:
    """One piece of a document: ``text`` plus the heading path it sits under (may be empty)."""

    text: str
    heading: str = ""


def split_markdown(text: str, *, target: int = TARGET_CHARS, overlap: int = OVERLAP_CHARS) -> list[Chunk]:
    """Markdown → chunks that respect headings and paragraphs (heading lines are not in ``text``)."""
    chunks: list[Chunk] = []
    for heading, body in markdown_sections(text):
        chunks.extend(split_text(body, heading=heading, target=target, overlap=overlap))
    return chunks


def markdown_sections(text: str) -> list[tuple[str, str]]:
    """``[(heading_path, body_text)]`` in document order; text before the first heading has path ``""``."""
    sections: list[tuple[str, str]] = []
    stack: list[tuple[int, str]] = []
    body: list[str] = []
    fence: str | None = None

    def flush() -> None:
        joined = "\n".join(body).strip()
        if joined:
            sections.append((HEADING_SEP.join(title for _, title in stack), joined))
        body.clear()

    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        fence_match = _FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
            body.append(line)
            continue
        heading = None if fence else _ATX.match(line)
        if heading:
            flush()
            level = len(heading.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading.group(2).strip()))
        else:
            body.append(line)
    flush()
    return sections


def split_text(
    text: str, *, heading: str = "", target: int = TARGET_CHARS, overlap: int = OVERLAP_CHARS
) -> list[Chunk]:
    """Plain text → chunks of at most ~``target + overlap`` characters, all under ``heading``."""
    if target < 1 or overlap < 0 or overlap >= target:
        raise ValueError(f"need 0 <= overlap < target, got target={target}, overlap={overlap}")
    text = text.replace("\r\n", "\n").strip()
    if not text:
        return []
    return [Chunk(piece, heading) for piece in _pack(_atoms(text, target, 0), target, overlap)]


def split_rows(header: str, rows: list[str], *, target: int = TARGET_CHARS, first_row: int = 1) -> list[Chunk]:
    """CSV lines → chunks of whole rows, each starting with ``header``; heading ``"rows a-b"``.

    ``rows`` are already-serialised lines without the header; ``first_row`` numbers the first one.
    A row longer than ``target`` gets a chunk of its own.
    """
    chunks: list[Chunk] = []
    batch: list[str] = []
    size = len(header)
    start = first_row
    for offset, row in enumerate(rows):
        if batch and size + 1 + len(row) > target:
            chunks.append(_rows_chunk(header, batch, start))
            batch, size, start = [], len(header), first_row + offset
        batch.append(row)
        size += 1 + len(row)
    if batch:
        chunks.append(_rows_chunk(header, batch, start))
    return chunks


def _rows_chunk(header: str, batch: list[str], start: int) -> Chunk:
    end = start + len(batch) - 1
    return Chunk("\n".join([header, *batch]), f"rows {start}-{end}")


def _atoms(text: str, target: int, level: int) -> list[tuple[str, str]]:
    """``text`` → ``[(separator_before, piece)]`` with every piece at most ``target`` characters."""
    if len(text) <= target:
        return [("", text)]
    for index in range(level, len(_LEVELS)):
        sep, pattern = _LEVELS[index]
        parts = [p.strip() for p in pattern.split(text)]
        parts = [p for p in parts if p]
        if len(parts) > 1:
            out: list[tuple[str, str]] = []
            for number, part in enumerate(parts):
                sub = _atoms(part, target, index + 1)
                sub[0] = (sep if number else "", sub[0][1])
                out.extend(sub)
            return out
    return [("", text[i : i + target]) for i in range(0, len(text), target)]


def _pack(atoms: list[tuple[str, str]], target: int, overlap: int) -> list[str]:
    chunks: list[str] = []
    current = ""
    for sep, atom in atoms:
        if not current:
            current = atom
        elif len(current) + len(sep) + len(atom) <= target:
            current += sep + atom
        else:
            chunks.append(current)
            tail = overlap_tail(current, overlap)
            current = f"{tail}{sep}{atom}" if tail else atom  # sep "" = a word cut in two
    if current:
        chunks.append(current)
    return chunks


def overlap_tail(text: str, size: int) -> str:
    """The last ~``size`` characters of ``text``, starting at a word boundary when there is one."""
    if size <= 0:
        return ""
    if len(text) <= size:
        return text.strip()
    tail = text[-size:]
    if not text[-size - 1].isspace():
        space = re.search(r"\s", tail)
        if space and space.end() < len(tail):
            tail = tail[space.end() :]
    return tail.strip()
