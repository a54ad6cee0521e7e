"""Task texts of fix and re-plan cycles.

A fix cycle carries the original task, the current artifact and the numbered issues (with the
evaluator's summary cut to :data:`~autogen_pse.verdict.SUMMARY_LIMIT` characters) — never the chat
history. A re-plan cycle carries the original task and the failure reasons, not the failed artifact.
"""

from __future__ import annotations

from .verdict import SUMMARY_LIMIT, Verdict

MAX_ISSUES = 20
ISSUE_LIMIT = 400  # characters per issue line


COMPACT_ISSUES, COMPACT_ISSUE_LIMIT = 5, 160  # a compact fix cycle stays within the local prompt budget


def _numbered(issues: list[str], most: int = MAX_ISSUES, limit: int = ISSUE_LIMIT) -> str:
    shown = [i if len(i) <= limit else i[:limit] + "…" for i in issues[:most]]
    lines = [f"{n}. {issue}" for n, issue in enumerate(shown, 1)]
    if len(issues) > most:
        lines.append(f"(and {len(issues) - most} more)")
    return "\n".join(lines) or "1. (no issue text given; re-check every requirement)"


def _summary(verdict: Verdict) -> str:
    text = verdict.summary.strip()
    return text if len(text) <= SUMMARY_LIMIT else text[: SUMMARY_LIMIT - 1] + "…"


def fix_task_text(original: str, artifact: str, verdict: Verdict, *, show_artifact: bool = True) -> str:
    """Task of a fix cycle (after PARTIAL). ``show_artifact=False`` (compact runs, where the whole
    object is written again) leaves the current artifact out to keep the prompt in its budget."""
    if not show_artifact:
        return (f"{original.rstrip()}\n\n## Fix cycle\nThe previous review was judged PARTIAL "
                f"({verdict.reason.value}). Write it again and fix these issues:\n\n"
                f"{_numbered(verdict.issues, COMPACT_ISSUES, COMPACT_ISSUE_LIMIT)}\n")
    return (
        f"{original.rstrip()}\n\n"
        "## Fix cycle\n"
        f"The previous cycle's artifact was judged PARTIAL ({verdict.reason.value}). Revise it so every "
        "issue below is fixed; keep what was correct.\n\n"
        f"### Current artifact\n\n{artifact.strip() or '(empty)'}\n\n"
        f"### Issues to fix\n\n{_numbered(verdict.issues)}\n\n"
        f"### Evaluator summary\n\n{_summary(verdict) or '(none)'}\n"
    )


def replan_task_text(original: str, verdict: Verdict) -> str:
    """Task of a re-plan cycle (after FAIL): start again from the original task."""
    return (
        f"{original.rstrip()}\n\n"
        "## Re-plan\n"
        f"The previous approach FAILED ({verdict.reason.value}). Plan again from the task above and "
        "avoid these failures:\n\n"
        f"{_numbered(verdict.issues)}\n\n"
        f"Evaluator summary: {_summary(verdict) or '(none)'}\n"
    )


REASK_TEXT = (
    "Your last message did not end with a valid verdict block ({error}). Reply again with your "
    "review and end it with exactly one ```verdict block as instructed, and nothing after it."
)
