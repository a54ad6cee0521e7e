"""20 runs started at once through the dashboard (real uvicorn, the default executor, scripted
models, ``web_concurrency=4``): unique ids, the cap held, complete traces, and no message, file or
artifact of one run in another (every run carries its own marker)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from autogen_pse.store.files import EventLog
from autogen_pse.web import create_app
from tests.hardening.helpers import ROOT, rate_limits
from tests.scripting import review, save
from tests.web.web_helpers import ServerThread, make_settings

RUNS = 20
CONCURRENCY = 4


def _tasks_without_checks(tmp: Path) -> Path:
    """The demo task without its pytest check: the runs exercise the executor, not pytest."""
    tasks = tmp / "tasks"
    shutil.copytree(ROOT / "tasks" / "demo", tasks / "demo", ignore=shutil.ignore_patterns("__pycache__"))
    (tasks / "demo" / "checks.py").unlink()
    registry = json.loads((ROOT / "tasks" / "_registry.json").read_text())
    registry["tasks"] = [t for t in registry["tasks"] if t["name"] == "demo"]
    (tasks / "_registry.json").write_text(json.dumps(registry))
    return tasks


def _script(tmp: Path, marker: str, n: int) -> Path:
    code = f'"""{marker}"""\n\n\ndef ident_{n}():\n    return "{marker}"\n'
    return save({
        "planner": [*rate_limits(n % 3, 0.05), f"Plan {marker}: write one module."],
        "specialist": [
            {"tool_calls": [{"name": "write_file", "arguments": {"path": f"mod_{marker}.py", "content": code}}]},
            *rate_limits(1, 0.02),
            f"Wrote mod_{marker}.py for {marker}.",
        ],
        "evaluator": [
            {"tool_calls": [{"name": "list_files", "arguments": {}}]},
            review("PASS", summary=f"{marker} is fine"),
        ],
    }, tmp / f"script-{marker}.json")


@pytest.mark.timeout(170)
async def test_twenty_concurrent_runs_stay_isolated(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, tasks_dir=_tasks_without_checks(tmp_path), web_concurrency=CONCURRENCY,
                             web_scripted_dir=tmp_path)
    markers = [f"MARK{n:02d}X" for n in range(RUNS)]
    scripts = {m: _script(tmp_path, m, n) for n, m in enumerate(markers)}
    running_seen: list[int] = []
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=60) as c:
            responses = await asyncio.gather(*[
                c.post("/api/runs", json={"task": "demo", "model": f"scripted:{scripts[m]}", "max_cycles": 1})
                for m in markers])
            assert [r.status_code for r in responses] == [202] * RUNS, [r.text for r in responses]
            ids = {m: r.json()["run_id"] for m, r in zip(markers, responses, strict=True)}

            async def all_done() -> dict[str, Any]:
                while True:
                    health = (await c.get("/api/health")).json()
                    running_seen.append(health["running"])
                    page = (await c.get("/api/runs", params={"limit": 50})).json()
                    if page["count"] == RUNS and all(r["status"] != "running" for r in page["data"]) \
                            and health["running"] == health["queued"] == 0:
                        return page
                    await asyncio.sleep(0.1)

            page = await asyncio.wait_for(all_done(), 150)
            docs = {m: (await c.get(f"/api/runs/{ids[m]}")).json() for m in markers}
            artifacts = {m: (await c.get(f"/api/runs/{ids[m]}/artifact")).text for m in markers}

    assert len(set(ids.values())) == RUNS
    assert 2 <= max(running_seen) <= CONCURRENCY
    assert {r["run_id"] for r in page["data"]} == set(ids.values())
    assert {(r["status"], r["verdict"]) for r in page["data"]} == {("finished", "PASS")}
    for marker, run_id in ids.items():
        others = [m for m in markers if m != marker]
        run_dir = settings.traces_dir / run_id
        doc, art = docs[marker], artifacts[marker]
        assert doc["status"] == "finished" and doc["verdict"] == "PASS" and doc["artifact"]["verified"]
        texts = json.dumps(doc["cycles"])
        assert marker in texts and not [m for m in others if m in texts], marker
        on_disk = (run_dir / "events.jsonl").read_text() + (run_dir / "trace.json").read_text()
        assert not [m for m in others if m in on_disk]
        events = EventLog(run_dir / "events.jsonl").read()
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert {e.run_id for e in events} == {run_id}
        assert events[0].kind == "run_started" and events[-1].kind == "run_finished"
        assert [p.name for p in (run_dir / "workspace").iterdir()] == [f"mod_{marker}.py"]
        assert marker in art and not [m for m in others if m in art]
        *_, listed = (m for m in doc["cycles"][0]["messages"] if m["type"] == "tool_result")
        assert listed["tool_results"][0]["name"] == "list_files"
        assert f"mod_{marker}.py" in listed["tool_results"][0]["content"]  # its own workspace only
