"""OpenAPI response declarations shared by routers."""

from __future__ import annotations

from typing import Any

from autogen_pse.web.schemas import ErrorOut

__all__ = ["POST_ERRORS"]

#: What the request guard answers for any state change (see ``autogen_pse.web.security``).
POST_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "a body that is not UTF-8 JSON, or a bad Content-Length"},
    403: {"model": ErrorOut, "description": "cross-site request (Origin / Sec-Fetch-Site not this server)"},
    413: {"model": ErrorOut, "description": "request body over 64 KiB"},
    415: {"model": ErrorOut, "description": "the body is not application/json"},
}
