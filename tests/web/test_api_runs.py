"""REST routes on the synthetic executor: tasks, runs (start, list, filters, pagination, trace,
artifact, cancel, concurrency cap), validation errors and static files."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from autogen_pse.store.ids import new_run_id
from autogen_pse.store.index import RunIndex
from autogen_pse.store.rows import RunRow
from tests.web.conftest import WebEnv, asgi_client

JSON = {"Content-Type": "application/json"}


async def wait_status(client: httpx.AsyncClient, run_id: str, statuses: set[str], timeout: float = 10
                      ) -> dict:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        doc = (await client.get(f"/api/runs/{run_id}")).json()
        if doc["status"] in statuses:
            return doc
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"run {run_id} still {doc['status']}")
        await asyncio.sleep(0.05)


def seed(settings_traces: Path, n: int) -> list[RunRow]:
    """``n`` index rows, one per hour, alternating task/verdict (newest last)."""
    store_rows = []
    idx = RunIndex(settings_traces / "index.sqlite")
    for i in range(n):
        row = RunRow(run_id=new_run_id(), task="demo" if i % 2 else "other", model="scripted:x",
                     status="finished", verdict=["PASS", "PARTIAL", "FAIL"][i % 3], cycles=1 + i % 3,
                     prompt_tokens=100 + i, completion_tokens=10, cost=None if i % 4 == 0 else 0.01,
                     currency="USD", started_at=f"2026-01-{1 + i // 24:02d}T{i % 24:02d}:00:00.000Z",
                     trace_dir=str(settings_traces / "x"))
        idx.upsert(row)
        store_rows.append(row)
    return store_rows


async def test_health_and_tasks(client: httpx.AsyncClient) -> None:
    health = (await client.get("/api/health")).json()
    assert health["status"] == "ok" and health["auth_required"] is False and health["running"] == 0
    body = (await client.get("/api/tasks")).json()
    assert body["count"] == len(body["data"]) >= 1
    demo = next(t for t in body["data"] if t["name"] == "demo")
    assert demo["title"] and demo["description"] and demo["has_prepare"] is False
    assert demo["needs_prepare"] is False and demo["error"] is None
    assert body["defaults"]["max_cycles"] >= 1 and body["defaults"]["model"]


async def test_start_run_202_then_trace_and_artifact(client: httpx.AsyncClient, env: WebEnv) -> None:
    r = await client.post("/api/runs", json={"task": "demo", "model": "scripted:x.json", "max_cycles": 2})
    assert r.status_code == 202
    body = r.json()
    run_id = body["run_id"]
    assert body["status"] == "queued" and body["events_url"] == f"/api/runs/{run_id}/events"
    doc = await wait_status(client, run_id, {"finished"})
    assert doc["verdict"] == "PASS" and doc["cycles"][0]["verdict"]["outcome"] == "PASS"
    assert [m["source"] for m in doc["cycles"][0]["messages"]] == ["planner", "specialist", "evaluator"]
    assert doc["active"] is False and doc["last_seq"] > 3
    art = await client.get(f"/api/runs/{run_id}/artifact")
    assert art.status_code == 200 and art.headers["content-type"].startswith("text/markdown")
    assert "Synthetic artifact" in art.text and art.headers["content-disposition"].startswith("inline")
    dl = await client.get(f"/api/runs/{run_id}/artifact", params={"download": "true"})
    assert dl.headers["content-disposition"] == f'attachment; filename="{run_id}.md"'
    assert (await client.get(f"/api/runs/{run_id}/artifact", params={"raw": "1"})).status_code == 404
    listing = (await client.get("/api/runs")).json()
    assert listing["count"] == 1 and listing["data"][0]["run_id"] == run_id
    assert listing["data"][0]["total_tokens"] == listing["data"][0]["prompt_tokens"] + listing["data"][0][
        "completion_tokens"]
    assert "trace_dir" not in listing["data"][0]


@pytest.mark.parametrize(("body", "status"), [
    ({"task": "nope"}, 404),
    ({"task": "../etc"}, 422),
    ({"task": "demo", "max_cycles": 0}, 422),
    ({"task": "demo", "max_cycles": 51}, 422),
    ({"task": "demo", "unknown": 1}, 422),
    ({}, 422),
    ({"task": "demo", "vars": {"a": 1}}, 422),
])
async def test_start_run_validation(client: httpx.AsyncClient, body: dict, status: int) -> None:
    r = await client.post("/api/runs", json=body)
    assert r.status_code == status, r.text
    assert "detail" in r.json()


async def test_state_changes_need_json_and_post(client: httpx.AsyncClient) -> None:
    form = await client.post("/api/runs", data={"task": "demo"})
    assert form.status_code == 415
    text = await client.post("/api/runs", content=b'{"task": "demo"}', headers={"Content-Type": "text/plain"})
    assert text.status_code == 415
    assert (await client.get("/api/runs/01JAAAAAAAAAAAAAAAAAAAAAAA/cancel")).status_code in (404, 405)
    assert (await client.put("/api/runs", json={"task": "demo"})).status_code == 405


@pytest.mark.parametrize("bad", ["short", "01jaaaaaaaaaaaaaaaaaaaaaaa", "01JAAAAAAAAAAAAAAAAAAAAAAI",
                                 "..%2F..%2Fetc%2Fpasswd", "01JAAAAAAAAAAAAAAAAAAAAAAA0"])
async def test_invalid_run_ids_are_422(client: httpx.AsyncClient, bad: str) -> None:
    for path in (f"/api/runs/{bad}", f"/api/runs/{bad}/artifact", f"/api/runs/{bad}/events"):
        r = await client.get(path)
        assert r.status_code in (404, 422), (path, r.status_code)
        assert r.status_code == 422 or "%2F" in bad
    assert (await client.post(f"/api/runs/{bad}/cancel", json={})).status_code in (404, 405, 422)


async def test_unknown_run_is_404(client: httpx.AsyncClient) -> None:
    rid = new_run_id()
    for path in (f"/api/runs/{rid}", f"/api/runs/{rid}/artifact", f"/api/runs/{rid}/events"):
        assert (await client.get(path)).status_code == 404, path
    assert (await client.post(f"/api/runs/{rid}/cancel", json={})).status_code == 404


async def test_list_filters_and_pagination(client: httpx.AsyncClient, env: WebEnv) -> None:
    rows = seed(env.settings.traces_dir, 30)
    page = (await client.get("/api/runs", params={"limit": 7})).json()
    assert page["count"] == 30 and len(page["data"]) == 7 and page["next_cursor"]
    seen = [r["run_id"] for r in page["data"]]
    while page["next_cursor"]:
        page = (await client.get("/api/runs", params={"limit": 7, "cursor": page["next_cursor"]})).json()
        seen += [r["run_id"] for r in page["data"]]
    assert seen == [r.run_id for r in reversed(rows)]  # newest first, no gap, no duplicate
    demo = (await client.get("/api/runs", params={"task": "demo", "limit": 100})).json()
    assert demo["count"] == 15 and {r["task"] for r in demo["data"]} == {"demo"}
    passes = (await client.get("/api/runs", params={"verdict": "pass"})).json()
    assert passes["count"] == 10 and {r["verdict"] for r in passes["data"]} == {"PASS"}
    both = (await client.get("/api/runs", params={"verdict": "FAIL", "task": "other"})).json()
    assert {(r["task"], r["verdict"]) for r in both["data"]} == {("other", "FAIL")}
    window = (await client.get("/api/runs", params={"since": "2026-01-01T05:00:00Z",
                                                    "until": "2026-01-01T10:00:00Z"})).json()
    assert window["count"] == 5
    assert [r["started_at"][11:13] for r in window["data"]] == ["09", "08", "07", "06", "05"]
    assert (await client.get("/api/runs", params={"status": "running"})).json()["count"] == 0


@pytest.mark.parametrize("params", [
    {"limit": 0}, {"limit": 201}, {"limit": "x"}, {"verdict": "MAYBE"}, {"status": "sleeping"},
    {"since": "yesterday"}, {"until": "2026-13-01"}, {"cursor": "not-a-cursor"}, {"task": "Bad Name"},
])
async def test_list_validation_422(client: httpx.AsyncClient, params: dict) -> None:
    r = await client.get("/api/runs", params=params)
    assert r.status_code == 422, (params, r.text)


async def test_cancel_running_run_keeps_trace(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.3, messages=30)
    async with asgi_client(env) as c:
            run_id = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
            for _ in range(100):  # wait until the run is inside its first cycle
                if (await c.get(f"/api/runs/{run_id}")).json().get("cycles"):
                    break
                await asyncio.sleep(0.05)
            t0 = asyncio.get_running_loop().time()
            r = await c.post(f"/api/runs/{run_id}/cancel", json={})
            assert r.status_code == 202 and r.json() == {"run_id": run_id, "cancelled": True,
                                                         "status": "cancelling"}
            doc = await wait_status(c, run_id, {"cancelled"}, timeout=5)
            assert asyncio.get_running_loop().time() - t0 < 3
            assert doc["error"] == "cancelled by request" and doc["cycles"]
            again = await c.post(f"/api/runs/{run_id}/cancel", json={})
            assert again.status_code == 409
            listed = (await c.get("/api/runs", params={"status": "cancelled"})).json()
            assert [r["run_id"] for r in listed["data"]] == [run_id]


async def test_concurrency_cap_queues_runs(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.05, concurrency=2, messages=6)
    async with asgi_client(env) as c:
            ids = [(await c.post("/api/runs", json={"task": "demo"})).json()["run_id"] for _ in range(5)]
            await asyncio.sleep(0.02)
            health = (await c.get("/api/health")).json()
            assert health["concurrency"] == 2 and health["running"] + health["queued"] == 5
            docs = [(await c.get(f"/api/runs/{i}")).json() for i in ids]
            queued = [d for d in docs if d["status"] == "queued"]
            assert len(queued) >= 3 and all(d["active"] for d in queued)
            for run_id in ids:
                await wait_status(c, run_id, {"finished"})
            assert env.executor.max_running == 2


async def test_cancel_queued_run(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.2, concurrency=1, messages=10)
    async with asgi_client(env) as c:
            first = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
            second = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
            assert (await c.get(f"/api/runs/{second}")).json()["status"] == "queued"
            assert (await c.post(f"/api/runs/{second}/cancel", json={})).status_code == 202
            await c.post(f"/api/runs/{first}/cancel", json={})
            doc = await wait_status(c, second, {"cancelled"})
            assert doc["error"] == "cancelled before it started"
            assert (await c.get(f"/api/runs/{second}/events")).status_code == 204


async def test_queue_limit_429(make_env: Callable[..., WebEnv]) -> None:
    env = make_env(delay=0.5, concurrency=1, max_queue=1, messages=10)
    async with asgi_client(env) as c:
            codes = [(await c.post("/api/runs", json={"task": "demo"})).status_code for _ in range(3)]
            assert codes == [202, 202, 429]
            await env.executor.shutdown()


async def test_static_spa_and_traversal(make_env: Callable[..., WebEnv], tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>dash</title>")
    (static / "assets" / "app.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("TOP SECRET")
    env = make_env(static_dir=static)
    async with asgi_client(env) as c:
        home = await c.get("/")
        assert home.status_code == 200 and "dash" in home.text
        assert "default-src 'none'" in home.headers["content-security-policy"]
        assert "script-src 'self';" in home.headers["content-security-policy"]
        assert home.headers["x-content-type-options"] == "nosniff"
        js = await c.get("/assets/app.js")
        assert js.status_code == 200 and "immutable" in js.headers["cache-control"]
        assert (await c.get("/history")).text == home.text  # SPA route
        assert (await c.get("/runs/01JAAAAAAAAAAAAAAAAAAAAAAA")).text == home.text
        for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/assets/%2e%2e/%2e%2e/secret.txt",
                     "/assets/..%2f..%2fsecret.txt", "/..%5csecret.txt", "/missing.js", "/.env"):
            r = await c.get(path)
            assert "TOP SECRET" not in r.text, path
            assert r.status_code == 404, path
        assert (await c.get("/api/nope")).status_code == 404
        assert (await c.get("/api/nope")).headers["content-type"].startswith("application/json")


async def test_frontend_not_built_page(make_env: Callable[..., WebEnv], tmp_path: Path) -> None:
    env = make_env(static_dir=tmp_path / "nothing")
    async with asgi_client(env) as c:
        r = await c.get("/")
        assert r.status_code == 200 and "not built" in r.text


async def test_untrusted_host_is_rejected_without_token(client: httpx.AsyncClient) -> None:
    r = await client.get("/api/health", headers={"Host": "evil.example"})
    assert r.status_code == 400


async def test_openapi_documents_every_route(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/api/openapi.json")).json()
    paths = schema["paths"]
    for path in ("/api/tasks", "/api/runs", "/api/runs/{run_id}", "/api/runs/{run_id}/artifact",
                 "/api/runs/{run_id}/cancel", "/api/runs/{run_id}/events", "/api/events", "/api/health",
                 "/api/login"):
        assert path in paths, path
    assert "post" in paths["/api/runs"] and "202" in paths["/api/runs"]["post"]["responses"]
