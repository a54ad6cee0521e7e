"""autogen-pse: a Planner–Specialist–Evaluator orchestrator on AutoGen whose artifacts are checked
against real data before anyone sees them.

The public API is what ``__all__`` lists; every other module is internal and may change without
notice (the task-hook surface is :mod:`autogen_pse.hooks`, whose names are re-exported here)::

    import autogen_pse

    stream = autogen_pse.run("demo", model="scripted:tests/fixtures/scripted/demo_pass.json")
    async for event in stream:      # typed events, see autogen_pse.TypedEvent
        ...
    result = stream.result          # autogen_pse.RunResult

Extension points (entry point groups): ``autogen_pse.providers`` (:class:`ProviderPlugin`),
``autogen_pse.tasks`` (a folder of tasks), ``autogen_pse.sinks`` (:class:`EventSinkPlugin`
factories), ``autogen_pse.executors`` (:class:`RunExecutor` factories). See docs/write-a-task.md
and docs/add-a-provider.md.

Everything is imported on first use: ``import autogen_pse`` stays cheap (heavy modules —
autogen, chromadb, llama_cpp — load only with the parts that need them).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name → the module defining it
_EXPORTS: dict[str, str] = {
    # running
    "run": "api", "RunStream": "api",
    "RunRequest": "runner", "RunResult": "runner",
    # events
    "RunEvent": "events", "TypedEvent": "events", "EventKind": "events", "typed_event": "events",
    # hooks (tasks)
    "HookContext": "hooks", "PrepareContext": "hooks", "CheckContext": "hooks", "HookTools": "hooks",
    "Prepared": "hooks", "CheckResult": "hooks", "Sanitized": "hooks", "SanitizeChange": "hooks",
    "Fact": "hooks", "Reason": "hooks",
    # plugins
    "ProviderPlugin": "models.plugin", "ModelProvider": "models.base",
    "EventSinkPlugin": "sinks", "RunInfo": "sinks", "RunExecutor": "executor",
    # settings and errors
    "Settings": "config", "load_settings": "config",
    "PseError": "errors", "UserError": "errors", "InputFileError": "errors", "RunError": "errors",
    "ModelError": "errors",
}

__all__ = [
    "CheckContext",
    "CheckResult",
    "EventKind",
    "EventSinkPlugin",
    "Fact",
    "HookContext",
    "HookTools",
    "InputFileError",
    "ModelError",
    "ModelProvider",
    "PrepareContext",
    "Prepared",
    "ProviderPlugin",
    "PseError",
    "Reason",
    "RunError",
    "RunEvent",
    "RunExecutor",
    "RunInfo",
    "RunRequest",
    "RunResult",
    "RunStream",
    "SanitizeChange",
    "Sanitized",
    "Settings",
    "TypedEvent",
    "UserError",
    "__version__",
    "load_settings",
    "run",
    "typed_event",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'autogen_pse' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from .api import RunStream, run
    from .config import Settings, load_settings
    from .errors import InputFileError, ModelError, PseError, RunError, UserError
    from .events import EventKind, RunEvent, TypedEvent, typed_event
    from .executor import RunExecutor
    from .hooks import (
        CheckContext,
        CheckResult,
        Fact,
        HookContext,
        HookTools,
        PrepareContext,
        Prepared,
        Reason,
        SanitizeChange,
        Sanitized,
    )
    from .models.base import ModelProvider
    from .models.plugin import ProviderPlugin
    from .runner import RunRequest, RunResult
    from .sinks import EventSinkPlugin, RunInfo
