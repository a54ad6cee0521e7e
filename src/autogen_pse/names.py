"""The field's fixed names, defined once: agent roles, run statuses and the task-name rule."""

from __future__ import annotations

import re
from typing import Literal, get_args

Role = Literal["planner", "specialist", "evaluator"]
#: the agents of a team, in speaking order
ROLES: tuple[Role, ...] = get_args(Role)

RunStatus = Literal["running", "finished", "error", "cancelled", "interrupted"]
#: every status a recorded run can have (the API adds ``queued`` for a run not started yet)
RUN_STATUSES: tuple[RunStatus, ...] = get_args(RunStatus)

#: a task's name: a folder name, a URL segment and a filter value, so no path characters
TASK_NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
TASK_NAME = re.compile(TASK_NAME_PATTERN)

__all__ = ["ROLES", "RUN_STATUSES", "TASK_NAME", "TASK_NAME_PATTERN", "Role", "RunStatus"]
