"""Sandboxed agent tools: workspace files, pytest, ruff and knowledge-base search.

Public API (the AutoGen-facing part, :mod:`.agent_tools`, is imported lazily because it pulls in
``autogen_core``):

* :func:`resolve_in_workspace`, :class:`ToolError` — path confinement.
* :func:`write_file`, :func:`read_file`, :func:`list_files` — text files in a workspace.
* :func:`run_command` / :func:`run_command_async` → :class:`CommandResult` — pytest / ruff runs,
  inside a bubblewrap sandbox unless ``isolation="none"`` (:data:`ISOLATION_MODES`,
  :data:`DEFAULT_ISOLATION`; see :mod:`.sandbox`).
* :func:`build_tools`, :func:`run_pytest_check` — AutoGen ``FunctionTool`` list; pass/fail check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autogen_pse.tools.commands import (
    DEFAULT_ISOLATION,
    ISOLATION_MODES,
    CommandResult,
    ResourceLimits,
    Toolchain,
    run_command,
    run_command_async,
)
from autogen_pse.tools.files import Listing, list_files, read_file, write_file
from autogen_pse.tools.paths import ToolError, resolve_in_workspace

if TYPE_CHECKING:
    from autogen_pse.tools.agent_tools import TOOL_NAMES, build_tools, run_pytest_check

__all__ = [
    "DEFAULT_ISOLATION",
    "ISOLATION_MODES",
    "TOOL_NAMES",
    "CommandResult",
    "Listing",
    "ResourceLimits",
    "ToolError",
    "Toolchain",
    "build_tools",
    "list_files",
    "read_file",
    "resolve_in_workspace",
    "run_command",
    "run_command_async",
    "run_pytest_check",
    "write_file",
]

_LAZY = {"TOOL_NAMES", "build_tools", "run_pytest_check"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from autogen_pse.tools import agent_tools

        return getattr(agent_tools, name)
    raise AttributeError(f"module 'autogen_pse.tools' has no attribute {name!r}")
