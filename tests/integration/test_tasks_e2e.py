"""The grounded tasks end to end through the CLI-facing runner, scripted models, real Chroma."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, RunResult, run_task

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


def _trace(result: RunResult) -> dict[str, Any]:
    return json.loads((Path(result.trace_dir) / "trace.json").read_text())


async def test_portfolio_fix_cycle_then_pass(settings: Settings) -> None:
    req = RunRequest(task="portfolio-review", model=f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}")
    result = await run_task(req, settings)
    assert (result.verdict, result.cycles, result.verified) == ("PASS", 2, True)
    trace = _trace(result)
    first, second = trace["cycles"]
    assert first["verdict"]["outcome"] == "PARTIAL" and second["kind"] == "fix"
    failing = {c["name"] for c in first["checks"] if not c["ok"]}
    # the planted wrong AAPL weight (claim ledger) and the missing holding (coverage) were caught
    assert failing == {"claims", "coverage"}
    assert first["ledger"]["contradicted"] == 2 and second["ledger"]["contradicted"] == 0
    assert all(c["ok"] for c in second["checks"])
    # Retrieval before generation, recorded with ids, sources and scores.
    assert trace["retrievals"] and all(ch["source"] and "score" in ch for r in trace["retrievals"]
                                       for ch in r["chunks"])
    assert {r["role"] for r in trace["retrievals"]} == {"planner", "specialist", "evaluator"}
    # Raw (with {{fact:..}} references) and rendered artifacts are both kept.
    raw = (Path(result.trace_dir) / "artifact.raw.md").read_text()
    rendered = Path(result.artifact_path).read_text()
    assert "{{fact:" in raw and "{{fact:" not in rendered
    events = [json.loads(line) for line in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]
    artifact = next(e for e in events if e["kind"] == "artifact")
    assert artifact["payload"]["grounding"]["score"] == 1.0


async def test_portfolio_sanitize_then_recheck(settings: Settings) -> None:
    req = RunRequest(task="portfolio-review", model=f"scripted:{SCRIPTED / 'portfolio_sanitize.json'}")
    result = await run_task(req, settings)
    trace = _trace(result)
    first = trace["cycles"][0]
    # SELL IBM is not allowed: the claim ledger contradicts the row
    claims = next(c for c in first["checks"] if c["name"] == "claims")
    assert not claims["ok"] and "SELL is not allowed for IBM" in claims["detail"]
    assert trace["sanitize_changes"], "the rule-breaking action must be rewritten"
    change = trace["sanitize_changes"][0]
    assert "SELL" in change["before"] and "HOLD" in change["after"]
    final = trace["final_checks"]
    assert final and all(c["ok"] for c in final)  # checks ran again on the sanitized artifact
    assert result.verified and result.verdict == "PASS"
    assert "[sanitized" in Path(result.artifact_path).read_text()


@pytest.mark.parametrize(("column", "value", "field"), [("quantity", "abc", "quantity"),
                                                          ("quantity", "-5", "quantity")])
def test_portfolio_bad_input_exits_2_with_one_line(tmp_path: Path, column: str, value: str, field: str) -> None:
    src = ROOT / "tasks" / "portfolio-review" / "data" / "holdings.csv"
    rows = list(csv.reader(src.read_text().splitlines()))
    rows[2][rows[0].index(column)] = value
    bad = tmp_path / "holdings.csv"
    with bad.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    proc = _cli("run", "portfolio-review", "--model", f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}",
                "--var", f"holdings={bad}", tmp=tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and "row 3" in lines[0] and field in lines[0]
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "traces").exists() or not any((tmp_path / "traces").iterdir())


def test_portfolio_missing_column_and_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "prices.csv"
    empty.write_text("")
    proc = _cli("prepare", "portfolio-review", "--var", f"prices={empty}", tmp=tmp_path)
    assert proc.returncode == 2 and str(empty) in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    src = (ROOT / "tasks" / "portfolio-review" / "data" / "holdings.csv").read_text().splitlines()
    cut = tmp_path / "holdings.csv"
    cut.write_text("\n".join(",".join(line.split(",")[:-1]) for line in src) + "\n")
    proc = _cli("prepare", "portfolio-review", "--var", f"holdings={cut}", tmp=tmp_path)
    assert proc.returncode == 2 and "opened_on" in proc.stderr
    assert not (tmp_path / "state" / "prepared").exists() or not any(
        p.name == "facts.json" for p in (tmp_path / "state" / "prepared").rglob("*"))


def _cli(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PSE_TRACES_DIR": str(tmp / "traces"), "PSE_STATE_DIR": str(tmp / "state"),
           "HF_HUB_OFFLINE": "1", "HOME": str(tmp), "COLUMNS": "400"}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp)


@pytest.mark.local_model
async def test_portfolio_review_on_local_model(settings: Settings) -> None:
    """What `make review` does, one cycle: the structured path delivers a rendered review in the four
    sections whose structure and coverage checks pass, within the per-call prompt budget."""
    s = settings.model_copy(update={"max_cycles": 1})
    result = await run_task(RunRequest(task="portfolio-review", model="local"), s)
    assert result.status == "finished" and result.cycles == 1 and result.artifact_mode == "structured"
    trace = _trace(result)
    [cycle] = trace["cycles"]
    assert cycle["verdict"]["outcome"] in {"PASS", "PARTIAL", "FAIL", "BLOCKED"}
    assert {c["name"] for c in cycle["checks"]} >= {"structure", "coverage", "rules", "claims", "unverifiable"}
    text = Path(result.artifact_path).read_text()
    assert [x for x in text.splitlines() if x.startswith("## ")] == [
        "## Summary", "## Findings", "## Actions", "## Next steps"]
    final = {c["name"]: c["ok"] for c in result.checks}
    assert final["structure"] and final["coverage"] and final["rules"], result.checks
    events = [json.loads(x) for x in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]
    calls = [e["payload"] for e in events if e["kind"] == "model_call"]
    assert [c["role"] for c in calls][:2] == ["planner", "specialist"]
    assert all(c["prompt_tokens"] <= s.local_prompt_budget for c in calls), calls


async def test_kb_search_tool_calls_are_recorded_as_retrievals(settings: Settings, tmp_path: Path) -> None:
    doc = json.loads((SCRIPTED / "portfolio_fix_then_pass.json").read_text())
    doc["specialist"].insert(0, {"tool_calls": [{"name": "kb_search", "arguments": {"query": "stop-loss rule"}}]})
    path = tmp_path / "script.json"
    path.write_text(json.dumps(doc))
    result = await run_task(RunRequest(task="portfolio-review", model=f"scripted:{path}"), settings)
    trace = _trace(result)
    first = trace["cycles"][0]
    [call] = [m for m in first["messages"] if m["type"] == "tool_result"]
    assert "stop" in call["tool_results"][0]["content"].lower()
    via_tool = [r for r in trace["retrievals"] + first["retrievals"] if r.get("via") == "kb_search"]
    assert via_tool and via_tool[0]["query"] == "stop-loss rule" and via_tool[0]["chunks"]
