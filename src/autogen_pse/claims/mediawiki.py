"""A page in MediaWiki markup (an internal wiki's review, a holding's subpage, a talk page) read as the
Markdown the splitter knows.

- ``== Heading ==`` becomes ``## Heading``; ``* item`` and ``# item`` list items; ``:`` indents and
  ``;`` terms are plain lines;
- a table (``{| … |}``) becomes a pipe table: each row (``|-``) collects its cells, header (``!``) or
  data (``|``), one per line or several joined by ``||``/``!!``; a cell's attributes
  (``style="…" | Apple``) go; ``colspan`` leaves empty cells after its cell, so the columns stay under
  their header; the first row is the header when it is all header cells, else an empty header is put
  above; the caption (``|+``) is a line of its own;
- a template over several lines (``{{Infobox holding`` … ``}}``) becomes ``key: value`` lines, the
  field that names the item (``ticker``, ``company``…) first, as a list item; a template on one line
  (``{{Talk header}}``) goes;
- inline: links read as their text (``[[Apple Inc.|Apple]]`` → "Apple"), categories, files,
  references (``<ref>…</ref>``) and signatures (``--[[User:PM|PM]] (talk) 10:42, 2 March 2010 (UTC)``)
  go, bold and italic quotes go.

Each piece keeps where it came from (:class:`~.formats.Reading`), so a claim points at its line.
"""

from __future__ import annotations

import re

from .formats import Builder, Reading, line_starts
from .xmldoc import NAMING_KEYS, key_value, key_words

_HEADING = re.compile(r"^(={2,6})[ \t]*(.+?)[ \t]*\1[ \t]*$")
_TABLE_START = re.compile(r"^[ \t]*\{\|")
_TEMPLATE_OPEN = re.compile(r"^[ \t]*\{\{([^{}|\n]+)(?:\|[^{}\n]*)?$")  # "{{Infobox holding" (its fields follow)
_TEMPLATE_LINE = re.compile(r"^[ \t]*\{\{[^\n]*\}\}[ \t]*$")  # "{{Talk header}}": the page's furniture
_FIELD = re.compile(r"^[ \t]*\|[ \t]*([\w -]{1,40}?)[ \t]*=[ \t]*(.*?)[ \t]*$")  # "| units = 250"
_ATTRIBUTES = re.compile(r"^[ \t]*((?:[\w-]+[ \t]*=[ \t]*(?:\"[^\"\n]*\"|'[^'\n]*'|[\w#%.-]+)[ \t]*)+)\|(?!\|)")
_COLSPAN = re.compile(r"colspan[ \t]*=[ \t]*[\"']?(\d+)")
_SIGNATURE = re.compile(
    r"-{1,2}[ \t]*\[\[User:[^\]\n]*\]\](?:[ \t]*\(\[\[User[ _]talk:[^\]\n]*\]\]\))?"
    r"(?:[ \t]*\d{1,2}:\d{2},[ \t]*\d{1,2}[ \t]+\w+[ \t]+\d{4}[ \t]*\(UTC\))?|~{3,5}"
)
_INLINE = re.compile(
    r"(?P<drop><ref[^>\n]*/>|<ref\b[^>\n]*>.*?</ref>|<references[^>\n]*/?>|\[\[(?:Category|File|Image):[^\]\n]*\]\]"
    r"|\{\{[^{}\n]*\}\}|'{2,5})"
    r"|\[\[[^\]|\n]*\|(?P<shown>[^\]\n]*)\]\]|\[\[(?P<page>[^\]|\n]*)\]\]|\[https?://\S+[ \t]+(?P<label>[^\]\n]*)\]",
    re.S,
)


def is_wiki(text: str) -> bool:
    """A page in MediaWiki markup: a wiki table, or wiki headings and links ("== Summary ==", "[[IBM]]")."""
    tables = len(re.findall(r"^[ \t]*\{\|", text, re.M))
    headings = len(re.findall(r"^==[^=\n].*==[ \t]*$", text, re.M))
    links = text.count("[[")
    return (tables >= 1 and "|}" in text) or (headings >= 2 and links >= 2) or "{{Infobox" in text


def _inline(line: str, pos: int, out: Builder) -> None:
    """``line`` (starting at ``pos``) with its inline markup read (see the module docstring)."""
    line_ = _SIGNATURE.sub(lambda m: " " * len(m.group(0)), line)
    at = 0
    for m in _INLINE.finditer(line_):
        out.emit(line_[at : m.start()], pos + at)
        for group in ("shown", "page", "label"):
            if m.group(group) is not None:
                out.emit(m.group(group), pos + m.start(group))
        at = m.end()
    out.emit(line_[at:], pos + at)


def _cells(body: str, pos: int, header: bool) -> list[tuple[str, int, int, bool]]:
    """The cells of a table line after its first "|" or "!": (text, position, columns spanned, header?)."""
    out = []
    sep = re.compile(r"!!|\|\|") if header else re.compile(r"\|\|")
    at = 0
    for m in [*sep.finditer(body), None]:
        end = m.start() if m else len(body)
        cell, start = body[at:end], pos + at
        span = 1
        attrs = _ATTRIBUTES.match(cell)
        if attrs:
            span = int(c.group(1)) if (c := _COLSPAN.search(attrs.group(1))) else 1
            start += attrs.end()
            cell = cell[attrs.end() :]
        lead = len(cell) - len(cell.lstrip())
        out.append((cell.strip(), start + lead, span, header))
        if m:
            at = m.end()
    return out


def _emit_row(row: list[tuple[str, int, int, bool]], out: Builder, pos: int) -> None:
    for k, (text, at, span, _h) in enumerate(row):
        out.emit("| " if k == 0 else " | ", at)
        _inline(text.replace("|", "/"), at, out)
        for _ in range(span - 1):
            out.emit(" | ", at)
    out.emit(" |\n", pos)


def _table(lines: list[str], i: int, starts: list[int], out: Builder) -> int:
    """The table opening at line ``i`` as a pipe table; the index of the line after its end."""
    rows: list[list[tuple[str, int, int, bool]]] = [[]]
    caption: tuple[str, int] | None = None
    i += 1
    while i < len(lines) and not lines[i].lstrip().startswith("|}"):
        line, pos = lines[i], starts[i]
        body = line.lstrip()
        lead = len(line) - len(body)
        if body.startswith("|-"):
            rows.append([])
        elif body.startswith("|+"):
            caption = (body[2:].strip(), pos + lead + 2 + len(body[2:]) - len(body[2:].lstrip()))
        elif body.startswith(("!", "|")):
            rows[-1].extend(_cells(body[1:], pos + lead + 1, body[0] == "!"))
        elif body and rows[-1]:  # a cell's text going on over a line
            text, at, span, h = rows[-1][-1]
            rows[-1][-1] = (f"{text} {body.strip()}", at, span, h)
        i += 1
    end = starts[i] if i < len(starts) else starts[-1]
    out.block(end if not rows else starts[min(i, len(starts) - 1)])
    if caption and caption[0]:
        _inline(caption[0], caption[1], out)
        out.block(caption[1])
    rows = [r for r in rows if r]
    if rows:
        width = max(sum(span for _t, _a, span, _h in r) for r in rows)
        first = rows[0]
        if all(h for *_x, h in first):
            _emit_row(first, out, first[0][1])
            rows = rows[1:]
        else:
            out.emit("|" + "   |" * width + "\n", first[0][1])
        out.emit("|---" * width + "|\n", first[0][1])
        for r in rows:
            _emit_row(r, out, r[0][1])
    out.block(end)
    return i + 1


def _template(lines: list[str], i: int, starts: list[int], out: Builder) -> int:
    """A template over several lines as a YAML-like block (its name opening it, then ``key: value``
    lines, the naming field first); the index of the line after its closing ``}}``."""
    opening = _TEMPLATE_OPEN.match(lines[i])
    name = key_words(opening.group(1).strip()) if opening else "template"
    fields: list[tuple[str, str, int]] = []
    head = starts[i]
    i += 1
    while i < len(lines) and not lines[i].strip().startswith("}}"):
        m = _FIELD.match(lines[i])
        if m and m.group(2):
            fields.append((m.group(1), m.group(2), starts[i] + m.start(2)))
        i += 1
    naming = [k for k, (key, _v, _p) in enumerate(fields) if key_words(key) in NAMING_KEYS]
    named = min(naming, key=lambda k: NAMING_KEYS.index(key_words(fields[k][0])), default=None)  # "ticker" first
    if named is not None:
        fields.insert(0, fields.pop(named))
    out.block(head)
    out.emit(f"{name}:\n", head)
    for key, value, pos in fields:
        plain = Builder()
        _inline(value, pos, plain)
        text = "".join(plain.parts)
        line = key_value(key, text)
        if not line.endswith(text):  # a flag's yes or no: the line as a whole
            out.emit(f"  {line}\n", pos)
            continue
        out.emit(f"  {line[: len(line) - len(text)]}", pos)
        for (_at, orig), piece in zip(plain.pieces, plain.parts, strict=True):
            out.emit(piece, orig)
        out.emit("\n", pos + len(value))
    out.block(starts[min(i, len(starts) - 1)])
    return i + 1


def read_wiki(text: str) -> Reading:
    """``text`` in MediaWiki markup read as Markdown (see the module docstring)."""
    lines = text.split("\n")
    starts = line_starts(lines)
    out = Builder()
    i, listed = 0, False
    while i < len(lines):
        line, pos = lines[i], starts[i]
        if _TABLE_START.match(line):
            i = _table(lines, i, starts, out)
            continue
        if _TEMPLATE_LINE.match(line):
            out.emit("\n", pos)
            i += 1
            continue
        if _TEMPLATE_OPEN.match(line) and "}}" not in line:
            i = _template(lines, i, starts, out)
            continue
        heading = _HEADING.match(line)
        if heading:
            out.block(pos)
            out.emit("#" * len(heading.group(1)) + " ", pos)
            _inline(heading.group(2), pos + heading.start(2), out)
            out.emit("\n\n", pos + len(line))
            i += 1
            continue
        marks = re.match(r"^([*#:;]+)[ \t]*", line)
        if listed and not marks:  # a line after a list: a paragraph of its own
            out.block(pos)
        listed = marks is not None and marks.group(1)[-1] in "*#"
        if marks:
            depth = len(marks.group(1))
            kind = marks.group(1)[-1]
            out.block(pos, 1 if kind in "*#" else 2)  # a talk page's replies (":"): paragraphs of their own
            if kind in "*#":
                out.emit("  " * (depth - 1) + ("- " if kind == "*" else "1. "), pos)
            _inline(line[marks.end() :], pos + marks.end(), out)
            out.emit("\n", pos + len(line))
        else:
            _inline(line, pos, out)
            out.emit("\n", pos + len(line))
        i += 1
    return out.reading()


__all__ = ["is_wiki", "read_wiki"]
