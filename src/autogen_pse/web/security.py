"""Security of the dashboard: bind policy, request hygiene, the API token guard, response headers.

Middleware, outermost first (see :func:`autogen_pse.web.app.create_app`):

* :class:`SecurityHeaders` — CSP without inline scripts or styles (API responses: a sandboxing
  CSP), nosniff, ``same-origin`` referrers, no framing, no powerful features, ``Cache-Control:
  no-store`` on ``/api``.
* Starlette's ``TrustedHostMiddleware`` (without a token only): loopback ``Host`` names, so a
  DNS-rebinding page cannot reach the API.
* :class:`RequestGuard` — before any route runs: traversal-shaped paths get 404 (nothing on disk is
  touched), bodies over ``max_body`` get 413 (from ``Content-Length`` at once, or after reading
  just past the cap), and state changes (every method but GET/HEAD/OPTIONS) must come from this
  origin (``Sec-Fetch-Site`` / ``Origin`` / ``Referer``, 403) with ``Content-Type:
  application/json`` (415), which a cross-site form or ``no-cors`` fetch cannot send.
* :class:`TokenGuard` — with a token, every ``/api`` request (SSE included) except
  ``/api/health`` and ``/api/login`` must carry it, as ``Authorization: Bearer <token>`` or in the
  HttpOnly ``SameSite=Strict`` cookie set by ``POST /api/login`` (so ``EventSource`` works).
  Comparison is constant-time (:func:`token_matches`); a client that sends too many wrong tokens
  (:class:`FailureLimiter`, shared with the login route) gets 429 until its window passes.

The guards are pure ASGI, so streaming responses pass through untouched.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import re
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from autogen_pse.errors import UserError
from autogen_pse.web.ratelimit import FailureLimiter

__all__ = [
    "API_CSP",
    "COOKIE_NAME",
    "CSP",
    "MAX_BODY",
    "PERMISSIONS_POLICY",
    "PUBLIC_API_PATHS",
    "BodyTooLarge",
    "FailureLimiter",
    "RequestGuard",
    "SecurityHeaders",
    "TokenGuard",
    "check_bind",
    "client_key",
    "fingerprint",
    "is_loopback",
    "is_traversal",
    "supplied_tokens",
    "token_matches",
]

COOKIE_NAME = "pse_token"
PUBLIC_API_PATHS = frozenset({"/api/health", "/api/login"})
#: Largest request body accepted (bytes). A run request is a few hundred bytes.
MAX_BODY = 64 * 1024
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; manifest-src 'self'; object-src 'none'; frame-src 'none'; worker-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: API responses (JSON, Markdown, event streams) are data, never pages: if one is ever opened as a
#: document it gets a unique origin, no scripts and no subresources.
API_CSP = "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), publickey-credentials-get=(), usb=(), interest-cohort=()"
)


# --- bind policy -------------------------------------------------------------------------------
def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IPs (``127.0.0.0/8``, ``::1``)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve on a non-loopback address without a token.

    Raises:
        UserError: ``host`` is not loopback and no token is set (names the fix).
    """
    if not is_loopback(host) and not token:
        raise UserError(
            f"refusing to serve the dashboard on {host}: it is reachable from other machines; "
            "set PSE_WEB_TOKEN to a long random secret, or bind 127.0.0.1 (PSE_WEB_HOST)"
        )


# --- tokens --------------------------------------------------------------------------------------
def token_matches(supplied: str | None, expected: str) -> bool:
    """Constant-time comparison: ``hmac.compare_digest`` of the SHA-256 digests of both values, so
    neither the content nor the length of ``expected`` shows in the timing."""
    if not supplied:
        return False
    got = hashlib.sha256(supplied.encode("utf-8", "surrogatepass")).digest()
    want = hashlib.sha256(expected.encode("utf-8", "surrogatepass")).digest()
    return hmac.compare_digest(got, want)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _cookie(header: str | None, name: str) -> str | None:
    if not header:
        return None
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value.strip().strip('"')
    return None


def _supplied(scope: Scope) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    auth = _header(scope, b"authorization")
    if auth:
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            found.append(("header", value.strip()))
    cookie = _cookie(_header(scope, b"cookie"), COOKIE_NAME)
    if cookie:
        found.append(("cookie", cookie))
    return found


def supplied_tokens(scope: Scope) -> list[str]:
    """Tokens a request carries: the bearer header's, then the cookie's."""
    return [token for _, token in _supplied(scope)]


def client_key(scope: Scope) -> str:
    """Who is asking, for rate limits: the peer address (the server never trusts proxy headers)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def fingerprint(token: str) -> str:
    """A short digest of a wrong token, so the limiter never keeps the value itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# --- responses from middleware --------------------------------------------------------------------
async def send_json(send: Send, status: int, detail: str,
                    headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """A complete JSON error response ``{"detail": ...}`` (``Cache-Control: no-store``)."""
    body = json.dumps({"detail": detail}).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"cache-control", b"no-store"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
    })
    await send({"type": "http.response.body", "body": body})


class TokenGuard:
    """ASGI middleware: 401 for ``/api`` requests without the token (when one is configured), 429
    for a client over its failure limit."""

    def __init__(self, app: ASGIApp, token: str | None, public: Iterable[str] = PUBLIC_API_PATHS,
                 limiter: FailureLimiter | None = None) -> None:
        self.app = app
        self.token = token
        self.public = frozenset(public)
        self.limiter = limiter or FailureLimiter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.token and scope["type"] == "http" and self._protected(scope.get("path", "")):
            supplied = _supplied(scope)
            if not supplied:
                await _deny(send)
                return
            client = client_key(scope)
            wait = self.limiter.retry_after(client)
            if wait is not None:
                await too_many(send, wait)
                return
            # compare every candidate so timing does not reveal which one was present
            ok = [token_matches(value, self.token) for _, value in supplied]
            if not any(ok):
                for _, value in supplied:
                    self.limiter.fail(client, fingerprint(value))
                stale_cookie = any(source == "cookie" for source, _ in supplied)
                await _deny(send, clear_cookie=stale_cookie)
                return
        await self.app(scope, receive, send)

    def _protected(self, path: str) -> bool:
        if not (path == "/api" or path.startswith("/api/")):
            return False
        return path.rstrip("/") not in self.public


async def _deny(send: Send, *, clear_cookie: bool = False) -> None:
    headers = [(b"www-authenticate", b'Bearer realm="autogen-pse"')]
    if clear_cookie:  # a wrong cookie (e.g. the token changed): drop it so it is not sent again
        headers.append((b"set-cookie", f"{COOKIE_NAME}=; Max-Age=0; Path=/api; HttpOnly; SameSite=Strict".encode()))
    await send_json(send, 401, "authentication required: log in or send Authorization: Bearer <token>", headers)


async def too_many(send: Send, wait: float) -> None:
    seconds = max(1, int(wait + 0.999))
    await send_json(send, 429, f"too many failed token attempts from this client; try again in {seconds} s",
                    [(b"retry-after", str(seconds).encode())])


# --- request hygiene --------------------------------------------------------------------------------
class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a body without (or with a lying) ``Content-Length`` passes the cap;
    FastAPI re-raises HTTPExceptions from body reading, so it becomes a 413 response."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"request body over {limit} bytes")


_ENCODED_SEPARATOR = re.compile(rb"%(?:2f|5c|00|25)", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\\\ufffd]")


def is_traversal(scope: Scope) -> bool:
    """True for a path no route or file of this server can have: encoded ``/`` ``\\`` NUL or ``%``
    (double encoding) in the raw path; ``.``/``..`` segments, backslashes, control characters or
    undecodable bytes in the decoded one. Pure string checks: nothing on disk is looked at."""
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and _ENCODED_SEPARATOR.search(raw.split(b"?", 1)[0]):
        return True
    path = str(scope.get("path", ""))
    if _CONTROL.search(path):
        return True
    return any(segment in (".", "..") for segment in path.split("/"))


def _authority(url: str, default_scheme: str) -> tuple[str, int] | None:
    """``(host, port)`` of an Origin/Referer URL or (``default_scheme`` given) a Host header value."""
    try:
        parts = urlsplit(url if "://" in url else f"{default_scheme}://{url}")
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc:
            return None  # browsers never send userinfo: "http://evil@127.0.0.1" is a forgery
        return parts.hostname.lower(), parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        return None


class RequestGuard:
    """ASGI middleware: 404 for traversal-shaped paths, 413 for oversized bodies, and for state
    changes 403 unless same-origin, 415 unless JSON.

    ``allowed_origins`` adds origins (``https://dash.example``) accepted besides the request's own
    ``Host`` (e.g. behind a TLS-terminating proxy that rewrites ``Host``).
    """

    def __init__(self, app: ASGIApp, *, max_body: int = MAX_BODY, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.max_body = max_body
        self.allowed = {a for a in (_authority(o, "http") for o in allowed_origins) if a is not None}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if is_traversal(scope):
            await send_json(send, 404, "not found")
            return
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.strip().isdigit():
                await send_json(send, 400, "invalid Content-Length")
                return
            if int(length) > self.max_body:
                await send_json(send, 413, f"request body over {self.max_body} bytes",
                                [(b"connection", b"close")])
                return
        if scope.get("method", "GET").upper() not in SAFE_METHODS:
            reason = self.cross_site(scope)
            if reason is not None:
                await send_json(send, 403, reason)
                return
            media = (_header(scope, b"content-type") or "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                await send_json(send, 415, "send the request body as application/json")
                return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, self._capped(receive, lambda: started), tracking_send)

    def _capped(self, receive: Receive, response_started: Callable[[], bool]) -> Receive:
        """``receive`` that stops a body at ``max_body``: 413 while no response has started; once
        one has (a stream), the sender is treated as gone."""
        seen = 0
        limit = self.max_body

        async def capped() -> Message:
            nonlocal seen
            if seen > limit:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    if response_started():
                        return {"type": "http.disconnect"}
                    raise BodyTooLarge(limit)
            return message

        return capped

    def cross_site(self, scope: Scope) -> str | None:
        """Why a state-changing request is refused as cross-site, or None.

        ``Sec-Fetch-Site`` (sent by current browsers) must be ``same-origin``; otherwise ``Origin``
        (or, without it, ``Referer``) must name this server. Requests with none of these headers
        come from non-browser clients, which cannot carry a victim's cookie.
        """
        site = _header(scope, b"sec-fetch-site")
        if site is not None and site.strip().lower() not in ("same-origin", "none"):
            return f"cross-site request refused (Sec-Fetch-Site: {site.strip()[:20]})"
        for name in (b"origin", b"referer"):
            value = _header(scope, name)
            if value is None:
                continue
            if not self._same_origin(value.strip(), scope):
                return f"cross-origin request refused ({name.decode().capitalize()} does not match this server)"
            return None
        return None

    def _same_origin(self, url: str, scope: Scope) -> bool:
        origin = _authority(url, "http") if "://" in url else None  # "null" and junk: not ours
        if origin is None:
            return False
        if origin in self.allowed:
            return True
        host = _header(scope, b"host")
        return host is not None and origin == _authority(host, str(scope.get("scheme", "http")))


# --- response headers ---------------------------------------------------------------------------------
class SecurityHeaders:
    """ASGI middleware adding CSP, nosniff, referrer, framing, permissions and resource-policy
    headers to every response; API responses get the sandboxing :data:`API_CSP` and
    ``Cache-Control: no-store`` (unless they set their own)."""

    HEADERS = (
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
        (b"permissions-policy", PERMISSIONS_POLICY.encode()),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        api = path == "/api" or path.startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                if api and b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", API_CSP.encode()))
                    present.add(b"content-security-policy")
                headers += [(k, v) for k, v in self.HEADERS if k not in present]
                if api and b"cache-control" not in present:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
