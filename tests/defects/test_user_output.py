"""Issue 10, defect 8 (what a user reads): an unverified artifact.md says so in its first line."""

from __future__ import annotations

from pathlib import Path

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, run_task
from tests.scripting import QUICKSORT_BUGGY, cycle, save, script

ROOT = Path(__file__).resolve().parents[2]


async def test_an_unverified_artifact_is_marked(settings: Settings, tmp_path: Path) -> None:
    doc = script(cycle("PASS", code=QUICKSORT_BUGGY))
    s = settings.model_copy(update={"max_cycles": 1, "tool_isolation": "none"})
    result = await run_task(RunRequest(task="demo", model=f"scripted:{save(doc, tmp_path / 's.json')}"), s)
    text = Path(result.artifact_path or "").read_text()
    assert not result.verified
    assert text.startswith("> **UNVERIFIED** — this artifact did not pass verification (the run ended ")
    assert "failing checks: tests" in text.splitlines()[0] and "def quicksort" in text


async def test_a_verified_artifact_is_not_marked(settings: Settings) -> None:
    s = settings.model_copy(update={"max_cycles": 1, "tool_isolation": "none"})
    result = await run_task(RunRequest(task="demo", model=f"scripted:{ROOT / 'tests/fixtures/scripted/demo_pass.json'}"), s)
    assert result.verified and "UNVERIFIED" not in Path(result.artifact_path or "").read_text()


def _serve(tmp_path: Path, *extra: str) -> tuple[str, int]:
    """Run ``web_server.py`` (as ``make serve`` does), start two scripted runs through the API,
    stop it; its whole log and the number of lines."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import httpx

    from tests.web.web_helpers import free_port

    tmp_path.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PSE_TRACES_DIR": str(tmp_path / "traces"),
           "PSE_STATE_DIR": str(tmp_path / "state"), "PSE_TOOL_ISOLATION": "none",
           "PSE_MODEL": f"scripted:{ROOT / 'tests/fixtures/scripted/demo_pass.json'}"}
    log = tmp_path / "server.log"
    with log.open("w") as sink:
        proc = subprocess.Popen([sys.executable, str(ROOT / "web_server.py"), "--port", str(port), *extra],
                                env=env, cwd=tmp_path, stdout=sink, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        for _ in range(2):
            run_id = httpx.post(f"{base}/api/runs", json={"task": "demo", "max_cycles": 1}, timeout=30).json()["run_id"]
            for _ in range(600):
                if httpx.get(f"{base}/api/runs/{run_id}", timeout=30).json()["status"] == "finished":
                    break
                time.sleep(0.1)
    finally:
        os.kill(proc.pid, signal.SIGINT)
        proc.wait(timeout=60)
    out = log.read_text()
    return out, len(out.splitlines())


def test_the_server_log_holds_its_own_lines_not_message_contents(tmp_path: Path) -> None:
    quiet, lines = _serve(tmp_path / "quiet")
    assert "quicksort" not in quiet.lower() and "verdict" not in quiet.lower(), quiet[-3000:]
    assert lines < 60, quiet[-3000:]
    loud, _ = _serve(tmp_path / "loud", "--log-autogen")  # asked for: AutoGen's lines are there
    assert "quicksort" in loud.lower()


def test_clip_cuts_at_a_word_with_an_ellipsis() -> None:
    from autogen_pse.console import clip

    text = "the weight of AAPL is written as 47.85% but the fact says 43.85% " * 10
    cut = clip(text, 200)
    assert len(cut) <= 200 and cut.endswith("…") and text.startswith(cut[:-1])
    assert text[len(cut) - 1] == " "  # cut at a word boundary, not mid-word
    assert clip("short", 200) == "short"


def test_trace_listing_fits_80_columns_and_show_full_keeps_everything(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tests.scripting import PLAN, RUN_TOOLS, review, write_files

    long_issue = "The duplicates case fails because " + "the pivot is counted once only and " * 12 + "so on."
    doc = {"planner": [PLAN], "specialist": [write_files(), "Both files are written."],
           "evaluator": [RUN_TOOLS, review("PARTIAL", "TEST_FAILURE", [long_issue])]}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PSE_TRACES_DIR": str(tmp_path / "traces"),
           "PSE_STATE_DIR": str(tmp_path / "state"), "PSE_TOOL_ISOLATION": "none", "COLUMNS": "80"}

    def cli(*args: str) -> str:
        proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=300)
        assert proc.returncode in (0, 1), proc.stderr
        return proc.stdout

    cli("run", "demo", "--model", f"scripted:{save(doc, tmp_path / 's.json')}", "--max-cycles", "1", "--quiet")
    run_id = next(p.name for p in (tmp_path / "traces").iterdir() if p.is_dir())
    listing = cli("trace", "-n", "5")
    assert all(len(line) <= 80 for line in listing.splitlines()), listing
    row = next(line for line in listing.splitlines() if run_id in line)
    assert "demo" in row and ("PARTIAL" in row or "BLOCKED" in row)
    shown = cli("trace", "show", run_id)
    assert long_issue not in shown.replace("\n", " ") and "…" in shown
    full = cli("trace", "show", run_id, "--full")
    assert " ".join(long_issue.split()) in " ".join(full.split())
    trace = json.loads((tmp_path / "traces" / run_id / "trace.json").read_text())
    assert long_issue in trace["cycles"][0]["verdict"]["issues"]


def test_kb_search_on_a_fresh_checkout_ingests_by_itself(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PSE_TRACES_DIR": str(tmp_path / "traces"),
           "PSE_STATE_DIR": str(tmp_path / "state"), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "kb", "search", "portfolio-review", "stop-loss",
                           "--json"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout)
    assert hits and "ingest first" not in proc.stdout + proc.stderr
