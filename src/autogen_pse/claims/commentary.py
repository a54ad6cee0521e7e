"""Notes about the document itself ("What I changed and why", "[Moved … up]", "Thought for 41
seconds", a CV's "Tips"): they say nothing about the subject."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .split import Unit

_COMMENTARY = re.compile(
    r"\b(?:what i (?:changed|did)|changes(?: made)?|change (?:log|notes)|tailoring notes|notes? (?:on|about) "
    r"(?:the )?(?:changes|tailoring|edits)|why (?:this|these) (?:works?|changes)|how i tailored|editor'?s notes?|"
    r"notes for you|what i (?:kept|left out))\b|^\W*(?:a\s+few\s+|some\s+|interview\s+|application\s+)?tips\b",
    re.IGNORECASE,
)


# a chat app's status line ("Thought for 41 seconds")
_APP_LINE = re.compile(
    r"^\W*(?:thought|reasoned|thinking|worked)\s+for\s+(?:\d+|a few)\s*(?:s|sec|secs|seconds?|m|min|mins|minutes?)\b",
    re.IGNORECASE,
)
# an editor's bracketed note about the document ("[Moved the Kafka bullet up because the ad stresses it]")
_TITLE_MARKS = " \t*_#>🎯📝✏️🛠️💡"
_EDIT_NOTE = re.compile(r"\[([^\[\]\n]{12,})\]")
_EDIT_WORDS = re.compile(
    r"\b(?:moved|kept|dropped|removed|added|reordered|reworded|rephrased|cut|trimmed|renamed|merged|shortened|"
    r"expanded|left out|goes first|put|the ad|the ad's|the job ad|the posting|the role|the listing)\b",
    re.IGNORECASE,
)


def commentary(text: str, units: list[Unit]) -> list[Unit]:
    """Notes about the document itself ("What I changed and why", "[Moved … up]") say nothing about
    the subject."""
    notes = [(m.start(), m.end()) for m in _EDIT_NOTE.finditer(text) if _EDIT_WORDS.search(m.group(1))]
    for u in units:
        titled = _COMMENTARY.match(u.text, len(u.text) - len(u.text.lstrip(_TITLE_MARKS)))  # "🎯 Tailoring notes"
        titled = titled if titled and re.match(r"\s*(?::|\s{2}|$)", u.text[titled.end() :]) else None
        if u.kind != "heading" and (_COMMENTARY.search(u.section) or any(_COMMENTARY.search(c) for c in u.context)
                                    or titled or _APP_LINE.search(u.text) or any(a <= u.start < b for a, b in notes)):
            u.kind = "meta"
    return units
