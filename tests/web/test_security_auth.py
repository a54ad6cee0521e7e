"""With PSE_WEB_TOKEN set: every route of the app (enumerated from ``app.routes``, not a hand list)
but health and login needs the token; tokens are compared in constant time; failed attempts are
rate-limited per client (5 per minute → 429)."""

from __future__ import annotations

import ast
import hmac
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.routing import Route

from autogen_pse.web import security
from autogen_pse.web.security import FailureLimiter
from tests.web.conftest import WebEnv
from tests.web.web_helpers import ROOT, TOKEN, make_settings

RUN = "01JAAAAAAAAAAAAAAAAAAAAAAA"
PUBLIC = {"/api/health", "/api/login"}
#: The single-page app's shell and its assets are public (the login form lives there); they hold
#: no run data. Everything the API knows is behind /api.
STATIC_ROUTES = {"/", "/{path:path}"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def token_env(make_env: Callable[..., WebEnv], tmp_path: Path, clock: Clock,
              monkeypatch: pytest.MonkeyPatch) -> WebEnv:
    monkeypatch.setattr("autogen_pse.web.routers.auth.FAILED_LOGIN_DELAY", 0.0)
    return make_env(settings=make_settings(tmp_path, web_token=TOKEN), limiter=FailureLimiter(clock=clock))


def _client(env: WebEnv, ip: str = "127.0.0.1", **kw: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=env.app, client=(ip, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", **kw)


def _concrete(path: str) -> str:
    return re.sub(r"\{run_id\}", RUN, path)


def _flatten(routes: list[Any], prefix: str = "") -> list[tuple[str, Route]]:
    """``app.routes`` with included routers expanded (FastAPI ≥ 0.16x keeps them as one entry that
    points at the original router)."""
    flat: list[tuple[str, Route]] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            extra = getattr(getattr(route, "include_context", None), "prefix", "") or ""
            flat += _flatten(list(inner.routes), prefix + extra)
            continue
        assert isinstance(route, (APIRoute, Route)), f"unexpected route type {type(route)}"
        flat.append((prefix + route.path, route))
    return flat


def _routes(env: WebEnv) -> list[tuple[str, str]]:
    found = []
    for path, route in _flatten(list(env.app.routes)):
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                found.append((method, path))
    return found


def test_the_route_table_is_what_we_think(token_env: WebEnv) -> None:
    routes = _routes(token_env)
    api = {p for _, p in routes if p.startswith("/api")}
    assert {p for _, p in routes} - api == STATIC_ROUTES, "a non-/api route appeared: is it public on purpose?"
    assert len(api) >= 9 and api >= PUBLIC


async def test_every_route_but_health_and_login_needs_the_token(token_env: WebEnv) -> None:
    checked = []
    async with _client(token_env) as c:
        for method, path in _routes(token_env):
            if path in STATIC_ROUTES:
                continue
            url = _concrete(path)
            body = {"token": "x"} if path == "/api/login" else {"task": "demo"} if path == "/api/runs" else {}
            kwargs: dict[str, Any] = {"json": body} if method == "POST" else {}
            anon = await c.request(method, url, **kwargs)
            wrong = await c.request(method, url, headers={"Authorization": "Bearer wrong-token"}, **kwargs)
            cookie = await c.request(method, url, headers={"Cookie": "pse_token=wrong-token"}, **kwargs)
            if path in PUBLIC:  # reached without a token: health answers, login judges the token itself
                assert anon.status_code == 200 if path == "/api/health" else anon.json() == {"detail": "wrong token"}
            else:
                for r in (anon, wrong, cookie):
                    assert r.status_code == 401, (method, path, r.status_code)
                    assert r.headers["www-authenticate"].startswith("Bearer")
                    assert TOKEN not in r.text
            checked.append((method, path))
        # Paths no route has are behind the token too (no probing the API's shape).
        for url in ("/api", "/api/", "/api/nope", "/api/runs/x/y/z", "/api/openapi.json", "/api/docs"):
            assert (await c.get(url)).status_code == 401, url
    assert len(checked) >= 11, checked  # every method of every /api route


async def test_with_the_token_every_route_answers(token_env: WebEnv) -> None:
    async with _client(token_env, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        for method, path in _routes(token_env):
            if path in STATIC_ROUTES or (path.endswith("/events") and "{" not in path):
                continue  # /api/events streams forever
            kwargs: dict[str, Any] = {"json": {"token": TOKEN} if path == "/api/login" else {}} \
                if method == "POST" else {}
            r = await c.request(method, _concrete(path), **kwargs)
            assert r.status_code not in (401, 403, 429), (method, path, r.status_code)


async def test_static_shell_is_public_but_holds_no_data(token_env: WebEnv) -> None:
    async with _client(token_env) as c:
        for url in ("/", "/history", f"/runs/{RUN}"):
            r = await c.get(url)
            assert r.status_code == 200 and RUN not in r.text.replace(url, "")
            assert "<div id=\"root\">" in r.text or "not built" in r.text


# --- constant time ---------------------------------------------------------------------------------
async def test_tokens_are_compared_with_compare_digest(token_env: WebEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", spy)
    async with _client(token_env) as c:
        for headers in ({"Authorization": f"Bearer {TOKEN}"}, {"Cookie": f"pse_token={TOKEN}"},
                        {"Authorization": "Bearer x"}):
            calls.clear()
            await c.get("/api/runs", headers=headers)
            assert len(calls) == 1 and all(len(a) == len(b) == 32 for a, b in calls)  # digests: equal length
        calls.clear()
        await c.post("/api/login", json={"token": "short"})
        assert len(calls) == 1


def test_no_token_is_compared_with_equality_operators() -> None:
    """Static check of the web package: no ``==``/``!=`` with a token-ish operand."""
    offenders = []
    for file in (ROOT / "src" / "autogen_pse" / "web").rglob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
                text = ast.unparse(node)
                if re.search(r"token|secret|expected|supplied", text, re.IGNORECASE):
                    offenders.append(f"{file.name}:{node.lineno}: {text}")
    assert offenders == []


# --- rate limit --------------------------------------------------------------------------------------
async def test_failed_logins_are_rate_limited(token_env: WebEnv, clock: Clock) -> None:
    async with _client(token_env) as c, _client(token_env, ip="10.0.0.7") as other:
        for i in range(5):
            r = await c.post("/api/login", json={"token": "wrong"})  # the same value counts every time
            assert r.status_code == 401, i
        blocked = await c.post("/api/login", json={"token": TOKEN})  # even the right one: no probing
        assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) == 60
        assert "set-cookie" not in blocked.headers
        assert (await c.get("/api/runs", headers={"Authorization": f"Bearer {TOKEN}"})).status_code == 429
        assert (await c.get("/api/health")).status_code == 200  # public routes stay up
        assert (await c.get("/api/runs")).status_code == 401  # no token at all: a plain 401
        # another client is not affected
        assert (await other.post("/api/login", json={"token": TOKEN})).status_code == 200
        clock.now += 30
        r = await c.post("/api/login", json={"token": TOKEN})
        assert r.status_code == 429 and int(r.headers["retry-after"]) == 30
        clock.now += 30.5  # the window has passed
        ok = await c.post("/api/login", json={"token": TOKEN})
        assert ok.status_code == 200
        c.cookies.clear()
        for _ in range(4):  # success reset the count
            assert (await c.post("/api/login", json={"token": "wrong"})).status_code == 401
        assert (await c.post("/api/login", json={"token": TOKEN})).status_code == 200


async def test_guessing_through_the_bearer_header_is_limited_too(token_env: WebEnv) -> None:
    async with _client(token_env) as c:
        for i in range(5):
            assert (await c.get("/api/runs", headers={"Authorization": f"Bearer guess-{i}"})).status_code == 401
        assert (await c.get("/api/runs", headers={"Authorization": f"Bearer {TOKEN}"})).status_code == 429
        assert (await c.post("/api/login", json={"token": TOKEN})).status_code == 429


async def test_a_stale_cookie_alone_does_not_lock_the_user_out(token_env: WebEnv) -> None:
    async with _client(token_env) as c:
        for _ in range(20):  # the browser sends the same old cookie with every request
            assert (await c.get("/api/tasks", headers={"Cookie": "pse_token=old"})).status_code == 401
        assert (await c.post("/api/login", json={"token": TOKEN})).status_code == 200


def test_limiter_memory_is_bounded(clock: Clock) -> None:
    limiter = FailureLimiter(limit=2, window=10, max_clients=100, clock=clock)
    for i in range(1000):
        limiter.fail(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter._failures) == 100
    limiter.fail("a")
    limiter.fail("a")
    assert limiter.retry_after("a") == 10
    clock.now += 10
    assert limiter.retry_after("a") is None and "a" not in limiter._failures
