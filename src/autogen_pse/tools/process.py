"""Process containment primitives for :mod:`autogen_pse.tools.commands`.

rlimits for ``preexec_fn``, incremental capped pipe reading, process-group kill and the final
sweep of processes tagged with the run's ``PSE_SANDBOX_ID``.
"""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "GRACE_S",
    "ResourceLimits",
    "Supervised",
    "kill_group",
    "make_preexec",
    "rlimit_triples",
    "supervise",
    "sweep",
    "user_task_count",
]

_CHUNK = 64 * 1024
GRACE_S = 1.0  # how long to keep draining pipes after the group was killed / the leader exited


class Supervised(NamedTuple):
    """What :func:`supervise` observed: status (negative = signal), decoded capped output."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool
    error: str | None


@dataclass(frozen=True)
class ResourceLimits:
    """rlimits applied to the child (and inherited by its children). Units: seconds and bytes.

    ``nproc`` is the number of *additional* processes/threads the child's user may start: for a
    non-root user the limit set is (tasks the user already runs) + ``nproc``, because the kernel
    counts every task of the real uid. The kernel ignores it for uid 0: started by root, the
    bwrap sandbox switches to a fresh per-run uid, for which the limit is exactly ``nproc``
    (without the sandbox, as root, it is not enforced at all).
    """

    cpu_seconds: int = 60
    address_space_bytes: int = 2 * 1024**3
    nproc: int = 64
    file_size_bytes: int = 64 * 1024**2
    drain_limit_bytes: int = 16 * 1024**2
    tmp_bytes: int = 256 * 1024**2  # size of the sandbox's private /tmp (tmpfs, i.e. memory)


def user_task_count(uid: int) -> int | None:
    """Tasks (processes + threads) whose real uid is ``uid`` (what RLIMIT_NPROC counts);
    ``None`` without a Linux ``/proc``."""
    if not os.path.isdir("/proc/self/task"):
        return None
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as fh:
                for line in fh:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid:
                            count += len(os.listdir(f"/proc/{entry.name}/task"))
                        break
        except (OSError, ValueError, IndexError):
            continue
    return count


def rlimit_triples(limits: ResourceLimits) -> list[tuple[int, int, int]]:
    """(resource, soft, hard) triples, clamped to the current hard limits (non-root cannot raise)."""
    wanted = [
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 5),
        (resource.RLIMIT_AS, limits.address_space_bytes, limits.address_space_bytes),
        (resource.RLIMIT_FSIZE, limits.file_size_bytes, limits.file_size_bytes),
    ]
    running = 0 if os.getuid() == 0 else user_task_count(os.getuid())
    if running is not None:  # without /proc the user's count is unknown: a fixed cap could break forks
        nproc = running + limits.nproc
        wanted.append((resource.RLIMIT_NPROC, nproc, nproc))
    out = []
    for res, soft, hard in wanted:
        _, cur_hard = resource.getrlimit(res)
        if cur_hard != resource.RLIM_INFINITY:
            hard = min(hard, cur_hard)
            soft = min(soft, hard)
        out.append((res, soft, hard))
    return out


def make_preexec(triples: list[tuple[int, int, int]]) -> Callable[[], None]:
    """A ``preexec_fn`` applying precomputed rlimit triples (no /proc scan or import in the child)."""

    def _preexec() -> None:  # runs in the forked child: no allocation-heavy work, no locks
        for res, soft, hard in triples:
            resource.setrlimit(res, (soft, hard))

    return _preexec


class _Capped:
    """Keeps the first ``cap`` bytes of a stream and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.cap, self.data, self.dropped = cap, bytearray(), 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        out = self.data.decode("utf-8", errors="replace")
        return f"{out}\n…[truncated {self.dropped} bytes]" if self.dropped else out


def kill_group(pgid: int) -> None:
    """SIGKILL the process group ``pgid``; a group that is already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def sweep(sandbox_id: str, rounds: int = 3) -> int:
    """SIGKILL every process whose initial environment carries ``PSE_SANDBOX_ID=<sandbox_id>``.

    Returns how many processes were signalled (zombies included).
    """
    needle = f"PSE_SANDBOX_ID={sandbox_id}".encode()
    me, total = os.getpid(), 0
    if not os.path.isdir("/proc/self"):
        return 0
    for _ in range(rounds):
        hits = 0
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == me:
                continue
            try:
                with open(f"/proc/{entry.name}/environ", "rb") as fh:
                    found = needle + b"\x00" in fh.read() + b"\x00"
            except OSError:
                continue
            if found:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(entry.name), signal.SIGKILL)
                    hits += 1
        total += hits
        if not hits:
            break
    return total


def leader_exited(pid: int) -> bool:
    """True once the leader has exited; it stays an unreaped zombie so its pgid stays reserved."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def supervise(
    proc: subprocess.Popen[bytes],
    *,
    start: float,
    timeout: float,
    cap: int,
    limits: ResourceLimits,
    cancel: threading.Event | None,
) -> Supervised:
    """Read ``proc``'s pipes until it ends, the deadline passes, ``cancel`` is set or the output
    floods; kill the whole process group in every case; reap the leader."""
    assert proc.stdout is not None and proc.stderr is not None
    bufs = {proc.stdout.fileno(): _Capped(cap), proc.stderr.fileno(): _Capped(cap)}
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    sel = selectors.DefaultSelector()
    for fd in bufs:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    deadline = start + timeout
    stop_by: float | None = None  # set once the group has been killed: drain until then
    timed_out, error = False, None
    try:
        while True:
            now = time.monotonic()
            if stop_by is None:
                reason = None
                if cancel is not None and cancel.is_set():
                    reason = "cancelled; process group killed"
                elif now >= deadline:
                    timed_out, reason = True, f"timed out after {timeout:g} s; process group killed"
                elif sum(b.dropped for b in bufs.values()) > limits.drain_limit_bytes:
                    reason = f"output exceeded {limits.drain_limit_bytes} bytes; process group killed"
                if reason is not None or leader_exited(proc.pid):
                    error = reason
                    kill_group(proc.pid)  # leftover background children die with the leader
                    stop_by = now + GRACE_S
            elif not sel.get_map() or now >= stop_by:
                break
            wait = 0.05 if stop_by is None else max(0.0, min(0.05, stop_by - now))
            if not sel.get_map():
                time.sleep(wait)
                continue
            for key, _ in sel.select(timeout=wait):
                try:
                    chunk = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if chunk:
                    bufs[key.fd].add(chunk)
                else:
                    sel.unregister(key.fd)
    finally:
        sel.close()
        kill_group(proc.pid)
        proc.stdout.close()
        proc.stderr.close()
        proc.wait()
    return Supervised(
        returncode=proc.returncode,
        stdout=bufs[out_fd].text(),
        stderr=bufs[err_fd].text(),
        timed_out=timed_out,
        truncated=any(b.dropped for b in bufs.values()),
        error=error,
    )
