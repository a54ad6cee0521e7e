"""Read a model's reply as an artifact object: JSON (optionally fenced), validated against the schema.

An invalid or truncated object is never an artifact: :func:`parse_object` raises
:class:`ArtifactParseError` whose text lists the first validation errors, short enough to send back
to the model in one re-ask.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from .schema import ArtifactSchema

MAX_ERRORS = 4
_FENCED = re.compile(r"^\s*```[a-zA-Z]*\s*\n(?P<body>.*?)\n?```\s*$", re.DOTALL)


class ArtifactParseError(ValueError):
    """The reply is not a valid artifact object; ``str()`` says why (for the re-ask and the verdict)."""


def _body(text: str) -> str:
    m = _FENCED.match(text or "")
    return m.group("body") if m else (text or "").strip()


def parse_object(schema: ArtifactSchema, text: str) -> BaseModel:
    """The validated object in ``text`` (a JSON object, alone or in one fenced block).

    Raises:
        ArtifactParseError: not JSON, truncated, or not valid against the schema.
    """
    body = _body(text)
    if not body.startswith("{"):
        raise ArtifactParseError("the reply is not a JSON object")
    try:
        data: Any = json.loads(body)
    except json.JSONDecodeError as exc:
        truncated = "unexpected end of the object (truncated?)" if exc.pos >= len(body) - 1 else exc.msg
        raise ArtifactParseError(f"the reply is not valid JSON: {truncated} at character {exc.pos}") from None
    except (ValueError, RecursionError) as exc:
        raise ArtifactParseError(f"the reply is not valid JSON ({type(exc).__name__})") from None
    try:
        return schema.model.model_validate(data)
    except ValidationError as exc:
        raise ArtifactParseError(validation_summary(exc)) from None


def validation_summary(exc: ValidationError) -> str:
    """The first :data:`MAX_ERRORS` errors as ``at <path>: <message>``, joined by ``; ``."""
    parts = []
    for err in exc.errors()[:MAX_ERRORS]:
        loc = ".".join(str(p) for p in err["loc"]) or "object"
        parts.append(f"at {loc}: {err['msg']}")
    more = exc.error_count() - MAX_ERRORS
    return "invalid object " + "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def try_render(schema: ArtifactSchema, text: str) -> tuple[str | None, str | None]:
    """``(markdown, None)`` for a valid object, ``(None, error)`` otherwise."""
    try:
        return schema.render(parse_object(schema, text)), None
    except ArtifactParseError as exc:
        return None, str(exc)
