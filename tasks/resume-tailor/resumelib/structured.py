"""A CV written as data — JSON Resume in YAML, JSON or TOML (``basics``, ``work[]``, ``education[]``,
…) — read as the Markdown CV it stands for, with each Markdown line mapped back to the line of the
document it came from (so checks still point at the user's own lines).

The JSON Resume schema (https://jsonresume.org/schema) is the common one; ``company`` for ``name``,
``title`` for ``position``, ``degree`` and ``year`` in education, ``certifications`` and skills as a
table of lists are accepted too.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})[^\n]*\n(.*?)^\s*\1\s*$", re.MULTILINE | re.DOTALL)
_START = re.compile(r"^(?:basics|work|experience)\s*:", re.MULTILINE)
_NOTE_UNDER = re.compile(r"^(?:---+|\*\*\*+)[ \t]*$", re.MULTILINE)  # a Markdown note under a TOML file


def _parse(body: str) -> Any:
    """JSON, TOML or YAML, in that order of tries; ``None`` when it is none of them."""
    import yaml

    if body.lstrip().startswith("{"):
        try:
            return json.loads(body)
        except ValueError:
            return None
    try:
        return tomllib.loads(body)
    except tomllib.TOMLDecodeError:
        pass
    try:
        return yaml.safe_load(body)
    except yaml.YAMLError:
        return None


def _load(text: str) -> dict[str, Any] | None:
    """The data of ``text``: a fenced block, the document itself, the part from ``basics:`` on, or
    the part before a Markdown rule (a TOML file with a note under it)."""
    candidates = [m.group(2) for m in _FENCE.finditer(text)]
    start = _START.search(text)
    if start:
        candidates.append(text[start.start() :])
    candidates.append(text)
    rule = _NOTE_UNDER.search(text)  # a TOML file with a Markdown note under it
    if rule:
        candidates.append(text[: rule.start()])
    for body in candidates:
        data = _parse(body)
        if isinstance(data, dict) and isinstance(data.get("work") or data.get("experience"), list):
            return data
    return None


def _line_of(lines: list[str], value: str, after: int = 0) -> int:
    """1-based line of the first line at or after ``after`` that holds ``value`` (0 when none)."""
    needle = value.strip()[:40].lower()
    if not needle:
        return 0
    for i in range(max(after - 1, 0), len(lines)):
        if needle in lines[i].lower():
            return i + 1
    return 0


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if value not in (None, "") else ""


def _leaves(value: Any) -> list[str]:
    """The strings of a value, depth first (a TOML skills table: ``{ core = ["Python", "Go"] }``)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _leaves(v)]
    if isinstance(value, list):
        return [s for v in value for s in _leaves(v)]
    return [_text(value)] if _text(value) else []


def as_markdown(text: str) -> tuple[str, dict[int, int]] | None:
    """``(markdown, line_map)`` for a CV written as JSON Resume data, else ``None``; ``line_map``
    maps each Markdown line (1-based) to the document's line."""
    data = _load(text)
    if data is None:
        return None
    lines = text.splitlines()
    out: list[str] = []
    where: dict[int, int] = {}
    cursor = 0

    def add(line: str, source: str = "") -> None:
        nonlocal cursor
        out.append(line)
        found = _line_of(lines, source, cursor) if source else 0
        if found:
            cursor = found
        where[len(out)] = found or cursor or 1

    basics = data.get("basics") if isinstance(data.get("basics"), dict) else {}
    add(f"# {_text(basics.get('name'))}", _text(basics.get("name")))
    if basics.get("label"):
        add(_text(basics["label"]), _text(basics["label"]))
    if basics.get("summary"):
        add("")
        add("## Summary")
        summary = _text(basics["summary"])
        add(summary, summary.split(".")[0][:30])
    add("")
    add("## Experience")
    for job in data.get("work") or data.get("experience") or []:
        if not isinstance(job, dict):
            continue
        employer = _text(job.get("name") or job.get("company"))
        title = _text(job.get("position") or job.get("title"))
        add("")
        add(f"### {title} — {employer}", employer)
        start, end = _text(job.get("startDate")), _text(job.get("endDate")) or "Present"
        if start:
            add(f"{start} – {end}", start)
        for item in job.get("highlights") or []:
            add(f"- {_text(item)}", _text(item)[:30])
    education = [e for e in data.get("education") or [] if isinstance(e, dict)]
    if education:
        add("")
        add("## Education")
        for e in education:
            school = _text(e.get("institution"))
            parts = (_text(e.get("studyType")), _text(e.get("area")))
            degree = _text(e.get("degree")) or " ".join(p for p in parts if p)
            year = (_text(e.get("endDate")) or _text(e.get("year")) or _text(e.get("startDate")))[:4]
            anchor = degree if _line_of(lines, degree, cursor) else school  # the line the degree is on, if any
            add(f"- {degree}, {school}" + (f" ({year})" if year else ""), anchor)
    certificates = [c for c in data.get("certificates") or data.get("certifications") or [] if isinstance(c, dict)]
    if certificates:
        add("")
        add("## Certifications")
        for c in certificates:
            year = (_text(c.get("date")) or _text(c.get("year")))[:4]
            add(f"- {_text(c.get('name'))}" + (f" ({year})" if year else ""), _text(c.get("name")))
    skills = data.get("skills") or []
    if skills:
        add("")
        add("## Skills")
        if isinstance(skills, dict):  # TOML: a table of lists, or of inline tables of lists
            skills = [{"name": k, "keywords": _leaves(v)} for k, v in skills.items()]
        for s in skills:
            if isinstance(s, dict):
                words = [_text(k) for k in s.get("keywords") or []] or [_text(s.get("name"))]
                add(", ".join(w for w in words if w), words[0] if words else "")
            else:
                add(_text(s), _text(s))
    return "\n".join(out) + "\n", where
