"""Auth on and off: token from the bearer header or the HttpOnly cookie set by login; every /api
route but health and login is guarded (SSE included); constant-time comparison."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from autogen_pse.store.ids import new_run_id
from tests.web.conftest import WebEnv, asgi_client
from tests.web.web_helpers import TOKEN, make_settings

GUARDED = [
    ("GET", "/api/tasks"), ("GET", "/api/runs"), ("POST", "/api/runs"), ("GET", "/api/openapi.json"),
    ("GET", "/api/docs"), ("GET", "/api/events"), ("GET", "/api/auth"), ("POST", "/api/logout"),
    ("GET", "/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA"), ("GET", "/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/events"),
    ("GET", "/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/artifact"),
    ("POST", "/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/cancel"), ("GET", "/api/nonexistent"),
]


@pytest.fixture
def token_env(make_env: Callable[..., WebEnv], tmp_path: Path) -> WebEnv:
    return make_env(settings=make_settings(tmp_path, web_token=TOKEN))


def _client(env: WebEnv, **kw: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=env.app), base_url="http://127.0.0.1", **kw)


@pytest.mark.parametrize(("method", "path"), GUARDED)
async def test_every_api_route_needs_the_token(token_env: WebEnv, method: str, path: str) -> None:
    async with _client(token_env) as c:
        r = await c.request(method, path, json={"task": "demo"} if method == "POST" else None)
        assert r.status_code == 401, (method, path, r.status_code)
        assert r.headers["www-authenticate"].startswith("Bearer")
        wrong = await c.request(method, path, headers={"Authorization": "Bearer " + TOKEN[:-1] + "x"})
        assert wrong.status_code == 401
        cookie = await c.request(method, path, headers={"Cookie": "pse_token=nope"})
        assert cookie.status_code == 401


async def test_health_login_and_static_are_public(token_env: WebEnv) -> None:
    async with _client(token_env) as c:
        h = await c.get("/api/health")
        assert h.status_code == 200 and h.json()["auth_required"] is True
        assert (await c.get("/")).status_code == 200


async def test_bearer_header_grants_access(token_env: WebEnv) -> None:
    async with asgi_client(token_env, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        assert (await c.get("/api/tasks")).status_code == 200
        assert (await c.get("/api/runs")).status_code == 200
        assert (await c.get("/api/auth")).json() == {"auth_required": True, "authenticated": True}
        r = await c.post("/api/runs", json={"task": "demo"})
        assert r.status_code == 202


async def test_login_sets_httponly_strict_cookie(token_env: WebEnv) -> None:
    async with _client(token_env) as c:
        bad = await c.post("/api/login", json={"token": "wrong"})
        assert bad.status_code == 401 and "set-cookie" not in bad.headers
        assert (await c.post("/api/login", data={"token": TOKEN})).status_code == 415
        ok = await c.post("/api/login", json={"token": TOKEN})
        assert ok.status_code == 200 and ok.json() == {"auth_required": True, "authenticated": True}
        cookie = ok.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie and "path=/api" in cookie
        # the client now sends the cookie: guarded routes work without a header
        assert (await c.get("/api/runs")).status_code == 200
        assert (await c.get(f"/api/runs/{new_run_id()}")).status_code == 404
        out = await c.post("/api/logout", json={})
        assert out.status_code == 200
        c.cookies.clear()
        assert (await c.get("/api/runs")).status_code == 401


async def test_without_token_everything_is_open_and_login_is_noop(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/runs")).status_code == 200
    r = await client.post("/api/login", json={"token": "anything"})
    assert r.json() == {"auth_required": False, "authenticated": True} and "set-cookie" not in r.headers
    assert (await client.get("/api/auth")).json() == {"auth_required": False, "authenticated": True}


async def test_token_allows_any_host_header(token_env: WebEnv) -> None:
    async with _client(token_env, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        r = await c.get("/api/runs", headers={"Host": "dashboard.lan"})
        assert r.status_code == 200
