"""Each fixed name and each helper has one definition that every user shares (what `duplicates`
found copied: run statuses, role lists, the task-name rule, JSON-file loading, task loaders)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autogen_pse import filters, names, registry
from autogen_pse.errors import InputFileError, UserError
from autogen_pse.hooks import task_module
from autogen_pse.jsonfile import read_json
from autogen_pse.models import base
from autogen_pse.store import rows, trace

ROOT = Path(__file__).resolve().parents[2]


def test_roles_statuses_and_the_task_name_rule_are_defined_once() -> None:
    assert registry.ROLES is names.ROLES and base.ROLES is names.ROLES
    assert names.ROLES == ("planner", "specialist", "evaluator")
    assert filters.STATUSES is names.RUN_STATUSES and trace.RUN_STATUSES is names.RUN_STATUSES
    assert rows.RunStatus is names.RunStatus
    for name, ok in (("demo", True), ("a" * 64, True), ("a" * 65, False), ("Demo", False), ("../x", False)):
        assert bool(names.TASK_NAME.fullmatch(name)) is ok
        assert (filters.parse_filters(task=name)["task"] == name) if ok else _refused(name)


def _refused(name: str) -> bool:
    with pytest.raises(UserError, match="not a task name"):
        filters.parse_filters(task=name)
    with pytest.raises(UserError, match="invalid task name"):
        registry.load_task(ROOT / "tasks", name)
    return True


@pytest.mark.parametrize(("raw", "message"), [
    (b'{"a": 1,}', r"not valid JSON \(line 1, column 9"),
    (b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
    (b'{"caf\xe9": 1}', r"not UTF-8 text \(byte 5\)"),
])
def test_one_json_reader_names_the_file_and_the_place(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(raw)
    with pytest.raises(InputFileError, match=rf"input\.json: {message}"):
        read_json(path)
    path.write_text(json.dumps({"ok": [1, 2]}))
    assert read_json(path) == {"ok": [1, 2]}


def test_task_module_loads_a_package_submodule_by_its_dotted_name() -> None:
    anchor = str(ROOT / "tasks" / "resume-tailor" / "checks.py")
    cv = task_module(anchor, "resumelib.cv")
    package = task_module(anchor, "resumelib")
    assert cv.__name__ == f"{package.__name__}.cv" and hasattr(cv, "__file__")
    assert task_module(anchor, "resumelib.cv") is cv  # cached while its files are unchanged
    for hook in (ROOT / "tasks").glob("*/*.py"):  # no task defines its own loader any more
        text = hook.read_text(encoding="utf-8")
        assert "def sibling(" not in text, hook
        assert "def load_lib(" not in text or (hook.parent.name == "resume-tailor" and hook.name == "prepare.py"), hook
