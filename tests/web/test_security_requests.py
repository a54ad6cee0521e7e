"""Cross-site requests cannot start or cancel runs (JSON only, Origin / Sec-Fetch-Site check,
SameSite cookies, no CORS); security headers on every response; request bodies capped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.conftest import WebEnv, asgi_client
from tests.web.web_helpers import TOKEN, ServerThread, asgi_raw, make_settings, raw_http

RUN = "01JAAAAAAAAAAAAAAAAAAAAAAA"
SAME = "http://127.0.0.1"

#: (headers, why) of requests a browser would send from another site or origin.
FOREIGN: list[tuple[dict[str, str], str]] = [
    ({"Origin": "https://evil.example"}, "foreign origin"),
    ({"Origin": "http://127.0.0.1:9999"}, "same host, other port (another local app)"),
    ({"Origin": "http://localhost"}, "other host name for the same machine"),
    ({"Origin": "https://127.0.0.1"}, "other scheme"),
    ({"Origin": "null"}, "opaque origin (sandboxed iframe, data: URL, file:)"),
    ({"Origin": "http://127.0.0.1.evil.example"}, "suffix trick"),
    ({"Origin": "http://evil.example@127.0.0.1"}, "userinfo trick"),
    ({"Referer": "https://evil.example/page"}, "foreign referer without origin"),
    ({"Sec-Fetch-Site": "cross-site"}, "fetch metadata: cross-site"),
    ({"Sec-Fetch-Site": "same-site", "Origin": SAME}, "fetch metadata: same-site (other port)"),
    ({"Origin": "https://evil.example", "Referer": f"{SAME}/"}, "origin wins over a forged-looking referer"),
]


async def _wait_active(env: WebEnv, n: int) -> None:
    for _ in range(200):
        if len(env.executor.active()) >= n:
            return
        await asyncio.sleep(0.01)


@pytest.mark.parametrize(("headers", "why"), FOREIGN, ids=[w for _, w in FOREIGN])
async def test_cross_site_cannot_start_or_cancel_runs(make_env: Callable[..., WebEnv], headers: dict[str, str],
                                                      why: str) -> None:
    env = make_env(delay=0.3, messages=20)
    async with asgi_client(env) as c:
        victim = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
        start = await c.post("/api/runs", json={"task": "demo"}, headers=headers)
        assert start.status_code == 403, (why, start.status_code)
        assert "cross-" in start.json()["detail"]
        cancel = await c.post(f"/api/runs/{victim}/cancel", json={}, headers=headers)
        assert cancel.status_code == 403, why
        for path in ("/api/login", "/api/logout"):
            assert (await c.post(path, json={"token": "x"} if "login" in path else {}, headers=headers)
                    ).status_code == 403
        assert (await c.get("/api/runs")).json()["count"] <= 1
        assert victim in env.executor.active()  # still running
        assert len(env.executor.active()) == 1


@pytest.mark.parametrize("headers", [
    {}, {"Origin": SAME}, {"Origin": "http://127.0.0.1:80"}, {"Referer": f"{SAME}/history?x=1"},
    {"Sec-Fetch-Site": "same-origin", "Origin": SAME}, {"Sec-Fetch-Site": "none"},
])
async def test_same_origin_and_non_browser_clients_may(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    r = await client.post("/api/runs", json={"task": "demo"}, headers=headers)
    assert r.status_code == 202, (headers, r.text)


async def test_allowed_origins_for_a_proxy(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(allowed_origins=["https://dash.example"])
    async with asgi_client(env) as c:
        assert (await c.post("/api/runs", json={"task": "demo"}, headers={"Origin": "https://dash.example"})
                ).status_code == 202
        assert (await c.post("/api/runs", json={"task": "demo"}, headers={"Origin": "http://dash.example"})
                ).status_code == 403


@pytest.mark.parametrize(("content_type", "body"), [
    (None, b'{"task": "demo"}'),
    ("text/plain", b'{"task": "demo"}'),
    ("text/plain;charset=UTF-8", b'{"task": "demo"}'),
    ("application/x-www-form-urlencoded", b"task=demo"),
    ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="task"\r\n\r\ndemo\r\n--x--'),
    ("application/json-patch+json", b'{"task": "demo"}'),
    ("application/jsonx", b'{"task": "demo"}'),
    ("text/json", b'{"task": "demo"}'),
])
async def test_state_changes_are_json_only(client: httpx.AsyncClient, content_type: str | None, body: bytes) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    for path in ("/api/runs", f"/api/runs/{RUN}/cancel", "/api/login", "/api/logout"):
        r = await client.post(path, content=body, headers=headers)
        assert r.status_code == 415, (path, content_type, r.status_code)
    assert (await client.get("/api/runs")).json()["count"] == 0


async def test_json_with_charset_is_fine(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/runs", content=b'{"task": "demo"}',
                          headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 202


async def test_no_cors_is_ever_granted(client: httpx.AsyncClient) -> None:
    evil = {"Origin": "https://evil.example"}
    pre = await client.options("/api/runs", headers={**evil, "Access-Control-Request-Method": "POST",
                                                      "Access-Control-Request-Headers": "content-type"})
    assert pre.status_code in (404, 405) and "access-control-allow-origin" not in pre.headers
    read = await client.get("/api/runs", headers=evil)  # a read is answered, but the browser hides it
    assert "access-control-allow-origin" not in read.headers
    assert "access-control-allow-credentials" not in read.headers


async def test_only_post_changes_state(client: httpx.AsyncClient) -> None:
    for method in ("GET", "PUT", "PATCH", "DELETE"):
        r = await client.request(method, f"/api/runs/{RUN}/cancel", json={})
        assert r.status_code in (404, 405), (method, r.status_code)
        r = await client.request(method, "/api/runs", json={"task": "demo"})
        assert r.status_code in (200, 405), (method, r.status_code)
    assert (await client.get("/api/runs")).json()["count"] == 0


# --- cookies ------------------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", ["http", "https"])
async def test_session_cookie_is_strict_httponly_and_scoped(make_env: Callable[..., WebEnv], tmp_path: Path,
                                                            scheme: str) -> None:
    env = make_env(settings=make_settings(tmp_path, web_token=TOKEN))
    transport = httpx.ASGITransport(app=env.app)
    async with httpx.AsyncClient(transport=transport, base_url=f"{scheme}://127.0.0.1") as c:
        r = await c.post("/api/login", json={"token": TOKEN})
        assert r.status_code == 200
        cookie = r.headers["set-cookie"]
        attrs = {a.strip().split("=")[0].lower(): a for a in cookie.split(";")}
        assert attrs["samesite"].strip().lower() == "samesite=strict"
        assert "httponly" in attrs and attrs["path"].strip() == "Path=/api"
        assert ("secure" in attrs) is (scheme == "https")
        assert TOKEN not in r.text  # the token is never echoed in a body


async def test_stale_cookie_is_cleared(make_env: Callable[..., WebEnv], tmp_path: Path) -> None:
    env = make_env(settings=make_settings(tmp_path, web_token=TOKEN))
    async with asgi_client(env, headers={"Cookie": "pse_token=old-token"}) as c:
        r = await c.get("/api/runs")
        assert r.status_code == 401
        assert "pse_token=;" in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]


# --- response headers -------------------------------------------------------------------------------
@pytest.fixture
def static_env(make_env: Callable[..., WebEnv], tmp_path: Path) -> WebEnv:
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>dash</title>")
    (static / "assets" / "app.js").write_text("console.log(1)")
    return make_env(static_dir=static, delay=0.01)


def _check_common(headers: httpx.Headers | dict[str, str], what: str, *, api: bool = False) -> None:
    csp = headers["content-security-policy"]
    directives = ("default-src 'none'", "sandbox", "frame-ancestors 'none'", "base-uri 'none'",
                  "form-action 'none'") if api else (
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
        "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'", "frame-src 'none'")
    for directive in directives:
        assert directive in csp, (what, directive)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "*" not in csp, what
    assert headers["x-content-type-options"] == "nosniff", what
    assert headers["x-frame-options"] == "DENY", what
    assert headers["referrer-policy"] == "same-origin", what
    assert "camera=()" in headers["permissions-policy"] and "geolocation=()" in headers["permissions-policy"], what
    assert headers["cross-origin-opener-policy"] == "same-origin", what
    assert headers["cross-origin-resource-policy"] == "same-origin", what


async def test_security_headers_on_every_kind_of_response(static_env: WebEnv) -> None:
    async with asgi_client(static_env) as c:
        run_id = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
        for _ in range(200):
            if (await c.get(f"/api/runs/{run_id}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.02)
        api = {
            "health": await c.get("/api/health"), "list": await c.get("/api/runs"),
            "trace": await c.get(f"/api/runs/{run_id}"), "artifact": await c.get(f"/api/runs/{run_id}/artifact"),
            "openapi": await c.get("/api/openapi.json"), "404": await c.get(f"/api/runs/{RUN}"),
            "422": await c.get("/api/runs/bad"), "415": await c.post("/api/runs", content=b"x"),
            "403": await c.post("/api/runs", json={"task": "demo"}, headers={"Origin": "https://evil.example"}),
            "413": await c.post("/api/runs", content=b"{" + b" " * 70_000 + b"}",
                                headers={"Content-Type": "application/json"}),
            "sse-204": await c.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": "999"}),
            "405": await c.put("/api/runs", json={}),
        }
        async with c.stream("GET", f"/api/runs/{run_id}/events") as sse:
            api["sse"] = sse
        pages = {"index": await c.get("/"), "spa": await c.get("/history"), "asset": await c.get("/assets/app.js"),
                 "missing": await c.get("/missing.js"), "traversal": await c.get("/..%2f.env")}
    for name, r in api.items():
        _check_common(r.headers, name, api=True)
    for name, r in pages.items():
        _check_common(r.headers, name)
    for name, r in api.items():
        assert r.headers["cache-control"] == "no-store", (name, r.headers.get("cache-control"))
    assert api["sse"].headers["content-type"].startswith("text/event-stream")
    assert pages["index"].headers["cache-control"] == "no-cache"
    assert "immutable" in pages["asset"].headers["cache-control"]
    assert api["artifact"].headers["content-type"].startswith("text/markdown")  # never rendered as HTML


async def test_headers_on_auth_failures(make_env: Callable[..., WebEnv], tmp_path: Path) -> None:
    env = make_env(settings=make_settings(tmp_path, web_token=TOKEN))
    async with asgi_client(env) as c:
        r = await c.get("/api/runs")
        assert r.status_code == 401
        _check_common(r.headers, "401", api=True)
        assert r.headers["cache-control"] == "no-store"


# --- request size ---------------------------------------------------------------------------------------
async def test_body_over_64k_is_413(client: httpx.AsyncClient) -> None:
    big = {"task": "demo", "vars": {"k": "x" * 70_000}}
    r = await client.post("/api/runs", json=big)
    assert r.status_code == 413 and "over 65536 bytes" in r.json()["detail"]
    ok = await client.post("/api/runs", json={"task": "demo", "vars": {f"k{i}": "x" * 1000 for i in range(50)}})
    assert ok.status_code == 202  # 50 KB: under the cap
    r = await client.post("/api/login", json={"token": "x" * 100_000})
    assert r.status_code == 413


async def test_declared_length_is_refused_before_reading(env: WebEnv) -> None:
    chunks = iter([b"x" * 1024] * 10_000)
    r = await asgi_raw(env.app, "POST", b"/api/runs", headers=[
        (b"content-type", b"application/json"), (b"content-length", b"10000000")], chunks=chunks)
    assert r.status == 413 and r.chunks_read == 0


async def test_streamed_body_is_cut_just_past_the_cap(env: WebEnv) -> None:
    """No Content-Length (chunked): the guard counts what the app reads and stops at 64 KiB."""
    endless = (b"x" * 8192 for _ in range(1_000_000))
    r = await asgi_raw(env.app, "POST", b"/api/runs", headers=[(b"content-type", b"application/json")],
                       chunks=endless)
    assert r.status == 413, r.body
    assert r.chunks_read <= 64 * 1024 // 8192 + 1, r.chunks_read  # ≤ 72 KiB of a would-be 8 GB body


@pytest.mark.parametrize("value", [b"abc", b"-1", b"1e9", b""])
async def test_bad_content_length_is_400(env: WebEnv, value: bytes) -> None:
    r = await asgi_raw(env.app, "POST", b"/api/runs", headers=[
        (b"content-type", b"application/json"), (b"content-length", value)], chunks=iter([b"{}"]))
    assert r.status == 400


@pytest.fixture
def server(env: WebEnv) -> Iterator[ServerThread]:
    with ServerThread(env.app) as srv:
        yield srv


@pytest.mark.timeout(60)
def test_real_server_answers_413_without_waiting_for_the_body(server: ServerThread) -> None:
    """50 MB announced, 1 KB sent: uvicorn + the guard answer at once and close the connection."""
    t0 = time.monotonic()
    status, data = raw_http(server.base_url, b"POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            b"Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n" + b"{" * 1024,
                            timeout=5)
    assert status == 413 and b"request body over" in data
    assert time.monotonic() - t0 < 3


@pytest.mark.timeout(60)
def test_real_server_cuts_a_chunked_body(server: ServerThread) -> None:
    chunk = b"2000\r\n" + b" " * 0x2000 + b"\r\n"  # 8 KiB chunks: 96 KiB and no terminating chunk
    request = (b"POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n" + b"1\r\n{\r\n" + b"".join([chunk] * 12))
    status, data = raw_http(server.base_url, request, timeout=5)
    assert status == 413, data[:300]



async def test_a_body_sent_to_a_stream_ends_it_quietly(env: WebEnv) -> None:
    """A GET stream (SSE) fed an endless body: once past the cap the app is told the client left,
    so the stream ends instead of failing."""
    endless = (b"x" * 8192 for _ in range(1_000_000))
    r = await asgi_raw(env.app, "GET", b"/api/events", chunks=endless)
    assert r.status == 200 and r.headers["content-type"].startswith("text/event-stream")
    assert r.chunks_read <= 64 * 1024 // 8192 + 1
