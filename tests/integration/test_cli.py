"""The command line as a user runs it: real subprocesses, exit codes, one-line errors, JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.scripting import cycle, save, script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


def cli(tmp: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "PSE_TRACES_DIR": str(tmp / "traces"), "PSE_STATE_DIR": str(tmp / "state"),
            "HOME": str(tmp), "PSE_HOME": str(tmp / "home"), "COLUMNS": "200", "PSE_RETRY_BASE_DELAY": "0.001", "PSE_RETRY_MAX_DELAY": "0.01"}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env={**base, **(env or {})}, timeout=300, cwd=tmp)


def test_run_pass_json_then_trace_listing_and_show(tmp_path: Path) -> None:
    proc = cli(tmp_path, "run", "demo", "--model", f"scripted:{SCRIPTED / 'demo_pass.json'}", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["verdict"] == "PASS" and summary["verified"] and summary["cycles"] == 1
    assert Path(summary["trace_dir"], "trace.json").is_file()

    listing = cli(tmp_path, "trace", "-n", "5", "--json")
    rows = json.loads(listing.stdout)["data"]
    assert [r["run_id"] for r in rows] == [summary["run_id"]]
    assert cli(tmp_path, "trace", "--verdict", "FAIL", "--json").stdout.count(summary["run_id"]) == 0

    shown = cli(tmp_path, "trace", "show", summary["run_id"], "--json")
    assert json.loads(shown.stdout)["run_id"] == summary["run_id"]
    human = cli(tmp_path, "trace", "show", summary["run_id"])
    assert "cycle 1" in human.stdout and "write_file" in human.stdout


def test_live_output_shows_turns_and_summary(tmp_path: Path) -> None:
    proc = cli(tmp_path, "run", "demo", "--model", f"scripted:{SCRIPTED / 'demo_fix_then_pass.json'}")
    assert proc.returncode == 0
    out = proc.stdout
    for expected in ("cycle 1 · initial", "cycle 2 · fix", "planner", "specialist", "evaluator",
                     "calls write_file", "verdict PARTIAL", "verdict PASS", "tokens so far", "summary", "trace"):
        assert expected in out, expected


def test_not_pass_exits_1(tmp_path: Path) -> None:
    doc = save(script(cycle("PARTIAL", "INCOMPLETE", ["x"])), tmp_path / "s.json")
    proc = cli(tmp_path, "run", "demo", "--model", f"scripted:{doc}", "--max-cycles", "1", "--quiet")
    assert proc.returncode == 1
    assert "BLOCKED" in proc.stdout and "max_cycles" in proc.stdout


def test_retries_exhausted_exit_3(tmp_path: Path) -> None:
    doc = save({"planner": [{"error": "server"}] * 10, "specialist": [], "evaluator": []}, tmp_path / "s.json")
    proc = cli(tmp_path, "run", "demo", "--model", f"scripted:{doc}", "--json")
    assert proc.returncode == 3
    summary = json.loads(proc.stdout)
    assert summary["status"] == "error" and "attempts" in summary["error"]
    trace = json.loads(Path(summary["trace_dir"], "trace.json").read_text())
    assert trace["status"] == "error"


def test_user_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    bad_script = tmp_path / "bad.json"
    bad_script.write_text('{"planner": "not a list"}')
    cases = [
        ("run", "nope"),
        ("run", "../etc"),
        ("run", "demo", "--model", "gpt"),
        ("run", "demo", "--model", f"scripted:{bad_script}"),
        ("run", "demo", "--model", f"scripted:{tmp_path / 'missing.json'}"),
        ("run", "demo", "--var", "novalue"),
        ("run", "demo", "--max-cycles", "0"),
        ("trace", "show", "not-an-id"),
        ("trace", "show", "01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        ("trace", "--since", "yesterday"),
        ("trace", "--verdict", "MAYBE"),
        ("kb", "search", "nope", "x"),
    ]
    for args in cases:
        proc = cli(tmp_path, *args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, proc.stderr)
        assert "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "traces").exists() or not [p for p in (tmp_path / "traces").iterdir()
                                                        if p.name != "index.sqlite" and not p.name.startswith("index")]


def test_reindex_rebuilds_a_corrupt_index(tmp_path: Path) -> None:
    proc = cli(tmp_path, "run", "demo", "--model", f"scripted:{SCRIPTED / 'demo_pass.json'}", "--json")
    run_id = json.loads(proc.stdout)["run_id"]
    (tmp_path / "traces" / "index.sqlite").write_bytes(b"garbage" * 100)
    listing = cli(tmp_path, "trace", "--json")  # rebuilt automatically
    assert [r["run_id"] for r in json.loads(listing.stdout)["data"]] == [run_id]
    (tmp_path / "traces" / "index.sqlite").unlink()
    assert "reindexed 1 runs" in cli(tmp_path, "trace", "reindex").stdout


def test_list_json(tmp_path: Path) -> None:
    data = json.loads(cli(tmp_path, "list", "--json").stdout)
    names = {t["name"] for t in data["data"]}
    assert {"demo", "portfolio-review"} <= names and data["count"] == len(names)
