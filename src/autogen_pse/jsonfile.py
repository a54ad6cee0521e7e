"""Reading a user's JSON file (a task registry, a scripted model, a price table, a knowledge
document): one place for the one-line errors that name the file, line and column."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import InputFileError

__all__ = ["parse_json", "read_json"]


def parse_json(path: Path, text: str) -> Any:
    """The JSON value of ``text``, read from ``path``.

    Raises:
        InputFileError: not valid JSON (line and column), an over-long integer or nesting too deep.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # an over-long integer, nesting too deep
        raise InputFileError(path, f"not valid JSON ({type(exc).__name__}: {str(exc)[:120]})") from None


def read_json(path: Path) -> Any:
    """The JSON value of the UTF-8 file ``path`` (the caller reports a missing file its own way).

    Raises:
        InputFileError: not UTF-8 (byte offset), unreadable, or not valid JSON (see :func:`parse_json`).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(path, f"not UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None
    except OSError as exc:
        raise InputFileError(path, f"cannot be read ({exc.strerror or type(exc).__name__})") from None
    return parse_json(path, text)
