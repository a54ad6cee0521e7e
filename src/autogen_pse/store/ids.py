"""Run ids: ULIDs (python-ulid), time-sortable, validated before any path is built from them.

A run id is 26 characters of Crockford base32 (``0-9A-Z`` without ``I L O U``). The first 10
characters encode the creation time in milliseconds, so sorting ids as strings sorts runs by start.
"""

from __future__ import annotations

import re
import threading

from ulid import ULID

from autogen_pse.errors import UserError

__all__ = ["RUN_ID_PATTERN", "is_run_id", "new_run_id", "validate_run_id"]

#: The only accepted shape of a run id (anchored; checked with ``fullmatch``).
RUN_ID_PATTERN = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")

_MAX_ULID = (1 << 128) - 1
_lock = threading.Lock()
_last = 0


def new_run_id() -> str:
    """A fresh ULID as a 26-character string.

    Ids made by this process are strictly increasing, also within one millisecond (the random part
    of the previous id is incremented), so ``sorted(ids)`` is creation order.
    """
    global _last
    with _lock:
        value = int(ULID())
        if value <= _last and _last < _MAX_ULID:
            value = _last + 1
        _last = value
        return str(ULID.from_int(value))


def is_run_id(value: object) -> bool:
    """True when ``value`` is a string of run-id shape (no exception)."""
    return isinstance(value, str) and RUN_ID_PATTERN.fullmatch(value) is not None


def validate_run_id(value: object) -> str:
    """Return ``value`` unchanged if it is a well-formed run id.

    Raises:
        UserError: ``invalid run id ...`` for anything else (path separators, lowercase, wrong length).
    """
    if not isinstance(value, str) or not is_run_id(value):
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise UserError(
            f"invalid run id {shown}: expected 26 characters of 0-9 and A-Z without I, L, O, U "
            "(see `pse trace` for the ids of past runs)"
        )
    return value
