"""Fixtures of the browser tests: one headless Chromium per module (Debian's, driven by
Playwright) and a fresh page per test that records console errors and failed responses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from autogen_pse.web.spa import STATIC_DIR
from tests.e2e.browser_helpers import CHROMIUM, FLAGS, require


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require(CHROMIUM.is_file(), "Chromium not installed (apt-get install chromium)")
    require((STATIC_DIR / "index.html").is_file(), "frontend not built (make frontend)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("response", lambda r: errors.append(f"{r.status} {r.url}")
          if r.status >= 400 and not re.search(r"/api/runs/[0-9A-Z]{26}/artifact$", r.url) else None)
    pg.console_errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()
