"""A task's ``--var`` values checked as the CLI checks them, with each problem tied to its field.

The checks are those of ``pse run``: the web's own rule (files relative to the project only), an
unknown var (:meth:`TaskSpec.check_vars`), a template field without a value (tasks without a
prepare hook), then the task's prepare hook on the inputs (bad file, row or field). Each error is a
FastAPI-style detail ``{"loc": ["body", "vars", KEY], "msg": ..., "type": ...}``; a problem that
names no single var has ``loc`` ``["body", "vars"]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autogen_pse.config import Settings
from autogen_pse.errors import InputFileError, PseError, UserError
from autogen_pse.preparation import ensure_prepared
from autogen_pse.registry import TaskSpec, load_task
from autogen_pse.web.schemas import project_relative_vars

__all__ = ["var_errors"]


def _error(key: str | None, msg: str, kind: str) -> dict[str, Any]:
    return {"loc": ["body", "vars", key] if key else ["body", "vars"], "msg": msg, "type": kind}


def _owner(exc: UserError, values: dict[str, str]) -> str | None:
    """The var an input error is about: the one naming its file, else the one its message names."""
    if isinstance(exc, InputFileError):
        failed = Path(str(exc.path))
        for key, value in values.items():
            if value and (str(failed).endswith(value.strip()) or failed.name == Path(value.strip()).name):
                return key
    text = str(exc)
    for key, value in sorted(values.items(), key=lambda kv: -len(kv[1] or "")):
        if value and value.strip() and value.strip() in text:
            return key
    for key in sorted(values, key=len, reverse=True):
        if f"'{key}'" in text or f"{key}=" in text:
            return key
    return None


def _field_checks(task: TaskSpec, vars: dict[str, str]) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = []
    for key, value in vars.items():
        try:
            project_relative_vars({key: value})
        except ValueError as exc:
            errors.append(_error(key, str(exc).split(": ", 1)[-1], "value_error.path"))
    known = task.known_vars()
    listed = ", ".join(known) if known else "none"
    for key in sorted(k for k in vars if k not in known):
        errors.append(_error(key, f"unknown --var {key!r} for task {task.name!r}; known vars: {listed}",
                             "value_error.unknown_var"))
    if not (task.dir / "prepare.py").is_file():
        for key in known:
            if key not in task.entry.vars and key not in vars:
                errors.append(_error(key, f"task {task.name!r} needs a value for {key}", "value_error.missing"))
    return errors


def var_errors(settings: Settings, task_name: str, vars: dict[str, str], *,
               prepare: bool = True) -> list[dict[str, Any]]:
    """Every problem of ``vars`` for ``task_name`` (empty: the run can start with them).

    With ``prepare`` the task's prepare hook runs on the inputs (cached like a run's prepare step).

    Raises:
        UserError: the task itself is unknown or cannot be loaded.
    """
    task = load_task(settings.tasks_dir, task_name)
    errors = _field_checks(task, vars)
    if errors or not prepare:
        return errors
    values = {**task.entry.vars, **vars}
    try:
        ensure_prepared(task, settings.state_dir, vars, settings=settings)
    except UserError as exc:
        owner = _owner(exc, values)
        return [_error(owner, _shown(str(exc), settings), "value_error.input")]
    except PseError as exc:  # the hook crashed: not about one field
        return [_error(None, _shown(str(exc), settings), "value_error.prepare")]
    return []


def _shown(message: str, settings: Settings) -> str:
    """``message`` with the server's own folders written relative to the project, as the client
    writes its paths ("tasks/portfolio-review/data/prices.csv", not "/srv/…/tasks/…")."""
    root = str(settings.tasks_dir.resolve().parent)
    return message.replace(root + "/", "").replace(root, ".")


def run_error_detail(settings: Settings, task_name: str, vars: dict[str, str],
                     exc: UserError) -> str | list[dict[str, Any]]:
    """The 422 ``detail`` for a run refused with ``exc``: per-field errors when the problem is in
    ``vars`` (as :func:`var_errors` gives them), else the one-line message."""
    try:
        task = load_task(settings.tasks_dir, task_name)
    except PseError:
        return str(exc)
    errors = _field_checks(task, vars)
    if errors:
        return errors
    values = {k: v for k, v in {**task.entry.vars, **vars}.items() if len((v or "").strip()) >= 3 or k in vars}
    owner = _owner(exc, values)
    return [_error(owner, _shown(str(exc), settings), "value_error.input")] if owner else str(exc)
