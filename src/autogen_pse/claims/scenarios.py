"""Projections: what the text says the state *would be* after a proposed change.

"After the Apple trim the weight is just under 30 %", "Trim 79 sh → wt ≈ 30.0 %", "Cash becomes
the second-biggest line at roughly 27 %", a table under "**After the trades**": their figures,
flags, counts and ranks describe a state that does not exist yet, so today's facts cannot
contradict them. A projection is not checked; the same words about today still are.
"""

from __future__ import annotations

import re

from .model import Finding, Status

_CHANGE = (
    r"(?:trims?|trimming|sales?|selling|sells?|trades?|rebalanc\w*|purchases?|buys?|sell-?downs?|"
    r"reallocation|switch|reinvest\w*|top-?ups?|disposals?|exits?|orders?|changes|moves?)"
)
_PROJECTION = re.compile(
    r"\bafter\s+(?:the|this|these|those|that|both|each|all|your|our|a|an)?\s*(?:[\w'’-]+\s+){0,3}?" + _CHANGE + r"\b|"
    r"\bonce\s+(?:the|this|these|those|both|all|your|our)\s+(?:[\w'’-]+\s+){0,3}?" + _CHANGE + r"\b|"
    r"\bpost-(?:trade|trim|sale|rebalanc\w*)\b|\bpro[ -]?forma\b|\bwhat[- ]if\b|\bscenario\b|"
    r"(?:\b(?:would|will|should)|(?<=\w)['’](?:ll|d))\s+(?:then\s+|also\s+|still\s+)?(?:end up|leave|bring|"
    r"take (?:it|them|the)|put (?:it|them)|fall to|drop to|rise to|"
    r"come (?:down )?to|land|settle|sit|stand|become|hit|breach|trigger|reach|own|have|hold)\b|"
    r"\beven\s+(?:putting|investing|moving|adding|if)\b|\bwould then\b|\bbecomes?\b|\bends? up\b|"
    r"\bbrings?\s+(?:[\w.]+\s+){0,2}?(?:down\s+|back\s+)?to\b",  # ("if it falls 1 %": patterns._HYPOTHETICAL)
    re.IGNORECASE,
)
# an order with its outcome after an arrow: "Trim 79 sh → wt ≈ 30.0 %", "sell 600 at $28.80 → $17,280 cash"
_ARROW_AFTER_ORDER = re.compile(r"\b(?:trim|sell|buy|add|reduce|cut|rebalance)\b[^→]{0,60}(?:→|->|⇒)", re.IGNORECASE)
_SCENARIO_LEAD = re.compile(
    r"\b(?:after|post-(?:trade|trim|sale)|pro[ -]?forma|scenario|what[- ]if|projected|projection|simulat\w+|"
    r"illustrative|would look)\b",
    re.IGNORECASE,
)
_PROJECTED_KINDS = frozenset({"figure", "flag", "count", "rank"})


def projection_start(text: str) -> int | None:
    """Where ``text`` starts to state a projected state rather than today's (see the module
    docstring), or None: "Bringing it back to the cap means selling 79 shares, which would leave …"
    projects only what follows "would leave"."""
    said, arrow = _PROJECTION.search(text), _ARROW_AFTER_ORDER.search(text)  # "Trim 79 sh → …": after the arrow
    found = [m.start() for m in (said,) if m is not None] + [m.end() for m in (arrow,) if m is not None]
    return min(found) if found else None


_PROJECTED_COLUMN = re.compile(r"\b(?:pro[ -]?forma|after|post[ -](?:trade|trim)|projected|target)\b", re.I)


def projected_column(column: str) -> bool:
    """A table's column of the state after the proposed trades ("PRO-FORMA MV", "Weight after")."""
    return bool(_PROJECTED_COLUMN.search(column))


def table_is_projection(text: str, start: int) -> bool:
    """The table holding the row at offset ``start`` is introduced as a projection ("**After the
    trades**", "Pro-forma weights:") by the last line of text above it."""
    lines = text[:start].split("\n")
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("|")):
        lines.pop()
    return bool(lines) and bool(_SCENARIO_LEAD.search(lines[-1]))


def excuse_projected(findings: list[Finding], text: str = "", start: int = 0) -> None:
    """Findings of a projection (the words of ``text`` from ``start`` on) that today's facts
    contradict claim nothing about today."""
    for f in findings:
        if f.kind in _PROJECTED_KINDS and f.status is Status.CONTRADICTED and (not text or f.text in text[start:]):
            f.status = Status.NONE
            f.note = f"a projection, not checked against today's facts ({f.note})" if f.note else "a projection"
