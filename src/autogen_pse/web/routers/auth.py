"""``POST /api/login`` / ``POST /api/logout`` / ``GET /api/auth``: the token as an HttpOnly cookie.

``EventSource`` cannot send headers, so the browser logs in once with the token and then carries
it in a ``SameSite=Strict`` HttpOnly cookie scoped to ``/api`` (unreadable by page scripts).
Failed logins count against the client's limit (5 per minute, shared with wrong tokens sent to
other routes); over it, every attempt gets 429 with ``Retry-After`` until the window passes.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request, Response

from autogen_pse.web.deps import StateDep
from autogen_pse.web.routers.common import POST_ERRORS
from autogen_pse.web.schemas import AuthState, Empty, ErrorOut, LoginIn
from autogen_pse.web.security import COOKIE_NAME, client_key, supplied_tokens, token_matches

router = APIRouter(prefix="/api", tags=["auth"])

COOKIE_MAX_AGE = 7 * 24 * 3600
FAILED_LOGIN_DELAY = 0.2  # seconds: slows a single client's guessing further


@router.post("/login", response_model=AuthState, summary="Log in",
             responses={**POST_ERRORS, 401: {"model": ErrorOut, "description": "wrong token"},
                        429: {"model": ErrorOut, "description": "too many failed attempts; see Retry-After"}})
async def login(body: LoginIn, request: Request, response: Response, state: StateDep) -> AuthState:
    """Check ``token`` (constant time) and set the session cookie. Without a configured token
    this is a no-op that reports ``auth_required: false``."""
    expected = state.token
    if expected is None:
        return AuthState(auth_required=False, authenticated=True)
    client = client_key(request.scope)
    wait = state.limiter.retry_after(client)
    if wait is not None:
        seconds = max(1, int(wait + 0.999))
        raise HTTPException(status_code=429, detail=f"too many failed logins; try again in {seconds} s",
                            headers={"Retry-After": str(seconds)})
    if not token_matches(body.token, expected):
        state.limiter.fail(client)  # every failed login counts, even a repeated value
        await asyncio.sleep(FAILED_LOGIN_DELAY)
        raise HTTPException(status_code=401, detail="wrong token")
    state.limiter.reset(client)
    response.set_cookie(
        COOKIE_NAME, body.token, max_age=COOKIE_MAX_AGE, path="/api", httponly=True, samesite="strict",
        secure=request.url.scheme == "https",
    )
    return AuthState(auth_required=True, authenticated=True)


@router.post("/logout", response_model=AuthState, summary="Log out", responses=POST_ERRORS)
async def logout(body: Empty, response: Response, state: StateDep) -> AuthState:
    """Clear the session cookie (send ``{}``)."""
    response.delete_cookie(COOKIE_NAME, path="/api", httponly=True, samesite="strict")
    return AuthState(auth_required=state.token is not None, authenticated=state.token is None)


@router.get("/auth", response_model=AuthState, summary="Authentication state")
async def auth_state(request: Request, state: StateDep) -> AuthState:
    """Whether a token is required and whether this request carries it (reached only when it does
    or when no token is configured: the guard answers 401 otherwise)."""
    expected = state.token
    ok = expected is None or any(token_matches(t, expected) for t in supplied_tokens(request.scope))
    return AuthState(auth_required=expected is not None, authenticated=ok)
