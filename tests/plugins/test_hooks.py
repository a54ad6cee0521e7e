"""Hooks get one context object (settings, vars, tools) and need only `autogen_pse.hooks`; a hook
written with another signature is refused with a message naming the fix."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from autogen_pse import hooks
from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.runner import RunRequest, plan_run, run_task

ROOT = Path(__file__).resolve().parents[2]
#: files owned by the claim-ledger work (evidence hooks and their helpers use autogen_pse.claims)
CLAIM_FILES = {"evidence.py", "claims.py", "text.py", "lexicon.py"}


def _task(tmp_path: Path, checks: str, prepare: str | None = None) -> Path:
    tasks = tmp_path / "tasks"
    shutil.copytree(ROOT / "tasks" / "demo", tasks / "mini", ignore=shutil.ignore_patterns("__pycache__"))
    registry = json.loads((ROOT / "tasks" / "_registry.json").read_text())
    entry = next(t for t in registry["tasks"] if t["name"] == "demo")
    (tasks / "_registry.json").write_text(json.dumps({"tasks": [{**entry, "name": "mini"}]}))
    (tasks / "mini" / "checks.py").write_text(checks)
    if prepare is not None:
        (tasks / "mini" / "prepare.py").write_text(prepare)
    return tasks


def test_builtin_tasks_import_only_autogen_pse_hooks() -> None:
    offenders = []
    for path in (ROOT / "tasks").rglob("*.py"):
        if path.name in CLAIM_FILES or "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.startswith("autogen_pse") and n != "autogen_pse.hooks"]
    assert offenders == []


def test_the_hook_module_exports_what_tasks_need() -> None:
    for name in hooks.__all__:
        assert getattr(hooks, name) is not None, name


async def test_hooks_see_the_run_settings_vars_and_tools(tmp_path: Path, settings: Settings,
                                                        scripted_dir: Path) -> None:
    seen = tmp_path / "seen.json"
    checks = f'''
import json
from autogen_pse.hooks import CheckContext, CheckResult, Reason


def checks(ctx: CheckContext) -> list[CheckResult]:
    found = ctx.tools.pytest(ctx.workspace)
    json.dump({{"isolation": ctx.settings.tool_isolation, "ran": found.ran, "passed": found.passed,
               "cancel": ctx.cancel is not None}}, open({str(seen)!r}, "w"))
    return [CheckResult(name="tests", ok=found.passed, detail=found.summary, reason=Reason.TEST_FAILURE)]
'''
    prepare = f'''
import json
from autogen_pse.hooks import PrepareContext, Prepared


def prepare(ctx: PrepareContext) -> Prepared:
    json.dump({{"timeout": ctx.settings.tool_timeout}}, open({str(seen) + ".prep"!r}, "w"))
    return Prepared(task_text=(ctx.task_dir / "task.md").read_text())
'''
    settings = settings.model_copy(update={"tasks_dir": _task(tmp_path, checks, prepare), "tool_isolation": "none",
                                           "tool_timeout": 42.0})
    result = await run_task(RunRequest(task="mini", model=f"scripted:{scripted_dir / 'demo_pass.json'}"), settings)
    assert result.verified and result.exit_code == 0
    assert json.loads(seen.read_text()) == {"isolation": "none", "ran": True, "passed": True, "cancel": True}
    assert json.loads(Path(str(seen) + ".prep").read_text()) == {"timeout": 42.0}


@pytest.mark.parametrize("signature", ["artifact, facts", "", "*, ctx"])
def test_a_hook_with_another_signature_is_refused_naming_the_fix(tmp_path: Path, settings: Settings,
                                                                 scripted_dir: Path, signature: str) -> None:
    checks = f"def checks({signature}):\n    return []\n"
    settings = settings.model_copy(update={"tasks_dir": _task(tmp_path, checks)})
    with pytest.raises(UserError) as info:
        plan_run(RunRequest(task="mini", model=f"scripted:{scripted_dir / 'demo_pass.json'}"), settings)
    message = str(info.value)
    assert "checks.py: checks() takes (" in message
    assert "def checks(ctx: CheckContext)" in message and "from autogen_pse.hooks import CheckContext" in message
    assert not settings.traces_dir.exists() or not any(settings.traces_dir.iterdir())


def test_todays_hook_signature_keeps_working(tmp_path: Path, settings: Settings, scripted_dir: Path) -> None:
    """A user task written before the context grew (positional-or-keyword ctx, no annotations)."""
    checks = "def checks(ctx):\n    return []\n"
    settings = settings.model_copy(update={"tasks_dir": _task(tmp_path, checks)})
    assert plan_run(RunRequest(task="mini", model=f"scripted:{scripted_dir / 'demo_pass.json'}"), settings)
