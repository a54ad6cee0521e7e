"""Model faults inside a cycle (connection, timeout, 429, 5xx): retried with backoff; when retries
run out the run ends with status ``error`` and keeps its completed cycles and the partial cycle's
events. Extends tests/integration/test_cycle_loop.py (faults at the planner's first call there)
with faults in every role, between a tool call and its reflection, during the verdict re-ask, a
garbage verdict block, and the CLI's exit code and stderr."""

from __future__ import annotations

import json
import logging
import re
import time
from pathlib import Path
from typing import Any

import pytest
from autogen_core.models import UserMessage

from autogen_pse.config import Settings
from autogen_pse.models import open_provider
from autogen_pse.runner import RunRequest, RunResult, run_task
from autogen_pse.store import TraceStore
from autogen_pse.verdict import VerdictParseError, parse_trailer
from tests.hardening.helpers import base_env, cli, cli_proc, read_events
from tests.scripting import PLAN, QUICKSORT_BUGGY, RUN_TOOLS, cycle, review, save, script, write_files

FAULTS = ("connection", "timeout", "rate_limit", "server")
KIND_TEXT = {"connection": "connection error", "timeout": "timeout", "rate_limit": "rate limit (HTTP 429)",
             "server": "server error (HTTP 500)"}


async def _run(settings: Settings, tmp_path: Path, doc: dict[str, Any], **kw: Any) -> RunResult:
    path = save(doc, tmp_path / "script.json")
    return await run_task(RunRequest(task="demo", model=f"scripted:{path}", **kw), settings)


def _trace(result: RunResult) -> dict[str, Any]:
    return json.loads((Path(result.trace_dir) / "trace.json").read_text())


def _fault(kind: str) -> dict[str, Any]:
    return {"error": kind}


async def test_faults_in_every_role_and_between_tool_call_and_reflection_are_retried(
    settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    doc = {
        "planner": [_fault("server"), {"error": "rate_limit", "retry_after": 0.01}, PLAN],
        # a fault before the tool call and one on the reflection call after the tools ran
        "specialist": [_fault("connection"), write_files(), _fault("timeout"), _fault("server"),
                       "Both files are written."],
        "evaluator": [_fault("rate_limit"), RUN_TOOLS, _fault("connection"), review("PASS")],
    }
    injected = sum(1 for replies in doc.values() for r in replies if isinstance(r, dict) and "error" in r)
    with caplog.at_level(logging.WARNING, logger="autogen_pse.models.retry"):
        result = await _run(settings, tmp_path, doc)
    assert (result.status, result.verdict, result.cycles, result.verified) == ("finished", "PASS", 1, True)
    retries = [r for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) == injected == 7
    trace = _trace(result)
    # a failed call reports no usage: 5 answered calls (plan, tool call + reflection, tool call, review)
    assert trace["usage"]["model_calls"] == result.usage["model_calls"] == 5
    assert trace["warnings"] == [] and trace["error"] is None


async def test_backoff_grows_and_retry_after_is_honoured(settings: Settings, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    path = save({"planner": [_fault("server"), _fault("timeout"), _fault("connection"), "ok",
                             {"error": "rate_limit", "retry_after": 0.3}, "ok again"]}, tmp_path / "s.json")
    s = settings.model_copy(update={"retry_base_delay": 0.04, "retry_max_delay": 1.0})
    provider = open_provider(f"scripted:{path}", s)
    client = provider.client_for("planner")
    messages = [UserMessage(content="plan", source="user")]
    with caplog.at_level(logging.WARNING, logger="autogen_pse.models.retry"):
        t0 = time.perf_counter()
        first = await client.create(messages)
        backoff = time.perf_counter() - t0
        t1 = time.perf_counter()
        second = await client.create(messages)
        waited = time.perf_counter() - t1
    await provider.close()
    assert (first.content, second.content) == ("ok", "ok again")
    delays = [float(m) for m in re.findall(r"retrying in ([0-9.]+)s", caplog.text)]
    assert len(delays) == 4
    # equal jitter: attempt n waits between half and all of base * 2**(n-1)
    for n, delay in enumerate(delays[:3], start=1):
        assert 0.04 * 2 ** (n - 1) / 2 - 0.006 <= delay <= 0.04 * 2 ** (n - 1) + 0.006, delays
    assert backoff >= (0.02 + 0.04 + 0.08) * 0.95
    assert delays[3] == pytest.approx(0.3, abs=0.006) and waited >= 0.29


async def test_retries_exhausted_mid_cycle_keep_completed_and_partial_cycle(
    settings: Settings, tmp_path: Path
) -> None:
    first = cycle("PARTIAL", "TEST_FAILURE", ["duplicates are lost"], code=QUICKSORT_BUGGY)
    doc = script(first)
    doc["planner"].append(PLAN + "\nFix the duplicates.")
    # cycle 2: the specialist's tool call runs, then its reflection call fails 5 times (1 + 4 retries)
    doc["specialist"] += [write_files(), *[_fault("server")] * 5]
    result = await _run(settings, tmp_path, doc)
    assert (result.status, result.exit_code, result.cycles) == ("error", 3, 2)
    assert result.error is not None
    assert result.error.startswith("ModelError: model call failed after 5 attempts: server error (HTTP 500)")
    trace = _trace(result)
    assert trace["status"] == "error" and trace["error"] == result.error
    done, partial = trace["cycles"]
    assert done["verdict"]["outcome"] == "PARTIAL" and done["checks"]
    assert partial["kind"] == "fix" and not partial.get("verdict")
    kinds = [(m["source"], m["type"]) for m in partial["messages"]]
    assert kinds[:3] == [("planner", "TextMessage"), ("specialist", "tool_call"), ("specialist", "tool_result")]
    assert "Fix the duplicates." in partial["messages"][0]["content"]
    assert partial["usage"]["model_calls"] == 2  # the calls of the interrupted cycle still count
    events = read_events(Path(result.trace_dir))
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["kind"] == "run_finished" and events[-1]["payload"]["status"] == "error"
    assert sum(1 for e in events if e["cycle"] == 2 and e["kind"] in ("message", "tool_call", "tool_result")) == 3
    # the artifact of the last completed cycle is kept, unverified, with its open issues
    assert not result.verified and result.artifact_path and "[pivot]" in Path(result.artifact_path).read_text()
    row = TraceStore(settings).get(result.run_id)
    assert (row.status, row.cycles, row.error) == ("error", 2, result.error)


@pytest.mark.parametrize("kind", FAULTS)
async def test_each_fault_kind_names_itself_when_retries_run_out(settings: Settings, tmp_path: Path,
                                                                 kind: str) -> None:
    s = settings.model_copy(update={"openai_max_retries": 1})
    result = await _run(s, tmp_path, {"planner": [_fault(kind)] * 2})
    assert result.status == "error" and result.exit_code == 3
    assert result.error == (f"ModelError: model call failed after 2 attempts: {KIND_TEXT[kind]}; "
                            "the scripted file script.json injects these faults")
    trace = _trace(result)
    assert trace["status"] == "error" and len(trace["cycles"]) == 1 and trace["cycles"][0]["messages"] == []


async def test_faults_during_the_verdict_reask_end_in_error_keeping_the_first_answer(
    settings: Settings, tmp_path: Path
) -> None:
    c = cycle("PASS")
    c["evaluator"] = [RUN_TOOLS, "Looks fine to me: PASS.", *[_fault("timeout")] * 5]
    result = await _run(settings, tmp_path, script(c))
    assert result.status == "error" and "after 5 attempts: timeout" in (result.error or "")
    [only] = _trace(result)["cycles"]
    texts = [m["content"] for m in only["messages"] if m["source"] == "evaluator" and m["type"] == "TextMessage"]
    assert texts == ["Looks fine to me: PASS."]


@pytest.mark.parametrize("body", [
    "[" * 50_000 + "]" * 50_000,                        # nesting deeper than the JSON decoder allows
    '{"outcome": "PASS", "reason": "OK", "n": ' + "9" * 5000 + "}",  # over Python's int-digit limit
    "\x00\ud800",                                        # a lone surrogate (JSON escape "\\ud800")
])
def test_garbage_verdict_blocks_are_parse_errors(body: str) -> None:
    with pytest.raises(VerdictParseError):
        parse_trailer(f"Done.\n```verdict\n{body}\n```")


async def test_garbage_model_text_counts_as_format_issue_not_crash(settings: Settings, tmp_path: Path) -> None:
    """A reply with a lone surrogate once failed the run (token count, then event serialisation)."""
    c = cycle("PASS")
    garbage = "Done \ud800.\n```verdict\n\x00\ud800" + "[" * 5000 + "\n```"
    c["evaluator"] = [RUN_TOOLS, garbage, garbage]
    result = await _run(settings.model_copy(update={"max_cycles": 1}), tmp_path, script(c))
    assert result.status == "finished" and result.limit == "max_cycles"
    [only] = _trace(result)["cycles"]
    assert (only["verdict"]["reason"], only["verdict_origin"]) == ("FORMAT_ISSUE", "format")
    assert any("Done \ufffd." in (m["content"] or "") for m in only["messages"]), [m["content"][:40] for m in only["messages"] if m["content"]]


def test_cli_retries_exhausted_exit_3_one_clear_error_no_traceback(tmp_path: Path) -> None:
    doc = save({"planner": [PLAN], "specialist": [write_files(), *[_fault("connection")] * 3]},
               tmp_path / "faulty.json")
    proc = cli_proc(tmp_path, "run", "demo", "--model", f"scripted:{doc}", "--quiet",
                    env=base_env(tmp_path, PSE_OPENAI_MAX_RETRIES="2"))
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "model call failed after 3 attempts: connection error" in " ".join(proc.stdout.split())
    assert "RuntimeError" not in proc.stdout
    # stderr: one line per retry, no autogen tracebacks
    assert [line for line in proc.stderr.splitlines() if line.strip()] == [
        f"WARNING autogen_pse.models.retry: model call attempt {n} failed (connection error); retrying in 0.00s"
        for n in (1, 2)]


def test_model_chosen_tool_names_with_markup_do_not_break_the_live_output(tmp_path: Path) -> None:
    """A tool name is model output: ``[/]`` in it once crashed the console sink and so the run."""
    c = cycle("PASS")
    c["specialist"] = [{"tool_calls": [{"name": "[/][/]oops", "arguments": {}}]}, write_files(),
                       "Both files are written."]
    doc = save(script(c), tmp_path / "markup.json")
    result = cli("run", "demo", "--model", f"scripted:{doc}")
    assert result.code == 0, result.err
    assert "[/][/]oops" in result.out and "Traceback" not in result.err
