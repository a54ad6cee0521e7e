"""Shared pieces of the browser tests: where Chromium is, how it is launched, screenshots, and the
"no console error" assertion (CSP violations and failed requests count)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.web_helpers import ROOT

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-output" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def require(ok: bool, why: str) -> None:
    """Skip without a browser, unless PSE_REQUIRE_BROWSER=1 (CI), where it is a failure."""
    if ok:
        return
    if os.environ.get("PSE_REQUIRE_BROWSER"):
        pytest.fail(why)
    pytest.skip(why)


def shot(page: Any, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def no_console_errors(page: Any) -> None:
    """No script error, CSP violation or failed request (but a run without an artifact's 404)."""
    errors = [e for e in page.console_errors if not e.startswith("Failed to load resource")]
    assert errors == [], errors
