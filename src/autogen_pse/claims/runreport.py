"""A run's report around its artifact: a scheduled run's digest e-mail or a CI notification gives the
run's fields (run id, task, model, cycles, verdict, tokens, timing, cost), its checks list, its cycle
history and an automated footer (trace link, "do not reply", "Unsubscribe"). They describe the run,
not the subject: none of them is a claim of the artifact.

A document is such a report when a paragraph of it has three run fields or more, two of them a run's
own (model, cycles, verdict, tokens, timing, cost): ``Tokens:  prompt 11,482 · completion 1,906``,
``│ Model       llama-3.1-70b-instruct │``, ``| Verdict | PASS after 3 cycles |``,
``Run id ............. a7c4d2e9``. Without that paragraph nothing is read as the run's.
"""

from __future__ import annotations

import re

_KEYS = (
    r"run(?:[ _-]?id)?|id|task|job|parent[ _]job|schedule|trigger|model|provider|backend|temperature|"
    r"cycles?(?:[ _]used)?|attempts|(?:final[ _])?verdict|outcome|status|tokens?(?:[ _](?:usage|used))?|usage|"
    r"timing|time|duration|elapsed|wall(?:[ _]time)?|latency|queued|started|finished|(?:estimated[ _])?cost|"
    r"trace(?:[ _]id)?|host|runner|commit"
)
# the label of a field, then its separator: ":", a cell's "|", dot leaders, or a column's spaces
_FIELD = re.compile(rf"^[\s│┃|>*_`-]*(?P<key>{_KEYS})[\s*_`]*(?::|\||\.{{3,}}|[ \t]{{2,}}(?=\S))", re.IGNORECASE)
# a field of a one-line report ("run 9d03 | mistral-large-2411 | cycles 1 | tokens 8,441 in / 1,190 out")
_SEGMENT = re.compile(rf"\s*(?P<key>{_KEYS})(?::|\s)\s*\S", re.IGNORECASE)
_SEGMENT_SEP = re.compile(r"\s[|·│]\s")
_OWN = re.compile(r"model|cycle|verdict|outcome|token|usage|timing|duration|elapsed|wall|cost", re.IGNORECASE)
# "Checks", "**Checks**", "=== CHECKS ===", "Cycle history": the label of the run's lists
_LIST_LABEL = re.compile(
    r"^[\s*_#=:-]*(?:(?:programmatic\s+|run\s+)?checks(?:\s+(?:passed|run))?|cycle\s+history|cycles)[\s*_=:-]*"
    r"(?:$|[✔✓✅☑⚠✘✗❌✖])",  # (or "Checks: ✔ weights sum to 100% ✔ …" on one line)
    re.IGNORECASE,
)
_CHECK_MARK = re.compile(r"^[\s>*-]*(?:[✔✓✅☑⚠✘✗❌✖]|\[[xX ]\])")
_UNDERLINE = re.compile(r"^\s*[-=─━]{3,}\s*$")
# the automated footer's lines
_FOOTER = re.compile(
    r"\bunsubscribe\b|\bgenerated\s+automatically\b|\bautomated\s+(?:message|notification|e-?mail)\b|"
    r"\bsent\s+automatically\b|\bdo\s+not\s+reply\b|\bplease\s+do\s+not\s+reply\b|\breplies\s+(?:are|go|to)\b|"
    r"\bnot\s+monitored\b|\bnotification\s+settings\b|\bmanage\s+notifications\b|\byou\s+(?:are\s+)?receiv"
    r"(?:e|ing)\s+this\b|\bsubscribed\s+to\b|^[\W_]*(?:open|view)?\s*(?:the\s+)?(?:full\s+)?trace\b[^\n]*https?://",
    re.IGNORECASE,
)


def run_report_lines(text: str) -> set[int]:
    """The lines (1-based) of the run's report around the artifact (see the module docstring)."""
    lines = text.split("\n")
    block = _field_block(lines)
    if not block:
        return set()
    out = set(block)
    listing = False
    for n, line in enumerate(lines):
        item = _CHECK_MARK.match(line) or _UNDERLINE.match(line) or line[:1].isspace()  # (a cycle's indented detail)
        listing = bool(_LIST_LABEL.match(line) or (listing and line.strip() and item))
        if listing:
            out.add(n)
        elif _FOOTER.search(line.replace("_", " ")):  # ("_Sent automatically … · Unsubscribe_")
            out.update(_paragraph(lines, n))  # the footer's rule and lines with it
    return {n + 1 for n in out}


def _paragraph(lines: list[str], n: int) -> range:
    """The lines of the paragraph (non-blank lines together) that line ``n`` is in."""
    start, end = n, n + 1
    while start > 0 and lines[start - 1].strip():
        start -= 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return range(start, end)


def _keys(line: str) -> list[str]:
    """The run fields a line gives: its label's, or each segment's of a one-line report."""
    segments = _SEGMENT_SEP.split(line)
    if len(segments) >= 3:
        return [m.group("key") for part in segments if (m := _SEGMENT.match(part) or _FIELD.match(part))]
    m = _FIELD.match(line)
    return [m.group("key")] if m else []


def _field_block(lines: list[str]) -> range:
    """The lines of the first paragraph with three run fields or more, two of them the run's own
    (its frame, title and table header with them), else none."""
    n = 0
    while n < len(lines):
        if not lines[n].strip():
            n += 1
            continue
        paragraph = _paragraph(lines, n)
        keys = {key.lower() for k in paragraph for key in _keys(lines[k])}
        if len(keys) >= 3 and len({k for k in keys if _OWN.search(k)}) >= 2:
            return paragraph
        n = paragraph.stop
    return range(0)
