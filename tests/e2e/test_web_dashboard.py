"""The dashboard in a real headless Chromium (Debian's, driven by Playwright) against a real
uvicorn server and the scripted model: start a run from the UI, watch turns arrive live, see the
verdict, find the run in History with the verdict filter, open its detail and artifact, compare,
and check sanitizing, keyboard use and phone width. Screenshots go to test-output/screenshots/.

Needs /usr/bin/chromium and a built frontend (`make frontend`); skipped without them unless
PSE_REQUIRE_BROWSER=1 (CI), where they are required.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.store import TraceStore
from autogen_pse.store.ids import new_run_id
from autogen_pse.web import create_app
from tests.e2e.browser_helpers import no_console_errors, shot
from tests.web.web_helpers import ROOT, ServerThread, make_settings

pytestmark = pytest.mark.browser

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = make_settings(tmp_path, model=f"scripted:{SCRIPTED / 'web_demo_pass.json'}", max_cycles=3)
    with ServerThread(create_app(settings)) as srv:
        srv.settings = settings  # type: ignore[attr-defined]
        yield srv


@pytest.mark.timeout(240)
def test_run_from_ui_live_history_detail_artifact_compare(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    base = server.base_url
    blocked = httpx.post(f"{base}/api/runs", json={"task": "demo", "model": f"scripted:{SCRIPTED / 'web_demo_blocked.json'}"})
    assert blocked.status_code == 202
    blocked_id = blocked.json()["run_id"]

    # --- Tasks: one card per task, Run with model + max cycles ------------------------------------
    page.goto(base + "/")
    card = page.locator('article[data-task="demo"]')
    expect(card).to_be_visible()
    expect(card.get_by_label("Model")).to_have_value(re.compile(r"web_demo_pass\.json$"))
    card.get_by_label("Max cycles").fill("2")
    shot(page, "01-tasks")
    card.get_by_role("button", name="Run").click()

    # --- Live run: turns appear while the run is still going -------------------------------------
    page.wait_for_url(re.compile(r"/runs/[0-9A-Z]{26}/live$"))
    run_id = page.url.rstrip("/").split("/")[-2]
    first_turn = page.locator('article.turn[data-agent="planner"]').first
    expect(first_turn).to_be_visible(timeout=30_000)
    assert page.locator('[data-testid="final"]').count() == 0  # streamed live, not after the fact
    expect(page.get_by_role("button", name="Cancel run")).to_be_visible()
    expect(page.locator('.counters tr[data-agent="planner"]')).to_be_visible()
    page.locator("article.turn-tool_call details summary").first.wait_for(timeout=30_000)
    shot(page, "02-live-running")

    final = page.locator('[data-testid="final"]')
    expect(final).to_be_visible(timeout=120_000)
    expect(final.locator('[data-verdict="PASS"]')).to_be_visible()
    expect(page.locator('.cycle-sep [data-verdict="PASS"]').first).to_be_visible()
    expect(page.get_by_role("button", name="Cancel run")).to_have_count(0)
    agents = set(page.locator("article.turn").evaluate_all("els => els.map(e => e.dataset.agent)"))
    assert {"planner", "specialist", "evaluator"} <= agents
    tool = page.locator("article.turn-tool_call details").first
    tool.locator("summary").click()  # tool calls are collapsible
    expect(tool.locator("pre")).to_be_visible()
    assert page.get_by_test_id("total-tokens").inner_text() not in ("", "0")
    shot(page, "03-live-finished")

    # --- History: filter by verdict, newest first ---------------------------------------------------
    page.get_by_role("link", name="History").click()
    expect(page.locator(f'tr[data-run="{run_id}"]')).to_be_visible()
    expect(page.locator(f'tr[data-run="{blocked_id}"]')).to_be_visible()
    page.get_by_label("Verdict").select_option("PASS")
    expect(page.locator(f'tr[data-run="{blocked_id}"]')).to_have_count(0)
    rows = page.locator("table.runs tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-run", run_id)
    assert "verdict=PASS" in page.url
    shot(page, "04-history-filtered")

    # --- Run detail: cycles, verdict, checks, usage chart, artifact ------------------------------
    rows.first.get_by_role("link").first.click()
    page.wait_for_url(re.compile(rf"/runs/{run_id}$"))
    expect(page.get_by_role("heading", name=re.compile("Cycle 1"))).to_be_visible()
    expect(page.locator(".usage-chart svg")).to_be_visible()
    expect(page.locator(".checks li").first).to_be_visible()
    artifact = page.locator(".artifact-body")
    expect(artifact).to_contain_text("def quicksort")
    expect(artifact.locator("h3").first).to_contain_text("quicksort.py")  # Markdown was rendered
    shot(page, "05-run-detail")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download artifact (.md)").click()
    saved = Path(download.value.path())
    assert "def quicksort" in saved.read_text(encoding="utf-8")
    page.locator("#artifact-h").scroll_into_view_if_needed()
    shot(page, "06-artifact", full=False)

    # --- Compare ------------------------------------------------------------------------------------
    page.goto(f"{base}/compare?a={run_id}&b={blocked_id}")
    expect(page.locator("table.compare")).to_be_visible()
    expect(page.locator("table.compare [data-verdict='PASS']").first).to_be_visible()
    expect(page.locator("table.compare [data-verdict='BLOCKED']").first).to_be_visible()
    expect(page.locator("pre.diff")).to_be_visible()
    shot(page, "07-compare")

    # --- phone width ----------------------------------------------------------------------------------
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/history")
    expect(page.locator(f'tr[data-run="{run_id}"]')).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # no sideways scrolling
    shot(page, "08-history-phone")
    page.goto(f"{base}/runs/{run_id}/live")
    expect(page.locator('[data-testid="final"]')).to_be_visible(timeout=30_000)  # replayed from the store
    shot(page, "09-live-phone")
    page.goto(f"{base}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    shot(page, "10-tasks-phone")
    no_console_errors(page)


@pytest.mark.timeout(120)
def test_history_rows_update_live(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    base = server.base_url
    page.goto(base + "/history")
    expect(page.get_by_text("No runs match these filters")).to_be_visible()
    expect(page.get_by_text("● live")).to_be_visible()
    model = f"scripted:{SCRIPTED / 'web_demo_blocked.json'}"
    run_id = httpx.post(f"{base}/api/runs", json={"task": "demo", "model": model}).json()["run_id"]
    row = page.locator(f'tr[data-run="{run_id}"]')
    expect(row).to_be_visible(timeout=20_000)  # appeared without a reload
    expect(row.locator('[data-verdict="BLOCKED"]')).to_be_visible(timeout=20_000)
    no_console_errors(page)


def _fake_run(settings: Any, artifact: str) -> str:
    store = TraceStore(settings)
    run_id = new_run_id()
    run_dir = store.create_run(run_id)
    sink = store.sink(run_id)
    events = [
        (EventKind.RUN_STARTED, {"task": "demo", "model": "scripted:x"}, 0),
        (EventKind.CYCLE_STARTED, {"index": 1, "kind": "initial"}, 1),
        (EventKind.MESSAGE, {"source": "specialist", "type": "TextMessage",
                             "content": '<img src=x onerror="window.__xss=1">',
                             "usage": {"prompt_tokens": 3, "completion_tokens": 4, "cost": None}}, 1),
        (EventKind.CYCLE_FINISHED, {"index": 1, "verdict": {"outcome": "PASS", "reason": "OK"}}, 1),
        (EventKind.ARTIFACT, {"path": str(run_dir / "artifact.md"), "verified": True, "issues": [],
                              "grounding": {"score": 0.75, "checked": 4, "supported": 3,
                                            "unsupported": ["claim X"]}}, 0),
        (EventKind.RUN_FINISHED, {"status": "finished", "verdict": "PASS"}, 0),
    ]
    (run_dir / "artifact.md").write_text(artifact, encoding="utf-8")
    for seq, (kind, payload, cycle) in enumerate(events, start=1):
        sink.handle(RunEvent(run_id=run_id, seq=seq, kind=kind, payload=payload, cycle=cycle))
    return run_id


@pytest.mark.timeout(120)
def test_artifact_markdown_is_sanitized(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    evil = (
        "# Report\n\n<script>window.__xss = 2</script>\n\n"
        '<img src="x" onerror="window.__xss = 3">\n\n'
        "[click](javascript:window.__xss=4)\n\n"
        '<iframe src="javascript:window.__xss=5"></iframe>\n\n'
        "<a href=\"https://example.org\" onclick=\"window.__xss=6\">ok link</a>\n"
    )
    run_id = _fake_run(server.settings, evil)  # type: ignore[attr-defined]
    page.goto(f"{server.base_url}/runs/{run_id}")
    body = page.locator(".artifact-body")
    expect(body.locator("h1")).to_have_text("Report")
    assert body.locator("script, iframe").count() == 0
    html = body.inner_html()
    assert "onerror" not in html and "onclick" not in html and "javascript:" not in html
    body.get_by_text("click").click()  # the javascript: href was removed: nothing runs
    time.sleep(0.3)
    assert page.evaluate("window.__xss") is None
    expect(page.get_by_test_id("grounding")).to_contain_text("75%")
    expect(page.locator("article.turn-message .turn-body")).to_have_text('<img src=x onerror="window.__xss=1">')
    shot(page, "11-sanitized-artifact")


@pytest.mark.timeout(180)
def test_keyboard_only_start_and_cancel(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    page.goto(server.base_url + "/")
    card = page.locator('article[data-task="demo"]')
    expect(card).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Tasks"  # then the main navigation
    slow = f"scripted:{SCRIPTED / 'web_demo_slow.json'}"
    card.get_by_label("Model").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(slow)
    page.keyboard.press("Enter")  # submits the Run form
    page.wait_for_url(re.compile(r"/live$"))
    cancel = page.get_by_role("button", name="Cancel run")
    expect(page.locator(".cycle-sep").first).to_be_visible(timeout=30_000)
    cancel.focus()
    page.keyboard.press("Enter")
    final = page.locator('[data-testid="final"]')
    expect(final).to_be_visible(timeout=20_000)
    expect(final.locator('[data-status="cancelled"]')).to_be_visible()
    run_id = page.url.split("/")[-2]
    doc = json.loads(httpx.get(f"{server.base_url}/api/runs/{run_id}").text)
    assert doc["status"] == "cancelled"
    shot(page, "12-cancelled")
    no_console_errors(page)
