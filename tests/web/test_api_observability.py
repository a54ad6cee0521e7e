"""Issue 11's dashboard API on the real stack (create_app's executor, the scripted model, the trace
store and its SQLite index, a real uvicorn): trace download, timeline, re-run (same or another
model, through the model policy), resume, replay, re-check, vars checked field by field, and the
series across runs. One server and one recorded PASS run are shared by the module."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.config import Settings
from autogen_pse.web import create_app
from autogen_pse.web.deps import StreamConfig
from tests.web.web_helpers import ROOT, ServerThread, make_settings

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
FAST = StreamConfig(retry_ms=1000, ping=1.0, idle=0.2)
ENDED = {"finished", "error", "cancelled", "interrupted"}


def model(name: str) -> str:
    return f"scripted:{SCRIPTED / name}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Settings]]:
    settings = make_settings(tmp_path_factory.mktemp("obs"), model=model("web_demo_pass.json"), max_cycles=2)
    with ServerThread(create_app(settings, stream=FAST)) as srv:
        yield srv, settings


@pytest.fixture(scope="module")
def client(server: tuple[ServerThread, Settings]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0].base_url, timeout=60) as c:
        yield c


def wait(c: httpx.Client, run_id: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: dict[str, Any] = c.get(f"/api/runs/{run_id}").json()
        if doc.get("status") in ENDED and not doc.get("active"):
            return doc
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} did not end in {timeout} s")


@pytest.fixture(scope="module")
def passed(client: httpx.Client) -> str:
    r = client.post("/api/runs", json={"task": "demo"})
    assert r.status_code == 202, r.text
    run_id = str(r.json()["run_id"])
    assert wait(client, run_id)["verdict"] == "PASS"
    return run_id


@pytest.mark.timeout(120)
def test_trace_download_is_the_trace_as_an_attachment(client: httpx.Client, passed: str) -> None:
    r = client.get(f"/api/runs/{passed}/trace")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="{passed}.trace.json"'
    assert r.headers["content-type"].startswith("application/json")
    doc = json.loads(r.text)
    assert doc["run_id"] == passed and doc["verdict"] == "PASS" and "active" not in doc
    assert doc["cycles"][0]["prompts"]["planner"]["text"]  # the prompts each role received are in it
    assert client.get("/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/trace").status_code == 404
    assert client.get("/api/runs/not-a-run/trace").status_code == 422


@pytest.mark.timeout(120)
def test_timeline_spans_model_and_tool_calls_per_cycle(client: httpx.Client, passed: str) -> None:
    r = client.get(f"/api/runs/{passed}/timeline")
    assert r.status_code == 200, r.text
    t = r.json()
    spans = t["spans"]
    kinds = {s["kind"] for s in spans}
    assert {"model", "tool", "retry", "checks"} <= kinds, kinds
    models = [s for s in spans if s["kind"] == "model"]
    assert {s["role"] for s in models} == {"planner", "specialist", "evaluator"}
    assert len(models) == 5  # one per model call of the script
    assert all(s["cycle"] == 1 and s["seconds"] > 0 and s["tokens"] > 0 for s in models)
    tools = [s for s in spans if s["kind"] == "tool"]
    assert {s["label"] for s in tools} == {"write_file, write_file", "run_pytest, run_ruff"}
    assert all(0 <= s["start"] <= t["seconds"] for s in spans)
    retry = next(s for s in spans if s["kind"] == "retry")
    assert retry["error"] and retry["seconds"] > 0 and "rate limit" in retry["label"]
    assert client.get("/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/timeline").status_code == 404


@pytest.mark.timeout(180)
def test_rerun_same_model_another_model_and_a_refused_one(client: httpx.Client, passed: str) -> None:
    same = client.post(f"/api/runs/{passed}/rerun", json={})
    assert same.status_code == 202, same.text
    other = client.post(f"/api/runs/{passed}/rerun", json={"model": "scripted:web_demo_blocked.json"})
    assert other.status_code == 202, other.text
    a, b = wait(client, same.json()["run_id"]), wait(client, other.json()["run_id"])
    original = client.get(f"/api/runs/{passed}").json()
    assert a["run_id"] != passed and a["task"] == "demo" and a["model"] == original["model"]
    assert a["vars"] == original["vars"] and a["limits"]["max_cycles"] == original["limits"]["max_cycles"]
    assert a["verdict"] == "PASS"
    assert b["verdict"] == "BLOCKED" and "web_demo_blocked" in b["model"]
    refused = client.post(f"/api/runs/{passed}/rerun", json={"model": "scripted:/etc/passwd"})
    assert refused.status_code == 422 and "model not allowed" in refused.json()["detail"]
    assert client.post(f"/api/runs/{passed}/rerun", json={"nope": 1}).status_code == 422
    assert client.post("/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/rerun", json={}).status_code == 404


@pytest.mark.timeout(120)
def test_rerun_honours_the_model_policy(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, model=model("web_demo_pass.json"), max_cycles=1)
    refuse_all = lambda spec: "no runs on this server"  # noqa: E731
    with ServerThread(create_app(settings, stream=FAST)) as srv, httpx.Client(base_url=srv.base_url) as c:
        run_id = c.post("/api/runs", json={"task": "demo"}).json()["run_id"]
        wait(c, run_id)
    with ServerThread(create_app(settings, stream=FAST, model_policy=refuse_all)) as srv, \
            httpx.Client(base_url=srv.base_url) as c:
        r = c.post(f"/api/runs/{run_id}/rerun", json={})
        assert r.status_code == 422 and "no runs on this server" in r.json()["detail"]
        r = c.post(f"/api/runs/{run_id}/resume", json={})
        assert r.status_code == 422
        assert c.get("/api/runs").json()["count"] == 1  # nothing was started


@pytest.mark.timeout(180)
def test_replay_and_recheck_of_a_finished_run(client: httpx.Client, passed: str) -> None:
    r = client.post(f"/api/runs/{passed}/replay", json={})
    assert r.status_code == 202, r.text
    replayed = wait(client, r.json()["run_id"])
    original = client.get(f"/api/runs/{passed}").json()
    assert replayed["run_id"] != passed
    assert [c["verdict"]["outcome"] for c in replayed["cycles"]] == [c["verdict"]["outcome"] for c in original["cycles"]]
    assert [c["name"] for c in replayed["final_checks"]] == [c["name"] for c in original["final_checks"]]
    check = client.post(f"/api/runs/{passed}/recheck", json={})
    assert check.status_code == 200, check.text
    body = check.json()
    assert body["passed"] is True and body["changed"] == 0
    assert {c["name"] for c in body["checks"]} == {c["name"] for c in original["final_checks"]}
    assert client.post(f"/api/runs/{passed}/resume", json={}).status_code == 422  # it ended normally
    assert client.post(f"/api/runs/{passed}/replay", json={"x": 1}).status_code == 422


@pytest.mark.timeout(180)
def test_resume_a_cancelled_run_in_the_same_trace(client: httpx.Client) -> None:
    r = client.post("/api/runs", json={"task": "demo", "model": model("web_demo_slow.json")})
    run_id = r.json()["run_id"]
    deadline = time.monotonic() + 30
    while not client.get(f"/api/runs/{run_id}").json().get("cycles") and time.monotonic() < deadline:
        time.sleep(0.1)
    busy = client.post(f"/api/runs/{run_id}/resume", json={})
    assert busy.status_code == 409  # still running
    assert client.post(f"/api/runs/{run_id}/cancel", json={}).status_code == 202
    assert wait(client, run_id)["status"] == "cancelled"
    resumed = client.post(f"/api/runs/{run_id}/resume", json={"model": model("web_demo_pass.json")})
    assert resumed.status_code == 202, resumed.text
    assert resumed.json()["run_id"] == run_id  # the same run goes on
    time.sleep(0.5)
    doc = wait(client, run_id)
    assert doc["status"] == "finished" and doc["verdict"] == "PASS"
    assert doc["resumed"] and doc["resumed"][0]["previous_status"] == "cancelled"


@pytest.mark.timeout(120)
def test_vars_are_checked_field_by_field(client: httpx.Client) -> None:
    ok = client.post("/api/tasks/portfolio-review/vars", json={"vars": {"holder": "Sam Doe"}})
    assert ok.status_code == 200, ok.text
    assert ok.json()["vars"]["holder"] == "Sam Doe" and ok.json()["vars"]["holdings"] == "data/holdings.csv"

    def fields(body: dict[str, Any]) -> dict[str, str]:
        r = client.post("/api/tasks/portfolio-review/vars", json=body)
        assert r.status_code == 422, r.text
        return {".".join(map(str, e["loc"][2:])) or "*": e["msg"] for e in r.json()["detail"]}

    assert "unknown --var 'holding'" in fields({"vars": {"holding": "x.csv"}})["holding"]
    assert "absolute paths" in fields({"vars": {"holdings": "/etc/passwd"}})["holdings"]
    missing = fields({"vars": {"prices": "tasks/portfolio-review/data/no-such.csv"}})
    assert list(missing) == ["prices"], missing
    assert "tasks/portfolio-review/data/no-such.csv" in missing["prices"]
    assert str(ROOT) not in missing["prices"], missing  # the server's own folders are not shown
    assert client.post("/api/tasks/no-such-task/vars", json={"vars": {}}).status_code == 404
    assert client.post("/api/tasks/BAD/vars", json={"vars": {}}).status_code == 422
    # a run with a bad var is refused the same way, field by field, and nothing starts
    before = client.get("/api/runs").json()["count"]
    r = client.post("/api/runs", json={"task": "demo", "vars": {"holdings": "x.csv"}})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "vars", "holdings"]
    assert client.get("/api/runs").json()["count"] == before
    tasks = client.get("/api/tasks").json()["data"]
    assert {"holdings", "prices", "as_of"} <= set(next(t for t in tasks if t["name"] == "portfolio-review")["inputs"])


@pytest.mark.timeout(180)
def test_series_across_runs_from_the_index(client: httpx.Client, passed: str) -> None:
    r = client.get("/api/stats/runs", params={"task": "demo"})
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["bucket"] == "run"
    runs = [x for x in client.get("/api/runs", params={"task": "demo", "limit": 200}).json()["data"]
            if x["status"] != "running"]
    assert page["runs"] == len(runs)
    by_model = {(s["task"], s["model"]): s for s in page["series"]}
    main = by_model[("demo", client.get(f"/api/runs/{passed}").json()["model"])]
    assert main["runs"] == len(main["points"])
    point = next(p for p in main["points"] if p["run_id"] == passed)
    assert point["pass_rate"] == 1.0 and point["tokens"] > 0 and point["seconds"] > 0
    daily = client.get("/api/stats/runs", params={"task": "demo", "bucket": "day"}).json()
    s = next(x for x in daily["series"] if x["model"] == main["model"])
    assert len(s["points"]) == 1 and s["points"][0]["runs"] == main["runs"]
    assert s["points"][0]["pass_rate"] == round(sum(p["passed"] for p in main["points"]) / main["runs"], 4)
    assert client.get("/api/stats/runs", params={"bucket": "year"}).status_code == 422
    assert client.get("/api/stats/runs", params={"since": "2024-13-45"}).status_code == 422
    assert client.get("/api/stats/runs", params={"task": "no-such"}).json()["series"] == []
