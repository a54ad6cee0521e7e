"""Registry loading (prompts, placeholders, templates) and the verdict protocol."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autogen_pse.config import PROJECT_ROOT, Settings
from autogen_pse.cycle_text import fix_task_text, replan_task_text
from autogen_pse.errors import UserError
from autogen_pse.hooks import CheckResult
from autogen_pse.registry import load_task
from autogen_pse.verdict import (
    Outcome,
    Reason,
    Verdict,
    VerdictParseError,
    declared_blocked,
    format_trailer,
    merge_checks,
    parse_trailer,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tasks(tmp_path: Path) -> Path:
    dst = tmp_path / "tasks"
    shutil.copytree(ROOT / "tasks" / "demo", dst / "demo")
    (dst / "_registry.json").write_text(json.dumps({"tasks": [{"name": "demo", "title": "Demo"}]}))
    return dst


def test_rules_file_is_injected_and_no_placeholder_survives(tasks: Path) -> None:
    task = load_task(tasks, "demo")
    assert "standard library only" in task.prompts["specialist"]
    assert "```verdict" in task.prompts["evaluator"]
    for prompt in task.prompts.values():
        assert "{RULES}" not in prompt and "{VERDICT_FORMAT}" not in prompt and "{BLOCKED_FORMAT}" not in prompt


def test_unknown_placeholder_is_a_user_error(tasks: Path) -> None:
    (tasks / "demo" / "prompts" / "planner.md").write_text("Plan. {SECRET_SAUCE}")
    with pytest.raises(UserError, match=r"planner\.md: unknown placeholder \{SECRET_SAUCE\}"):
        load_task(tasks, "demo")


def test_rules_placeholder_without_rules_file(tasks: Path) -> None:
    (tasks / "demo" / "prompts" / "specialist_rules.md").unlink()
    with pytest.raises(UserError, match=r"create prompts/specialist_rules\.md"):
        load_task(tasks, "demo")


def test_missing_prompt_file(tasks: Path) -> None:
    (tasks / "demo" / "prompts" / "evaluator.md").unlink()
    with pytest.raises(UserError, match=r"evaluator\.md: prompt file missing"):
        load_task(tasks, "demo")


@pytest.mark.parametrize("name", ["../demo", "demo/..", "/etc", "DEMO", "", "a" * 80, "de mo"])
def test_task_names_with_path_characters_are_refused(tasks: Path, name: str) -> None:
    with pytest.raises(UserError, match="invalid task name"):
        load_task(tasks, name)


def test_malformed_registry(tasks: Path) -> None:
    (tasks / "_registry.json").write_text('{"tasks": [ {"name": "demo", }]}')
    with pytest.raises(UserError, match=r"_registry\.json: not valid JSON \(line 1"):
        load_task(tasks, "demo")
    (tasks / "_registry.json").write_text('{"tasks": [{"title": "no name"}]}')
    with pytest.raises(UserError, match=r"invalid at tasks\.0\.name"):
        load_task(tasks, "demo")


def test_template_fields_come_from_vars(tasks: Path) -> None:
    (tasks / "demo" / "task.md").write_text("Sort {count} items in {language}. Keep {{braces}} and {UPPER}.")
    task = load_task(tasks, "demo")
    with pytest.raises(UserError, match=r"--var count=\.\.\. --var language=\.\.\."):
        task.render_task({})
    assert task.render_task({"count": "5", "language": "Python"}) == \
        "Sort 5 items in Python. Keep {{braces}} and {UPPER}."


def test_env_file_is_read_from_the_project_root_not_the_cwd(tmp_path: Path) -> None:
    assert Settings.model_config["env_file"] == PROJECT_ROOT / ".env"
    (tmp_path / ".env").write_text("PSE_MODEL=from-cwd\n")
    code = "from autogen_pse.config import Settings; print(Settings().model)"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={"PATH": "/usr/bin", "PYTHONPATH": str(ROOT / "src")}, check=True).stdout
    assert "from-cwd" not in out


# --- verdict protocol ---------------------------------------------------------------------------

def _v(outcome: str = "PASS", reason: str = "OK", issues: list[str] | None = None) -> Verdict:
    return Verdict(outcome=Outcome(outcome), reason=Reason(reason), issues=issues or [], summary="s")


def test_trailer_round_trip_and_only_the_last_block_counts() -> None:
    text = f"Quoted example:\n{format_trailer(_v('PASS'))}\nMy review.\n{format_trailer(_v('PARTIAL', 'INCOMPLETE'))}\n"
    assert parse_trailer(text).outcome is Outcome.PARTIAL


@pytest.mark.parametrize("text", [
    "PASS", "BYPASS", "This is not a PASS.", "VERDICT: PASS",
    format_trailer(_v()) + "\nand one more thing",
    "```verdict\n{\"outcome\": \"PASS\"}\n```",
    "```verdict\nnot json\n```",
    "```verdict\n{\"outcome\": \"PASS\", \"reason\": \"LIMIT_REACHED\"}\n```",
    "```json\n{\"outcome\": \"PASS\", \"reason\": \"OK\", \"issues\": [], \"summary\": \"\"}\n```",
])
def test_prose_and_malformed_trailers_never_parse(text: str) -> None:
    with pytest.raises(VerdictParseError):
        parse_trailer(text)


def test_declared_blocked_only_for_blocked() -> None:
    assert declared_blocked("need data\n" + format_trailer(_v("BLOCKED", "NEEDS_INPUT"))) is not None
    assert declared_blocked("done\n" + format_trailer(_v("PASS"))) is None


def test_merge_checks_downgrades_pass_only() -> None:
    tests = CheckResult(name="tests", ok=False, detail="1 failed", reason=Reason.TEST_FAILURE)
    merged = merge_checks(_v("PASS"), [tests])
    assert (merged.outcome, merged.reason) == (Outcome.PARTIAL, Reason.TEST_FAILURE)
    assert merged.issues == ["[check tests] 1 failed"]
    style = CheckResult(name="style", ok=False, severity="warning", detail="w")
    assert merge_checks(_v("PASS"), [style]).outcome is Outcome.PASS
    rules = CheckResult(name="rules", ok=False, detail="x")
    assert merge_checks(_v("FAIL", "DATA_MISMATCH"), [rules]).outcome is Outcome.FAIL


def test_fix_and_replan_texts() -> None:
    v = Verdict(outcome=Outcome.PARTIAL, reason=Reason.DATA_MISMATCH, issues=["a", "b"], summary="x" * 5000)
    fix = fix_task_text("TASK", "ARTIFACT", v)
    assert fix.startswith("TASK") and "ARTIFACT" in fix and "1. a\n2. b" in fix
    assert len(fix) < 2_000 + 600  # summary cut to 2,000 characters
    replan = replan_task_text("TASK", v)
    assert "ARTIFACT" not in replan and "1. a" in replan
