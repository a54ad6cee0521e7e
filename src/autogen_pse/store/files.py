"""Crash-safe files: atomic JSON/text rewrites and the append-only ``events.jsonl`` log.

Guarantees (see ``docs/trace-format.md``):

* :func:`atomic_write_text` either leaves the old file or the complete new one — never a half
  written file — because the text goes to a temporary file in the same folder, is fsync'ed, and
  then renamed over the target with ``os.replace``.
* :class:`EventLog` writes each event as one line with a single ``write`` and flushes it to the
  operating system at once, so a SIGKILL of the writer loses nothing that was appended; it fsyncs
  once per cycle (when the next cycle starts) and at the run's end, so a power loss loses at most
  the cycle under way (and the last one until the run's end is recorded: one fsync covers both). A SIGKILL during a
  write can leave an incomplete last line, which :meth:`EventLog.read` ignores and the next
  :meth:`EventLog.append` cuts off.

Every write failure is raised as :class:`~autogen_pse.errors.StoreError` with a one-line message
naming the path and the fix.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from autogen_pse.errors import StoreError
from autogen_pse.events import EventKind, RunEvent

try:  # POSIX only; on other systems live-run detection falls back to the caller's live set.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "EventLog",
    "atomic_write_json",
    "atomic_write_text",
    "is_locked",
    "make_durable",
    "remove_stale_temps",
    "store_error",
]

#: Event kinds after which the log is fsync'ed (durable against power loss, not only SIGKILL). A
#: finished cycle is made durable when the next one starts (``cycle_started``), or with the run's
#: end (``run_finished``) when it was the last one: one fsync per cycle, the last one shared with the
#: end. A power loss loses at most the cycle under way (for a run in its first cycle: the whole run,
#: which had produced nothing yet) and, during the run's last steps (final checks, artifact), the
#: last cycle, which a resume then runs again.
SYNC_KINDS = frozenset({EventKind.RUN_FINISHED})
#: A ``cycle_started`` after one of these makes the log durable (the previous cycle's events).
SYNC_BEFORE_NEXT = frozenset({EventKind.CYCLE_FINISHED})


def store_error(path: Path | str, exc: OSError, action: str = "write") -> StoreError:
    """A :class:`StoreError` whose one-line message names ``path``, the cause and the fix."""
    if isinstance(exc, PermissionError) or exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        fix = "make the folder writable or set PSE_TRACES_DIR to a writable folder"
        cause = "permission denied" if exc.errno != errno.EROFS else "read-only file system"
    elif exc.errno in (errno.ENOSPC, errno.EDQUOT):
        fix = "free disk space or set PSE_TRACES_DIR to a folder on another disk"
        cause = "no space left on device" if exc.errno == errno.ENOSPC else "disk quota exceeded"
    else:
        fix = "check that the folder exists and is writable, or set PSE_TRACES_DIR elsewhere"
        cause = exc.strerror or exc.__class__.__name__
    return StoreError(f"cannot {action} {path}: {cause}; {fix}")


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: not every platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: Path | str, text: str, *, durable: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically.

    ``durable`` (default) also fsyncs the file and its folder, so the new content survives a power
    loss; without it the replacement is still atomic for every reader and against a killed writer,
    which is enough for derived files (``trace.json`` is checked against ``events.jsonl`` on load).

    Raises:
        StoreError: the folder is not writable, the disk is full, or the rename failed; the old
            content of ``path`` is then untouched and no temporary file is left behind.
    """
    path = Path(path)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        # errors="replace": a lone surrogate (invalid in UTF-8) from a model becomes "?" rather than
        # failing the write of the whole document
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise store_error(path, exc) from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    if durable:
        _fsync_dir(path.parent)


def make_durable(*paths: Path) -> None:
    """fsync each file of ``paths`` and, once each, their folders (after non-durable writes).

    Raises:
        StoreError: a file cannot be opened or synced.
    """
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise store_error(path, exc) from exc
    for folder in dict.fromkeys(Path(p).parent for p in paths):
        _fsync_dir(folder)


def remove_stale_temps(path: Path | str) -> int:
    """Delete temporary files that :func:`atomic_write_text` of ``path`` left behind when its
    process was killed between writing and renaming; returns how many were removed.

    Only call this when no writer of ``path`` is alive (the temp file may be in use otherwise).
    """
    path = Path(path)
    removed = 0
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()
            removed += 1
    return removed


def atomic_write_json(path: Path | str, data: Any, *, durable: bool = True) -> None:
    """:func:`atomic_write_text` of ``data`` as indented UTF-8 JSON with a final newline."""
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n", durable=durable)


def is_locked(path: Path | str) -> bool:
    """True when another open :class:`EventLog` (any process) holds ``path``'s writer lock.

    The lock is an ``flock`` that the kernel drops when the writing process dies (also on SIGKILL),
    so a locked log belongs to a live run. Always False where ``flock`` is unavailable.
    """
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


class EventLog:
    """Append-only JSON-lines log of one run's :class:`RunEvent` s (``traces/<id>/events.jsonl``).

    The writer keeps the file open (and ``flock``-ed) from the first :meth:`append` until
    :meth:`close`, which :meth:`append` does by itself after ``run_finished``.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._fh: IO[bytes] | None = None
        self._unsynced = False  # bytes appended since the last fsync
        self._cycle_done = False  # a cycle finished since the last fsync: sync when the next starts

    # --- writing ---------------------------------------------------------------------------
    def _open(self) -> IO[bytes]:
        if self._fh is not None:
            return self._fh
        try:
            # Unbuffered: a failed write leaves nothing queued in a buffer to surface later.
            fh = open(self.path, "ab+", buffering=0)  # noqa: SIM115 - kept open for the whole run
        except OSError as exc:
            raise store_error(self.path, exc, "open") from exc
        try:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._cut_incomplete_tail(fh)
        except BlockingIOError as exc:
            fh.close()
            raise StoreError(
                f"cannot write {self.path}: another writer holds it; a run has one sink, "
                "make sure the run is not already being recorded"
            ) from exc
        except OSError as exc:
            fh.close()
            raise store_error(self.path, exc) from exc
        self._fh = fh
        return fh

    @staticmethod
    def _cut_incomplete_tail(fh: IO[bytes]) -> None:
        """Truncate bytes after the last newline (left by a writer killed mid-line)."""
        size = fh.seek(0, os.SEEK_END)
        if size == 0:
            return
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        pos = size
        while pos > 0:
            step = min(4096, pos)
            fh.seek(pos - step)
            block = fh.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                fh.truncate(pos - step + cut + 1)
                return
            pos -= step
        fh.truncate(0)

    def append(self, event: RunEvent) -> None:
        """Append ``event`` as one line; fsync after ``run_finished`` and after the ``cycle_started``
        that follows a ``cycle_finished``.

        Raises:
            StoreError: the file cannot be opened or written (permissions, full disk).
        """
        line = event.model_dump_json().encode("utf-8") + b"\n"
        fh = self._open()
        start = None
        try:
            start = fh.seek(0, os.SEEK_END)
            view = memoryview(line)
            while view:  # a raw write may be partial
                written = fh.write(view)
                if not written:
                    raise OSError(errno.EIO, "short write")
                view = view[written:]
            self._unsynced = True
            if event.kind in SYNC_KINDS or (self._cycle_done and event.kind == EventKind.CYCLE_STARTED):
                os.fsync(fh.fileno())
                self._unsynced = self._cycle_done = False
            elif event.kind in SYNC_BEFORE_NEXT:
                self._cycle_done = True
        except OSError as exc:
            if start is not None:  # never leave a cut-off line for the next append to extend
                with contextlib.suppress(OSError):
                    fh.truncate(start)
            raise store_error(self.path, exc) from exc
        if event.kind == EventKind.RUN_FINISHED:
            self.close()

    def close(self) -> None:
        """Fsync (when something was appended since the last fsync) and close the file; releases the
        writer lock. Safe to call twice."""
        fh, self._fh = self._fh, None
        if fh is None:
            return
        try:
            if self._unsynced:
                os.fsync(fh.fileno())
                self._unsynced = False
        except OSError as exc:
            raise store_error(self.path, exc) from exc
        finally:
            fh.close()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ---------------------------------------------------------------------------
    def last_seq(self) -> int | None:
        """``seq`` of the last complete line, read from the end of the file (0: no complete
        line or no file); None when that line is not an event (the caller reads the whole log).

        Raises:
            StoreError: the file exists but cannot be read.
        """
        try:
            fh = open(self.path, "rb")  # noqa: SIM115 - closed below
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise store_error(self.path, exc, "read") from exc
        with fh:
            try:
                end = fh.seek(0, os.SEEK_END)
                tail, pos = b"", end
                while pos > 0:  # until the tail holds a whole last line (or the file's start)
                    step = min(8192, pos)
                    pos -= step
                    fh.seek(pos)
                    tail = fh.read(step) + tail
                    body = tail[: tail.rfind(b"\n")] if b"\n" in tail else b""
                    if b"\n" in body or (pos == 0 and b"\n" in tail):
                        break
            except OSError as exc:
                raise store_error(self.path, exc, "read") from exc
        if b"\n" not in tail:
            return 0  # no complete line (a cut-off first line is ignored, as read() does)
        complete = tail[: tail.rfind(b"\n")]
        line = complete[complete.rfind(b"\n") + 1:]
        try:
            seq = json.loads(line).get("seq")
        except (ValueError, AttributeError):
            return None
        return seq if isinstance(seq, int) else None

    def read(self, after_seq: int = 0) -> list[RunEvent]:
        """Events with ``seq > after_seq`` in file order; ``[]`` when the file does not exist.

        An incomplete final line (no trailing newline: what a SIGKILL mid-write leaves) is ignored.

        Raises:
            StoreError: the file cannot be read, or a complete line is not a valid event (damage
                other than a cut-off tail); the message names the line.
        """
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise store_error(self.path, exc, "read") from exc
        end = data.rfind(b"\n")
        events: list[RunEvent] = []
        if end < 0:
            return events
        for number, raw in enumerate(data[:end].split(b"\n"), start=1):
            if not raw.strip():
                continue
            try:
                event = RunEvent.model_validate_json(raw)
            except ValidationError as exc:
                raise StoreError(
                    f"{self.path} line {number} is not a valid event ({exc.error_count()} error(s)); "
                    "the log is damaged there; trace.json keeps the state of the last finished cycle"
                ) from exc
            if event.seq > after_seq:
                events.append(event)
        return events
