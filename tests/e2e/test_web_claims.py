"""The claim ledger in a real headless Chromium against a real uvicorn server: the Check page
(paste a document, see its contradicted claim in red with the evidence note on hover and in the
panel, a 422 next to the form) and the Claims mode of a run's artifact (a scripted portfolio-review
run, whose trace carries a ledger). Screenshots go to test-output/screenshots/.

Needs /usr/bin/chromium and a built frontend (`make frontend`); skipped without them unless
PSE_REQUIRE_BROWSER=1 (CI), where they are required.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.web import create_app
from tests.e2e.browser_helpers import no_console_errors, shot
from tests.web.web_helpers import ROOT, ServerThread, make_settings

pytestmark = pytest.mark.browser

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
CONTRADICTED_DOC = "## Summary\n\nIBM is up 12.3% since 2006.\n\nIBM is up 72.7% on cost.\n"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = make_settings(tmp_path, model=f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}", max_cycles=3)
    with ServerThread(create_app(settings)) as srv:
        yield srv


def _wait_finished(base: str, run_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        doc = httpx.get(f"{base}/api/runs/{run_id}", timeout=30).json()  # the server is busy running it
        if not doc.get("active") and doc["status"] not in ("queued", "running"):
            return doc
        assert time.monotonic() < deadline, f"run {run_id} still {doc['status']}"
        time.sleep(0.2)


@pytest.mark.timeout(120)
def test_check_page_highlights_a_contradicted_claim(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    page.goto(server.base_url + "/")
    page.get_by_role("link", name="Check").click()
    page.wait_for_url(re.compile(r"/check$"))
    expect(page.get_by_role("heading", name="Check a document")).to_be_visible()
    page.get_by_label("Task").select_option("portfolio-review")
    page.get_by_label("Markdown document").fill(CONTRADICTED_DOC)
    page.get_by_role("button", name="Check").click()

    counts = page.get_by_test_id("ledger-counts")
    expect(counts).to_contain_text("1 contradicted")
    expect(counts).to_contain_text("1 supported")
    expect(counts).to_contain_text("grounding 50%")
    red = page.locator("[data-testid=claims-text] mark.claim-contradicted")
    expect(red).to_have_count(1)
    expect(red).to_have_text("IBM is up 12.3% since 2006.")
    assert "IBM.pnl_pct = 72.70%" in (red.get_attribute("title") or "")  # the evidence, on hover
    assert red.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(254, 226, 226)"  # red (--fail-bg)
    green = page.locator("[data-testid=claims-text] mark.claim-supported")
    expect(green).to_have_text("IBM is up 72.7% on cost.")
    assert page.locator("[data-testid=claims-text] mark").count() == 2  # the heading is not highlighted

    red.click()
    panel = page.get_by_test_id("claim-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("contradicted")
    expect(panel.locator(".finding-note").first).to_contain_text("IBM.pnl_pct = 72.70%")
    expect(panel.locator(".finding-evidence code", has_text="IBM.pnl_pct")).to_be_visible()
    shot(page, "13-check-contradicted")
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_have_count(0)
    green.focus()
    page.keyboard.press("Enter")  # claims are reachable from the keyboard
    expect(page.get_by_test_id("claim-panel")).to_contain_text("supported")

    # a task without evidence: its 422 message is shown next to the form
    page.get_by_label("Task").select_option("demo")
    page.get_by_role("button", name="Check").click()
    error = page.get_by_test_id("check-error")
    expect(error).to_contain_text("evidence")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    page.console_errors[:] = [e for e in page.console_errors if not re.match(r"422 .*/api/check$", e)]
    no_console_errors(page)


@pytest.mark.timeout(240)
def test_run_detail_claims_mode(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    base = server.base_url
    accepted = httpx.post(f"{base}/api/runs", json={"task": "portfolio-review", "max_cycles": 3}, timeout=30)
    assert accepted.status_code == 202, accepted.text
    run_id = accepted.json()["run_id"]
    doc = _wait_finished(base, run_id)
    ledger = doc.get("ledger") or next(c["ledger"] for c in reversed(doc["cycles"]) if c.get("ledger"))
    factual = [c for c in ledger["claims"] if c["status"] != "none"]
    assert factual, "the scripted portfolio-review run should leave a ledger with factual claims"

    page.goto(f"{base}/runs/{run_id}")
    expect(page.locator(".artifact-body")).to_be_visible()
    page.get_by_role("button", name="Claims").click()
    text = page.get_by_test_id("claims-text")
    expect(text).to_be_visible()
    marks = text.locator("mark.claim")
    expect(marks.first).to_be_visible()
    assert marks.count() >= max(1, len(factual) - 2)  # (nearly) every factual claim found in the artifact
    expect(page.get_by_test_id("ledger-counts")).to_contain_text(f"{ledger['supported']} supported")
    expect(page.get_by_test_id("ledger-counts")).to_contain_text(f"of {ledger['factual']} factual")
    statuses = set(marks.evaluate_all("els => els.map(e => e.dataset.status)"))
    assert statuses <= {"supported", "contradicted", "unverifiable"} and statuses
    first = text.locator("mark.claim-supported").first
    assert (first.get_attribute("title") or "").startswith("supported")
    first.click()
    panel = page.get_by_test_id("claim-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".findings li").first).to_be_visible()
    shot(page, "14-run-claims")
    page.get_by_role("button", name="Rendered").click()
    expect(page.locator(".artifact-body")).to_be_visible()
    no_console_errors(page)
