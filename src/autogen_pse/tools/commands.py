"""Run ``python -m pytest`` or ``ruff check`` in a workspace, without a shell, with hard limits.

Containment, in the order it is applied:

* **Isolation** (``isolation="bwrap"``, the default): the command runs inside bubblewrap
  namespaces — no network, its own pid namespace, a read-only view of only the interpreter and
  system libraries, the workspace read-write, a private ``/tmp``, a per-run unprivileged uid
  when started by root, and a seccomp filter; see :mod:`autogen_pse.tools.sandbox`. Without a
  usable ``bwrap`` the command is refused (``exit_code=None``, ``error`` starting
  ``"sandbox unavailable"``) unless ``isolation="none"`` was chosen explicitly; that weaker mode
  keeps every other layer below but lets test code read any file the user can and use the
  network.
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
* **rlimits** (``preexec_fn``): CPU, address space, file size, core dumps, process count. The
  kernel ignores ``RLIMIT_NPROC`` for uid 0: in the bwrap sandbox a root caller's command runs as
  a fresh per-run uid, so the count is enforced; with ``isolation="none"`` as root a fork bomb is
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

from autogen_pse.tools import sandbox
from autogen_pse.tools.argcheck import validate_pytest_args, validate_ruff_args
from autogen_pse.tools.paths import ToolError
from autogen_pse.tools.process import (
    GRACE_S,
    ResourceLimits,
    Supervised,
    make_preexec,
    rlimit_triples,
    supervise,
    sweep,
)
from autogen_pse.tools.sandbox import DEFAULT_ISOLATION, ISOLATION_MODES

__all__ = [
    "DEFAULT_ISOLATION",
    "ISOLATION_MODES",
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
    """Absolute paths of the allowlisted executables; ``ruff=None`` means "not installed".

    ``bwrap`` / ``setpriv`` (the sandbox; ``None`` = missing) are looked up when not given.
    """

    python: Path
    ruff: Path | None
    has_pytest: bool = True
    bwrap: Path | None = field(default_factory=lambda: sandbox.find_tool("bwrap"))
    setpriv: Path | None = field(default_factory=lambda: sandbox.find_tool("setpriv"))

    @classmethod
    def detect(cls) -> Toolchain:
        """The current interpreter (not symlink-resolved: that would leave the venv) and its ruff."""
        python = Path(sys.executable).absolute()
        beside = python.parent / "ruff"
        ruff: Path | None = beside
        if not (beside.is_file() and os.access(beside, os.X_OK)):
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
    sandbox unavailable, timeout, output flood, cancellation). ``argv`` is the tool's own command
    line (without the sandbox wrapper); ``isolation`` says how it ran (``"bwrap"``/``"none"``).
    """

    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool
    duration_s: float
    error: str | None = None
    argv: tuple[str, ...] = field(default=())
    isolation: str = "none"

    @property
    def ok(self) -> bool:
        """True only for a normal exit with status 0."""
        return self.exit_code == 0 and not self.timed_out and self.error is None


def sandbox_env(
    workspace: Path, toolchain: Toolchain, sandbox_id: str = "", isolation: str = "none"
) -> dict[str, str]:
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
    if isolation == "bwrap":
        env["USER"] = env["LOGNAME"] = "sandbox"  # getpass.getuser() without an /etc/passwd
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


def _error_result(argv: list[str], message: str, isolation: str = "none") -> CommandResult:
    return CommandResult(None, "", f"ERROR: {message}", False, False, 0.0, error=message, argv=tuple(argv),
                         isolation=isolation)  # fmt: skip


def _sandbox_failure(out: Supervised, info: bytes) -> str | None:
    """bwrap's own failure (namespaces refused, a mount failed), told apart from the tool's exit 1:
    bwrap writes ``--info-fd`` only once the sandbox exists, and prefixes its errors ``bwrap:``."""
    if out.timed_out or out.error:
        return None
    first = out.stderr.strip().splitlines()[0] if out.stderr.strip() else "no message"
    exec_failed = (out.returncode == 1 and first.startswith("bwrap:") and "execvp" in first) or (
        out.returncode != 0 and first.startswith("setpriv:")  # e.g. the per-run uid is not mapped
    )
    if not info.strip() or exec_failed:
        return f"sandbox unavailable: bubblewrap could not create the sandbox ({first[:300]})"
    return None


def run_command(
    argv: list[str],
    *,
    workspace: Path,
    timeout: float,
    output_cap: int,
    limits: ResourceLimits | None = None,
    toolchain: Toolchain | None = None,
    cancel: threading.Event | None = None,
    isolation: str = DEFAULT_ISOLATION,
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
        isolation: ``"bwrap"`` (namespaces; refused with an error result when unavailable) or
            ``"none"`` (only the layers without namespaces).

    Returns:
        :class:`CommandResult`. A missing tool or sandbox gives ``exit_code=None`` and ``error``
        naming it; a command killed by signal N (also inside the sandbox) has ``exit_code=-N``.

    Raises:
        ToolError: command or argument not allowed, bad timeout/cap/isolation, workspace missing.
    """
    if not timeout > 0 or output_cap < 0:
        raise ToolError("timeout must be > 0 and output_cap >= 0")
    if isolation not in ISOLATION_MODES:
        raise ToolError(f"isolation must be one of {ISOLATION_MODES}, got {isolation!r}")
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
    boxed = isolation == "bwrap"
    if boxed and (reason := sandbox.unavailable_reason(toolchain.bwrap, toolchain.setpriv)):
        return _error_result(full, f"{reason}; {prog} was NOT run", isolation)
    start = time.monotonic()
    sandbox_id = secrets.token_hex(12)
    env = sandbox_env(ws, toolchain, sandbox_id, isolation)
    uid: int | None = None
    if boxed and os.geteuid() == 0:
        try:
            uid = sandbox.lease_workspace(ws)
        except OSError as exc:
            return _error_result(full, f"sandbox could not prepare the workspace: {exc}", isolation)
    fds: list[int] = []  # every fd below is closed in the finally clause
    try:
        launch, info_r = full, -1
        pass_fds: tuple[int, ...] = ()
        if boxed:
            assert toolchain.bwrap is not None
            info_r, info_w = os.pipe()
            fds += [info_r, info_w]
            seccomp_r = _seccomp_fd(fds)
            launch = sandbox.bwrap_command(
                full, bwrap=toolchain.bwrap, workspace=ws, env=env,
                extra_ro=[toolchain.ruff] if prog == "ruff" and toolchain.ruff else [],
                tmp_bytes=limits.tmp_bytes, uid=uid, setpriv=toolchain.setpriv,
                info_fd=info_w, seccomp_fd=seccomp_r,
            )  # fmt: skip
            pass_fds = (info_w,) if seccomp_r is None else (info_w, seccomp_r)
        try:
            proc = subprocess.Popen(
                launch,
                cwd=ws,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                preexec_fn=make_preexec(rlimit_triples(limits)),
                close_fds=True,
                pass_fds=pass_fds,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return _error_result(full, f"{prog} could not be started: {exc}", isolation)
        for fd in pass_fds:  # the child holds them now; bwrap's info pipe must see EOF
            os.close(fd)
            fds.remove(fd)
        try:
            out = supervise(proc, start=start, timeout=timeout, cap=output_cap, limits=limits, cancel=cancel)
        finally:
            sweep(sandbox_id)
        code, error = out.returncode, out.error
        if boxed:
            code = sandbox.exit_status(code)
            failure = _sandbox_failure(out, _read_all(info_r))
            if failure:
                return _error_result(full, failure, isolation)
    finally:
        for fd in fds:
            os.close(fd)
        if uid is not None:
            sandbox.release_workspace(ws)
    return CommandResult(
        exit_code=code,
        stdout=out.stdout,
        stderr=out.stderr,
        timed_out=out.timed_out,
        truncated=out.truncated,
        duration_s=round(time.monotonic() - start, 3),
        error=error,
        argv=tuple(full),
        isolation=isolation,
    )


def _seccomp_fd(fds: list[int]) -> int | None:
    """A pipe holding the seccomp filter (read end returned, appended to ``fds``); ``None`` when
    this CPU has no filter."""
    program = sandbox.seccomp_program()
    if program is None:
        return None
    read_end, write_end = os.pipe()
    fds.append(read_end)
    try:
        os.write(write_end, program)  # < 1 KiB: fits in the pipe buffer
    finally:
        os.close(write_end)
    return read_end


def _read_all(fd: int) -> bytes:
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


async def run_command_async(
    argv: list[str],
    *,
    workspace: Path,
    timeout: float,
    output_cap: int,
    limits: ResourceLimits | None = None,
    toolchain: Toolchain | None = None,
    isolation: str = DEFAULT_ISOLATION,
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
            isolation=isolation,
        )
    )
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        cancel.set()
        await asyncio.wait({task}, timeout=GRACE_S + 5)
        raise
