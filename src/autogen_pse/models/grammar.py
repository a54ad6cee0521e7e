"""GBNF grammars that force a local model's evaluator reply into the verdict protocol.

The grammar accepts exactly: one or two short free-text review lines, then ``"\\n```verdict\\n"``,
then one line of JSON ``{"outcome": ..., "reason": ..., "issues": [...], "summary": ...}`` with
``outcome`` in PASS|PARTIAL|FAIL|BLOCKED, ``reason`` in :data:`autogen_pse.verdict.MODEL_REASONS`,
0–3 issues (PASS only as ``"reason": "OK", "issues": []``; the other outcomes never with OK),
then ``"\\n```"`` and nothing else (only end-of-sequence may follow).

Every character it allows is printable ASCII, and strings hold no quote, backslash or backtick,
so whatever the model samples is valid JSON that cannot open a nested fence: it parses with
:func:`autogen_pse.verdict.parse_trailer`. Lengths are bounded; since a token is at least one
byte, a reply within :data:`COMPACT` (at most :func:`worst_case_chars` bytes) always fits in a
``max_tokens`` of that many tokens. The local evaluator decodes with :data:`ROOMY` first and falls
back to :data:`COMPACT` when a roomy reply was cut off by ``max_tokens``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..verdict import MODEL_REASONS, Outcome

# GBNF character classes (printable ASCII is 0x20-0x7E; the backtick is 0x60).
_LINE_FIRST = "[!-_a-~]"  # no space, no backtick
_LINE_CHAR = "[ -_a-~]"  # no backtick, no newline / control characters
_JSON_CHAR = "[ !#-\\[\\]-_a-~]"  # no quote (0x22), backslash (0x5C) or backtick

_FENCE_OPEN = "\n```verdict\n"
_FENCE_CLOSE = "\n```"


@dataclass(frozen=True)
class Limits:
    """Character bounds of the free parts of a verdict reply."""

    review_lines: int = 2
    review_chars: int = 120
    max_issues: int = 3
    issue_chars: int = 100
    summary_chars: int = 160


ROOMY = Limits()
COMPACT = Limits(review_lines=1, review_chars=80, max_issues=1, issue_chars=60, summary_chars=80)


def _alternatives(values: list[str]) -> str:
    return " | ".join(f'"\\"{v}\\""' for v in values)


def worst_case_chars(limits: Limits) -> int:
    """The longest reply (in characters, = bytes: all ASCII) the grammar for ``limits`` allows."""
    review = limits.review_lines * limits.review_chars + (limits.review_lines - 1)
    longest_outcome = max(len(o.value) for o in Outcome)
    longest_reason = max(len(r) for r in MODEL_REASONS)
    scaffold = len('{"outcome": "", "reason": "", "issues": [], "summary": ""}')
    issues = limits.max_issues * (limits.issue_chars + 2) + max(0, limits.max_issues - 1) * 2
    body = scaffold + longest_outcome + longest_reason + issues + limits.summary_chars
    return review + len(_FENCE_OPEN) + body + len(_FENCE_CLOSE)


def verdict_grammar(limits: Limits = ROOMY) -> str:
    """The GBNF text for a verdict reply within ``limits`` (for ``LlamaGrammar.from_string``).

    Raises:
        ValueError: limits that allow no review line or a negative number of issues.
    """
    if limits.review_lines < 1 or limits.review_chars < 1 or limits.max_issues < 0:
        raise ValueError("limits must allow at least one review line of one character")
    # a PASS is always {"PASS", "OK", []}; any other outcome has a reason other than OK (a
    # self-contradicting verdict is malformed, see autogen_pse.verdict.parse_trailer)
    outcomes = _alternatives([o.value for o in Outcome if o is not Outcome.PASS])
    reasons = _alternatives([r for r in MODEL_REASONS if r != "OK"])
    more_lines = f' ("\\n" line){{0,{limits.review_lines - 1}}}' if limits.review_lines > 1 else ""
    if limits.max_issues == 0:
        issues = 'issues ::= "[]"'
    else:
        more_issues = f' ("," " " issue){{0,{limits.max_issues - 1}}}' if limits.max_issues > 1 else ""
        issues = (f'issues ::= "[]" | "[" issue{more_issues} "]"\n'
                  f'issue ::= "\\"" [A-Za-z] jchar{{0,{limits.issue_chars - 1}}} "\\""')  # says something
    return "\n".join(
        [
            'root ::= review "\\n```verdict\\n" verdict "\\n```"',
            f"review ::= line{more_lines}",
            f"line ::= {_LINE_FIRST} {_LINE_CHAR}{{0,{limits.review_chars - 1}}}",
            'verdict ::= "{\\"outcome\\": " (pass | other) ", \\"summary\\": " summary "}"',
            'pass ::= "\\"PASS\\", \\"reason\\": \\"OK\\", \\"issues\\": []"',
            'other ::= outcome ", \\"reason\\": " reason ", \\"issues\\": " issues',
            f"outcome ::= {outcomes}",
            f"reason ::= {reasons}",
            issues,
            f'summary ::= "\\"" jchar{{1,{limits.summary_chars}}} "\\""',
            f"jchar ::= {_JSON_CHAR}",
        ]
    )
