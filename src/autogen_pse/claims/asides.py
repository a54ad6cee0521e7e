"""Where a mention stands in its sentence: in a parenthesis, or an aside the sentence's subject resumes after."""

from __future__ import annotations

import re

from .catalogue import Mention


def aside_before(text: str, m: Mention, pos: int) -> bool:
    """``m`` is named in a parenthesis closed before ``pos``, and "its" or "it" follows it: the
    sentence's subject again, not the holding named in passing."""
    opened, closed = text.rfind("(", 0, m.start), text.find(")", m.end)
    return (opened > text.rfind(")", 0, m.start) and -1 < closed < pos
            and re.search(r"\b(?:its|it's|it)\b", text[closed:pos], re.IGNORECASE) is not None)


def in_parenthesis(text: str, m: Mention, pos: int | None = None) -> bool:
    """``m`` is named inside a parenthesis (closed before ``pos``, when given)."""
    opened, closed = text.rfind("(", 0, m.start), text.find(")", m.end)
    return opened > text.rfind(")", 0, m.start) and closed != -1 and (pos is None or closed < pos)
