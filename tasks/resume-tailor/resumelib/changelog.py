"""A developer's CV written as a ``CHANGELOG.md`` in the "Keep a Changelog" style, read as the Markdown
CV it stands for, line for line (so every check still points at the user's own lines):

- ``## [2020.03] – Senior Backend Engineer @ Brightline Payments Ltd`` (a release per role) becomes
  ``### Senior Backend Engineer — Brightline Payments Ltd`` under an ``## Experience`` heading, which
  takes the place of the blank line before the first role;
- ``## [2015] – MSc Computer Science, University of Leeds`` becomes an item under ``## Education``;
- ``## [Unreleased]`` (the job she is after) becomes ``## Notes``: no title she holds;
- ``### Dependencies (skills)`` becomes ``## Skills`` (a section named in brackets);
- ``### Added`` / ``Changed`` / ``Fixed`` / ``Removed`` / ``Deprecated`` / ``Security`` and the link
  references at the bottom (``[2015]: https://…``) are dropped, and so is the format's boilerplate
  ("All notable changes …", "based on Keep a Changelog", "adheres to Semantic Versioning").
"""

from __future__ import annotations

import re

from .cv import find_degrees

_RELEASE = re.compile(r"^##\s+\[(?P<version>[^\]\n]+)\](?P<rest>.*)$")
_UNRELEASED = re.compile(r"unreleased|next|upcoming", re.I)
_LEAD = re.compile(r"^\s*(?:[–—:-]\s*)?(?:(?:19|20)\d\d(?:[.-]\d\d)?\s*(?:[–—:-]\s*|$))?")  # " – 2020-03 – "
_ROLE = re.compile(r"^(?P<title>.+?)\s+(?:@|at|—|–|\|)\s+(?P<employer>.+)$")
_NAMED_SECTION = re.compile(r"^###?\s+[^()\n]*\((skills|certifications|education|summary)\)\s*$", re.I)
_YEAR = re.compile(r"(?:19|20)\d\d")
_KINDS = re.compile(r"^###\s+(?:Added|Changed|Fixed|Removed|Deprecated|Security)\s*$", re.I)
_LINK_REFERENCE = re.compile(r"^\s*\[[^\]\n]+\]:\s+\S+\s*$")
_BOILERPLATE = re.compile(
    r"notable changes|keep\s*a\s*changelog|semantic versioning|semver\.org|keepachangelog", re.I
)


def is_changelog(text: str) -> bool:
    """Releases as ``## [version]`` headings, at least two of them, with change kinds under them."""
    lines = text.splitlines()
    return sum(bool(_RELEASE.match(line)) for line in lines) >= 2 and any(_KINDS.match(line) for line in lines)


def as_markdown(text: str) -> tuple[str, dict[int, int]] | None:
    """``(markdown, line_map)`` for a CV written as a changelog, else ``None``; one line for one."""
    if not is_changelog(text):
        return None
    lines = text.splitlines()
    out = list(lines)
    opened: set[str] = set()
    section = ""
    for i, line in enumerate(lines):
        release = _RELEASE.match(line)
        if release:
            rest = _LEAD.sub("", release.group("rest")).strip()
            if _UNRELEASED.fullmatch(release.group("version").strip()):
                out[i], section = "## Notes", "notes"
            elif rest.lower() == "education":
                out[i], section = "## Education", "education"
                opened.add("Education")
            elif rest and find_degrees(rest):
                _open(out, i, "Education", opened, section)
                year = _YEAR.search(line[: len(line) - len(rest)])
                out[i], section = f"- {rest}" + (f" ({year.group(0)})" if year else ""), "education"
            elif (role := _ROLE.match(rest)) is not None:
                _open(out, i, "Experience", opened, section)
                out[i], section = f"### {role.group('title')} — {role.group('employer')}", "experience"
        elif (named := _NAMED_SECTION.match(line)) is not None:  # "### Dependencies (skills)": a section
            out[i], section = f"## {named.group(1).title()}", named.group(1).lower()
        elif line.startswith("## "):
            section = ""
        elif _KINDS.match(line) or _LINK_REFERENCE.match(line) or (not section and _BOILERPLATE.search(line)):
            out[i] = ""
    return "\n".join(out) + "\n", {n: n for n in range(1, len(out) + 1)}


def _open(out: list[str], i: int, heading: str, opened: set[str], section: str) -> None:
    """Put ``## heading`` on the blank line before line ``i`` (once, unless already in it)."""
    if heading in opened or section == heading.lower():
        return
    if i > 0 and not out[i - 1].strip():
        out[i - 1] = f"## {heading}"
        opened.add(heading)
