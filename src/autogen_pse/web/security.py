"""Security of the dashboard: bind policy, the API token guard and response headers.

* :func:`check_bind` — the server binds loopback by default and refuses any other address unless
  ``PSE_WEB_TOKEN`` is set.
* :class:`TokenGuard` — with a token, every ``/api`` request (SSE included) except
  ``/api/health`` and ``/api/login`` must carry it, as ``Authorization: Bearer <token>`` or in the
  HttpOnly ``SameSite=Strict`` cookie set by ``POST /api/login`` (so ``EventSource`` works).
  Comparison is constant-time. It is pure ASGI so streaming responses pass through untouched.
* :class:`SecurityHeaders` — CSP without inline scripts, nosniff, no referrer, no framing.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from autogen_pse.errors import UserError

__all__ = [
    "COOKIE_NAME",
    "PUBLIC_API_PATHS",
    "SecurityHeaders",
    "TokenGuard",
    "check_bind",
    "is_loopback",
    "supplied_tokens",
    "token_matches",
]

COOKIE_NAME = "pse_token"
PUBLIC_API_PATHS = frozenset({"/api/health", "/api/login"})

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


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


def token_matches(supplied: str | None, expected: str) -> bool:
    """Constant-time comparison (of UTF-8 bytes; any length)."""
    if not supplied:
        return False
    return hmac.compare_digest(supplied.encode("utf-8"), expected.encode("utf-8"))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _cookie(header: str | None, name: str) -> str | None:
    if not header:
        return None
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value.strip().strip('"')
    return None


def supplied_tokens(scope: Scope) -> list[str]:
    """Tokens a request carries: the bearer header's, then the cookie's."""
    found: list[str] = []
    auth = _header(scope, b"authorization")
    if auth:
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            found.append(value.strip())
    cookie = _cookie(_header(scope, b"cookie"), COOKIE_NAME)
    if cookie:
        found.append(cookie)
    return found


class TokenGuard:
    """ASGI middleware: 401 for ``/api`` requests without the token (when one is configured)."""

    def __init__(self, app: ASGIApp, token: str | None, public: Iterable[str] = PUBLIC_API_PATHS) -> None:
        self.app = app
        self.token = token
        self.public = frozenset(public)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.token and scope["type"] == "http" and self._protected(scope.get("path", "")):
            supplied = supplied_tokens(scope)
            # compare every candidate so timing does not reveal which one was present
            ok = [token_matches(s, self.token) for s in supplied]
            if not any(ok):
                await _deny(send)
                return
        await self.app(scope, receive, send)

    def _protected(self, path: str) -> bool:
        if not (path == "/api" or path.startswith("/api/")):
            return False
        return path.rstrip("/") not in self.public


async def _deny(send: Send) -> None:
    body = json.dumps({"detail": "authentication required: log in or send Authorization: Bearer <token>"})
    await send({
        "type": "http.response.start",
        "status": 401,
        "headers": [
            (b"content-type", b"application/json"),
            (b"www-authenticate", b'Bearer realm="autogen-pse"'),
            (b"cache-control", b"no-store"),
            (b"content-length", str(len(body)).encode()),
        ],
    })
    await send({"type": "http.response.body", "body": body.encode()})


class SecurityHeaders:
    """ASGI middleware adding CSP, nosniff, referrer and framing headers to every response."""

    HEADERS = (
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in self.HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

