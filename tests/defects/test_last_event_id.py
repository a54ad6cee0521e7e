"""Issue 10, defect 10 (SSE part): an invalid or huge ``Last-Event-ID`` never replays a run's
stream from the start — 422 for one that is not a number, nothing replayed for one beyond the run."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from autogen_pse.web import create_app
from tests.web.web_helpers import ROOT, ServerThread, collect, events_of, make_settings

DEMO = f"scripted:{ROOT / 'tests' / 'fixtures' / 'scripted' / 'demo_pass.json'}"


@pytest.mark.timeout(120)
async def test_last_event_id_edges(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, model=DEMO, max_cycles=1)
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            run_id = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
            for _ in range(600):
                if (await c.get(f"/api/runs/{run_id}")).json()["status"] == "finished":
                    break
                await asyncio.sleep(0.1)
            url = f"/api/runs/{run_id}/events"
            full = events_of(await collect(c, url, timeout=30))
            bad = await c.get(url, headers={"Last-Event-ID": "abc"})
            huge = await c.get(url, headers={"Last-Event-ID": "9" * 30})
            resumed = events_of(await collect(c, url, headers={"Last-Event-ID": "3"}, timeout=30))
    assert len(full) > 5
    assert bad.status_code == 422 and "invalid Last-Event-ID" in bad.json()["detail"]
    assert huge.status_code == 204  # nothing after it: no replay from the start
    assert [int(f.id) for f in resumed] == list(range(4, len(full) + 1))
