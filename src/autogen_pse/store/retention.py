"""Retention: remove runs older than a cut-off, with their folders and index rows.

A run is never removed while it runs: its index status is ``running`` *and* (or) its event log is
still locked by a live writer. A removed folder is first renamed to ``.deleting-<run_id>`` (one
atomic step: readers see the whole run or none of it), its index row is deleted, then the folder.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from autogen_pse.errors import UserError
from autogen_pse.store.files import is_locked, store_error
from autogen_pse.store.layout import EVENTS_FILE
from autogen_pse.store.rows import RunRow

__all__ = ["PruneReport", "parse_age", "prune"]

_AGE = re.compile(r"^\s*(\d{1,6})\s*([dhwm])\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_age(text: str) -> timedelta:
    """``30d`` → 30 days (units: ``m`` minutes, ``h`` hours, ``d`` days, ``w`` weeks).

    Raises:
        UserError: anything else, naming the value and the form to use.
    """
    found = _AGE.match(text or "")
    if found is None:
        raise UserError(f"--older-than {text!r}: use a whole number and a unit, e.g. 30d, 12h, 2w or 90m")
    return timedelta(**{_UNITS[found.group(2).lower()]: int(found.group(1))})


@dataclass
class PruneReport:
    """What :func:`prune` removed (or, in a dry run, would remove) and what it kept."""

    cutoff: str
    removed: list[RunRow] = field(default_factory=list)
    kept_running: list[str] = field(default_factory=list)
    kept_verified: list[str] = field(default_factory=list)
    bytes_freed: int = 0
    dry_run: bool = False


def _size(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def prune(store: object, older_than: timedelta, *, keep_verified: bool = False, dry_run: bool = False,
          now: datetime | None = None) -> PruneReport:
    """Remove runs of ``store`` (a :class:`~autogen_pse.store.TraceStore`) started before
    ``now - older_than``; ``keep_verified`` keeps runs whose artifact passed every final check.

    Raises:
        StoreError: a folder or the index cannot be changed (runs removed before stay removed).
    """
    from autogen_pse.store import TraceStore

    assert isinstance(store, TraceStore)
    cutoff = ((now or datetime.now(UTC)) - older_than).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    report = PruneReport(cutoff=cutoff, dry_run=dry_run)
    rows: list[RunRow] = []
    cursor = None
    while True:  # collect first: deleting while paging would shift nothing (key paging), but keep it simple
        page = store.index.list(until=cutoff, limit=1000, cursor=cursor)
        rows.extend(page.data)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    for row in rows:
        folder = store.traces_dir / row.run_id
        if row.status == "running" or is_locked(folder / EVENTS_FILE):
            report.kept_running.append(row.run_id)
            continue
        if keep_verified and row.verified:
            report.kept_verified.append(row.run_id)
            continue
        size = _size(folder) if folder.is_dir() else 0
        if not dry_run:
            _remove(store, row.run_id, folder)
        report.removed.append(row)
        report.bytes_freed += size
    return report


def _remove(store: object, run_id: str, folder: Path) -> None:
    from autogen_pse.store import TraceStore

    assert isinstance(store, TraceStore)
    aside = folder.with_name(f".deleting-{run_id}")
    if folder.is_dir():
        try:
            folder.rename(aside)
        except OSError as exc:
            raise store_error(folder, exc, "remove") from exc
    store.index.delete(run_id)
    if aside.exists():
        shutil.rmtree(aside, ignore_errors=True)
