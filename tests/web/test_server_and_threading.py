"""``main()`` refuses a public bind without a token; the threaded executor keeps the API
responsive while a run blocks its own loop; the OpenAPI export script works."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from autogen_pse.events import RunEvent
from autogen_pse.web import create_app
from autogen_pse.web.hub import EventHub
from autogen_pse.web.runner_thread import ThreadedExecutor
from autogen_pse.web.server import main
from autogen_pse.web.synthetic import SyntheticExecutor
from tests.web.conftest import FAST_STREAM
from tests.web.web_helpers import ROOT, ServerThread, collect, events_of, make_settings


def test_main_refuses_public_host_without_token(monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    monkeypatch.setenv("PSE_WEB_HOST", "0.0.0.0")
    started: list[object] = []
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: started.append(a))
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2 and not started
    assert "PSE_WEB_TOKEN" in caplog.text


def test_main_serves_public_host_with_token_and_loopback_without(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **k: calls.append(k))
    monkeypatch.setattr("autogen_pse.web.app.create_app", lambda s: object())
    main(["--port", "9999"])
    assert calls[-1]["host"] == "127.0.0.1" and calls[-1]["port"] == 9999
    monkeypatch.setenv("PSE_WEB_TOKEN", "x" * 32)
    main(["--host", "0.0.0.0"])
    assert calls[-1]["host"] == "0.0.0.0"


async def test_blocking_run_does_not_freeze_the_api(tmp_path: Path) -> None:
    """A sink that blocks the run's own thread (like a synchronous pytest check) holds the run
    until the test releases it; the API must answer while it is held. Were the run on the
    server's loop, the health request would time out instead of answering."""
    settings = make_settings(tmp_path)
    hub = EventHub()
    blocked, release = threading.Event(), threading.Event()

    def blocking_sink(event: RunEvent) -> None:
        if event.kind.value == "message" and not release.is_set():
            blocked.set()
            release.wait(60)

    executor = ThreadedExecutor(lambda: SyntheticExecutor(settings, sinks=[blocking_sink, hub.publish],
                                                           delay=0.01, concurrency=1))
    app = create_app(settings, executor, hub=hub, stream=FAST_STREAM)
    with ServerThread(app) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=10) as c:
            run_id = (await c.post("/api/runs", json={"task": "demo"})).json()["run_id"]
            stream = asyncio.create_task(collect(c, f"/api/runs/{run_id}/events"))
            assert await asyncio.to_thread(blocked.wait, 30), "the run never reached its first message"
            try:
                health = await c.get("/api/health")
                runs = await c.get("/api/runs")
            finally:
                release.set()
            frames = await stream
    assert health.status_code == 200 and runs.status_code == 200
    assert events_of(frames)[-1].event == "run_finished"


def test_export_openapi_script(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    subprocess.run([sys.executable, str(ROOT / "frontend" / "scripts" / "export_openapi.py"), str(out)],
                   check=True, capture_output=True, timeout=120)
    schema = json.loads(out.read_text())
    events = schema["paths"]["/api/runs/{run_id}/events"]["get"]["responses"]["200"]["content"]
    assert list(events) == ["text/event-stream"]
    assert "RunEventOut" in schema["components"]["schemas"]
    committed = ROOT / "frontend" / "openapi.json"
    assert json.loads(committed.read_text()) == schema, "frontend/openapi.json is stale: make openapi"
