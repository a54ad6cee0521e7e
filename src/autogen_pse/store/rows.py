"""Index rows, result pages and the opaque pagination cursor."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from autogen_pse.errors import UserError
from autogen_pse.names import RUN_STATUSES, RunStatus
from autogen_pse.store.ids import is_run_id

__all__ = ["RunPage", "RunRow", "RunStatus", "decode_cursor", "encode_cursor", "normalize_ts"]



class RunRow(BaseModel):
    """One run as listed by the index (``runs`` table). Tokens are counts; cost is in ``currency``.

    ``cost`` is None when any priced part of the run is unknown; ``verified`` is None while the
    run has no artifact.
    """

    model_config = ConfigDict(extra="ignore")

    run_id: str
    task: str | None = None
    model: str | None = None
    status: RunStatus = "running"
    verdict: str | None = None
    reason: str | None = None
    cycles: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    currency: str | None = None
    started_at: str = ""
    ended_at: str | None = None
    trace_dir: str = ""
    verified: bool | None = None
    error: str | None = None
    product_version: str | None = None
    task_sha: str | None = None  # the task's prompts, rules and code (see autogen_pse.provenance)
    prompt_sha: str | None = None  # the system prompts the roles received in the first cycle

    @classmethod
    def from_trace(cls, doc: dict[str, Any], *, trace_dir: Path | str | None = None) -> RunRow:
        """The row of a trace document (``trace.json`` shape); ``trace_dir`` is the run folder."""
        usage = doc.get("usage") or {}
        artifact = doc.get("artifact") or {}
        status = doc.get("status")
        verified = artifact.get("verified") if isinstance(artifact, dict) else None
        error = doc.get("error")
        recorded = doc.get("provenance")
        prov: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
        return cls(
            product_version=prov.get("product_version"),
            task_sha=prov.get("task_sha"),
            prompt_sha=doc.get("prompt_sha"),
            run_id=str(doc.get("run_id") or ""),
            task=doc.get("task"),
            model=doc.get("model"),
            status=_status(status),
            verdict=doc.get("verdict"),
            reason=doc.get("reason"),
            cycles=len(doc.get("cycles") or []),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            cost=usage.get("cost"),
            currency=usage.get("currency"),
            started_at=doc.get("started_at") or "",
            ended_at=doc.get("ended_at"),
            trace_dir=str(trace_dir) if trace_dir is not None else "",
            verified=bool(verified) if isinstance(verified, bool | int) else None,
            error=error if error is None or isinstance(error, str) else json.dumps(error),
        )


def _status(value: object) -> RunStatus:
    """``value`` when it is a known run status, else ``error``."""
    return next((s for s in RUN_STATUSES if s == value), "error")


class RunPage(BaseModel):
    """A page of rows, newest first. ``count`` is the total matching the filters (all pages);
    ``next_cursor`` is None on the last page."""

    data: list[RunRow]
    count: int
    next_cursor: str | None = None


def encode_cursor(started_at: str, run_id: str) -> str:
    """Opaque cursor (URL-safe base64 of ``[started_at, run_id]``) pointing after that row."""
    raw = json.dumps([started_at, run_id], separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    """``(started_at, run_id)`` of a cursor made by :func:`encode_cursor`.

    Raises:
        UserError: the cursor was not made by :func:`encode_cursor`.
    """
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        value = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")).decode("utf-8"))
    except (ValueError, UnicodeError, binascii.Error) as exc:
        raise UserError(f"invalid cursor {cursor[:40]!r}: pass the next_cursor of a previous page") from exc
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not isinstance(value[0], str)
        or not is_run_id(value[1])
    ):
        raise UserError(f"invalid cursor {cursor[:40]!r}: pass the next_cursor of a previous page")
    return value[0], value[1]


def normalize_ts(value: str | datetime, *, name: str) -> str:
    """A timestamp as stored (``YYYY-MM-DDTHH:MM:SS.mmmZ``, UTC); naive values are taken as UTC.

    Raises:
        UserError: ``value`` is not an ISO 8601 date or date-time.
    """
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip())
        except ValueError as exc:
            raise UserError(
                f"invalid {name} {value!r}: use an ISO 8601 date or time, e.g. 2025-01-31T12:00:00Z"
            ) from exc
    else:
        parsed = value
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
