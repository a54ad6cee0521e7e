"""``/api/evals``: the list from the eval index, one eval's report with run ids that open as runs,
the HTML report with its own CSP, 404/422 for unknown or malformed ids, and a running eval whose
process is gone read as ``interrupted``."""

from __future__ import annotations

from pathlib import Path

import httpx

from autogen_pse.config import Settings
from autogen_pse.evals import EvalStore
from autogen_pse.evals.execute import new_report, plan_eval
from autogen_pse.store.ids import new_run_id
from tests.eval_support import PORTFOLIOS, small_eval


async def test_list_one_eval_html_and_run_links(client: httpx.AsyncClient, web_settings: Settings,
                                                tmp_path: Path) -> None:
    report = await small_eval(web_settings, tmp_path)
    listing = await client.get("/api/evals")
    assert listing.status_code == 200, listing.text
    body = listing.json()
    assert body["count"] == 1
    row = body["data"][0]
    assert row["eval_id"] == report.eval_id and row["status"] == "completed" and row["complete"] is True
    assert row["models"] == ["scripted-facts", "scripted-facts:wrong-figure"]
    assert (row["runs"], row["done"], row["passed"], row["verified"]) == (4, 4, 1, 1)
    assert (await client.get("/api/evals", params={"task": "resume-tailor"})).json()["count"] == 0

    one = (await client.get(f"/api/evals/{report.eval_id}")).json()
    assert one["task"] == "portfolio-review" and len(one["runs"]) == 4
    faithful = next(s for s in one["summary"] if s["model"] == "scripted-facts")
    assert faithful["pass_rate"] == 0.5 and faithful["expected_met"] == 2 and faithful["contradicted"] == 1
    for run in one["runs"]:  # every case run is a run of the runs API
        got = await client.get(f"/api/runs/{run['run_id']}")
        assert got.status_code == 200 and got.json()["verdict"] == run["verdict"]

    html = await client.get(f"/api/evals/{report.eval_id}/report.html")
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert "style-src 'unsafe-inline'" in html.headers["content-security-policy"]
    assert "script-src" not in html.headers["content-security-policy"] and "<svg" in html.text


async def test_unknown_and_malformed_ids(client: httpx.AsyncClient) -> None:
    missing = await client.get(f"/api/evals/{new_run_id()}")
    assert missing.status_code == 404 and "no eval" in missing.json()["detail"]
    assert (await client.get(f"/api/evals/{new_run_id()}/report.html")).status_code == 404
    assert (await client.get("/api/evals/..%2F..%2Fetc")).status_code in (404, 422)
    assert (await client.get("/api/evals/not-an-id")).status_code == 422


async def test_running_eval_of_a_dead_process_reads_interrupted(client: httpx.AsyncClient, web_settings: Settings) -> None:
    plan = plan_eval(web_settings, "portfolio-review", PORTFOLIOS, ["scripted-facts"])
    report = new_report(web_settings, plan, new_run_id())
    store = EvalStore(web_settings)
    store.save(report)  # running, owned by this (live) process
    assert (await client.get(f"/api/evals/{report.eval_id}")).json()["status"] == "running"
    with store._db() as conn:  # its process is gone
        conn.execute("UPDATE evals SET pid = ? WHERE eval_id = ?", (2**22 + 12345, report.eval_id))
    assert (await client.get(f"/api/evals/{report.eval_id}")).json()["status"] == "interrupted"
    assert (await client.get("/api/evals")).json()["data"][0]["status"] == "interrupted"
