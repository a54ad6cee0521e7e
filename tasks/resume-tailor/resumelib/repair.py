"""Deterministic repairs of a tailored CV (the ``sanitize`` hook). Every edit is logged.

Rules, applied in this order (each works on the result of the previous one):

``unwrap``                  a CV wrapped in a ```markdown fence, a chat preamble before the ``# Name``
                            heading, or a trailing ```verdict block is removed
``fix_title``               an experience entry at a CV employer with a wrong title gets the CV's
                            title (when the CV has one title at that employer)
``fix_dates``               a matched entry whose range is outside the CV's range (or an education
                            year that differs) gets the CV's dates
``drop_invented_entry``     an entry that maps to no CV entry is removed with its bullets
``drop_unsupported_bullet`` a bullet holding an unsupported figure, date, technology, degree or
                            organisation is removed
``drop_unsupported_skill``  a Skills list item not in the CV is removed from its line
``drop_unsupported_sentence`` a sentence of a prose paragraph holding an unsupported claim is removed
``fix_headline``            a header line with a job title the CV never gives becomes the CV's headline
``normalise_heading``       section headings become ``## Summary``, ``## Experience``, ...
``add_missing_section``     a section the job needs is copied from the CV, in the usual order
``tidy_whitespace``         runs of blank lines left by removals are collapsed
"""

from __future__ import annotations

import re
from typing import Any

from autogen_pse.hooks import SanitizeChange

from .claims import Analysis, analyse, line_claims
from .entrytext import split_list
from .model import CvModel
from .structure import (
    BULLET,
    CANONICAL,
    SECTION_ORDER,
    heading_of,
    strip_bullet,
)
from .text import clean_inline

_FENCE = re.compile(r"\A\s*```(?:markdown|md)?[ \t]*\n(?P<body>.*?)\n```\s*\Z", re.DOTALL | re.IGNORECASE)
_VERDICT = re.compile(r"\n*```verdict[ \t]*\n.*?```\s*\Z", re.DOTALL)
_MAX_PASSES = 4
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def _change(changes: list[SanitizeChange], rule: str, before: str, after: str) -> None:
    changes.append(SanitizeChange(rule=rule, before=before, after=after))


def _unwrap(text: str, changes: list[SanitizeChange]) -> str:
    m = _FENCE.match(text)
    if m:
        _change(changes, "unwrap", "```markdown fence around the CV", "fence removed")
        text = m.group("body")
    m = _VERDICT.search(text)
    if m:
        _change(changes, "unwrap", m.group(0).strip(), "")
        text = text[: m.start()]
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if re.match(r"^#\s+\S", line)), None)
    preamble = [x for x in lines[: first or 0] if x.strip()]
    if first and first <= 5 and all(_is_prose(x) for x in preamble) and len(preamble) <= 3:
        _change(changes, "unwrap", "\n".join(lines[:first]).strip(), "")
        lines = lines[first:]
    return "\n".join(lines)


def _entry_edits(model: CvModel, a: Analysis, changes: list[SanitizeChange]) -> list[str]:
    lines = list(a.lines)
    drop: set[int] = set()
    for e in a.entries:
        head = lines[e.block.first]
        if e.cls == "experience" and not e.ok and e.fix_title and e.title and e.title in head:
            new = head.replace(e.title, e.fix_title, 1)
            _change(changes, "fix_title", head, new)
            lines[e.block.first] = head = new
        elif not e.ok:
            block = sorted(set(e.block.head + e.block.body))
            _change(changes, "drop_invented_entry", "\n".join(lines[i] for i in block), "")
            drop.update(block)
            continue
        if e.fix_date and e.date is not None and e.date_index >= 0 and e.date.text in lines[e.date_index]:
            old = lines[e.date_index]
            new = old.replace(e.date.text, e.fix_date, 1)
            _change(changes, "fix_dates", old, new)
            lines[e.date_index] = new
    return [line for i, line in enumerate(lines) if i not in drop]


def _bad(model: CvModel, text: str) -> bool:
    return any(not c.ok for c in line_claims(model, text))


def _claim_edits(model: CvModel, a: Analysis, changes: list[SanitizeChange]) -> list[str]:
    lines = list(a.lines)
    bad_lines = {c.line - 1 for c in a.claims if not c.ok and c.check != "entries"}
    skill_items = {(c.line - 1, c.text) for c in a.claims if not c.ok and c.check == "technologies"}
    section_of = {}
    for s in a.sections:
        for i in range(s.start, s.end):
            section_of[i] = s
    head_lines = {i for e in a.entries for i in e.block.head}
    drop: set[int] = set()
    done_paragraphs: set[int] = set()
    for i in sorted(bad_lines):
        if i < 0 or i >= len(lines):
            continue
        sec = section_of.get(i)
        line = lines[i]
        if sec is not None and sec.cls == "header":
            headline = model.cv.get("headline", "")
            if headline and line.strip() != headline:
                _change(changes, "fix_headline", line, headline)
                lines[i] = headline
            continue
        if sec is not None and sec.cls == "skills" and not heading_of(line):
            lines[i] = _fix_skill_line(model, line, {t for j, t in skill_items if j == i}, changes)
            if not lines[i].strip():
                drop.add(i)
            continue
        if i in head_lines:
            continue  # entry heads are handled by the entry rules
        if BULLET.match(line):
            _change(changes, "drop_unsupported_bullet", line, "")
            drop.add(i)
            continue
        start = i
        while start > 0 and _is_prose(lines[start - 1]):
            start -= 1
        if start in done_paragraphs:
            continue
        done_paragraphs.add(start)
        end = i
        while end + 1 < len(lines) and _is_prose(lines[end + 1]):
            end += 1
        para = " ".join(x.strip() for x in lines[start : end + 1])
        kept = [s for s in _SENTENCE.split(para) if not _bad(model, s)]
        new = " ".join(kept)
        if new != para:
            _change(changes, "drop_unsupported_sentence", para, new)
            lines[start] = new
            drop.update(range(start + 1, end + 1))
            if not new:
                drop.add(start)
    return [line for i, line in enumerate(lines) if i not in drop]


def _is_prose(line: str) -> bool:
    return bool(line.strip()) and not BULLET.match(line) and heading_of(line) is None


def _fix_skill_line(model: CvModel, line: str, flagged: set[str], changes: list[SanitizeChange]) -> str:
    body = strip_bullet(line)
    prefix = line[: len(line) - len(line.lstrip())] + (line.strip()[: len(line.strip()) - len(body)])
    label = ""
    m = re.match(r"^([^:]{1,40}:)\s*", clean_inline(body))
    if m:
        label = m.group(1) + " "
    items = split_list(re.sub(r"^[^:]{1,40}:\s*", "", clean_inline(body)))
    keep = [it for it in items if it not in flagged and not _bad(model, it)]
    if keep == items:
        return line
    new = (prefix + label + ", ".join(keep)) if keep else ""
    _change(changes, "drop_unsupported_skill", line, new)
    return new


def _headings(a: Analysis, changes: list[SanitizeChange]) -> list[str]:
    lines = list(a.lines)
    for s in a.sections:
        if s.cls in CANONICAL and s.heading_index >= 0:
            want = f"## {CANONICAL[s.cls]}"
            if lines[s.heading_index].strip() != want:
                _change(changes, "normalise_heading", lines[s.heading_index], want)
                lines[s.heading_index] = want
    return lines


def _add_sections(
    model: CvModel, a: Analysis, required: list[str], changes: list[SanitizeChange]
) -> list[str]:
    lines = list(a.lines)
    present = {s.cls: s for s in a.sections if s.cls}
    for cls in sorted((c for c in required if c not in present), key=SECTION_ORDER.index, reverse=True):
        body = model.cv["section_text"].get(cls, "").strip()
        if not body:
            continue
        later = [
            present[c].heading_index
            for c in SECTION_ORDER[SECTION_ORDER.index(cls) + 1 :]
            if c in present and present[c].heading_index >= 0
        ]
        at = min(later) if later else len(lines)
        block = [f"## {CANONICAL[cls]}", "", *body.splitlines(), ""]
        if at == len(lines) and lines and lines[-1].strip():
            block.insert(0, "")
        _change(changes, "add_missing_section", "", "\n".join(block).strip())
        lines[at:at] = block
    return lines


def _tidy(lines: list[str], changes: list[SanitizeChange]) -> str:
    out: list[str] = []
    collapsed = 0
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            collapsed += 1
            continue
        out.append(line.rstrip() if not line.strip() else line)
    while out and not out[0].strip():
        out.pop(0)
        collapsed += 1
    if collapsed:
        _change(changes, "tidy_whitespace", f"{collapsed} extra blank line(s)", "removed")
    return "\n".join(out).rstrip() + "\n"


def repair(artifact: str, data: dict[str, Any]) -> tuple[str, list[SanitizeChange]]:
    """Apply every rule (module docstring) to ``artifact``; ``(new_text, changes)``."""
    model = CvModel(data)
    changes: list[SanitizeChange] = []
    text = _unwrap(artifact or "", changes)
    lines = text.splitlines()
    for _ in range(_MAX_PASSES):  # a removal can change how the rest is read; repeat until stable
        before = len(changes)
        lines = _entry_edits(model, analyse("\n".join(lines), model), changes)
        lines = _claim_edits(model, analyse("\n".join(lines), model), changes)
        if len(changes) == before:
            break
    lines = _headings(analyse("\n".join(lines), model), changes)
    lines = _add_sections(model, analyse("\n".join(lines), model), data["job"]["required_sections"], changes)
    result = _tidy(lines, changes)
    return result, changes
