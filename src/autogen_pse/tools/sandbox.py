"""Namespace isolation of command tools with bubblewrap (``bwrap``).

:func:`bwrap_command` wraps an allowlisted command (``python -m pytest …`` / ``ruff check …``) so
that it runs in fresh mount, pid, network, ipc, uts and (when possible) cgroup namespaces:

* **Filesystem.** An empty root holding only: ``/usr`` and the top-level ``/bin``, ``/lib*``,
  ``/sbin`` (read-only), ``/etc/ld.so.cache`` and ``/etc/localtime`` (read-only), the ``bin``,
  ``lib``, ``lib64`` and ``pyvenv.cfg`` of the interpreter's venv and base install (read-only, at
  their own paths — the project root, ``$HOME`` and ``~/.ssh`` are never mounted), a private
  size-capped ``/tmp`` and ``/dev/shm`` (tmpfs), a fresh ``/proc`` for the new pid namespace, a
  minimal ``/dev`` (null, zero, full, random, urandom, tty, pts), and the workspace read-write at
  its own path.
* **Network.** A new network namespace with only a loopback: no route out, no host listener on
  ``127.0.0.1`` and no abstract unix socket of the host is reachable.
* **Processes.** A new pid namespace (only the sandbox's processes are visible or signalable);
  ``--die-with-parent``: killing ``bwrap`` ends the namespace's init, and with it every process in
  it, including ones that called ``setsid``.
* **Identity.** Run as root, ``bwrap`` keeps only CAP_SETUID/SETGID/SETPCAP, and ``setpriv``
  switches to a fresh unprivileged uid/gid per run (``2_100_000_000 + random``) with empty
  capability sets (bounding set included) and ``no_new_privs``. The kernel then enforces
  RLIMIT_NPROC (it ignores it for uid 0), and runs in other workspaces cannot signal each other.
  The workspace is handed to that uid for the run and back afterwards (:func:`lease_workspace`).
  Run as another user, ``bwrap`` uses an unprivileged user namespace with ``--disable-userns``.
* **seccomp** (x86_64 and aarch64): new namespaces (``unshare``, ``setns``, namespace flags of
  ``clone``; ``clone3`` reports ENOSYS so libc falls back to ``clone``), ``mount`` and friends,
  keyrings, ``bpf``, ``perf_event_open``, ``userfaultfd``, ``io_uring``, ``open_by_handle_at``,
  module loading and ``kexec`` fail with EPERM; foreign-ABI syscalls (i386, x32) fail with ENOSYS.
* **Environment.** ``--clearenv``; only the vetted variables of ``sandbox_env`` are set.
"""

from __future__ import annotations

import os
import platform
import secrets
import shutil
import stat
import struct
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "DEFAULT_ISOLATION",
    "ISOLATION_MODES",
    "SANDBOX_UID_BASE",
    "UNAVAILABLE",
    "bwrap_command",
    "exit_status",
    "find_tool",
    "hand_back",
    "hand_over",
    "lease_workspace",
    "pick_uid",
    "release_workspace",
    "seccomp_program",
    "unavailable_reason",
]

ISOLATION_MODES = ("bwrap", "none")
# Default of every ``isolation`` parameter. "none" (no namespaces: only rlimits, the environment
# and the process-group kill) must be chosen explicitly, e.g. from a ``tool_isolation`` setting.
DEFAULT_ISOLATION = "bwrap"
UNAVAILABLE = "sandbox unavailable: install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap)"
SANDBOX_UID_BASE = 2_100_000_000  # per-run uids: far above any real or subordinate uid range
_UID_SPAN = 1 << 24
_SYSTEM_TOP = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
_ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime")  # Debian's multiarch libdirs need the cache
_PREFIX_ENTRIES = ("bin", "lib", "lib64", "pyvenv.cfg")
_SEARCH_PATH = "/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin"


def find_tool(name: str) -> Path | None:
    """Absolute path of a system tool (``bwrap``, ``setpriv``): the standard system dirs first,
    then PATH."""
    path = os.environ.get("PATH", "")
    found = shutil.which(name, path=f"{_SEARCH_PATH}:{path}" if path else _SEARCH_PATH)
    return Path(found).absolute() if found else None


def unavailable_reason(bwrap: Path | None, setpriv: Path | None) -> str | None:
    """Why commands cannot be sandboxed here (``None`` when they can, as far as files tell).

    Failures only visible when starting (namespaces forbidden, e.g. in an unprivileged container)
    are reported by :func:`autogen_pse.tools.commands.run_command` from bwrap's own message.
    """
    if bwrap is None or not os.access(bwrap, os.X_OK):
        return UNAVAILABLE
    if os.geteuid() == 0 and (setpriv is None or not os.access(setpriv, os.X_OK)):
        return "sandbox unavailable: setpriv (util-linux) is needed to drop root inside the sandbox"
    return None


def pick_uid() -> int:
    """A fresh unprivileged uid (= gid) for one sandboxed run started by root."""
    return SANDBOX_UID_BASE + secrets.randbelow(_UID_SPAN)


def exit_status(code: int) -> int:
    """bwrap reports a child killed by signal N as 128+N; map that back to -N like Popen."""
    return -(code - 128) if 128 < code <= 128 + 64 else code


# --- workspace ownership (root only) -----------------------------------------------------------

_LEASES: dict[Path, list[int]] = {}  # workspace -> [uid, users, owner uid, owner gid]
_LEASE_LOCK = threading.Lock()


def lease_workspace(workspace: Path) -> int:
    """The sandbox uid for a run in ``workspace``, handing the tree over on first use.

    Concurrent runs in one workspace (parallel tool calls of one turn) share the uid, so one run
    never takes the workspace away from another; the last :func:`release_workspace` hands it back.

    Raises:
        OSError: the hand-over failed (everything already changed is handed back first).
    """
    with _LEASE_LOCK:
        lease = _LEASES.get(workspace)
        if lease is not None:
            lease[1] += 1
            return lease[0]
        st = os.lstat(workspace)
        uid = pick_uid()
        try:
            hand_over(workspace, uid)
        except OSError:
            hand_back(workspace, uid, (st.st_uid, st.st_gid))
            raise
        _LEASES[workspace] = [uid, 1, st.st_uid, st.st_gid]
        return uid


def release_workspace(workspace: Path) -> None:
    """End one run's lease; the last one returns the tree to its owner (:func:`hand_back`)."""
    with _LEASE_LOCK:
        lease = _LEASES.get(workspace)
        if lease is None:
            return
        lease[1] -= 1
        if lease[1] > 0:
            return
        del _LEASES[workspace]
        hand_back(workspace, lease[0], (lease[2], lease[3]))



def _walk(root: Path) -> Iterator[tuple[str, int]]:
    """``(name, dir_fd)`` of the root (``"."`` in its own fd) and every entry below it. ``fwalk``
    holds each directory open and never follows symlinks, and every change below is made relative
    to that fd on one name component, so swapping a path for a symlink cannot redirect it."""
    for depth, (_, dirnames, filenames, dir_fd) in enumerate(os.fwalk(root, follow_symlinks=False)):
        if depth == 0:
            yield ".", dir_fd
        for name in (*dirnames, *filenames):
            yield name, dir_fd


def hand_over(workspace: Path, uid: int) -> None:
    """Give the workspace tree to ``uid`` (and gid ``uid``) so the sandboxed run can write in it.

    Symlinks are never followed or changed; a non-directory with more than one hard link is left
    alone (it could share its inode with a file outside). Undo with :func:`hand_back`.

    Raises:
        OSError: a ``chown`` failed (e.g. a read-only file system).
    """
    for name, dir_fd in _walk(workspace):
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode) or (not stat.S_ISDIR(st.st_mode) and st.st_nlink > 1):
            continue
        os.chown(name, uid, uid, dir_fd=dir_fd, follow_symlinks=False)


def hand_back(workspace: Path, uid: int, owner: tuple[int, int]) -> None:
    """Return everything owned by the sandbox ``uid`` (or its gid) to ``owner``; setuid/setgid
    bits of regular files are cleared. Runs only once every sandboxed process is gone."""
    for name, dir_fd in _walk(workspace):
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if st.st_uid != uid and st.st_gid != uid:
                continue
            os.chown(name, *owner, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and st.st_mode & 0o6000:
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
                try:
                    os.fchmod(fd, stat.S_IMODE(os.fstat(fd).st_mode) & ~0o6000)
                finally:
                    os.close(fd)
        except FileNotFoundError:
            continue


# --- seccomp -----------------------------------------------------------------------------------

_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JGE_K, _BPF_JSET_K, _BPF_RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM, _ENOSYS = 1, 38
_CLONE_NS_FLAGS = 0x7E020000  # NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
# name -> (x86_64, aarch64) syscall numbers
_DENIED = {
    "unshare": (272, 97), "setns": (308, 268), "mount": (165, 40), "umount2": (166, 39),
    "pivot_root": (155, 41), "open_by_handle_at": (304, 265), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "bpf": (321, 280),
    "perf_event_open": (298, 241), "userfaultfd": (323, 282), "io_uring_setup": (425, 425),
    "io_uring_enter": (426, 426), "io_uring_register": (427, 427), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "kexec_load": (246, 104),
    "fsopen": (430, 430), "fsmount": (432, 432), "move_mount": (429, 429), "open_tree": (428, 428),
}  # fmt: skip
_CLONE, _CLONE3 = (56, 220), (435, 435)
_ARCHES = {"x86_64": (0, 0xC000003E), "amd64": (0, 0xC000003E), "aarch64": (1, 0xC00000B7),
           "arm64": (1, 0xC00000B7)}  # fmt: skip


def seccomp_program(machine: str | None = None) -> bytes | None:
    """The classic-BPF seccomp filter described in the module docstring, as bwrap reads it from
    ``--seccomp FD`` (``struct sock_filter`` array, native byte order); ``None`` on other CPUs."""
    arch = _ARCHES.get((machine or platform.machine()).lower())
    if arch is None or sys.byteorder != "little":
        return None
    col, audit_arch = arch
    prog: list[tuple[int, int, int, int]] = []

    def ins(code: int, k: int, jt: int = 0, jf: int = 0) -> None:
        prog.append((code, jt, jf, k))

    errno = _RET_ERRNO
    ins(_BPF_LD_W_ABS, 4)  # seccomp_data.arch
    ins(_BPF_JEQ_K, audit_arch, jt=1)
    ins(_BPF_RET_K, errno | _ENOSYS)  # another ABI (i386 via int 0x80, aarch32)
    ins(_BPF_LD_W_ABS, 0)  # seccomp_data.nr
    if col == 0:
        ins(_BPF_JGE_K, 0x40000000, jf=1)  # x32 ABI
        ins(_BPF_RET_K, errno | _ENOSYS)
    ins(_BPF_JEQ_K, _CLONE3[col], jf=1)
    ins(_BPF_RET_K, errno | _ENOSYS)  # flags are behind a pointer: libc falls back to clone()
    ins(_BPF_JEQ_K, _CLONE[col], jf=4)
    ins(_BPF_LD_W_ABS, 16)  # low half of args[0] = clone flags
    ins(_BPF_JSET_K, _CLONE_NS_FLAGS, jf=1)
    ins(_BPF_RET_K, errno | _EPERM)
    ins(_BPF_RET_K, _RET_ALLOW)
    for numbers in _DENIED.values():
        ins(_BPF_JEQ_K, numbers[col], jf=1)
        ins(_BPF_RET_K, errno | _EPERM)
    ins(_BPF_RET_K, _RET_ALLOW)
    return b"".join(struct.pack("=HBBI", *i) for i in prog)


# --- the bwrap command line --------------------------------------------------------------------


def _python_roots(python: Path) -> list[Path]:
    """Install prefixes the interpreter needs: the venv and the base install (literal and real)."""
    roots = [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)]
    roots += [python.parent.parent, Path(os.path.realpath(python)).parent.parent]
    out: list[Path] = []
    for root in roots:
        for cand in (root.absolute(), Path(os.path.realpath(root))):
            if cand not in out:
                out.append(cand)
    return out


def _under(path: Path, roots: list[Path]) -> bool:
    return any(path == r or path.is_relative_to(r) for r in roots)


class _Plan:
    """Accumulates bwrap mount operations, creating missing parent dirs world-readable (0755)."""

    def __init__(self) -> None:
        self.args: list[str] = []
        self.ro: list[Path] = []  # read-only trees already mounted (no mkdir inside them)
        self.made: set[Path] = {Path("/")}

    def parents(self, dest: Path) -> None:
        for parent in reversed(dest.parents):
            if parent in self.made or _under(parent, self.ro):
                continue
            self.args += ["--perms", "0755", "--dir", str(parent)]
            self.made.add(parent)

    def ro_bind(self, src: Path, dest: Path) -> None:
        if _under(dest, self.ro):
            return
        self.parents(dest)
        self.args += ["--ro-bind", str(src), str(dest)]
        self.ro.append(dest)

    def symlink(self, target: str, dest: Path) -> None:
        if _under(dest, self.ro) or dest in self.made:
            return
        self.parents(dest)
        self.args += ["--symlink", target, str(dest)]
        self.made.add(dest)


def _refuse_exposing(src: Path, workspace: Path) -> None:
    home = Path(os.path.realpath(Path.home()))
    real = Path(os.path.realpath(src))
    if real == Path("/") or workspace.is_relative_to(real) or home.is_relative_to(real):
        from autogen_pse.tools.paths import ToolError

        raise ToolError(f"sandbox refused: mounting {src} would expose the workspace's or HOME's parent")


def bwrap_command(
    command: list[str],
    *,
    bwrap: Path,
    workspace: Path,
    env: dict[str, str],
    extra_ro: list[Path],
    tmp_bytes: int,
    uid: int | None,
    setpriv: Path | None,
    info_fd: int,
    seccomp_fd: int | None,
) -> list[str]:
    """The full ``bwrap … -- [setpriv …] command`` argv (see the module docstring).

    Args:
        command: absolute argv of the allowlisted tool (its executable must lie in a mounted dir).
        workspace: resolved workspace; mounted read-write at the same path and made the cwd.
        env: the only environment the command gets.
        extra_ro: further executables to mount read-only at their own path (e.g. ``ruff``).
        tmp_bytes: size of the private ``/tmp`` tmpfs.
        uid: per-run uid to switch to with ``setpriv`` (root) or ``None`` (unprivileged bwrap).
        info_fd / seccomp_fd: fds passed to the child for ``--info-fd`` / ``--seccomp``.

    Raises:
        ToolError: a mount would expose ``/``, the workspace's parent or ``$HOME``.
    """
    ws = Path(workspace)
    plan = _Plan()
    plan.ro_bind(Path("/usr"), Path("/usr"))
    for name in _SYSTEM_TOP:
        top = Path("/") / name
        if top.is_symlink():
            plan.symlink(os.readlink(top), top)
        elif top.is_dir():
            plan.ro_bind(top, top)
    for name in _ETC_FILES:
        if os.path.exists(name):
            plan.ro_bind(Path(os.path.realpath(name)), Path(name))
    plan.args += ["--proc", "/proc", "--dev", "/dev"]
    for tmp in ("/tmp", "/dev/shm"):  # /dev/shm: POSIX semaphores (multiprocessing locks)
        plan.args += ["--perms", "1777", "--size", str(tmp_bytes), "--tmpfs", tmp]
    plan.made |= {Path("/proc"), Path("/dev"), Path("/tmp")}
    python = Path(command[0])
    for root in _python_roots(python):
        for entry in _PREFIX_ENTRIES:
            path = root / entry
            if path.is_symlink():
                plan.symlink(os.readlink(path), path)
            elif path.exists():
                _refuse_exposing(path, ws)
                plan.ro_bind(Path(os.path.realpath(path)), path)
    for exe in extra_ro:
        for path in dict.fromkeys((exe.absolute(), Path(os.path.realpath(exe)))):
            if path.exists():
                _refuse_exposing(path, ws)
                plan.ro_bind(Path(os.path.realpath(path)), path)
    plan.parents(ws)
    plan.args += ["--bind", str(ws), str(ws), "--chdir", str(ws)]
    argv = [str(bwrap), "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
            "--unshare-cgroup-try", "--hostname", "sandbox", "--die-with-parent", "--new-session"]  # fmt: skip
    if uid is None:
        argv += ["--unshare-user", "--disable-userns"]
    else:
        argv += ["--cap-drop", "ALL"]
        argv += [a for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP") for a in ("--cap-add", cap)]
    argv += [*plan.args, "--info-fd", str(info_fd)]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv.append("--clearenv")
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv.append("--")
    if uid is not None:
        assert setpriv is not None
        argv += [str(setpriv), f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--"]  # fmt: skip
    return argv + command
