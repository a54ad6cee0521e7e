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
