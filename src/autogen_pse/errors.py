"""Error hierarchy and the CLI exit codes they map to.

Exit codes (documented in the README):

* 0 — the run ended with PASS
* 1 — the run ended without PASS (PARTIAL, FAIL, BLOCKED, cancelled)
* 2 — :class:`UserError`: unknown task, bad option, bad input file
* 3 — :class:`RunError`: runtime or model error
"""

from __future__ import annotations

EXIT_PASS = 0
EXIT_NOT_PASS = 1
EXIT_USER_ERROR = 2
EXIT_RUN_ERROR = 3


class PseError(Exception):
    """Base class; ``str(err)`` is one line that names the bad thing and the fix."""

    exit_code: int = EXIT_RUN_ERROR


class UserError(PseError):
    """Bad input from the user (task name, option, input file). Exit code 2."""

    exit_code = EXIT_USER_ERROR


class InputFileError(UserError):
    """A task input file is invalid; the message names file, row and field."""

    def __init__(self, path: object, message: str, *, row: int | None = None, field: str | None = None):
        where = str(path)
        if row is not None:
            where += f", row {row}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {message}")
        self.path, self.row, self.field = path, row, field


class RunError(PseError):
    """A run could not go on: model error after retries, tool missing, store failure. Exit code 3."""

    exit_code = EXIT_RUN_ERROR


class ServiceError(RunError):
    """A service the run needs (the Chroma server) is unreachable: not the user's input. Exit code 3."""


class ModelError(RunError):
    """The model provider failed (after retries) or a scripted reply list was exhausted."""


class StoreError(RunError):
    """The trace store could not be written (permissions, full disk)."""
