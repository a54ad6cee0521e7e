"""Run ``python -m pytest`` or ``ruff check`` in a workspace, without a shell, with hard limits.

Containment, in the order it is applied:

* **Allowlist.** Only ``python -m pytest`` (also spelt ``pytest``) and ``ruff check``; executables
  come from the current interpreter's venv (``sys.executable`` and the ``ruff`` next to it, else
  ``shutil.which``). Arguments go through :mod:`autogen_pse.tools.argcheck`.
* **Config isolation.** pytest gets ``-p no:cacheprovider --rootdir=<ws> --confcutdir=<ws>`` and
  ``-c`` naming the workspace's own config (or ``/dev/null``), so a ``pyproject.toml`` or
  ``conftest.py`` above the workspace is never loaded. ruff gets ``--no-cache`` and ``--isolated``
  unless the workspace holds its own ruff config.
* **Environment.** Built from scratch: ``PATH``, ``HOME=<ws>``, ``LANG``,
  ``PYTHONDONTWRITEBYTECODE``, ``PYTEST_DISABLE_PLUGIN_AUTOLOAD`` (only
  :data:`SANDBOX_PYTEST_PLUGINS` load) — no ``PYTHONPATH``, nothing from the parent env or the
  project's ``.env``; names that look like secrets (``*_KEY``, ``*_TOKEN``, ``*_SECRET``,
  ``*PASSWORD*``) are dropped as a second guard.
* **Process group.** ``start_new_session=True``; on timeout, cancellation, output flood, or when
  the main process exits, the whole group gets ``SIGKILL`` (while the leader is still unreaped,
  so its pgid cannot be recycled). Then a sweep kills any process still carrying this run's
  ``PSE_SANDBOX_ID`` in its initial environment (e.g. a child that left the group with
  ``setsid``); a process that both leaves the group and replaces its environment is not found.
* **rlimits** (``preexec_fn``): CPU, address space, file size, core dumps, process count. As root
  (uid 0 in the initial user namespace) the kernel ignores ``RLIMIT_NPROC``; a fork bomb is then
  contained only by the wall-clock timeout plus the group kill.
* **Output.** Read incrementally; at most ``output_cap`` bytes per stream are kept, the rest is
  counted and dropped (marker ``…[truncated N bytes]``); past ``drain_limit_bytes`` of dropped
  output the group is killed.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import secrets
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from autogen_pse.tools.argcheck import validate_pytest_args, validate_ruff_args
from autogen_pse.tools.paths import ToolError
from autogen_pse.tools.process import (
    GRACE_S,
    ResourceLimits,
    make_preexec,
    rlimit_triples,
    supervise,
    sweep,
)

__all__ = [
    "CommandResult",
    "ResourceLimits",
    "Toolchain",
    "run_command",
    "run_command_async",
    "sandbox_env",
]

_SECRET_NAME = re.compile(r"(_KEY|_TOKEN|_SECRET)$|PASSWORD|SECRET|CREDENTIAL", re.IGNORECASE)
_PYTEST_CONFIGS = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini")
_RUFF_CONFIGS = ("ruff.toml", ".ruff.toml")
# Plugin entry points are not auto-loaded (PYTEST_DISABLE_PLUGIN_AUTOLOAD): every installed plugin
# would run in the sandbox and cost ~1-3 s of start-up per run. Only these are loaded, if present.
SANDBOX_PYTEST_PLUGINS = ("pytest_asyncio.plugin",)


@dataclass(frozen=True)
class Toolchain:
    """Absolute paths of the allowlisted executables; ``ruff=None`` means "not installed"."""

    python: Path
    ruff: Path | None
    has_pytest: bool = True

    @classmethod
    def detect(cls) -> Toolchain:
        """The current interpreter (not symlink-resolved: that would leave the venv) and its ruff."""
        python = Path(sys.executable).absolute()
        ruff: Path | None = python.parent / "ruff"
        if not (ruff.is_file() and os.access(ruff, os.X_OK)):
            found = shutil.which("ruff")
            ruff = Path(found).absolute() if found else None
        return cls(python=python, ruff=ruff, has_pytest=importlib.util.find_spec("pytest") is not None)


@dataclass(frozen=True)
class CommandResult:
    """Outcome of :func:`run_command`.

    ``exit_code`` is the process status (negative = killed by that signal; ``None`` = never
    started, see ``error``). ``stdout``/``stderr`` are decoded UTF-8 (invalid bytes replaced),
    each at most ``output_cap`` bytes plus a ``…[truncated N bytes]`` marker. ``duration_s`` is
    wall-clock seconds. ``error`` explains anything that is not a normal exit (missing tool,
    timeout, output flood, cancellation).
    """

    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool
    duration_s: float
    error: str | None = None
    argv: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True only for a normal exit with status 0."""
        return self.exit_code == 0 and not self.timed_out and self.error is None


def sandbox_env(workspace: Path, toolchain: Toolchain, sandbox_id: str = "") -> dict[str, str]:
    """The complete environment of a sandboxed command (nothing is inherited).

    ``sandbox_id`` tags every process of one run (``PSE_SANDBOX_ID``) for the final sweep.
    """
    path_dirs = [str(toolchain.python.parent)]
    if toolchain.ruff is not None:
        path_dirs.append(str(toolchain.ruff.parent))
    path_dirs += ["/usr/local/bin", "/usr/bin", "/bin"]
    env = {
        "PATH": os.pathsep.join(dict.fromkeys(path_dirs)),
        "HOME": str(workspace),
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONIOENCODING": "utf-8",
        "NO_COLOR": "1",
        "RAYON_NUM_THREADS": "2",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    if sandbox_id:
        env["PSE_SANDBOX_ID"] = sandbox_id
    return {k: v for k, v in env.items() if not _SECRET_NAME.search(k)}


def _build_argv(argv: list[str], workspace: Path, toolchain: Toolchain) -> tuple[str, list[str]]:
    """Map an allowlisted command to (program name, absolute argv with enforced options)."""
    if not argv or not all(isinstance(a, str) for a in argv):
        raise ToolError("command must be a non-empty list of strings")
    head = argv[0]
    if head in ("python", "python3"):
        if len(argv) >= 2 and argv[1] == "-c":
            raise ToolError("python -c is not allowed; only 'python -m pytest' and 'ruff check' can run")
        if argv[1:3] != ["-m", "pytest"]:
            raise ToolError("only 'python -m pytest' can be run with python")
        rest = argv[3:]
        prog = "pytest"
    elif head in ("pytest", "ruff"):
        prog, rest = head, argv[1:]
    else:
        raise ToolError(f"{argv[0]!r} is not allowed; only 'python -m pytest' and 'ruff check' can run")
    if prog == "pytest":
        rest = validate_pytest_args(rest, workspace)
        cfg = next((name for name in _PYTEST_CONFIGS if (workspace / name).is_file()), None)
        if cfg is None and _has_section(workspace / "pyproject.toml", "[tool.pytest"):
            cfg = "pyproject.toml"
        enforced = ["-p", "no:cacheprovider", f"--rootdir={workspace}", f"--confcutdir={workspace}"]
        enforced += ["-c", str(workspace / cfg) if cfg else os.devnull]
        plugins = [p for p in SANDBOX_PYTEST_PLUGINS if importlib.util.find_spec(p.split(".")[0])]
        for plugin in plugins:
            enforced += ["-p", plugin]
        if cfg is None and "pytest_asyncio.plugin" in plugins:
            enforced += ["-o", "asyncio_default_fixture_loop_scope=function"]
        return prog, [str(toolchain.python), "-m", "pytest", *enforced, *rest]
    rest = validate_ruff_args(rest, workspace)
    own_cfg = any((workspace / n).is_file() for n in _RUFF_CONFIGS) or _has_section(
        workspace / "pyproject.toml", "[tool.ruff"
    )
    enforced = ["--no-cache"] + ([] if own_cfg else ["--isolated"])
    return prog, [str(toolchain.ruff or "ruff"), "check", *enforced, *rest[1:]]


def _has_section(path: Path, marker: str) -> bool:
    try:
        return path.is_file() and not path.is_symlink() and marker in path.read_text("utf-8", "replace")
    except OSError:
        return False


def _error_result(argv: list[str], message: str) -> CommandResult:
    return CommandResult(None, "", f"ERROR: {message}", False, False, 0.0, error=message, argv=tuple(argv))


def run_command(
    argv: list[str],
    *,
    workspace: Path,
    timeout: float,
    output_cap: int,
    limits: ResourceLimits | None = None,
    toolchain: Toolchain | None = None,
    cancel: threading.Event | None = None,
) -> CommandResult:
    """Run an allowlisted command in ``workspace`` and wait for it (blocking; see module doc).

    Args:
        argv: ``["python", "-m", "pytest", ...]``, ``["pytest", ...]`` or ``["ruff", "check", ...]``.
        workspace: existing directory; becomes cwd and ``HOME``.
        timeout: wall-clock seconds before the process group is killed (> 0).
        output_cap: bytes kept per stream (stdout, stderr).
        limits: rlimits; defaults to :class:`ResourceLimits()`.
        toolchain: executables; defaults to :meth:`Toolchain.detect`.
        cancel: when set (from another thread), the process group is killed and the call returns.

    Returns:
        :class:`CommandResult`. A missing tool gives ``exit_code=None`` and ``error`` naming it.

    Raises:
        ToolError: command or argument not allowed, bad timeout/cap, workspace missing.
    """
    if not timeout > 0 or output_cap < 0:
        raise ToolError("timeout must be > 0 and output_cap >= 0")
    ws = Path(workspace).resolve()
    if not ws.is_dir():
        raise ToolError("the workspace folder does not exist")
    limits = limits or ResourceLimits()
    toolchain = toolchain or Toolchain.detect()
    prog, full = _build_argv(list(argv), ws, toolchain)
    if prog == "ruff" and (
        toolchain.ruff is None or not toolchain.ruff.is_file() or not os.access(toolchain.ruff, os.X_OK)
    ):
        where = f" (looked for {toolchain.ruff})" if toolchain.ruff else ""
        return _error_result(full, f"ruff is not installed{where}; lint was NOT run")
    if prog == "pytest" and not toolchain.has_pytest:
        return _error_result(full, "pytest is not installed; tests were NOT run")
    start = time.monotonic()
    sandbox_id = secrets.token_hex(12)
    try:
        proc = subprocess.Popen(
            full,
            cwd=ws,
            env=sandbox_env(ws, toolchain, sandbox_id),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=make_preexec(rlimit_triples(limits)),
            close_fds=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return _error_result(full, f"{prog} could not be started: {exc}")
    try:
        out = supervise(proc, start=start, timeout=timeout, cap=output_cap, limits=limits, cancel=cancel)
    finally:
        sweep(sandbox_id)
    return CommandResult(
        exit_code=out.returncode,
        stdout=out.stdout,
        stderr=out.stderr,
        timed_out=out.timed_out,
        truncated=out.truncated,
        duration_s=round(time.monotonic() - start, 3),
        error=out.error,
        argv=tuple(full),
    )


async def run_command_async(
    argv: list[str],
    *,
    workspace: Path,
    timeout: float,
    output_cap: int,
    limits: ResourceLimits | None = None,
    toolchain: Toolchain | None = None,
) -> CommandResult:
    """:func:`run_command` in a worker thread; cancelling the awaiting task kills the process group.

    Raises:
        ToolError: as :func:`run_command`.
        asyncio.CancelledError: when cancelled (the process group is killed first).
    """
    cancel = threading.Event()
    task = asyncio.ensure_future(
        asyncio.to_thread(
            run_command,
            argv,
            workspace=workspace,
            timeout=timeout,
            output_cap=output_cap,
            limits=limits,
            toolchain=toolchain,
            cancel=cancel,
        )
    )
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        cancel.set()
        await asyncio.wait({task}, timeout=GRACE_S + 5)
        raise
