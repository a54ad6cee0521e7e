"""Deterministic parsing of a Markdown CV into entries (the only source of truth about the person).

Result of :func:`parse_cv` (JSON-serialisable)::

    {"name": str, "headline": str,
     "sections": [{"cls": str|None, "title": str, "line": int}],
     "experience": [{"id": "exp1", "title", "employer", "location", "start", "end",
                     "start_text", "end_text", "line", "bullets": [str]}],
     "education": [{"id": "edu1", "degree", "level", "field", "school", "year", "line"}],
     "skills": [str], "items": {section_class: [str]}, "summary": str,
     "section_text": {section_class: str}}

Lines are 1-based line numbers of ``cv.md``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from autogen_pse.hooks import InputFileError

from .entrytext import split_list, split_parts
from .structure import (
    BULLET,
    ITEM_SECTIONS,
    Block,
    head_text,
    is_date_line,
    split_blocks,
    split_sections,
    strip_bullet,
)
from .text import (
    PRESENT,
    DateMention,
    clean_inline,
    find_dates,
    has_school_word,
    has_title_word,
    norm_org,
    norm_title,
    not_before,
)

# Degree abbreviations/phrases → level. ``strict`` patterns are only trusted inside an Education
# section (MS, MA, BA, BS collide with "MS SQL", "BA" airline...).
_DEGREE_PATTERNS: tuple[tuple[str, str, bool], ...] = (
    ("phd", r"Ph\.?\s?D\.?|D\.?Phil\.?|Doctor(?:ate)? of Philosophy|Doctorate", False),
    ("mba", r"M\.?B\.?A\.?|Master of Business Administration", False),
    ("meng", r"M\.?Eng\.?|Master of Engineering", False),
    ("mphil", r"M\.?Phil\.?", False),
    ("llm", r"LL\.?M\.?", False),
    ("msc", r"M\.?Sc\.?|Master of Science|Master's of Science", False),
    ("ma", r"Master of Arts", False),
    ("master", r"Master(?:'s|s)(?: degree)?|Master degree", False),
    ("beng", r"B\.?Eng\.?|Bachelor of Engineering", False),
    ("llb", r"LL\.?B\.?", False),
    ("bba", r"B\.?B\.?A\.?|Bachelor of Business Administration", False),
    ("bsc", r"B\.?Sc\.?|Bachelor of Science", False),
    ("ba", r"Bachelor of Arts", False),
    ("bachelor", r"Bachelor(?:'s|s)?(?: degree)?", False),
    ("associate", r"Associate(?:'s)? [Dd]egree", False),
    ("msc", r"M\.?S\.?", True),
    ("ma", r"M\.?A\.?", True),
    ("bsc", r"B\.?S\.?", True),
    ("ba", r"B\.?A\.?", True),
)
_FAMILY = {
    "phd": "doctor",
    "mba": "master",
    "meng": "master",
    "mphil": "master",
    "llm": "master",
    "msc": "master",
    "ma": "master",
    "master": "master",
    "beng": "bachelor",
    "llb": "bachelor",
    "bba": "bachelor",
    "bsc": "bachelor",
    "ba": "bachelor",
    "bachelor": "bachelor",
    "associate": "associate",
}
_GENERIC = {"master", "bachelor"}


def _degree_re(strict: bool) -> re.Pattern[str]:
    alts = "|".join(
        f"(?P<{lvl}{n}>{pat})" for n, (lvl, pat, s) in enumerate(_DEGREE_PATTERNS) if strict or not s
    )
    return re.compile(rf"(?<![\w.])(?:{alts})(?![\w])(?!\.\w)")


DEGREE_RE = _degree_re(strict=False)
DEGREE_RE_STRICT = _degree_re(strict=True)


def find_degrees(text: str, *, strict: bool = False) -> list[tuple[str, str, tuple[int, int]]]:
    """``(level, matched_text, span)`` for each degree mention (``strict``: also MS/MA/BS/BA)."""
    rx = DEGREE_RE_STRICT if strict else DEGREE_RE
    out = []
    for m in rx.finditer(text):
        group = next(k for k, v in m.groupdict().items() if v is not None)
        out.append((group.rstrip("0123456789"), m.group(0), m.span()))
    return out


def degree_compatible(level_a: str, level_b: str) -> bool:
    """Same level, or one is the generic "master"/"bachelor" of the other's family."""
    if level_a == level_b:
        return True
    fam_a, fam_b = _FAMILY.get(level_a), _FAMILY.get(level_b)
    return fam_a == fam_b and (level_a in _GENERIC or level_b in _GENERIC)


def degree_field(text: str, span: tuple[int, int]) -> str:
    """The field after a degree mention: ``"MSc in Computer Science (Hons)"`` → ``"Computer Science"``."""
    rest = text[span[1] :]
    rest = re.sub(r"^\s*(?:\(Hons\.?\)|with honours|hons\.?)?\s*(?:in|of|,)?\s*", "", rest, flags=re.I)
    rest = re.split(r"\s+(?:—|–|-|\||·|at|from)\s+|[,;(|·—–\t]|\s{3,}", rest, maxsplit=1)[0]
    return re.sub(r"(?:\s+(?:in|at|from|and|with))+\s*$", "", rest.strip(" .:"))  # "Mathematics in 2014"


def _date_of(lines: list[str], block: Block, head: str) -> tuple[DateMention | None, str]:
    """The entry's date (range or single) from its head or first date line, plus a location."""
    for i in block.head[1:] + block.body[:2]:
        date, rest = is_date_line(lines[i])
        if date is not None:
            return date, rest
    dates = find_dates(head)
    ranges = [d for d in dates if d.is_range]
    return (ranges or dates or [None])[0], ""


def parse_role(
    head: str, *, known_titles: set[str] | None = None, known_orgs: set[str] | None = None
) -> dict[str, Any]:
    """Split an experience head (dates already removed) into title, employer and location.

    ``"Senior Engineer — Acme Ltd · Leeds"`` → title, employer, location; ``"Engineer at Acme"``;
    ``"Acme Ltd — Engineer"`` (a segment with a title word is the title). ``known_*`` hold
    normalised names (:func:`norm_title`/:func:`norm_org`) that win over the heuristics.
    """
    known_titles = known_titles or set()
    known_orgs = known_orgs or set()
    labelled = dict(re.findall(r"\b(title|role|position|company|employer)\s*:\s*([^|]+)", head, re.I))
    labelled = {k.lower(): v.strip() for k, v in labelled.items()}
    if labelled:
        title = labelled.get("title") or labelled.get("role") or labelled.get("position") or ""
        employer = labelled.get("company") or labelled.get("employer") or ""
        return {"title": title, "employer": employer, "location": "", "parts": [title, employer]}
    parts = split_parts(head)
    if known_titles or known_orgs:  # "Acme Ltd, Hamburg — Engineer": split a comma part when it helps

        def known(p: str) -> bool:
            return norm_org(p) in known_orgs or norm_title(p) in known_titles

        expanded: list[str] = []
        for p in parts:
            subs = [x.strip() for x in p.split(",") if x.strip()]
            expanded += subs if not known(p) and len(subs) > 1 and any(known(x) for x in subs) else [p]
        parts = expanded
    title = next((p for p in parts if norm_title(p) in known_titles), None)
    employer = next((p for p in parts if norm_org(p) in known_orgs and p != title), None)
    if title is None:
        title = next((p for p in parts if p != employer and has_title_word(p)), None)
    if employer is None:
        employer = next((p for p in parts if p not in (title,) and not has_title_word(p)), None)
        if employer is None and title is not None:
            employer = next((p for p in parts if p != title), None)
    if title is None and employer is not None:
        title = next((p for p in parts if p != employer), None)
    rest = [p for p in parts if p not in (title, employer)]
    return {"title": title or "", "employer": employer or "", "location": ", ".join(rest), "parts": parts}


def remove_dates(text: str) -> str:
    for d in sorted(find_dates(text), key=lambda d: -d.span[0]):
        text = text[: d.span[0]] + " " + text[d.span[1] :]
    return re.sub(r"\(\s*\)", " ", text)


def _err(path: Path, msg: str, line: int, field: str) -> InputFileError:
    return InputFileError(path, msg, row=line, field=field)


def _experience(path: Path, lines: list[str], blocks: list[Block]) -> list[dict[str, Any]]:
    out = []
    for n, block in enumerate(blocks, 1):
        eid, line = f"exp{n}", block.first + 1
        head = head_text(lines, block)
        date, location = _date_of(lines, block, head)
        role = parse_role(remove_dates(head))
        if not role["employer"] or not role["title"]:
            raise _err(
                path,
                f"experience entry {head!r} needs a title and an employer, e.g. "
                "'### Senior Engineer — Acme Ltd'",
                line,
                f"{eid}.employer",
            )
        if date is None or not date.is_range:
            raise _err(
                path,
                f"experience entry {head!r} has no date range (e.g. 'Mar 2020 – Present' "
                "on the line after the heading)",
                line,
                f"{eid}.start",
            )
        assert date.end is not None
        if date.start == PRESENT or not not_before(date.end, date.start):
            raise _err(
                path,
                f"experience entry {head!r}: the range {date.text!r} ends before it starts",
                line,
                f"{eid}.end",
            )
        start_text, _, end_text = re.split(r"\s*(–|—|-|\bto\b|\buntil\b|\btill\b)\s*", date.text, maxsplit=1)
        bullets = [strip_bullet(lines[i]) for i in block.body if BULLET.match(lines[i])]
        out.append(
            {
                "id": eid,
                "title": clean_inline(role["title"]),
                "employer": clean_inline(role["employer"]),
                "location": location or role["location"],
                "start": date.start,
                "end": date.end,
                "start_text": start_text,
                "end_text": end_text,
                "line": line,
                "bullets": bullets,
            }
        )
    return out


def parse_education_entry(head: str, *, strict: bool = True) -> dict[str, Any]:
    """Degree level, degree text, field and school of an education head (dates removed)."""
    degrees = find_degrees(head, strict=strict)
    level, degree_text, field = "", "", ""
    if degrees:
        level, _, span = degrees[0]
        for lvl, _, nxt in degrees[1:]:  # "Master of Science - MSc", "Master of Science (MSc)": one degree
            if lvl == level and re.fullmatch(r"[\s(–—-]*", head[span[1] : nxt[0]]):
                span = (span[0], nxt[1] + (1 if head[nxt[1] : nxt[1] + 1] == ")" else 0))
        field = degree_field(head, span)
        degree_text = (head[span[0] : span[1]] + (" " + field if field else "")).strip()
    parts = split_parts(head)
    school = next((p for p in parts if has_school_word(p) and not find_degrees(p, strict=strict)), "")
    if not school:
        school = next((p for p in parts if not find_degrees(p, strict=strict) and p.strip() != field
                       and re.search(r"[^\W\d_]{2}", p)), "")  # (not the "—" a redacted school left)
    if not degree_text:
        degree_text = next((p for p in parts if p != school), head)
    return {
        "degree": clean_inline(degree_text),
        "level": level,
        "field": clean_inline(field),
        "school": clean_inline(school),
    }


def _education(lines: list[str], blocks: list[Block]) -> list[dict[str, Any]]:
    out = []
    for n, block in enumerate(blocks, 1):
        head = head_text(lines, block)
        date, _ = _date_of(lines, block, head)
        entry = parse_education_entry(remove_dates(head))
        year = ""
        if date is not None:
            year = (date.end or date.start)[:4] if (date.end or date.start) != PRESENT else ""
        out.append({"id": f"edu{n}", **entry, "year": year, "line": block.first + 1})
    return out


def _skills(lines: list[str], start: int, end: int) -> list[str]:
    items: list[str] = []
    for i in range(start, end):
        text = clean_inline(strip_bullet(lines[i]))
        if not text or text.startswith("#"):
            continue
        text = re.sub(r"^[^:]{1,40}:\s*", "", text)  # "Languages: Python, Go"
        items += split_list(text)
    seen: set[str] = set()
    return [i for i in items if not (i.lower() in seen or seen.add(i.lower()))]


def parse_cv(text: str, path: Path) -> dict[str, Any]:
    """Parse a CV. Raises :class:`InputFileError` (with line and field) for a CV without an
    Experience section, an experience entry without title/employer/date range, or no entries."""
    lines = text.splitlines()
    sections = split_sections(lines)
    by_cls = {s.cls: s for s in sections if s.cls}
    exp = by_cls.get("experience")
    if exp is None:
        raise InputFileError(
            path,
            "no Experience section; add a heading such as '## Experience' with one "
            "'### Title — Employer' entry per role",
            row=1,
            field="Experience",
        )
    exp_blocks = split_blocks(lines, exp)
    if not exp_blocks:
        raise InputFileError(
            path,
            "the Experience section has no entries ('### Title — Employer' + dates)",
            row=exp.heading_index + 1,
            field="Experience",
        )
    header = [
        clean_inline(lines[i])
        for i in range(by_cls["header"].start, by_cls["header"].end)
        if lines[i].strip()
    ]
    name = header[0].lstrip("# ").strip() if header else ""
    headline = header[1] if len(header) > 1 and "@" not in header[1] else ""
    result: dict[str, Any] = {
        "name": name,
        "headline": headline,
        "sections": [{"cls": s.cls, "title": s.title, "line": s.heading_index + 1} for s in sections[1:]],
        "experience": _experience(path, lines, exp_blocks),
        "education": [],
        "skills": [],
        "items": {},
        "summary": "",
        "section_text": {},
    }
    for s in sections[1:]:
        body = "\n".join(lines[s.start : s.end]).strip()
        if s.cls:
            result["section_text"][s.cls] = body
        if s.cls == "education":
            result["education"] = _education(lines, split_blocks(lines, s))
        elif s.cls == "skills":
            result["skills"] = _skills(lines, s.start, s.end)
        elif s.cls == "summary":
            result["summary"] = " ".join(clean_inline(x) for x in lines[s.start : s.end] if x.strip())
        elif s.cls in ITEM_SECTIONS:
            result["items"][s.cls] = [head_text(lines, b) for b in split_blocks(lines, s)]
    return result
