"""YAML-like blocks in a document (an agent's tool output, a report object): which lines are one, and
the keys of the list item a line belongs to ("- action: TRIM / symbol: AAPL / est_value: 17607.87")."""

from __future__ import annotations

import re

YAML_KEY = re.compile(r"^\s*(?:-\s+)?([A-Za-z$][\w .&/()$%'-]{0,40}?)\s*:(?:\s+(.*))?$")

NAMING_KEYS = frozenset(
    "name company employer org organization organisation firm institution school university symbol ticker "
    "holding".split()
)
_ACTION_KEYS = frozenset({"action", "side", "trade", "order", "order_type", "order type"})
# "est_value: 17607.87" of a trade: the amount traded, not the holding's value
_AMOUNT_KEY = re.compile(r"(?:est(?:imated)?[ _.]*)?(?:value|amount|notional)(?:[ _](?:usd|eur|gbp))?", re.IGNORECASE)


_COMMENT = re.compile(r"[ \t]+#[ \t]")


def yaml_lines(lines: list[str]) -> list[bool]:
    """Lines of a YAML-like block (keys with nested values): at least three "key: value" or "- item"
    lines in a row, one of them a key with nothing after it (a block opening: "AMZN:", "work:")."""
    out = [False] * len(lines)
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and (lines[j].strip() or (j > i and lines[j])) and (  # blanked JSON braces
            not lines[j].strip()
            or YAML_KEY.match(lines[j])
            or (j > i and _COMMENT.match(lines[j]))  # "  # the small Cisco position was not priced"
            or (lines[j].lstrip().startswith("- ") and lines[j].startswith(" "))
        ):
            j += 1
        run = range(i, j)
        opens = [k for k in run if (m := YAML_KEY.match(lines[k])) and not (m.group(2) or "").strip()]
        if j - i >= 3 and opens and not any(
            lines[k].lstrip().startswith(("#", "|")) and not _COMMENT.match(lines[k]) for k in run
        ):
            for k in run:
                out[k] = True
        i = max(j, i + 1)
    return out


def comment_text(line: str) -> int:
    """Where the text of an indented YAML comment line starts (0 if the line is none)."""
    m = _COMMENT.match(line)
    return m.end() if m else 0


def _column(line: str) -> int:
    return len(line) - len(line.lstrip(" -"))


def item_keys(lines: list[str], yaml: list[bool], i: int, indent: int) -> dict[str, str]:
    """The keys and values of the block that line ``i`` (a key at column ``indent``) belongs to: its YAML
    list item ("- action: TRIM / symbol: AAPL") or the mapping its parent key opens ("AAPL: / action: TRIM")."""
    first = i
    while not (lines[first].lstrip().startswith("- ") and _column(lines[first]) == indent):
        if first == 0 or not yaml[first - 1] or _column(lines[first - 1]) < indent:
            break
        first -= 1
    out: dict[str, str] = {}
    for j in range(first, len(lines)):
        line = lines[j]
        at = _column(line)
        if j > first and (not yaml[j] or at < indent or (at == indent and line.lstrip().startswith("- "))):
            break
        item = YAML_KEY.match(line)
        if at == indent and item and item.group(2):
            out.setdefault(item.group(1).strip().lower(), item.group(2).split(" #")[0].strip().strip("\"'"))
    return out


def item_name(keys: dict[str, str]) -> str | None:
    """What a list item's naming key ("symbol", "name"…) names: "- action: TRIM / symbol: AAPL" is AAPL's."""
    return next((v for k, v in keys.items() if k in NAMING_KEYS and v), None)


def traded_amount(key: str, keys: dict[str, str]) -> bool:
    """Is ``key`` the amount of a trade ("est_value" in a block with an "action"), which names no metric
    of the holding?"""
    return bool(_AMOUNT_KEY.fullmatch(key.strip())) and bool(_ACTION_KEYS & keys.keys())
