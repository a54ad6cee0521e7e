"""The Evals page in a real headless Chromium against a real uvicorn server: the list of evals, one
eval's table per model, its charts and a link to every run (opening Run detail), live progress of a
running eval (polled until it ends), at 1,400 px and 390 px without horizontal overflow.
Screenshots go to test-output/screenshots/.

Needs /usr/bin/chromium and a built frontend (`make frontend`); skipped without them unless
PSE_REQUIRE_BROWSER=1 (CI), where they are required.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.evals import EvalStore
from autogen_pse.evals.execute import new_report, plan_eval
from autogen_pse.store.ids import new_run_id
from autogen_pse.web import create_app
from tests.e2e.browser_helpers import no_console_errors, shot
from tests.eval_support import PORTFOLIOS, small_eval
from tests.web.web_helpers import ServerThread, make_settings

pytestmark = pytest.mark.browser

WIDTHS = (1400, 390)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = make_settings(tmp_path)
    with ServerThread(create_app(settings)) as srv:
        srv.settings = settings  # type: ignore[attr-defined]
        yield srv


def _no_overflow(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1  # no sideways scrolling


@pytest.mark.timeout(240)
def test_evals_page_table_charts_run_links_and_live_progress(server: ServerThread, page: Any,
                                                             tmp_path: Path) -> None:
    from playwright.sync_api import expect

    settings = server.settings  # type: ignore[attr-defined]
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        report = pool.submit(asyncio.run, small_eval(settings, tmp_path)).result()
    base = server.base_url

    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{base}/")
        page.get_by_role("link", name="Evals").click()
        row = page.locator(f'tr[data-eval="{report.eval_id}"]')
        expect(row).to_be_visible()
        expect(row).to_contain_text("completed")
        _no_overflow(page, width)
        shot(page, f"eval-01-list-{width}")

        row.get_by_role("link").first.click()
        page.wait_for_url(re.compile(rf"/evals/{report.eval_id}$"))
        summary = page.locator("table.eval-summary")
        expect(summary.locator('tr[data-model="scripted-facts"]')).to_contain_text("50%")
        expect(summary.locator('tr[data-model="scripted-facts:wrong-figure"]')).to_contain_text("0%")
        expect(page.locator(".model-bars svg")).to_have_count(4)
        expect(page.locator(".model-bars figcaption").first).to_have_text("Pass rate")
        links = page.locator("table.eval-runs a[href^='/runs/']")
        expect(links).to_have_count(len(report.runs))
        expect(page.locator(".eval-progress")).to_contain_text(f"{len(report.runs)} of {len(report.runs)} runs ended")
        _no_overflow(page, width)
        shot(page, f"eval-02-detail-{width}")

    first = report.runs[0]
    page.locator(f"table.eval-runs a[href='/runs/{first.run_id}']").click()
    page.wait_for_url(re.compile(rf"/runs/{first.run_id}$"))
    expect(page.get_by_role("heading", name=re.compile("Cycle 1"))).to_be_visible()

    # --- live progress: a running eval's page follows its report until it ends --------------------
    plan = plan_eval(settings, "portfolio-review", PORTFOLIOS, ["scripted-facts"])
    live = new_report(settings, plan, new_run_id())
    store = EvalStore(settings)
    store.save(live)  # running, owned by this live process
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{base}/evals/{live.eval_id}")
    progress = page.locator(".eval-progress")
    expect(progress).to_contain_text("0 of 5 runs ended")
    expect(progress).to_contain_text("updating")
    for row in live.runs[:2]:
        row.status, row.verdict, row.verified, row.cycles, row.seconds = "finished", "PASS", True, 1, 0.5
    store.save(live)
    expect(progress).to_contain_text("2 of 5 runs ended", timeout=10_000)
    shot(page, "eval-03-live-1400")
    for row in live.runs[2:]:
        row.status, row.verdict, row.cycles, row.seconds = "finished", "PARTIAL", 2, 0.7
    live.status, live.complete = "completed", True
    store.save(live)
    expect(progress).to_contain_text("5 of 5 runs ended", timeout=10_000)
    expect(progress).not_to_contain_text("updating")
    no_console_errors(page)
