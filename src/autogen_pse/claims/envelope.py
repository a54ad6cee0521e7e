"""A chat answer around its document: "Sure! Here's your CV tailored to …", then the whole document
in a ```markdown fence, then "What I changed: …" and "Want me to also draft a cover letter?".

The words around the fence talk about the document; they are not part of its layout. A reader of
the document's structure (its sections and entries) reads the fence alone. The ledger still reads
every line: a note after the fence can claim a fact as well as the document can.
"""

from __future__ import annotations

import re

_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*(markdown|md|text|txt|plaintext)?\s*$", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s*\S")


def wrapper_lines(text: str) -> set[int]:
    """The 1-based lines outside the one fenced Markdown document of ``text`` (with two headings or
    more), or nothing when there is no such fence."""
    lines = text.splitlines()
    fences = []
    start, mark = -1, ""
    for i, line in enumerate(lines):
        if start < 0:
            m = _OPEN.match(line)
            if m:
                start, mark = i, m.group(1)
        elif line.strip().startswith(mark[:3]) and not line.strip().strip(mark[0]):
            fences.append((start, i))
            start = -1
    documents = [(a, b) for a, b in fences if sum(bool(_HEADING.match(x)) for x in lines[a + 1 : b]) >= 2]
    if len(documents) != 1:
        return set()
    a, b = documents[0]
    return {n for n in range(1, len(lines) + 1) if not a + 1 < n < b + 1}
