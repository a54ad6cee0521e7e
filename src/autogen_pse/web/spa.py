"""Static files of the built frontend (``web/static``) with a traversal-proof lookup.

URL paths are never joined blindly. A path is first checked as a string — every segment must be
a plain file name (letters, digits, ``_``, ``-``, ``.``, not starting with a dot: so no ``..``,
dot-files, backslashes, ``%``, ``:`` or NUL) — and anything else is a 404 before the disk is
looked at. Only then is it joined, resolved (symlinks followed) and required to stay inside the
resolved static root. (The :class:`~autogen_pse.web.security.RequestGuard` in front already
turns encoded separators and ``.``/``..`` segments into 404s; this is the second wall.)

Paths that look like files (a dot in the last segment) and do not exist get 404; other clean
paths get ``index.html`` so the single-page app can route them. ``/api/...`` is never answered
here.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

__all__ = ["STATIC_DIR", "build_router", "resolve_static", "safe_parts"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_URL_PATH = 512
_SEGMENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")

NOT_BUILT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>autogen-pse</title></head>
<body><h1>autogen-pse dashboard</h1><p>The frontend is not built yet. Run <code>make frontend</code>
(or <code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>) and reload. The API schema is
at <a href="/api/openapi.json">/api/openapi.json</a>.</p></body></html>"""


def safe_parts(url_path: str) -> list[str] | None:
    """The segments of ``url_path`` if every one is a plain file name, else None (pure: no I/O)."""
    if len(url_path) > MAX_URL_PATH:
        return None
    parts = [p for p in url_path.split("/") if p]
    if not all(_SEGMENT.fullmatch(p) for p in parts):
        return None
    return parts


def resolve_static(root: Path, url_path: str) -> Path | None:
    """The file under ``root`` that ``url_path`` names, or None (never a path outside ``root``;
    a malformed path is refused before any filesystem call)."""
    parts = safe_parts(url_path)
    if parts is None:
        return None
    base = root.resolve()
    candidate = base.joinpath(*parts).resolve() if parts else base
    if not candidate.is_relative_to(base) or not candidate.is_file():
        return None
    return candidate


def build_router(root: Path = STATIC_DIR) -> APIRouter:
    """A catch-all GET router serving ``root`` (register it after every API router)."""
    router = APIRouter(include_in_schema=False)

    def index() -> Response:
        page = resolve_static(root, "index.html")
        if page is None:
            return HTMLResponse(NOT_BUILT, headers={"Cache-Control": "no-cache"})
        return FileResponse(page, media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    @router.get("/", response_class=HTMLResponse)
    async def home() -> Response:
        return index()

    @router.get("/{path:path}")
    async def static_file(path: str, request: Request) -> Response:
        if path == "api" or path.startswith("api/") or path.startswith("/"):
            raise HTTPException(status_code=404, detail=f"no API route {request.url.path}"[:200])
        if safe_parts(path) is None:
            raise HTTPException(status_code=404, detail="not found")
        found = resolve_static(root, path)
        if found is not None:
            immutable = path.startswith("assets/")
            cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
            return FileResponse(found, headers={"Cache-Control": cache})
        if "." in path.rsplit("/", 1)[-1]:
            raise HTTPException(status_code=404, detail="not found")
        return index()

    return router
