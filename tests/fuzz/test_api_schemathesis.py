"""schemathesis against the OpenAPI schema of a RUNNING server: a real uvicorn on a free loopback
port, a tmp traces dir, and a model policy that admits only a scripted model file in a tmp folder
(so nothing the fuzzer sends can reach a paid or local model, or make the server read a file
outside that folder as a script). Every operation gets positive and negative examples; known run
ids are mixed into path parameters so finished traces, artifacts and streams are exercised too.

Checks: no 5xx on any route (``not_a_server_error``), status codes and content types documented,
bodies matching their response schemas, and invalid input rejected with a 4xx. The number of
examples per operation and mode is bounded (``PSE_FUZZ_EXAMPLES``, default 100) so the whole module
finishes in well under two minutes.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from tests.web.web_helpers import ServerThread, make_settings

from autogen_pse.store import TraceStore
from autogen_pse.web import create_app
from autogen_pse.web.deps import StreamConfig
from autogen_pse.web.policy import scripted_only

schemathesis = pytest.importorskip("schemathesis", reason="pip install schemathesis==4.32.5")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = int(os.environ.get("PSE_FUZZ_EXAMPLES", "100"))
INFINITE = {("GET", "/api/events")}  # the global feed never ends: checked separately below
BLOCKED_REPLY = "I need input.\n\n```verdict\n" + json.dumps(
    {"outcome": "BLOCKED", "reason": "NEEDS_INPUT", "issues": ["which pivot?"], "summary": "needs input"}) + "\n```"
PASS_SCRIPT = {
    "planner": ["Plan: write quicksort.py and its tests."],
    "specialist": ["Here is the artifact.\n\n# Report\n\nDone."],
    "evaluator": ["Looks right.\n\n```verdict\n" + json.dumps(
        {"outcome": "PASS", "reason": "OK", "issues": [], "summary": "fine"}) + "\n```"],
}


@dataclass
class Live:
    base_url: str
    settings: Any
    scripted_dir: Path
    known_ids: list[str]
    stats: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    root = tmp_path_factory.mktemp("fuzz")
    scripted = root / "scripted"
    scripted.mkdir()
    (scripted / "blocked.json").write_text(json.dumps({"planner": [BLOCKED_REPLY] * 500}))
    (scripted / "pass.json").write_text(json.dumps(PASS_SCRIPT))
    (root / "outside.json").write_text(json.dumps({"planner": [BLOCKED_REPLY]}))
    settings = make_settings(root, model=f"scripted:{scripted / 'blocked.json'}", max_cycles=1, web_concurrency=2,
                             web_scripted_dir=scripted)
    app = create_app(settings, stream=StreamConfig(retry_ms=500, ping=0.5, idle=0.1, send_timeout=5.0),
                     max_queue=20, model_policy=scripted_only(scripted))
    with ServerThread(app) as srv, httpx.Client(base_url=srv.base_url, timeout=30) as c:
        ids = []
        for model in ("blocked.json", "pass.json"):
            r = c.post("/api/runs", json={"task": "demo", "model": f"scripted:{scripted / model}"})
            assert r.status_code == 202, r.text
            ids.append(r.json()["run_id"])
        for run_id in ids:  # wait until both are over, so their streams end
            for _ in range(600):
                if c.get(f"/api/runs/{run_id}").json()["status"] not in ("queued", "running"):
                    break
                __import__("time").sleep(0.05)
        yield Live(srv.base_url, settings, scripted, ids)


def _operations(live: Live) -> list[Any]:
    schema = schemathesis.openapi.from_url(f"{live.base_url}/api/openapi.json")
    ops = [result.ok() for result in schema.get_all_operations()]
    assert len(ops) >= 10
    return ops


def _label(op: Any) -> str:
    return f"{op.method.upper()} {op.path}"


def test_schema_lists_every_route(live: Live) -> None:
    labels = {_label(op) for op in _operations(live)}
    for expected in ("GET /api/tasks", "GET /api/runs", "POST /api/runs", "GET /api/runs/{run_id}",
                     "GET /api/runs/{run_id}/artifact", "POST /api/runs/{run_id}/cancel",
                     "GET /api/runs/{run_id}/events", "GET /api/events", "GET /api/health", "POST /api/login",
                     "POST /api/logout", "GET /api/auth"):
        assert expected in labels, expected


def _fuzz(live: Live, session: requests.Session, op: Any, mode: GenerationMode) -> None:
    """``EXAMPLES`` generated requests to one operation; raises on the first failed check."""
    checks = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    if mode is GenerationMode.NEGATIVE:
        checks.append(negative_data_rejection)
    positive = mode is GenerationMode.POSITIVE

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=op.as_strategy(generation_mode=mode), known=st.sampled_from([None, *live.known_ids]),
           demo=st.booleans())
    def run(case: Any, known: str | None, demo: bool) -> None:
        if positive and known and isinstance(case.path_parameters, dict) and "run_id" in case.path_parameters:
            case.path_parameters["run_id"] = known  # a real run: trace, artifact, finished stream, 409
        if positive and demo and op.path == "/api/runs" and isinstance(case.body, dict):
            case.body["task"] = "demo"  # let some requests really start (scripted) runs
        response = case.call(base_url=live.base_url, session=session, timeout=30)
        live.stats[f"{_label(op)} {mode.value}"] += 1
        live.statuses[response.status_code] += 1
        if response.status_code >= 500:
            live.server_errors.append(f"{_label(op)} -> {response.status_code}: {response.text[:200]}")
        case.validate_response(response, checks=checks)

    run()


@pytest.mark.timeout(170)
def test_no_server_errors_on_any_route(live: Live) -> None:
    session = requests.Session()
    ops = [op for op in _operations(live) if (op.method.upper(), op.path) not in INFINITE]
    failures: list[str] = []
    for op in ops:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _fuzz(live, session, op, mode)
            except Unsatisfiable:  # nothing to make invalid (no parameters, no body)
                assert mode is GenerationMode.NEGATIVE, _label(op)
                live.stats["no negative data"] += 1
            except BaseException as exc:  # collect every operation's first failure, then report all
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                failures.append(f"{_label(op)} [{mode.value}]: {type(exc).__name__}: {str(exc)[:1500]}")
    total = sum(v for k, v in live.stats.items() if k != "no negative data")
    print(f"\nschemathesis: {total} requests over {len(ops)} operations; statuses {dict(live.statuses)}")
    assert live.server_errors == [], live.server_errors
    assert failures == [], "\n\n".join(failures)
    assert total >= len(ops) * 2 * min(EXAMPLES, 5)


def test_runs_the_fuzzer_started_are_all_scripted(live: Live) -> None:
    store = TraceStore(live.settings)
    page = store.index.list(limit=1000)
    assert page.count >= 2
    for row in page.data:
        assert row.model and row.model.startswith("scripted:"), row.model
    for entry in live.settings.traces_dir.iterdir():
        trace = entry / "trace.json"
        if trace.is_file():
            model = json.loads(trace.read_text()).get("model") or ""
            assert model.startswith("scripted:"), model


@pytest.mark.parametrize("model", ["local", "openai:gpt-4o", "openai:x", "scripted:{outside}",
                                   "scripted:{scripted}/../outside.json", "scripted:/etc/passwd"])
def test_the_fuzzed_server_refuses_other_models(live: Live, model: str) -> None:
    spec = model.format(outside=live.scripted_dir.parent / "outside.json", scripted=live.scripted_dir)
    r = httpx.post(f"{live.base_url}/api/runs", json={"task": "demo", "model": spec}, timeout=10)
    assert r.status_code == 422 and "model not allowed" in r.json()["detail"]


def test_the_global_feed_answers_and_streams(live: Live) -> None:
    with httpx.stream("GET", f"{live.base_url}/api/events", timeout=10) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        first = next(r.iter_lines())
        assert first.startswith(("retry:", ":"))
