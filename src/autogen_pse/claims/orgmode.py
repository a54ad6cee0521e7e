"""Emacs org-mode documents read as the Markdown the splitter knows, every line keeping its length
(so a claim's position is its position in the document as written).

- ``* Experience`` / ``** Senior Engineer — Brightline``: headings (``#`` / ``##``);
- ``#+TITLE: Elena Marsh``: the title heading; other ``#+KEYWORD:`` lines and ``#+BEGIN_…`` /
  ``#+END_…`` markers are settings, no text;
- ``:PROPERTIES:`` … ``:END:`` drawers: the marker lines go, a property ``:DATES: Mar 2020 – Present``
  becomes the label line ``Dates: Mar 2020 – Present``;
- table rules ``|---+---|`` become Markdown rules;
- ``=verbatim=``, ``~code~`` and links ``[[url][text]]`` keep only their text.
"""

from __future__ import annotations

import re

_KEYWORD = re.compile(r"(?m)^[ \t]*#\+([A-Za-z_]+):?[ \t]*(.*)$")
_DRAWER_MARK = re.compile(r"(?m)^[ \t]*:(?:PROPERTIES|END|LOGBOOK):[ \t]*$")
_PROPERTY = re.compile(r"(?m)^([ \t]*):([A-Za-z_][\w-]*):(?=[ \t]|$)")
_HEADING = re.compile(r"(?m)^(\*+)(?=[ \t]+\S)")
_TABLE_RULE = re.compile(r"(?m)^([ \t]*\|[-+|: \t]*)$")
_INLINE = re.compile(r"(?<![\w=~])([=~])(?=\S)([^=~\n]*?\S)\1(?![\w=~])")
_LINK = re.compile(r"\[\[(?:[^\]\n]*\]\[)?([^\]\n]*)\]\]")


def is_org(text: str) -> bool:
    """An org-mode document: its own settings lines or property drawers, and org headings."""
    marks = len(_KEYWORD.findall(text[:2000])) + len(_DRAWER_MARK.findall(text))
    return marks >= 2 and _HEADING.search(text) is not None


def _keyword(m: re.Match[str]) -> str:
    if m.group(1).upper() == "TITLE" and m.group(2):
        head = m.group(0)[: m.start(2) - m.start()]
        return "#" + " " * (len(head) - 1) + m.group(2)
    return " " * len(m.group(0))


def _link(m: re.Match[str]) -> str:
    start = m.start(1) - m.start()
    return " " * start + m.group(1) + "  "


def read_org(text: str) -> str:
    """``text`` (an org-mode document) as Markdown of the same length, line for line."""
    text = _KEYWORD.sub(_keyword, text)
    text = _DRAWER_MARK.sub(lambda m: " " * len(m.group(0)), text)
    text = _PROPERTY.sub(lambda m: f"{m.group(1)} {m.group(2).title()}:", text)
    text = _HEADING.sub(lambda m: "#" * len(m.group(1)), text)
    text = _TABLE_RULE.sub(lambda m: m.group(1).replace("+", "|"), text)
    text = _LINK.sub(_link, text)
    return _INLINE.sub(lambda m: " " + m.group(2) + " ", text)
