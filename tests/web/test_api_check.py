"""``POST /api/check`` on the real app and the real checker (portfolio-review's evidence): statuses,
notes and offsets of claims, user errors as 422 with one line, and the state-change policy."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.web.conftest import WebEnv, asgi_client
from tests.web.web_helpers import TOKEN, make_settings

CONTRADICTED = "## Summary\nIBM is up 12.3% since 2006."
FAITHFUL = "## Summary\nIBM is up 72.7% on cost."


def _claim(report: dict, text: str) -> dict:
    return next(c for c in report["claims"] if c["text"] == text)


async def test_contradicted_claim_has_status_note_and_offsets(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/check", json={"task": "portfolio-review", "text": CONTRADICTED})
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["file"] == "document.md"
    assert report["contradicted"] >= 1 and report["supported"] == 0 and report["factual"] >= 1
    assert report["grounding"] == 0.0 and report["policy"] in ("warning", "error")
    claim = _claim(report, "IBM is up 12.3% since 2006.")
    assert claim["status"] == "contradicted" and claim["line"] == 2
    assert CONTRADICTED[claim["start"]:claim["end"]] == claim["text"]
    figure = next(f for f in claim["findings"] if f["status"] == "contradicted")
    assert "72.70%" in figure["note"] and "IBM.pnl_pct" in figure["evidence"]
    heading = _claim(report, "Summary")
    assert heading["status"] == "none" and heading["findings"] == []


async def test_faithful_claim_is_supported(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/check", json={"task": "portfolio-review", "text": FAITHFUL, "name": "mine.md"})
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["file"] == "mine.md"
    assert report["supported"] == 1 and report["contradicted"] == 0 and report["grounding"] == 1.0
    claim = _claim(report, "IBM is up 72.7% on cost.")
    assert claim["status"] == "supported"
    assert any(f["status"] == "supported" and "IBM.pnl_pct" in f["evidence"] for f in claim["findings"])


async def test_user_errors_are_422_with_one_line(client: httpx.AsyncClient) -> None:
    cases = {
        "unknown task": {"task": "no-such-task", "text": FAITHFUL},
        "empty text": {"task": "portfolio-review", "text": ""},
        "blank text": {"task": "portfolio-review", "text": " \n\t\n"},
        "demo has no evidence": {"task": "demo", "text": FAITHFUL},
    }
    for why, body in cases.items():
        r = await client.post("/api/check", json=body)
        assert r.status_code == 422, (why, r.text)
        detail = r.json()["detail"]
        assert isinstance(detail, str) and detail and "\n" not in detail, (why, detail)
    assert "no-such-task" in (await client.post("/api/check", json=cases["unknown task"])).json()["detail"]
    assert "empty" in (await client.post("/api/check", json=cases["empty text"])).json()["detail"]
    assert "evidence" in (await client.post("/api/check", json=cases["demo has no evidence"])).json()["detail"]


async def test_schema_validation_and_web_var_policy(client: httpx.AsyncClient) -> None:
    bad = [
        {"text": FAITHFUL},  # no task
        {"task": "../etc", "text": FAITHFUL},
        {"task": "portfolio-review", "text": FAITHFUL, "extra": 1},
        {"task": "portfolio-review", "text": FAITHFUL, "name": "a/b.md"},
        {"task": "portfolio-review", "text": FAITHFUL, "vars": {"holdings": "/etc/passwd"}},
        {"task": "portfolio-review", "text": FAITHFUL, "vars": {"holdings": "../../secret.csv"}},
        {"task": "portfolio-review", "text": FAITHFUL, "vars": {"bad key": "x"}},
    ]
    for body in bad:
        r = await client.post("/api/check", json=body)
        assert r.status_code == 422, (body, r.text)


async def test_state_change_policy_applies(client: httpx.AsyncClient) -> None:
    body = {"task": "portfolio-review", "text": FAITHFUL}
    r = await client.post("/api/check", content=b'{"task": "portfolio-review"}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = await client.post("/api/check", json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = await client.post("/api/check", json={**body, "text": "x" * (70 * 1024)})
    assert r.status_code == 413


async def test_token_is_required_when_set(make_env: Callable[..., WebEnv], tmp_path) -> None:
    env = make_env(settings=make_settings(tmp_path, web_token=TOKEN))
    body = {"task": "portfolio-review", "text": FAITHFUL}
    async with asgi_client(env) as c:
        assert (await c.post("/api/check", json=body)).status_code == 401
        r = await c.post("/api/check", json=body, headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 200 and r.json()["supported"] == 1
