"""Validation of run-listing filters shared by the CLI and the web API."""

from __future__ import annotations

from datetime import UTC, datetime

from .errors import UserError
from .names import RUN_STATUSES, TASK_NAME
from .verdict import Outcome

STATUSES = RUN_STATUSES


def parse_time(value: str, name: str) -> str:
    """ISO 8601 date or date-time → normalised UTC ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (naive = UTC).

    Raises:
        UserError: not an ISO date/time.
    """
    try:
        dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UserError(f"--{name} {value!r}: not an ISO date/time (e.g. 2026-11-30 or 2026-11-30T08:00Z)") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_filters(
    *, task: str | None = None, verdict: str | None = None, status: str | None = None,
    since: str | None = None, until: str | None = None,
) -> dict[str, str | None]:
    """Validated keyword filters for ``RunIndex.list``.

    Raises:
        UserError: a filter value that cannot match anything valid (names the filter and the fix).
    """
    if task is not None and not TASK_NAME.fullmatch(task):
        raise UserError(f"--task {task!r}: not a task name")
    if verdict is not None:
        verdict = verdict.upper()
        if verdict not in Outcome.__members__:
            raise UserError(f"--verdict {verdict!r}: use one of {', '.join(Outcome.__members__)}")
    if status is not None and status not in STATUSES:
        raise UserError(f"--status {status!r}: use one of {', '.join(STATUSES)}")
    return {
        "task": task, "verdict": verdict, "status": status,
        "since": parse_time(since, "since") if since else None,
        "until": parse_time(until, "until") if until else None,
    }
