"""The verdict protocol: model, strict trailer parsing, merging with programmatic checks.

An evaluator ends its final message with a fenced trailer block, and nothing after it::

    ```verdict
    {"outcome": "PARTIAL", "reason": "DATA_MISMATCH", "issues": ["..."], "summary": "..."}
    ```

Only the *last* fenced block of the message counts, only if it is the last thing in the message,
and only if it validates against :class:`Verdict`. Verdict words in prose ("BYPASS", "this is not a
PASS", a quoted example block followed by more text) never count. The planner and the specialist may
declare BLOCKED with the same block (outcome ``BLOCKED``); any other outcome from them is ignored.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum

from pydantic import BaseModel, Field, ValidationError, field_validator

SUMMARY_LIMIT = 2_000  # characters of evaluator summary carried into a fix cycle (issue #2)


class Outcome(StrEnum):
    PASS = "PASS"
    PARTIAL = "PARTIAL"
    FAIL = "FAIL"
    BLOCKED = "BLOCKED"


class Reason(StrEnum):
    OK = "OK"
    DATA_MISMATCH = "DATA_MISMATCH"
    FORMAT_ISSUE = "FORMAT_ISSUE"
    INCOMPLETE = "INCOMPLETE"
    RULE_VIOLATION = "RULE_VIOLATION"
    TEST_FAILURE = "TEST_FAILURE"
    NEEDS_INPUT = "NEEDS_INPUT"
    LIMIT_REACHED = "LIMIT_REACHED"  # set by the cycle loop only, never accepted from a model


MODEL_REASONS = [r.value for r in Reason if r is not Reason.LIMIT_REACHED]


class Verdict(BaseModel):
    """A cycle's verdict. ``issues`` are short, self-contained problem statements."""

    outcome: Outcome
    reason: Reason
    issues: list[str] = Field(default_factory=list)
    summary: str = ""

    @field_validator("issues")
    @classmethod
    def _strip_issues(cls, v: list[str]) -> list[str]:
        return [i.strip() for i in v if i and i.strip()]


# A fenced block labelled `verdict` that ends the message (only whitespace may follow).
_TRAILER = re.compile(r"```verdict[ \t]*\n(?P<body>.*?)\n?```\s*\Z", re.DOTALL)


class VerdictParseError(ValueError):
    """The message has no well-formed trailer; ``str()`` says what is wrong (for the re-ask)."""


def parse_trailer(text: str) -> Verdict:
    """Parse the verdict trailer that ends ``text``.

    Raises:
        VerdictParseError: no trailer at the end, invalid JSON, unknown outcome/reason, or the
            loop-only reason ``LIMIT_REACHED``.
    """
    text = text or ""
    start = text.rfind("```verdict")
    match = _TRAILER.match(text, start) if start >= 0 else None
    if match is None:
        raise VerdictParseError("the message does not end with a ```verdict block")
    body = match.group("body").strip()
    # The block must be the last fenced block: reject an opening fence inside the body.
    if "```" in body:
        raise VerdictParseError("the verdict block is not well-formed (nested fence)")
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise VerdictParseError(f"the verdict block is not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # an over-long integer, nesting too deep
        raise VerdictParseError(f"the verdict block is not valid JSON ({type(exc).__name__})") from None
    try:
        verdict = Verdict.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "verdict"
        raise VerdictParseError(f"the verdict block is invalid at {loc}: {first['msg']}") from None
    if verdict.reason is Reason.LIMIT_REACHED:
        raise VerdictParseError("reason LIMIT_REACHED is reserved for the cycle loop")
    return verdict


def try_parse(text: str) -> Verdict | None:
    """:func:`parse_trailer`, returning ``None`` instead of raising."""
    try:
        return parse_trailer(text)
    except VerdictParseError:
        return None


def declared_blocked(text: str) -> Verdict | None:
    """A BLOCKED declaration by the planner or specialist (same trailer), else ``None``."""
    verdict = try_parse(text)
    return verdict if verdict is not None and verdict.outcome is Outcome.BLOCKED else None


def format_trailer(verdict: Verdict) -> str:
    """Render ``verdict`` as the trailer block (used in prompts and by scripted fixtures).

    Backticks inside strings are written as ``\\u0060`` so a summary or issue quoting a code
    fence cannot close the block early: the output always parses back to ``verdict``.
    """
    return "```verdict\n" + verdict.model_dump_json().replace("`", "\\u0060") + "\n```"


def merge_checks(verdict: Verdict, failed_details: list[tuple[str, str, str]]) -> Verdict:
    """Merge failing programmatic checks into a verdict.

    Args:
        verdict: the evaluator's verdict.
        failed_details: ``(check_name, severity, detail)`` for each failing check; severity
            ``"error"`` downgrades, ``"warning"`` only adds an issue.

    A PASS with an error-severity failure becomes PARTIAL; the reason is taken from the first
    error check's name when it maps to a reason (``tests`` → TEST_FAILURE, ``rules`` →
    RULE_VIOLATION, ``format`` → FORMAT_ISSUE, ``coverage`` → INCOMPLETE), else DATA_MISMATCH.
    FAIL and BLOCKED are never upgraded.
    """
    if not failed_details:
        return verdict
    issues = list(verdict.issues) + [f"[check {name}] {detail}" for name, _sev, detail in failed_details]
    errors = [name for name, sev, _ in failed_details if sev == "error"]
    outcome, reason = verdict.outcome, verdict.reason
    if errors and outcome is Outcome.PASS:
        outcome = Outcome.PARTIAL
        reason = _reason_for_check(errors[0])
    return verdict.model_copy(update={"outcome": outcome, "reason": reason, "issues": issues})


def _reason_for_check(name: str) -> Reason:
    lowered = name.lower()
    for key, reason in (
        ("test", Reason.TEST_FAILURE),
        ("rule", Reason.RULE_VIOLATION),
        ("format", Reason.FORMAT_ISSUE),
        ("structure", Reason.FORMAT_ISSUE),
        ("coverage", Reason.INCOMPLETE),
        ("section", Reason.INCOMPLETE),
    ):
        if key in lowered:
            return reason
    return Reason.DATA_MISMATCH
