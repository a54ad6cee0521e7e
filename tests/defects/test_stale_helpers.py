"""Issue 10, defect 2: editing a task's helper module (a ``name.py`` or a package loaded with
``task_module``) takes effect in a long-running process: the next prepare uses the new code, so no
fact computed by old code is stamped fresh."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.hooks import task_module
from autogen_pse.preparation import ensure_prepared, needs_prepare
from autogen_pse.registry import load_task

PREPARE = '''
import importlib
from autogen_pse.hooks import Fact, Prepared, task_module

def prepare(ctx):
    helper = task_module(__file__, "helper")
    lib = task_module(__file__, "lib")
    values = importlib.import_module(lib.__name__ + ".values")
    facts = {"a": Fact(id="a", value=helper.A), "b": Fact(id="b", value=values.B)}
    return Prepared(task_text="t", facts=facts)
'''


def _touch_later(path: Path, text: str) -> None:
    path.write_text(text)
    later = time.time() + 5  # clearly newer than the prepared output, whatever the clock granularity
    os.utime(path, (later, later))


@pytest.fixture
def tasks_dir(tmp_path: Path) -> Path:
    root = tmp_path / "tasks"
    task = root / "t"
    (task / "prompts").mkdir(parents=True)
    (task / "lib").mkdir()
    (root / "_registry.json").write_text(json.dumps({"tasks": [{"name": "t", "title": "T"}]}))
    for role in ("planner", "specialist", "evaluator"):
        (task / "prompts" / f"{role}.md").write_text(f"You are the {role}.")
    (task / "task.md").write_text("Do it.")
    (task / "prepare.py").write_text(PREPARE)
    (task / "helper.py").write_text("A = 1\n")
    (task / "lib" / "__init__.py").write_text("")
    (task / "lib" / "values.py").write_text("B = 10\n")
    return root


def test_an_edited_helper_is_used_by_the_next_prepare(tasks_dir: Path, settings: Settings) -> None:
    task = load_task(tasks_dir, "t")
    first = ensure_prepared(task, settings.state_dir, {})
    assert (first.prepared.facts["a"].value, first.prepared.facts["b"].value) == (1, 10)

    _touch_later(tasks_dir / "t" / "helper.py", "A = 2222\n")
    _touch_later(tasks_dir / "t" / "lib" / "values.py", "B = 20\n")
    assert needs_prepare(task, settings.state_dir, {})
    second = ensure_prepared(load_task(tasks_dir, "t"), settings.state_dir, {})
    assert second.reprepared
    assert (second.prepared.facts["a"].value, second.prepared.facts["b"].value) == (2222, 20)
    # and what is on disk (what a restarted server reads as current) is the new code's output
    for edited in (tasks_dir / "t" / "helper.py", tasks_dir / "t" / "lib" / "values.py"):
        os.utime(edited, (time.time() - 60, time.time() - 60))  # back to "older than the facts"
    third = ensure_prepared(load_task(tasks_dir, "t"), settings.state_dir, {})
    assert not third.reprepared and third.prepared.facts["a"].value == 2222


def test_an_unchanged_helper_is_not_executed_again(tasks_dir: Path) -> None:
    anchor = str(tasks_dir / "t" / "prepare.py")
    assert task_module(anchor, "helper") is task_module(anchor, "helper")
    assert task_module(anchor, "lib") is task_module(anchor, "lib")


def test_a_broken_helper_is_not_cached(tasks_dir: Path) -> None:
    anchor = str(tasks_dir / "t" / "prepare.py")
    _touch_later(tasks_dir / "t" / "helper.py", "A = (\n")
    with pytest.raises(SyntaxError):
        task_module(anchor, "helper")
    _touch_later(tasks_dir / "t" / "helper.py", "A = 3\n")
    assert task_module(anchor, "helper").A == 3
