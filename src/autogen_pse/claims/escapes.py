"""Markdown with its punctuation escaped, as a Telegram bot's MarkdownV2 message is ("43\\.85%",
"\\-20%", "\\(AAPL\\)", "$12,882\\.00"): read without the backslashes, each character mapped back to
where it is written. A document is read so when it escapes punctuation often and escapes a decimal
point at least once ("43\\.85"), which neither LaTeX nor plain Markdown does.
"""

from __future__ import annotations

import re

from .formats import Builder, Reading

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation
_DECIMAL = re.compile(r"\d\\\.\d")


def is_escaped(text: str) -> bool:
    return bool(_DECIMAL.search(text)) and len(_ESCAPE.findall(text)) >= 5


def read_escaped(text: str) -> Reading:
    """``text`` without its escaping backslashes."""
    out, pos = Builder(), 0
    for m in _ESCAPE.finditer(text):
        out.emit(text[pos : m.start()], pos)
        out.emit(m.group(1), m.start(1))
        pos = m.end()
    out.emit(text[pos:], pos)
    return out.reading()
