"""Bind policy, token comparison and the traversal-proof static lookup."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autogen_pse.errors import UserError
from autogen_pse.web.security import check_bind, is_loopback, token_matches
from autogen_pse.web.spa import resolve_static


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.0.1", "localhost", "::1", "[::1]"])
def test_loopback_hosts_need_no_token(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "example.com", ""])
def test_other_hosts_are_refused_without_token(host: str) -> None:
    assert not is_loopback(host)
    with pytest.raises(UserError, match="PSE_WEB_TOKEN"):
        check_bind(host, None)
    check_bind(host, "a-token")


def test_token_matches() -> None:
    assert token_matches("abc", "abc")
    assert not token_matches("abd", "abc")
    assert not token_matches("abcd", "abc")
    assert not token_matches("", "abc")
    assert not token_matches(None, "abc")
    assert token_matches("é", "é")


@pytest.fixture
def static_root(tmp_path: Path) -> Path:
    root = tmp_path / "static"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<html></html>")
    (root / "assets" / "app.js").write_text("js")
    (root / ".env").write_text("SECRET=1")
    (tmp_path / "secret.txt").write_text("outside")
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    return root


def test_resolve_static_serves_files_inside(static_root: Path) -> None:
    assert resolve_static(static_root, "index.html") == (static_root / "index.html").resolve()
    assert resolve_static(static_root, "assets/app.js") == (static_root / "assets" / "app.js").resolve()
    assert resolve_static(static_root, "/assets//app.js") is not None


@pytest.mark.parametrize("path", [
    "../secret.txt", "assets/../../secret.txt", "..", "./index.html", ".env", "assets/..",
    "link.txt", "..\\secret.txt", "index.html\x00.js", "assets", "", "/etc/passwd", "C:/x",
    "%2e%2e/secret.txt",
])
def test_resolve_static_refuses_escapes(static_root: Path, path: str) -> None:
    assert resolve_static(static_root, path) is None
