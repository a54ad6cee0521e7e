"""Issue 11's dashboard in a real headless Chromium against a real uvicorn server (one server per
module): no horizontal overflow on any page at 1,400 px and 390 px with hostile runs (long
unbreakable words, a garbage verdict summary, a long Actions table cell), retrievals grouped per
role before the first turn, the verdict JSON not repeated, the timeline, the trace download,
Re-run from Run detail and History, the task inputs form with a field error, and the trend charts
on History. Screenshots go to test-output/screenshots/.
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
WORD = "Unbreakable" * 40  # 440 characters without a break opportunity
GARBAGE = ("ZZ" + "x" * 1500 + "}{" * 50)
WIDTHS = (1400, 390)


def _wait(base: str, run_id: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: dict[str, Any] = httpx.get(f"{base}/api/runs/{run_id}", timeout=30).json()
        if doc.get("status") not in ("queued", "running") and not doc.get("active"):
            return doc
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} did not end")


def hostile_run(settings: Any) -> str:
    """A recorded run with everything long: 15 retrievals before the first turn, long unbreakable
    words in messages, prompts, warnings and issues, a garbage verdict summary, an artifact whose
    Actions table has one very long cell, a long model name, no grounding score."""
    store = TraceStore(settings)
    run_id = new_run_id()
    run_dir = store.create_run(run_id)
    sink = store.sink(run_id)
    usage = {"prompt_tokens": 120, "completion_tokens": 30, "cost": None}
    chunks = [{"id": f"c{i}", "source": f"knowledge/{WORD[:120]}.md", "heading": "Stop-loss rules", "score": 0.8}
              for i in range(3)]
    verdict = {"outcome": "FAIL", "reason": "FORMAT", "issues": [f"issue with {WORD}"], "summary": GARBAGE}
    events: list[tuple[EventKind, dict[str, Any], int]] = [
        (EventKind.RUN_STARTED, {"task": "demo", "model": "scripted:" + "m" * 200 + ".json"}, 0),
        *[(EventKind.RETRIEVAL, {"role": ("planner", "specialist", "evaluator")[i % 3],
                                 "query": f"query {i} {WORD[:200]}", "chunks": chunks}, 0) for i in range(15)],
        (EventKind.WARNING, {"message": f"a warning about {WORD}"}, 0),
        (EventKind.CYCLE_STARTED, {"index": 1, "kind": "initial", "task_text": "Do it"}, 1),
        *[(EventKind.PROMPT, {"role": r, "sha256": "0" * 16, "chars": 600, "text": f"You are the {r}. {WORD}"}, 1)
          for r in ("planner", "specialist", "evaluator")],
        (EventKind.RETRY, {"role": "planner", "attempt": 1, "error_kind": "rate limit (HTTP 429)", "wait": 1.5}, 1),
        (EventKind.MODEL_CALL, {"role": "planner", "prompt_tokens": 120, "completion_tokens": 30, "seconds": 2.0,
                                "tokens_per_s": 15.0}, 1),
        (EventKind.MESSAGE, {"source": "planner", "content": f"Plan: {WORD}", "usage": usage,
                             "latency": {"seconds": 2.0}}, 1),
        (EventKind.MODEL_CALL, {"role": "specialist", "prompt_tokens": 120, "completion_tokens": 30, "seconds": 1.0,
                                "tokens_per_s": 30.0}, 1),
        (EventKind.TOOL_CALL, {"source": "specialist", "calls": [
            {"id": "t1", "name": "kb_search", "arguments": {"query": WORD}}], "usage": usage}, 1),
        (EventKind.TOOL_RESULT, {"source": "specialist", "results": [
            {"call_id": "t1", "name": "kb_search", "content": WORD}]}, 1),
        (EventKind.MODEL_CALL, {"role": "evaluator", "prompt_tokens": 120, "completion_tokens": 30, "seconds": 1.0,
                                "tokens_per_s": 30.0}, 1),
        (EventKind.MESSAGE, {"source": "evaluator", "usage": usage, "content": (
            "The document is garbage.\n\n```verdict\n" + json.dumps(verdict) + "\n```")}, 1),
        (EventKind.CHECK, {"name": "format", "ok": False, "detail": f"bad {WORD}"}, 1),
        (EventKind.VERDICT, {**verdict, "origin": "evaluator"}, 1),
        (EventKind.CYCLE_FINISHED, {"index": 1, "verdict": verdict}, 1),
        (EventKind.ARTIFACT, {"path": str(run_dir / "artifact.md"), "verified": False, "issues": [WORD],
                              "grounding": {"score": None, "checked": 0, "supported": 0}}, 0),
        (EventKind.RUN_FINISHED, {"status": "finished", "verdict": "FAIL", "reason": "FORMAT"}, 0),
    ]
    long_cell = ("Sell the whole position because the stop-loss rule applies and the holding has fallen "
                 "below its cost for more than two years " * 6) + WORD
    artifact = ("# Portfolio review\n\n## Actions\n\n| Symbol | Action | Rationale | Weight |\n|---|---|---|---|\n"
                f"| AAPL | Hold | Within the cap | 12% |\n| IBM | Sell | {long_cell} | 3% |\n\n{WORD}\n")
    (run_dir / "artifact.md").write_text(artifact, encoding="utf-8")
    for seq, (kind, payload, cycle) in enumerate(events, start=1):
        sink.handle(RunEvent(run_id=run_id, seq=seq, kind=kind, payload=payload, cycle=cycle))
    return run_id


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = make_settings(tmp_path_factory.mktemp("dash"), model=f"scripted:{SCRIPTED / 'web_demo_pass.json'}",
                             max_cycles=2)
    with ServerThread(create_app(settings)) as srv:
        srv.settings = settings  # type: ignore[attr-defined]
        r = httpx.post(f"{srv.base_url}/api/runs", json={"task": "demo"})
        assert r.status_code == 202, r.text
        srv.passed = r.json()["run_id"]  # type: ignore[attr-defined]
        _wait(srv.base_url, srv.passed)  # type: ignore[attr-defined]
        srv.hostile = hostile_run(settings)  # type: ignore[attr-defined]
        yield srv


def overflow(page: Any) -> tuple[int, list[str]]:
    """The document's scroll width and the elements sticking out of the viewport (for the message)."""
    return page.evaluate("""() => {
        const w = document.documentElement.clientWidth;
        const out = [];
        for (const el of document.querySelectorAll('body *')) {
            const r = el.getBoundingClientRect();
            if (r.right > w + 1 && r.width > 0) out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
        }
        return [document.documentElement.scrollWidth, out.slice(0, 8)];
    }""")


@pytest.mark.timeout(240)
def test_no_horizontal_overflow_on_any_page_with_hostile_runs(server: ServerThread, page: Any) -> None:
    base, hostile, passed = server.base_url, server.hostile, server.passed  # type: ignore[attr-defined]
    pages = {"tasks": "/", "history": "/history", "run": f"/runs/{hostile}", "live": f"/runs/{hostile}/live",
             "compare": f"/compare?a={hostile}&b={passed}", "check": "/check", "run-pass": f"/runs/{passed}"}
    failures = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, path in pages.items():
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            if name in ("run", "run-pass"):
                page.locator('[data-testid="timeline"]').wait_for()
                for summary in page.locator("details > summary").all():  # opened panels must fit too
                    if summary.is_visible():
                        summary.click()
                page.get_by_role("button", name="Markdown source").click()
                page.get_by_role("button", name="Rendered").click()
            scroll, culprits = overflow(page)
            if scroll > width + 1:
                failures.append((name, width, scroll, culprits))
            if name in ("run", "live", "compare", "history"):
                shot(page, f"obs-{name}-{width}")
    assert failures == [], failures
    # the Actions table: headers stay whole words, the long cell wraps inside the table's own box
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{base}/runs/{hostile}")
    headers = page.locator(".artifact-body th")
    headers.first.wait_for()
    assert headers.count() == 4
    for i in range(4):
        box = headers.nth(i).bounding_box()
        assert box is not None and box["height"] < 40, (headers.nth(i).inner_text(), box)  # one line
    no_console_errors(page)


@pytest.mark.timeout(120)
def test_live_page_starts_near_the_top_and_shows_why(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{server.base_url}/runs/{server.hostile}/live")  # type: ignore[attr-defined]
    expect(page.locator('[data-testid="final"]')).to_be_visible(timeout=20_000)
    groups = page.locator('.live-stream > .role-panels [data-testid="retrievals"]')
    expect(groups).to_have_count(3)  # 15 retrievals: one collapsible line per role
    assert groups.first.inner_text().lower().startswith("planner retrieved 15 passage(s) for 5 queries")
    first_cycle = page.locator("section.cycle").first.bounding_box()
    assert first_cycle is not None and first_cycle["y"] < 600, first_cycle  # was ~1,850 px down
    evaluator = page.locator('article.turn[data-agent="evaluator"]')
    expect(evaluator).to_contain_text("The document is garbage.")
    assert '"outcome"' not in evaluator.inner_text()  # the raw verdict JSON is in the verdict box only
    expect(page.locator(".verdict-box")).to_contain_text("FORMAT")
    expect(page.locator('[data-testid="prompts"]')).to_have_count(1)
    page.locator('[data-testid="prompts"] > summary').click()
    page.locator('[data-testid="prompts"] details[data-role="evaluator"] > summary').click()
    expect(page.locator('[data-testid="prompts"] details[data-role="evaluator"] pre')).to_contain_text("You are the evaluator")
    expect(page.locator(".cycle .note-warn").first).to_contain_text("attempt 1 failed (rate limit (HTTP 429))")
    expect(page.get_by_test_id("live-grounding")).to_have_text("no claims")
    expect(page.locator('.live-timeline [data-testid="timeline"]')).to_be_visible()
    shot(page, "obs-live-grouped", full=False)
    page.goto(f"{server.base_url}/runs/{server.hostile}")  # type: ignore[attr-defined]
    expect(page.get_by_test_id("grounding")).to_have_text("no claims")
    no_console_errors(page)


@pytest.mark.timeout(120)
def test_timeline_and_trace_download_on_run_detail(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    run_id = server.passed  # type: ignore[attr-defined]
    page.goto(f"{server.base_url}/runs/{run_id}")
    timeline = page.get_by_test_id("timeline")
    expect(timeline).to_be_visible()
    expect(timeline.locator('.tl-row[data-kind="model"]')).to_have_count(5)
    expect(timeline.locator('.tl-row[data-kind="tool"]')).to_have_count(2)
    assert timeline.locator('.tl-row[data-kind="retry"]').count() >= 1
    assert re.search(r"\d+ ms|\d\.\d+ s", timeline.locator(".tl-dur").first.inner_text())
    page.locator("#timeline-h").scroll_into_view_if_needed()
    shot(page, "obs-timeline", full=False)
    page.locator(".messages > summary").first.click()
    expect(page.get_by_test_id("retry").first).to_be_visible()  # retries inline in the conversation
    with page.expect_download() as download:
        page.get_by_role("link", name="Download trace (.json)").click()
    assert download.value.suggested_filename == f"{run_id}.trace.json"
    doc = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert doc["run_id"] == run_id and doc["verdict"] == "PASS"
    no_console_errors(page)


@pytest.mark.timeout(180)
def test_rerun_from_run_detail_and_history_creates_new_runs(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    base, run_id = server.base_url, server.passed  # type: ignore[attr-defined]
    page.goto(f"{base}/runs/{run_id}")
    page.get_by_role("button", name="Re-run…").click()
    page.get_by_label("Model").fill("scripted:web_demo_blocked.json")  # another model
    shot(page, "obs-rerun-form", full=False)
    page.get_by_role("button", name="Run again").click()
    page.wait_for_url(re.compile(r"/runs/[0-9A-Z]{26}/live$"))
    new_id = page.url.split("/")[-2]
    assert new_id != run_id
    expect(page.locator('[data-testid="final"] [data-verdict="BLOCKED"]')).to_be_visible(timeout=60_000)
    doc = httpx.get(f"{base}/api/runs/{new_id}").json()
    assert doc["task"] == "demo" and "web_demo_blocked" in doc["model"]

    page.goto(f"{base}/history")
    row = page.locator(f'tr[data-run="{run_id}"]')
    row.get_by_role("button", name="Re-run…").click()
    row.get_by_role("button", name="Run again").click()  # same model
    page.wait_for_url(re.compile(r"/runs/[0-9A-Z]{26}/live$"))
    again = page.url.split("/")[-2]
    assert again not in (run_id, new_id)
    expect(page.locator('[data-testid="final"] [data-verdict="PASS"]')).to_be_visible(timeout=60_000)
    assert httpx.get(f"{base}/api/runs/{again}").json()["model"] == httpx.get(f"{base}/api/runs/{run_id}").json()["model"]
    no_console_errors(page)


@pytest.mark.timeout(120)
def test_task_inputs_form_shows_field_errors(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    page.goto(server.base_url + "/")
    card = page.locator('article[data-task="portfolio-review"]')
    card.locator(".vars-form > summary").click()
    holdings = card.get_by_label("holdings", exact=True)
    expect(holdings).to_have_attribute("placeholder", "data/holdings.csv")
    holdings.fill("/etc/passwd")
    card.get_by_role("button", name="Check inputs").click()
    error = card.locator('[data-var="holdings"] .field-error')
    expect(error).to_contain_text("absolute paths")
    expect(holdings).to_have_attribute("aria-invalid", "true")
    holdings.fill("")
    card.get_by_label("prices", exact=True).fill("tasks/portfolio-review/data/no-such-prices.csv")
    before = httpx.get(f"{server.base_url}/api/runs").json()["count"]
    card.get_by_role("button", name="Run", exact=True).click()  # the run is refused: error at the field
    expect(card.locator('[data-var="prices"] .field-error')).to_be_visible(timeout=30_000)
    expect(card.locator('[data-var="holdings"] .field-error')).to_have_count(0)
    assert page.url.rstrip("/") == server.base_url and httpx.get(f"{server.base_url}/api/runs").json()["count"] == before
    shot(page, "obs-task-inputs-error", full=False)
    card.get_by_label("prices", exact=True).fill("")
    card.get_by_role("button", name="Check inputs").click()
    expect(card.get_by_text("These inputs are valid.")).to_be_visible(timeout=30_000)
    no_console_errors_but_422(page)


def no_console_errors_but_422(page: Any) -> None:
    page.console_errors[:] = [e for e in page.console_errors if not e.startswith("422 ")]
    no_console_errors(page)


@pytest.mark.timeout(120)
def test_history_charts_across_runs(server: ServerThread, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(server.base_url + "/history")
    charts = page.get_by_test_id("series-charts")
    expect(charts).to_be_visible()
    expect(charts.locator("figure.series-chart")).to_have_count(4)
    for metric in ("pass_rate", "tokens", "seconds"):
        assert charts.locator(f'figure[data-metric="{metric}"] circle').count() >= 2, metric
    expect(charts.locator(".series-legend li").first).to_contain_text("demo")
    shot(page, "obs-history-charts", full=False)
    no_console_errors(page)
