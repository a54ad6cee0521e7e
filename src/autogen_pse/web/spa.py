"""Static files of the built frontend (``web/static``) with a traversal-proof lookup.

URL paths are never joined blindly: every segment is checked (no ``..``, ``.``, dot-files,
backslashes or NUL), the joined path is resolved (symlinks followed) and must stay inside the
resolved static root. Paths that look like files and do not exist get 404; any other path gets
``index.html`` so the single-page app can route it. ``/api/...`` is never answered here.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

__all__ = ["STATIC_DIR", "build_router", "resolve_static"]

STATIC_DIR = Path(__file__).resolve().parent / "static"

NOT_BUILT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>autogen-pse</title></head>
<body><h1>autogen-pse dashboard</h1><p>The frontend is not built yet. Run <code>make frontend</code>
(or <code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>) and reload. The API schema is
at <a href="/api/openapi.json">/api/openapi.json</a>.</p></body></html>"""


def resolve_static(root: Path, url_path: str) -> Path | None:
    """The file under ``root`` that ``url_path`` names, or None (never a path outside ``root``)."""
    if "\x00" in url_path or "\\" in url_path:
        return None
    parts = [p for p in url_path.split("/") if p]
    if any(p in (".", "..") or p.startswith(".") or ":" in p for p in parts):
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
        if path == "api" or path.startswith("api/"):
            raise HTTPException(status_code=404, detail=f"no API route {request.url.path}")
        found = resolve_static(root, path)
        if found is not None:
            immutable = path.startswith("assets/")
            cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
            return FileResponse(found, headers={"Cache-Control": cache})
        last = path.rsplit("/", 1)[-1]
        if "." in last or "\\" in path or ".." in path.split("/"):
            raise HTTPException(status_code=404, detail="not found")
        return index()

    return router
