"""Secrets never leak: with a sentinel ``OPENAI_API_KEY`` and ``PSE_WEB_TOKEN`` in the environment,
every task runs through the CLI and the dashboard, and ``openai:`` runs go to a fake
OpenAI-compatible server (one answering 401 with the key echoed back, one answering). Then every
trace file, event log, artifact, workspace file, prepared file, log line (caplog and subprocess
stderr), error message and HTTP response (body and headers) is searched: 0 occurrences.

Also: with ``openai:`` the resume-tailor CV's e-mail address and phone number never reach the
server nor the trace, while the final ``artifact.md`` has them restored."""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.web import create_app
from tests.hardening.helpers import ROOT, SCRIPTED, FakeOpenAI, base_env, cli_proc, completion, run_dirs
from tests.scripting import TESTS, cycle, save, script
from tests.structured_support import object_reply
from tests.web.web_helpers import ServerThread, collect, make_settings

KEY_SECRET = secrets.token_hex(12)
TOKEN_SECRET = secrets.token_hex(12)
API_KEY = f"sk-SENTINEL-{KEY_SECRET}"
WEB_TOKEN = f"tok-SENTINEL-{TOKEN_SECRET}"
SENTINELS = (KEY_SECRET, TOKEN_SECRET)  # the random parts: any fragment of either value
CV = (ROOT / "tasks" / "resume-tailor" / "data" / "cv.md").read_text()
EMAIL = "elena.marsh@example.com"
PHONE = "+44 7700 900123"
PII = (EMAIL, PHONE, "7700 900123", "7700900123")

ENV_DUMP_TEST = TESTS + '''

def test_environment_is_clean():
    import os
    print(dict(os.environ))
    assert False, dict(os.environ)
'''


def find(haystacks: Iterable[tuple[str, str | bytes]], needles: Iterable[str] = SENTINELS) -> list[str]:
    """``["<where>: <needle>", ...]`` for every needle found in any haystack."""
    hits = []
    for where, text in haystacks:
        data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        hits += [f"{where}: {n}" for n in needles if n.encode() in data]
    return hits


def tree(root: Path) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()] if root.exists() else []


def demo_env_dump_script(path: Path) -> Path:
    """A demo run whose test file prints the whole environment (tool output, check detail)."""
    doc = script(cycle("PASS"))
    doc["specialist"][0]["tool_calls"][1]["arguments"]["content"] = ENV_DUMP_TEST
    return save(doc, path)


def secret_env(tmp: Path, **extra: str) -> dict[str, str]:
    return base_env(tmp, OPENAI_API_KEY=API_KEY, PSE_WEB_TOKEN=WEB_TOKEN, **extra)


@pytest.mark.timeout(170)
async def test_no_secret_in_any_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("PSE_WEB_TOKEN", WEB_TOKEN)
    demo = demo_env_dump_script(tmp_path / "demo_env.json")
    runs = {
        "demo": f"scripted:{demo}",
        "portfolio-review": f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}",
        "resume-tailor": f"scripted:{SCRIPTED / 'resume_fix_then_pass.json'}",
    }
    outputs: list[tuple[str, str | bytes]] = []

    # 1. the CLI, as a user runs it (live output for one, JSON for the others)
    for task, model in runs.items():
        cycles = "1" if task == "demo" else "2"  # demo: its failing env-dump test makes cycle 1 PARTIAL
        args = ["run", task, "--model", model, "--max-cycles", cycles] + (["--json"] if task != "demo" else [])
        proc = cli_proc(tmp_path, *args, env=secret_env(tmp_path))
        assert proc.returncode in (0, 1), proc.stderr
        outputs += [(f"cli {task} stdout", proc.stdout), (f"cli {task} stderr", proc.stderr)]
    for args in (["trace"], ["kb", "stats"]):
        proc = cli_proc(tmp_path, *args, env=secret_env(tmp_path))
        outputs += [(f"cli {args}", proc.stdout + proc.stderr)]
    cli_runs = run_dirs(tmp_path / "traces")
    assert len(cli_runs) == 3
    demo_trace = json.loads((cli_runs[0] / "trace.json").read_text())
    # the environment dump did run: the failing test's output is in the trace (minus secrets)
    assert "test_environment_is_clean" in json.dumps(demo_trace)

    # 2. the dashboard, with the token
    web_tmp = tmp_path / "web"
    settings = make_settings(web_tmp, web_token=WEB_TOKEN, openai_api_key=API_KEY, web_scripted_dir=tmp_path)
    for name in ("portfolio_fix_then_pass.json", "resume_fix_then_pass.json"):  # web scripts: from that folder
        (tmp_path / name).write_bytes((SCRIPTED / name).read_bytes())
    runs = {task: f"scripted:{tmp_path / Path(spec.split(':', 1)[1]).name}" for task, spec in runs.items()}
    responses: list[httpx.Response] = []
    auth = {"Authorization": f"Bearer {WEB_TOKEN}"}
    with ServerThread(create_app(settings)) as srv:
        # no keep-alive: a pooled connection idle past uvicorn's keep-alive timeout races its close
        limits = httpx.Limits(max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=60, limits=limits) as c:
            responses.append(await c.post("/api/login", json={"token": WEB_TOKEN}))
            responses.append(await c.post("/api/login", json={"token": WEB_TOKEN[:-1] + "0"}))
            responses.append(await c.get("/api/runs", headers={"Authorization": f"Bearer {WEB_TOKEN}x"}))
            ids = []
            for task, model in runs.items():
                body = {"task": task, "model": model, "max_cycles": 1 if task == "demo" else 2}
                r = await c.post("/api/runs", json=body, headers=auth)
                assert r.status_code == 202, r.text
                responses.append(r)
                ids.append(r.json()["run_id"])
                frames = await collect(c, f"/api/runs/{ids[-1]}/events", headers=auth, timeout=120)
                outputs.append((f"sse {task}", "\n".join(f.data for f in frames)))
            for path in ("/api/health", "/api/tasks", "/api/runs", "/api/auth", "/api/openapi.json",
                         "/api/runs/01ARZ3NDEKTSV4RRFFQ69G5FAV", "/api/runs?verdict=nope", "/", "/nope"):
                responses.append(await c.get(path, headers=auth))
            for run_id in ids:
                for suffix in ("", "/artifact", "/artifact?raw=true"):
                    responses.append(await c.get(f"/api/runs/{run_id}{suffix}", headers=auth))
    assert len(run_dirs(web_tmp / "traces")) == 3
    assert all(r.status_code < 500 for r in responses), [(r.url.path, r.status_code, r.text[:300]) for r in responses if r.status_code >= 500]
    for r in responses:
        headers = {k: v for k, v in r.headers.items() if not (k == "set-cookie" and r.url.path == "/api/login")}
        outputs += [(f"HTTP {r.url} body", r.content), (f"HTTP {r.url} headers", json.dumps(headers))]

    # 3. openai: a server that refuses the key (and echoes it back, as real ones partly do)
    def refuse(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return 401, {"error": {"message": f"Incorrect API key provided: {API_KEY}.", "type": "invalid_request_error",
                               "code": "invalid_api_key"}}

    with FakeOpenAI(refuse) as fake:
        proc = cli_proc(tmp_path, "run", "resume-tailor", "--model", "openai:gpt-4o-mini",
                        env=secret_env(tmp_path, OPENAI_BASE_URL=fake.url, PSE_STATE_DIR=str(tmp_path / "state")))
        assert fake.requests and fake.requests[0]["headers"].get("authorization") == f"Bearer {API_KEY}"
    assert proc.returncode == 3, proc.stderr
    assert "401" in proc.stdout and "Incorrect API key provided" in proc.stdout
    outputs += [("openai 401 stdout", proc.stdout), ("openai 401 stderr", proc.stderr)]

    # everything on disk, every log line
    for root in (tmp_path / "traces", tmp_path / "state", web_tmp / "traces", web_tmp / "state"):
        outputs += tree(root)
    # (this test's own HTTP client logs the session cookie the login sets: that record is not the product's)
    records = [r for r in caplog.records
               if not (r.name.startswith("httpcore") and b"pse_token=" in r.getMessage().encode())]
    outputs += [(f"log {r.name}", caplog.handler.format(r)) for r in records]
    assert len(outputs) > 100 and len(records) > 100, (len(outputs), len(records))
    assert find(outputs) == []


@pytest.mark.parametrize("mode", ["auto", "prose"])  # auto: a structured run (the CV rendered from an object)
async def test_openai_run_redacts_contact_details_and_restores_them_in_the_artifact(
    settings: Settings, caplog: pytest.LogCaptureFixture, mode: str
) -> None:
    caplog.set_level(logging.DEBUG)
    placeholders: list[str] = []

    def answer(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        system = str(body["messages"][0]["content"])
        if system.startswith("You are the planner"):
            return 200, completion("1. Lead with the payments work.\n2. Keep every figure and date of the CV.")
        if system.startswith("You are the specialist"):
            sent = json.dumps(body)
            found = sorted(set(re.findall(r"\[\[(?:EMAIL|PHONE)_\d+\]\]", sent)))
            placeholders.extend(found)
            email = next(p for p in found if "EMAIL" in p)
            phone = next(p for p in found if "PHONE" in p)
            obj = object_reply(body)  # a structured run: the endpoint returns the tailored-CV object
            return 200, completion(obj if obj is not None else CV.replace(EMAIL, email).replace(PHONE, phone))
        verdict = {"outcome": "PASS", "reason": "OK", "issues": [], "summary": "Faithful to the CV."}
        return 200, completion("Checked claim by claim.\n```verdict\n" + json.dumps(verdict) + "\n```")

    with FakeOpenAI(answer) as fake:
        s = settings.model_copy(update={"openai_base_url": fake.url, "openai_api_key": SecretStr(API_KEY),
                                        "max_cycles": 1, "artifact_mode": mode})
        result = await run_task(RunRequest(task="resume-tailor", model="openai:gpt-4o-mini"), s)
    assert result.artifact_mode == ("prose" if mode == "prose" else "structured")
    assert result.status == "finished", result.error
    assert len(fake.requests) == 3 and placeholders == ["[[EMAIL_1]]", "[[PHONE_1]]"]
    sent = [(f"request {n}", r["raw"]) for n, r in enumerate(fake.requests)]
    assert EMAIL.split("@")[0] not in json.dumps([r["raw"].decode() for r in fake.requests])
    assert find(sent, PII) == []
    run_dir = Path(result.trace_dir)
    recorded = [(str(run_dir / name), (run_dir / name).read_bytes()) for name in ("trace.json", "events.jsonl")]
    assert find(recorded, PII) == []
    assert b"[[EMAIL_1]]" in recorded[1][1]  # what the model saw and said is what the trace holds
    artifact = Path(result.artifact_path or "").read_text()
    assert EMAIL in artifact and PHONE in artifact and "[[EMAIL_" not in artifact
    assert find([("caplog", caplog.text)], PII + SENTINELS) == []
    assert find(sent + recorded + [("artifact", artifact)]) == []


async def test_kb_search_results_are_redacted_for_remote_models(settings: Settings,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import inspect

    from autogen_pse.events import EventEmitter
    from autogen_pse.grounding import Grounding
    from autogen_pse.knowledge import retrieve
    from autogen_pse.redact import Redactor
    from autogen_pse.registry import load_task

    def fake_make(*args: Any, **kwargs: Any) -> Any:
        async def kb_search(query: str, k: int = 4) -> str:
            """Search the task's knowledge base."""
            return f"[1] source/contact.md: write to {EMAIL} or call {PHONE} about {query}"
        return kb_search

    monkeypatch.setattr(retrieve, "make_kb_search", fake_make)
    ground = Grounding(settings=settings, task=load_task(settings.tasks_dir, "resume-tailor"))
    ground.redactor = Redactor()
    tool = ground.kb_search_for("specialist", EventEmitter("01ARZ3NDEKTSV4RRFFQ69G5FAV"))
    assert tool is not None and tool.__name__ == "kb_search"
    assert list(inspect.signature(tool).parameters) == ["query", "k"]
    out = await tool("contact", k=2)
    assert out == "[1] source/contact.md: write to [[EMAIL_1]] or call [[PHONE_1]] about contact"
