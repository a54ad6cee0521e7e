"""``GET /api/tasks``: the task registry, with whether each task's inputs need preparing;
``POST /api/tasks/{name}/vars``: check a task's ``--var`` values field by field."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path

from autogen_pse.config import Settings
from autogen_pse.errors import PseError, UserError
from autogen_pse.preparation import needs_prepare
from autogen_pse.registry import load_registry, load_task
from autogen_pse.web.deps import SettingsDep
from autogen_pse.web.routers.common import POST_ERRORS
from autogen_pse.web.schemas import ErrorOut, RunDefaults, TaskList, TaskOut, VarsIn, VarsOk
from autogen_pse.web.var_check import var_errors

router = APIRouter(prefix="/api/tasks", tags=["tasks"])


def list_tasks(settings: Settings) -> TaskList:
    """Every registry entry; a task that fails to load is listed with its ``error``.

    Raises:
        UserError: the registry itself is missing or invalid.
    """
    tasks: list[TaskOut] = []
    for entry in load_registry(settings.tasks_dir).tasks:
        folder = (entry.root or settings.tasks_dir) / entry.name  # a registered package's tasks live elsewhere
        has_prepare = (folder / "prepare.py").is_file()
        has_evidence = (folder / "evidence.py").is_file()
        error, stale, inputs = None, False, list(entry.vars)
        try:
            spec = load_task(settings.tasks_dir, entry.name)
            stale = needs_prepare(spec, settings.state_dir, {})
            inputs = spec.known_vars()
        except PseError as exc:
            error = str(exc)
        tasks.append(TaskOut(
            name=entry.name, title=entry.title, description=entry.description, artifact=entry.artifact,
            has_prepare=has_prepare, has_evidence=has_evidence, needs_prepare=stale, vars=dict(entry.vars),
            tools=dict(entry.tools), knowledge=dict(entry.knowledge), inputs=inputs, error=error,
        ))
    defaults = RunDefaults(model=settings.model, max_cycles=settings.max_cycles)
    return TaskList(data=tasks, count=len(tasks), defaults=defaults)


@router.get("", response_model=TaskList, summary="List tasks")
async def get_tasks(settings: SettingsDep) -> TaskList:
    """Tasks with title, description, artifact kind, whether their inputs need preparing and whether
    their documents can be checked (``has_evidence``)."""
    return await asyncio.to_thread(list_tasks, settings)


TaskPath = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")]


@router.post("/{name}/vars", response_model=VarsOk, summary="Check a task's --var values",
             responses={**POST_ERRORS,
                        404: {"model": ErrorOut, "description": "no such task"},
                        422: {"model": ErrorOut, "description": "detail: one {loc: [body, vars, KEY], msg, type} "
                                                               "per problem"}})
async def check_vars(name: TaskPath, body: VarsIn, settings: SettingsDep) -> VarsOk:
    """The checks ``pse run`` makes on ``--var`` values, before a run: files relative to the project
    (from the web), no unknown var, every template field set, and the task's prepare step on the
    inputs. 200 with the values a run would use, or 422 with every problem tied to its field."""

    def check() -> list[dict[str, Any]] | None:
        if not any(t.name == name for t in load_registry(settings.tasks_dir).tasks):
            return None
        return var_errors(settings, name, dict(body.vars))

    try:
        errors = await asyncio.to_thread(check)
    except UserError as exc:  # the task exists but cannot be loaded
        raise HTTPException(status_code=422, detail=str(exc)) from None
    if errors is None:
        raise HTTPException(status_code=404, detail=f"unknown task {name!r}; see GET /api/tasks")
    if errors:
        raise HTTPException(status_code=422, detail=errors)
    defaults = await asyncio.to_thread(lambda: dict(load_task(settings.tasks_dir, name).entry.vars))
    return VarsOk(task=name, vars={**defaults, **body.vars})
