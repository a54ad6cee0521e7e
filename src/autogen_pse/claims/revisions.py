"""A revised artifact's notes on what changed since the draft the evaluator returned.

"Revised review below. **Addressed in this cycle** (evaluator: PARTIAL, DATA_MISMATCH):", then
"- "Total cost shown as $78,890.50" → corrected to $75,890.50", "- Removed Prometheus and Grafana
from Skills", "- MSFT held 3,712 days (the previous draft said 3,172)": the quoted issue, the old
value and the removed item are what the artifact no longer says. They are blanked out (offsets
kept); what the note says now ("corrected to $75,890.50") is still a claim and still checked. Notes
under a label of their own ("**Changes in this revision**", "## What I changed") stay context
(:mod:`.commentary`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..verdict import Outcome, Reason

# the evaluator's words a note repeats: "PARTIAL", "DATA_MISMATCH", "INCOMPLETE"
VERDICT_WORDS = tuple(w for v in (*Outcome, *Reason) for w in v.value.split("_"))

_LEAD = re.compile(
    r"\b(?:evaluator|revision\s+(?:notes?|\d)|(?:this|the\s+last|the\s+previous)\s+revision|"
    r"revised\s+(?:draft|review|cv|résumé|resume|version|below)|re-?submitted|"
    r"(?:previous|earlier|prior|last)\s+(?:draft|version)|changes?\s+(?:made|in\s+this)|change\s*log|"
    r"what\s+(?:i\s+)?changed|addressed\s+(?:feedback|issues|comments|in\s+this)|corrections?\s+(?:made|in)|"
    r"issues?\s+(?:fixed|raised)|fix(?:es|ed)\s*:)",
    re.IGNORECASE,
)
_VERDICT = re.compile(  # the verdict's words as the evaluator writes them (not "PASS" or "OK")
    r"\b(?:" + "|".join(v.value for v in (*Outcome, *Reason) if v.value not in ("PASS", "OK")) + r")\b"
)
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_ITEM = re.compile(r"^\s*(?:>\s*)*(?:[-*+•]|\d{1,2}[.)]|\|)")

_QUOTED = re.compile(r"\"[^\"\n]{1,160}\"|“[^”\n]{1,160}”|‘[^’\n]{1,160}’")
# "corrected the GOOG weight from 17.2% to 17.62%": the value after "from"
_FROM_OLD = re.compile(
    r"\b(?:corrected|changed|fixed|updated|amended|revised|replaced|restated|moved)\b[^.;:\n]{0,60}?\bfrom\s+"
    r"(?P<old>[^;\n]{1,40}?)\s+to\b",
    re.IGNORECASE,
)
# "(the previous draft said 3,172)", "the draft had used the job ad's …", "(previously only AAPL had one)",
# "(was 581)", "quoted as -36.42%"
_DRAFT_SAID = re.compile(
    r"\b(?:the\s+)?(?:(?:previous|earlier|old|first|last|prior|original)\s+)?(?:draft|version)\s+(?:had\s+)?"
    r"(?:said|gave|had|showed|stated|listed|used|read|quoted|put|claimed)\b(?:[^.;)\n]|\.\d)*|"
    r"\((?:previously|formerly|originally|was|were|not)\s[^()\n]{1,60}\)|"
    r"\b(?:quoted|shown|given|stated|misquoted|misstated|reported|described)\s+as\s+(?:[^;,.|\n]|\.\d)*",
    re.IGNORECASE,
)
# "removed the ORCL bullet from Findings", "Removed Rust from Skills. …": what was taken out
_REMOVED = re.compile(
    r"\b(?:removed|deleted|dropped|struck(?:\s+out)?|took\s+out|cut\s+out)\s+(?P<item>.{1,120}?)"
    r"(?=\s+from\b|\s+rather\b|[;:]|\.(?:\s|$)|\s[—–-]\s|,\s*(?:as|since|because|which|so)\b|\s*\(|$)",
    re.IGNORECASE,
)
# "Job keywords not supported by the CV (Rust, gRPC) are left out."
_LEFT_OUT = re.compile(
    r"(?:^|(?<=[.;:]\s))(?P<item>[^.;:\n]{1,160}?)\s+(?:are|is|were|was|have\s+been|has\s+been|stay|stays|remain|"
    r"remains)\s+(?:left\s+out|omitted|dropped|removed|excluded)\b",
    re.IGNORECASE,
)


def revision_lines(text: str) -> set[int]:
    """The lines (1-based) of the notes on a revision: from a line that names the evaluator's
    verdict, the previous draft or the changes made, through its list (items, table rows, further
    such lines), up to a heading, a rule or the first paragraph of the artifact proper."""
    out: set[int] = set()
    inside, gap = False, False
    for n, line in enumerate(text.split("\n"), start=1):
        lead = bool(_LEAD.search(line) or _VERDICT.search(line))
        if not line.strip():
            gap = inside
            continue
        if _RULE.match(line) or (_HEADING.match(line) and not lead):
            inside = False
        elif lead:
            inside = True
        elif inside and gap and not _ITEM.match(line):
            inside = False  # "## Summary" or the review's first paragraph
        gap = False
        if inside:
            out.add(n)
    return out


def retracted(text: str, keep: Sequence[tuple[int, int]] = ()) -> str:
    """``text`` of a revision note with what the artifact no longer says blanked out: quoted issues
    and old values, the value a correction replaced, removed and left-out items. A quoted issue's
    subject (``keep``: the spans of the holdings it names) stays: '"GOOG holding period 581 days" →
    corrected to 851 days' is about GOOG."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    spans = [m.span("old") for m in _FROM_OLD.finditer(text)]
    spans += [m.span() for m in _DRAFT_SAID.finditer(text)]
    spans += [m.span("item") for m in _REMOVED.finditer(text)]
    spans += [m.span("item") for m in _LEFT_OUT.finditer(text)]
    chars = list(text)
    for a, b in quoted + spans:
        for i in range(a, b):
            if not (chars[i].isspace() or ((a, b) in quoted and any(x <= i < y for x, y in keep))):
                chars[i] = " "
    return "".join(chars)
