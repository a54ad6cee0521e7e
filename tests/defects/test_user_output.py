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
