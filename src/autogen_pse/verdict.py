"""The verdict protocol: model, strict trailer parsing, merging with programmatic checks.

An evaluator ends its final message with a fenced trailer block, and nothing after it::

    ```verdict
    {"outcome": "PARTIAL", "reason": "DATA_MISMATCH", "issues": ["..."], "summary": "..."}
    ```

Only the *last* fenced block of the message counts, only if it is the last thing in the message,
and only if it validates against :class:`Verdict` and does not contradict itself (the edge cases
are decided in :func:`parse_trailer` and documented in ``docs/cycle-loop.md``). Verdict words in
prose ("BYPASS", "this is not a PASS", a quoted example block followed by more text) never count.
The planner and the specialist may declare BLOCKED with the same block (outcome ``BLOCKED``); any
other outcome from them is ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

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


# The opening of a fenced block labelled `verdict` (three or more backticks, CommonMark-style).
_OPENING = re.compile(r"(?P<fence>`{3,})verdict[ \t]*\r?\n")
# What may follow the closing fence: whitespace and invisible format characters (zero-width
# space/non-joiner/joiner, word joiner, BOM) that editors and chat front-ends append.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


class VerdictParseError(ValueError):
    """The message has no well-formed trailer; ``str()`` says what is wrong (for the re-ask)."""


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [k for k, _v in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise _DuplicateKey(key)
    return dict(pairs)


def _content_end(text: str) -> int:
    """Length of ``text`` without trailing whitespace and invisible format characters."""
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in _INVISIBLE):
        end -= 1
    return end


def _closing(text: str, end: int, opening: re.Match[str]) -> str | None:
    """The body between ``opening`` and a closing fence (at least as long) ending at ``end``."""
    inner = text[opening.end():end]
    run = len(inner) - len(inner.rstrip("`"))
    return inner[: len(inner) - run] if run >= len(opening.group("fence")) else None


def _locate(text: str) -> tuple[int, dict[str, object]]:
    """``(offset of the trailer's opening fence, decoded JSON object)`` of the trailer ending ``text``.

    The last opening whose body up to the closing fence is one JSON value wins: a backtick run
    inside a JSON string (an issue quoting a code fence) is text, not a fence.
    """
    openings = list(_OPENING.finditer(text))
    end = _content_end(text)
    first_error: VerdictParseError | None = None
    for opening in reversed(openings):
        body = _closing(text, end, opening)
        if body is None:
            error = VerdictParseError("the message does not end with a ```verdict block")
        else:
            try:
                data = json.loads(body, object_pairs_hook=_no_duplicates)
            except _DuplicateKey as exc:
                error = VerdictParseError(f"the verdict block repeats the key {exc.args[0]!r}; write each key once")
            except json.JSONDecodeError as exc:
                error = VerdictParseError(f"the verdict block is not valid JSON ({exc.msg})")
            except (ValueError, RecursionError) as exc:  # an over-long integer, nesting too deep
                error = VerdictParseError(f"the verdict block is not valid JSON ({type(exc).__name__})")
            else:
                if not isinstance(data, dict):
                    raise VerdictParseError("the verdict block must be one JSON object")
                return opening.start(), data
        first_error = first_error or error
    raise first_error or VerdictParseError("the message does not end with a ```verdict block")


def trailer_start(text: str) -> int | None:
    """Offset of the opening fence of the trailer that ends ``text`` (None: no well-formed one)."""
    try:
        parse_trailer(text)
    except VerdictParseError:
        return None
    return _locate(text)[0]


def parse_trailer(text: str) -> Verdict:
    """Parse the verdict trailer that ends ``text``.

    Accepted although unusual (docs/cycle-loop.md, "Reading the verdict"): CRLF line endings, a
    fence of four or more backticks (closed by one at least as long), whitespace or zero-width
    characters after the closing fence, backticks inside JSON strings.

    Raises:
        VerdictParseError: no trailer at the end, invalid JSON, a repeated key, unknown
            outcome/reason, the loop-only reason ``LIMIT_REACHED``, a trailer inside an unclosed
            ``<think>`` block, or a verdict that contradicts itself (PASS with a reason other than
            OK or with issues; OK with another outcome; an issue without a single letter).
    """
    text = text or ""
    start, data = _locate(text)
    think = text.rfind("<think>", 0, start)
    if think >= 0 and text.find("</think>", think, start) < 0:
        raise VerdictParseError("the verdict block is inside an unclosed <think> block; close it first")
    try:
        verdict = Verdict.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "verdict"
        raise VerdictParseError(f"the verdict block is invalid at {loc}: {first['msg']}") from None
    if verdict.reason is Reason.LIMIT_REACHED:
        raise VerdictParseError("reason LIMIT_REACHED is reserved for the cycle loop")
    _check_consistent(verdict)
    return verdict


def _check_consistent(verdict: Verdict) -> None:
    """A verdict must not contradict itself (it would be shown as meaningful)."""
    if verdict.outcome is Outcome.PASS and (verdict.reason is not Reason.OK or verdict.issues):
        raise VerdictParseError("a PASS needs reason OK and no issues; with open issues the outcome is PARTIAL")
    if verdict.outcome is not Outcome.PASS and verdict.reason is Reason.OK:
        raise VerdictParseError(f"reason OK goes with PASS only; give the reason for {verdict.outcome.value}")
    for n, issue in enumerate(verdict.issues):
        if not any(ch.isalpha() for ch in issue):
            raise VerdictParseError(f"issue {n + 1} ({issue[:20]!r}) says nothing; write each issue as a sentence")


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


class FailedCheck(Protocol):
    """What :func:`merge_checks` reads of a failing check (a :class:`~autogen_pse.hooks.CheckResult`)."""

    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def reason(self) -> Reason | None: ...


def merge_checks(verdict: Verdict, failed: Sequence[FailedCheck]) -> Verdict:
    """Merge failing programmatic checks into a verdict.

    Args:
        verdict: the evaluator's verdict.
        failed: the failing checks; severity ``"error"`` downgrades, ``"warning"`` only adds an issue.

    A PASS with an error-severity failure becomes PARTIAL with the first error check's own
    ``reason`` (DATA_MISMATCH when it gives none; never guessed from its name). FAIL and BLOCKED
    are never upgraded.
    """
    if not failed:
        return verdict
    issues = list(verdict.issues) + [f"[check {r.name}] {r.detail}" for r in failed]
    errors = [r for r in failed if r.severity == "error"]
    outcome, reason = verdict.outcome, verdict.reason
    if errors and outcome is Outcome.PASS:
        outcome = Outcome.PARTIAL
        reason = errors[0].reason or Reason.DATA_MISMATCH
    return verdict.model_copy(update={"outcome": outcome, "reason": reason, "issues": issues})
