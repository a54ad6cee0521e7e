"""``GET /api/tasks``: the task registry, with whether each task's inputs need preparing."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter

from autogen_pse.config import Settings
from autogen_pse.errors import PseError
from autogen_pse.preparation import needs_prepare
from autogen_pse.registry import load_registry, load_task
from autogen_pse.web.deps import SettingsDep
from autogen_pse.web.schemas import RunDefaults, TaskList, TaskOut

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
        error, stale = None, False
        try:
            spec = load_task(settings.tasks_dir, entry.name)
            stale = needs_prepare(spec, settings.state_dir, {})
        except PseError as exc:
            error = str(exc)
        tasks.append(TaskOut(
            name=entry.name, title=entry.title, description=entry.description, artifact=entry.artifact,
            has_prepare=has_prepare, has_evidence=has_evidence, needs_prepare=stale, vars=dict(entry.vars),
            tools=dict(entry.tools), knowledge=dict(entry.knowledge), error=error,
        ))
    defaults = RunDefaults(model=settings.model, max_cycles=settings.max_cycles)
    return TaskList(data=tasks, count=len(tasks), defaults=defaults)


@router.get("", response_model=TaskList, summary="List tasks")
async def get_tasks(settings: SettingsDep) -> TaskList:
    """Tasks with title, description, artifact kind, whether their inputs need preparing and whether
    their documents can be checked (``has_evidence``)."""
    return await asyncio.to_thread(list_tasks, settings)
