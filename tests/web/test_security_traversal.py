"""Path traversal on static files and run ids: 404 without touching the disk, proven by a spy on
every filesystem entry point and by bait files that a naive join would serve; ids and filters
validated (422)."""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.web.security import is_traversal
from autogen_pse.web.spa import resolve_static, safe_parts
from tests.web.conftest import WebEnv, asgi_client
from tests.web.web_helpers import ServerThread, asgi_raw, raw_http

SECRET = "TOP-SECRET-BAIT"

#: Raw request paths (bytes on the wire). Each names a file outside the static root (or a dot-file
#: inside it) once decoded and naively joined.
STATIC_ATTACKS = [
    b"/..%2f..%2f.env", b"/..%2F..%2F.env", b"/%2e%2e/%2e%2e/.env", b"/%2E%2E%2F%2E%2E%2F.env",
    b"/..%252f..%252f.env", b"/%252e%252e%252f.env", b"/%25%32%65%25%32%65/.env",  # double-encoded
    b"/..%5c..%5c.env", b"/..%5C.env", b"/%5c..%5c.env", b"/assets/..%5c..%5csecret.txt",  # backslashes
    b"/index.html%00.js", b"/.env%00", b"/%00", b"/assets/app.js%00.png",  # NUL
    b"/.env", b"/.git/config", b"/assets/../../secret.txt", b"/assets/./../secret.txt", b"/./.env",
    b"/../secret.txt", b"/..", b"/static/../../secret.txt", b"/%c0%ae%c0%ae/secret.txt",  # overlong UTF-8
    b"/..;/secret.txt", b"/assets/..%2f..%2fsecret.txt", b"/....//....//secret.txt", b"//etc/passwd",
    b"/link.txt", b"/C:/Windows/win.ini", b"/assets/%2e%2e", b"/%2e/.env",
]
#: Traversal through the run-id routes (the trace folder's siblings are bait too).
RUN_ATTACKS = [
    b"/api/runs/..%2F..%2Fetc", b"/api/runs/..%2f..%2fetc%2fpasswd", b"/api/runs/..%252F..%252Fetc",
    b"/api/runs/%2e%2e", b"/api/runs/%2e%2e/artifact", b"/api/runs/..%5C..%5Cetc", b"/api/runs/..\\..\\etc",
    b"/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA%00", b"/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA%2F..%2F..%2Fetc",
    b"/api/runs/../../etc/artifact", b"/api/runs/..%2F..%2Fsecret.txt/artifact",
    b"/api/runs/..%2F..%2Fsecret.txt/events", b"/api/runs/%252e%252e/artifact", b"/api/../secret.txt",
]


class DiskSpy:
    """Records every filesystem call on a path under ``root`` (stat, lstat, open, scandir…)."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self.calls: list[tuple[str, str]] = []
        self.active = False

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def spy(path: Any, *args: Any, **kwargs: Any) -> Any:
            if self.active and isinstance(path, (str, bytes, os.PathLike)):
                text = os.fsdecode(path) if not isinstance(path, str) else path
                if text.startswith(self.root) or (not os.path.isabs(text) and ".." in text):
                    self.calls.append((name, text))
            return fn(path, *args, **kwargs)

        return spy


@pytest.fixture
def disk_spy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DiskSpy]:
    spy = DiskSpy(tmp_path)
    for mod, name in ((os, "stat"), (os, "lstat"), (os, "open"), (os, "scandir"), (os, "listdir"),
                      (os.path, "realpath"), (os.path, "exists"), (os.path, "isfile"), (builtins, "open"),
                      (io, "open")):
        monkeypatch.setattr(mod, name, spy.wrap(f"{mod.__name__}.{name}", getattr(mod, name)))
    yield spy
    spy.active = False


@pytest.fixture
def baited(make_env: Callable[..., WebEnv], tmp_path: Path) -> WebEnv:
    """Static root ``tmp/static`` with bait around it: files a naive join of any attack would find."""
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>dash</title>")
    (static / "assets" / "app.js").write_text("console.log(1)")
    (static / ".env").write_text(SECRET)
    (static / ".git").mkdir()
    (static / ".git" / "config").write_text(SECRET)
    (tmp_path / ".env").write_text(SECRET)
    (tmp_path / "secret.txt").write_text(SECRET)
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_text(SECRET)
    (tmp_path / "traces").mkdir(exist_ok=True)
    (tmp_path / "traces" / "secret.txt").write_text(SECRET)
    (static / "link.txt").symlink_to(tmp_path / "secret.txt")
    return make_env(static_dir=static)


@pytest.mark.parametrize("raw", STATIC_ATTACKS + RUN_ATTACKS, ids=lambda b: b.decode())
async def test_traversal_is_404_without_touching_disk(baited: WebEnv, disk_spy: DiskSpy, raw: bytes) -> None:
    disk_spy.active = True
    r = await asgi_raw(baited.app, "GET", raw)
    disk_spy.active = False
    assert r.status == 404, (raw, r.status, r.body[:200])
    assert SECRET.encode() not in r.body
    assert r.headers["content-type"].startswith("application/json")
    if raw != b"/link.txt":  # a clean name: looked up (and refused as a symlink out of the root)
        assert disk_spy.calls == [], disk_spy.calls


async def test_spy_sees_real_lookups(baited: WebEnv, disk_spy: DiskSpy) -> None:
    """The control: a legitimate file request does go through the spied calls."""
    disk_spy.active = True
    r = await asgi_raw(baited.app, "GET", b"/assets/app.js")
    disk_spy.active = False
    assert r.status == 200 and r.body == b"console.log(1)"
    assert any("app.js" in path for _, path in disk_spy.calls)


@pytest.mark.timeout(60)
def test_traversal_through_a_real_server(baited: WebEnv, disk_spy: DiskSpy) -> None:
    """The same attacks as raw HTTP/1.1 request lines to uvicorn (its own decoding in the path)."""
    with ServerThread(baited.app) as srv:
        disk_spy.active = True
        for raw in STATIC_ATTACKS + RUN_ATTACKS:
            if b"\\" in raw or raw == b"/link.txt":
                continue  # not a valid request-target for h11 (400 before the app) / a clean name
            status, data = raw_http(srv.base_url, b"GET " + raw + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                             b"Connection: close\r\n\r\n")
            assert status in (400, 404), (raw, status)
            assert SECRET.encode() not in data, raw
        disk_spy.active = False
    assert disk_spy.calls == [], disk_spy.calls


def test_guard_and_static_lookup_are_pure() -> None:
    scope = {"type": "http", "path": "/a/../b", "raw_path": b"/a/../b"}
    assert is_traversal(scope)
    assert is_traversal({"path": "/x", "raw_path": b"/%2e%2e%2fx"}) is True
    assert is_traversal({"path": "/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/live", "raw_path": b"/runs/01J/live?x=%2F"}) is False
    for bad in ("../x", "a/%2e%2e", ".env", "a\\b", "a\x00b", "a:b", "x" * 600, "é.js", "a b"):
        assert safe_parts(bad) is None, bad
    assert safe_parts("assets/index-CAPReI4I.js") == ["assets", "index-CAPReI4I.js"]
    assert safe_parts("") == []


def test_resolve_static_refuses_before_any_filesystem_call(tmp_path: Path, disk_spy: DiskSpy) -> None:
    disk_spy.active = True
    for bad in ("../secret.txt", "..\\secret.txt", "%2e%2e/x", "a/\x00", ".env", "assets/../../x"):
        assert resolve_static(tmp_path, bad) is None
    assert disk_spy.calls == []


# --- ids and filters: 422 before any path is built ----------------------------------------------
@pytest.mark.parametrize("bad", [
    "short", "01jaaaaaaaaaaaaaaaaaaaaaaa", "01JAAAAAAAAAAAAAAAAAAAAAAI", "01JAAAAAAAAAAAAAAAAAAAAAAA0",
    "01JAAAAAAAAAAAAAAAAAAAAAA!", "0" * 200, "01JAAAAAAAAAAAAAAAAAAAAAA%20",
])
async def test_malformed_run_ids_are_422(baited: WebEnv, disk_spy: DiskSpy, bad: str) -> None:
    async with asgi_client(baited) as c:
        disk_spy.active = True
        for path in (f"/api/runs/{bad}", f"/api/runs/{bad}/artifact", f"/api/runs/{bad}/events"):
            r = await c.get(path)
            assert r.status_code == 422, (path, r.status_code)
        assert (await c.post(f"/api/runs/{bad}/cancel", json={})).status_code == 422
        disk_spy.active = False
    assert [c for c in disk_spy.calls if "/traces/" in c[1]] == []


@pytest.mark.parametrize("params", [
    {"limit": 0}, {"limit": 201}, {"limit": "1e3"}, {"limit": "-1"}, {"verdict": "MAYBE"}, {"verdict": ""},
    {"status": "sleeping"}, {"status": "RUNNING "}, {"task": "../etc"}, {"task": "Bad Name"}, {"task": "x" * 65},
    {"since": "yesterday"}, {"since": "0001-01-01T00:00:00+01:00"}, {"until": "9999-12-31T23:59:59-01:00"},
    {"until": "2026-13-01"}, {"since": "2026-01-01T00:00:00+99:00"}, {"since": "2" * 41},
    {"cursor": "not a cursor"}, {"cursor": "eyJ4IjoxfQ"}, {"cursor": "WyJ4IiwiMDFKQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUEiXQ"},
    {"cursor": "x" * 513},
])
async def test_list_filters_are_validated(client: Any, params: dict[str, Any]) -> None:
    r = await client.get("/api/runs", params=params)
    assert r.status_code == 422, (params, r.status_code, r.text)
    assert "detail" in r.json()


@pytest.mark.parametrize("params", [{"after": -1}, {"after": "x"}, {"after": 10**13}])
async def test_event_replay_parameter_is_validated(client: Any, params: dict[str, Any]) -> None:
    r = await client.get("/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/events", params=params)
    assert r.status_code == 422


@pytest.mark.parametrize("body", [
    {"task": "demo", "vars": {"holdings": "/etc/passwd"}},
    {"task": "demo", "vars": {"holdings": "../../.env"}},
    {"task": "demo", "vars": {"holdings": "data/../../../.env"}},
    {"task": "demo", "vars": {"holdings": "~/.ssh/id_rsa"}},
    {"task": "demo", "vars": {"holdings": "C:\\Windows\\win.ini"}},
    {"task": "demo", "vars": {"holdings": "a\x00b"}},
    {"task": "demo", "vars": {"bad key": "x"}},
    {"task": "demo", "vars": {"k": "x" * 2001}},
    {"task": "demo", "vars": {f"k{i}": "x" for i in range(51)}},
    {"task": "demo", "model": "scripted:\x00"},
    {"task": "demo", "model": "x" * 301},
    {"task": "demo", "model": ""},
    {"task": "demo", "max_cycles": True},
    {"task": "demo", "max_cycles": 1.5},
    {"task": "DEMO"}, {"task": "demo/../x"}, {"task": ""}, {"task": None}, [], "demo",
])
async def test_run_request_fields_are_validated(client: Any, body: Any) -> None:
    r = await client.post("/api/runs", json=body)
    assert r.status_code == 422, (body, r.status_code, r.text)
    assert (await client.get("/api/runs")).json()["count"] == 0
