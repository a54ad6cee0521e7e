"""AutoGen ``FunctionTool`` wrappers around the sandboxed tools, plus a programmatic pytest check.

Every tool is an ``async`` function with typed, described parameters. Results are strings capped
at ``output_cap`` characters (marker ``…[truncated N chars]``). A refused or failed call returns
``"ERROR: ..."`` — the agent reads it and can correct itself; nothing raises into the team.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import re
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, NamedTuple

from autogen_core import CancellationToken
from autogen_core.tools import FunctionTool

from autogen_pse.errors import UserError
from autogen_pse.tools.commands import (
    DEFAULT_ISOLATION,
    ISOLATION_MODES,
    CommandResult,
    Toolchain,
    run_command,
    run_command_async,
)
from autogen_pse.tools.files import list_files, read_file, write_file
from autogen_pse.tools.paths import ToolError, cap_text

__all__ = ["TOOL_NAMES", "PytestOutcome", "build_tools", "format_pytest", "format_ruff", "pytest_outcome",
           "run_pytest_check"]

TOOL_NAMES = ("write_file", "read_file", "list_files", "run_pytest", "run_ruff", "kb_search")

PYTEST_BASE = ["python", "-m", "pytest", "-q"]
RUFF_ARGV = ["ruff", "check", "."]
_PYTEST_EXIT = {
    0: "PASSED: all tests passed",
    1: "FAILED: some tests failed",
    2: "FAILED: test run interrupted (collection or usage error)",
    3: "FAILED: internal pytest error",
    4: "FAILED: pytest usage error",
    5: "FAILED: no tests collected (exit code 5) — write test files named test_*.py",
}
_SUMMARY_RE = re.compile(r"\b\d+ (passed|failed|errors?|skipped|xfailed|xpassed)\b|no tests ran")


def _status_line(tool: str, res: CommandResult) -> str:
    if res.error and res.exit_code is None:
        return f"ERROR: {res.error}"
    if res.timed_out:
        return f"ERROR: {tool} {res.error}"
    if res.error:
        return f"ERROR: {tool} {res.error} (exit code {res.exit_code})"
    if res.exit_code is not None and res.exit_code < 0:
        return f"ERROR: {tool} was killed by signal {-res.exit_code} (resource limit?)"
    return ""


def _body(res: CommandResult) -> str:
    parts = []
    if res.stdout.strip():
        parts.append(res.stdout.rstrip())
    if res.stderr.strip():
        parts.append("[stderr]\n" + res.stderr.rstrip())
    return "\n".join(parts)


def format_pytest(res: CommandResult) -> str:
    """Agent-facing text: a status line (PASSED / FAILED / ERROR, with exit code), then output."""
    head = _status_line("pytest", res)
    if not head:
        code = res.exit_code if res.exit_code is not None else -1
        head = f"{_PYTEST_EXIT.get(code, 'FAILED: pytest ended abnormally')} (exit code {code})"
    body = _body(res)
    return f"{head}\n{body}" if body else head


def format_ruff(res: CommandResult) -> str:
    """Agent-facing text for ``ruff check``; "no Python files" is reported, never as a clean pass."""
    head = _status_line("ruff", res)
    if not head:
        if res.exit_code == 0 and "No Python files found" in res.stderr:
            head = "WARNING: ruff found no Python files to check (exit code 0)"
        elif res.exit_code == 0:
            head = "PASSED: ruff found no problems (exit code 0)"
        elif res.exit_code == 1:
            head = "FAILED: ruff found problems (exit code 1)"
        else:
            head = f"ERROR: ruff failed to run (exit code {res.exit_code})"
    body = _body(res)
    return f"{head}\n{body}" if body else head


def pytest_summary(res: CommandResult) -> str:
    """The last pytest summary line (e.g. ``"3 passed in 0.12s"``), or the status line."""
    for line in reversed(res.stdout.splitlines()):
        if _SUMMARY_RE.search(line):
            return line.strip("= ").strip()
    return format_pytest(res).splitlines()[0]


class PytestOutcome(NamedTuple):
    """What a programmatic pytest run found: ``ran`` is False when pytest never started (sandbox
    unavailable, pytest missing, arguments refused) — that is no test failure."""

    passed: bool
    summary: str
    ran: bool


def pytest_outcome(
    workspace: Path,
    timeout: float,
    *,
    output_cap: int = 64_000,
    toolchain: Toolchain | None = None,
    isolation: str = DEFAULT_ISOLATION,
    cancel: threading.Event | None = None,
) -> PytestOutcome:
    """Run ``python -m pytest -q`` in ``workspace`` (blocking), in the sandbox by default.

    ``passed`` only for exit code 0 without timeout or error (exit code 5 "no tests collected" is
    *not* a pass); ``summary`` is pytest's summary line or the error. ``cancel`` (set from another
    thread) kills the run at once.
    """
    try:
        res = run_command(PYTEST_BASE, workspace=workspace, timeout=timeout, output_cap=output_cap,
                          toolchain=toolchain, isolation=isolation, cancel=cancel)  # fmt: skip
    except ToolError as exc:
        return PytestOutcome(False, f"ERROR: {exc}", False)
    summary = pytest_summary(res)
    if not res.ok:
        head = format_pytest(res).splitlines()[0]
        summary = head if summary == head else f"{head}: {summary}"
    return PytestOutcome(res.ok, summary, res.exit_code is not None)


def run_pytest_check(
    workspace: Path,
    timeout: float,
    *,
    output_cap: int = 64_000,
    toolchain: Toolchain | None = None,
    isolation: str = DEFAULT_ISOLATION,
) -> tuple[bool, str]:
    """``(passed, summary)`` of :func:`pytest_outcome`."""
    found = pytest_outcome(workspace, timeout, output_cap=output_cap, toolchain=toolchain, isolation=isolation)
    return found.passed, found.summary


def _split_args(args: str) -> list[str]:
    import shlex

    try:
        return shlex.split(args)
    except ValueError as exc:
        raise ToolError(f"cannot parse arguments {args!r}: {exc}") from None


def _kb_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, indent=1, default=str)


def build_tools(
    names: list[str],
    workspace: Path,
    *,
    timeout: float,
    output_cap: int,
    kb_search: Callable[[str], Any] | None = None,
    toolchain: Toolchain | None = None,
    isolation: str = DEFAULT_ISOLATION,
) -> list[FunctionTool]:
    """Build the named AutoGen tools bound to ``workspace``, in the order given.

    Args:
        names: subset of :data:`TOOL_NAMES`; duplicates are ignored.
        workspace: the run's workspace directory.
        timeout: seconds per command (pytest / ruff).
        output_cap: characters kept of every tool result (and bytes per command stream).
        kb_search: ``query -> str | JSON-able | awaitable of those``; required for ``"kb_search"``.
        toolchain: executables (tests inject a missing ruff); default: :meth:`Toolchain.detect` at
            each command.
        isolation: ``"bwrap"`` (default; pytest/ruff refused with an ERROR when bubblewrap is
            unusable) or ``"none"`` (explicitly weaker: no namespaces).

    Raises:
        UserError: unknown tool name or isolation mode, or ``"kb_search"`` requested without a
            ``kb_search`` callable.
    """
    unknown = [n for n in names if n not in TOOL_NAMES]
    if unknown:
        raise UserError(f"unknown tool(s) {unknown}; known tools: {', '.join(TOOL_NAMES)}")
    if "kb_search" in names and kb_search is None:
        raise UserError("tool 'kb_search' needs a knowledge base, but none was given")
    if isolation not in ISOLATION_MODES:
        raise UserError(f"tool isolation must be one of {', '.join(ISOLATION_MODES)}, got {isolation!r}")
    ws = Path(workspace)
    chain = toolchain  # None: each command detects the toolchain when it runs (not for tool-free roles)

    def guarded(fn: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> str:
            try:
                text = await fn(*args, **kwargs)
            except ToolError as exc:
                text = f"ERROR: {exc}"
            return cap_text(text, output_cap)

        return wrapper

    async def _write_file(
        path: Annotated[str, "file path relative to the workspace, e.g. 'src/app.py'"],
        content: Annotated[str, "the complete UTF-8 text of the file"],
    ) -> str:
        return await asyncio.to_thread(write_file, ws, path, content)

    async def _read_file(path: Annotated[str, "file path relative to the workspace"]) -> str:
        return await asyncio.to_thread(read_file, ws, path)

    async def _list_files() -> str:
        listing = await asyncio.to_thread(list_files, ws)
        return listing.as_text()

    async def _run_pytest(
        args: Annotated[str, "extra pytest arguments, e.g. '-x tests/test_app.py' or '-k sort'"] = "",
        cancellation_token: CancellationToken | None = None,
    ) -> str:
        argv = PYTEST_BASE + _split_args(args)
        res = await _cancellable(argv, cancellation_token)
        return format_pytest(res)

    async def _run_ruff(cancellation_token: CancellationToken | None = None) -> str:
        res = await _cancellable(RUFF_ARGV, cancellation_token)
        return format_ruff(res)

    async def _cancellable(argv: list[str], token: CancellationToken | None) -> CommandResult:
        task = asyncio.ensure_future(
            run_command_async(argv, workspace=ws, timeout=timeout, output_cap=output_cap, toolchain=chain,
                              isolation=isolation)
        )
        if token is not None:
            token.link_future(task)
        return await task

    async def _kb_search(query: Annotated[str, "what to look up in the task's knowledge base"]) -> str:
        assert kb_search is not None
        if inspect.iscoroutinefunction(kb_search):
            result = await kb_search(query)
        else:
            result = await asyncio.to_thread(kb_search, query)
            if inspect.isawaitable(result):
                result = await result
        return _kb_text(result)

    specs: dict[str, tuple[Callable[..., Awaitable[str]], str]] = {
        "write_file": (_write_file, "Create or overwrite a UTF-8 text file in the workspace (max 256 KB)."),
        "read_file": (_read_file, "Read a UTF-8 text file from the workspace (max 256 KB)."),
        "list_files": (_list_files, "List the files in the workspace with their sizes in bytes."),
        "run_pytest": (
            _run_pytest,
            "Run `python -m pytest -q` in the workspace and return the exit code and output. "
            "Optional args: test paths and options such as -x, -k EXPR, -v, --tb=short.",
        ),
        "run_ruff": (_run_ruff, "Run `ruff check .` in the workspace and return the findings."),
        "kb_search": (_kb_search, "Search the task's knowledge base; returns matching passages."),
    }
    tools: list[FunctionTool] = []
    for name in dict.fromkeys(names):
        fn, description = specs[name]
        tools.append(FunctionTool(guarded(fn), description=description, name=name))
    return tools
