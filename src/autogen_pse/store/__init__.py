"""The trace store: trace folders (atomic JSON + append-only events) and the SQLite run index.

Layout under ``Settings.traces_dir`` (created on demand)::

    traces/
      index.sqlite            one row per run (derived; rebuilt from the folders when damaged)
      <run_id>/               run ids are ULIDs, validated before any path is built
        trace.json            reduced document, written atomically at the run's end (readers fold
                              events.jsonl while it is missing or older than the log)
        events.jsonl          every RunEvent, one JSON line each, append-only
        artifact.md           (+ artifact.raw.md) written by the artifact step
        workspace/            the agents' sandbox

See ``docs/trace-format.md`` for the document shapes and the crash guarantees.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

from autogen_pse.config import Settings
from autogen_pse.errors import StoreError, UserError
from autogen_pse.events import RunEvent
from autogen_pse.store.files import EventLog, atomic_write_json, atomic_write_text, store_error
from autogen_pse.store.ids import new_run_id, validate_run_id
from autogen_pse.store.index import RunIndex, open_or_rebuild
from autogen_pse.store.layout import (
    ARTIFACT_FILE,
    EVENTS_FILE,
    RAW_ARTIFACT_FILE,
    WORKSPACE_DIR,
    load_trace_doc,
)
from autogen_pse.store.rows import RunPage, RunRow
from autogen_pse.store.sink import RunSink
from autogen_pse.store.trace import TraceBuilder

__all__ = [
    "EventLog",
    "RunIndex",
    "RunPage",
    "RunRow",
    "RunSink",
    "TraceBuilder",
    "TraceStore",
    "atomic_write_json",
    "atomic_write_text",
    "new_run_id",
    "open_or_rebuild",
    "validate_run_id",
]

#: ``create_run`` refuses to start a run with less free space than this in the traces folder.
MIN_FREE_BYTES = 1 << 20

# Opened indexes of this process: db path -> (index, the db file's identity when it was opened).
# A store per run (the CLI, the executor) then reuses one checked connection instead of opening,
# checking and (on close: a WAL checkpoint with fsync) closing the database for every run. The
# few most recent are kept; a dropped one closes when no store uses it any more.
_OPENED: dict[str, tuple[RunIndex, tuple[int, ...]]] = {}
_OPENED_LOCK = threading.Lock()
_OPENED_MAX = 4


def _identity(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)


def _shared_index(db_path: Path, traces_dir: Path) -> RunIndex:
    """This process's index at ``db_path``: reused while the file is the one it opened (same inode,
    size and modification time), else opened (and checked or rebuilt) with :func:`open_or_rebuild`."""
    key = str(db_path.resolve())
    with _OPENED_LOCK:
        cached = _OPENED.get(key)
        now = _identity(db_path)
        if cached is not None and now is not None and cached[1] == now:
            return cached[0]
        index = open_or_rebuild(db_path, traces_dir)
        opened = _identity(db_path)
        _OPENED.pop(key, None)
        if opened is not None:
            _OPENED[key] = (index, opened)
            while len(_OPENED) > _OPENED_MAX:
                _OPENED.pop(next(iter(_OPENED)))
        return index


class TraceStore:
    """Facade over the trace folders and the run index of ``settings.traces_dir``.

    The index is opened (and rebuilt if missing or corrupt) on first use of :attr:`index`.
    """

    def __init__(self, settings: Settings) -> None:
        self.traces_dir = Path(settings.traces_dir)
        self.index_path = Path(settings.index_path)
        self._index: RunIndex | None = None
        self._lock = threading.Lock()

    # --- paths -----------------------------------------------------------------------------
    def run_dir(self, run_id: str, *, must_exist: bool = True) -> Path:
        """``traces/<run_id>/``.

        Raises:
            UserError: invalid id, or (``must_exist``) no such run: ``no run <id>; see `pse trace```.
        """
        path = self.traces_dir / validate_run_id(run_id)
        if must_exist and not path.is_dir():
            raise UserError(f"no run {run_id}; see `pse trace`")
        return path

    def artifact_path(self, run_id: str, *, raw: bool = False) -> Path:
        """``traces/<run_id>/artifact.md`` (``artifact.raw.md`` if ``raw``); the file may not exist yet.

        Raises:
            UserError: invalid id or unknown run.
        """
        return self.run_dir(run_id) / (RAW_ARTIFACT_FILE if raw else ARTIFACT_FILE)

    def workspace_path(self, run_id: str) -> Path:
        """``traces/<run_id>/workspace/`` (UserError for an invalid id or unknown run)."""
        return self.run_dir(run_id) / WORKSPACE_DIR

    # --- index -----------------------------------------------------------------------------
    @property
    def index(self) -> RunIndex:
        """The run index, opened on first use (rebuilt from the folders when missing or corrupt).

        Raises:
            StoreError: the index cannot be created.
        """
        with self._lock:
            if self._index is None:
                self._index = _shared_index(self.index_path, self.traces_dir)
            return self._index

    def reindex(self) -> int:
        """Rebuild the index from the trace folders; returns the number of runs indexed."""
        self._ensure_traces_dir()
        return self.index.rebuild(self.traces_dir)

    def recover_interrupted(self, live: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """Mark ``running`` runs that are not in ``live`` (and whose writer is gone) as ``interrupted``.

        Returns the ids changed. Call once at startup, before starting runs.
        """
        return self.index.mark_interrupted(self.traces_dir, live=live)

    # --- runs ------------------------------------------------------------------------------
    def new_run_id(self) -> str:
        """A fresh run id (ULID)."""
        return new_run_id()

    def check_writable(self) -> None:
        """Check, before a run is accepted, that the traces folder can be created and written
        (a probe file is written, fsync'ed and removed) and has at least 1 MiB free.

        Raises:
            StoreError: one line naming the folder, the cause and the fix.
        """
        self._ensure_traces_dir()
        try:
            fd, probe = tempfile.mkstemp(dir=self.traces_dir, prefix=".probe-")
            try:
                os.write(fd, b"ok")
                os.fsync(fd)
            finally:
                os.close(fd)
                os.unlink(probe)
            free = shutil.disk_usage(self.traces_dir).free
        except OSError as exc:
            raise store_error(self.traces_dir, exc) from exc
        if free < MIN_FREE_BYTES:
            raise StoreError(
                f"cannot write {self.traces_dir}: only {free} bytes free; "
                "free disk space or set PSE_TRACES_DIR to a folder on another disk"
            )

    def create_run(self, run_id: str) -> Path:
        """Create ``traces/<run_id>/`` and its ``workspace/``; returns the run folder.

        The traces folder is checked to be writable (a probe file is written and removed) and to
        have at least 1 MiB free, before anything of the run starts.

        Raises:
            UserError: invalid id, or a run with this id already exists.
            StoreError: the traces folder cannot be created or written, or the disk is full.
        """
        validate_run_id(run_id)
        self._ensure_traces_dir()
        run_dir = self.traces_dir / run_id
        try:
            run_dir.mkdir()
        except FileExistsError as exc:
            raise UserError(f"run {run_id} already exists in {self.traces_dir}; use a new run id") from exc
        except OSError as exc:
            raise store_error(run_dir, exc, "create") from exc
        try:
            (run_dir / WORKSPACE_DIR).mkdir()
            # a write (no fsync: the run_started event's fsync follows at once and reports a
            # full disk there too) proves the folder takes data before anything of the run starts
            fd, probe = tempfile.mkstemp(dir=run_dir, prefix=".probe-")
            try:
                os.write(fd, b"ok")
            finally:
                os.close(fd)
                os.unlink(probe)
            free = shutil.disk_usage(run_dir).free
        except OSError as exc:
            shutil.rmtree(run_dir, ignore_errors=True)
            raise store_error(run_dir, exc) from exc
        if free < MIN_FREE_BYTES:
            shutil.rmtree(run_dir, ignore_errors=True)
            raise StoreError(
                f"cannot write {self.traces_dir}: only {free} bytes free; "
                "free disk space or set PSE_TRACES_DIR to a folder on another disk"
            )
        return run_dir

    def sink(self, run_id: str, *, reopen: bool = False) -> RunSink:
        """The sink recording ``run_id`` (its folder must exist: see :meth:`create_run`);
        ``reopen``: append to the run's existing trace (a resumed run).

        Raises:
            UserError: invalid id or unknown run.  StoreError: the index cannot be opened, or
                (``reopen``) the event log is damaged.
        """
        run_dir = self.run_dir(run_id)
        return RunSink(run_id, run_dir, self.index, reopen=reopen)

    def load_trace(self, run_id: str, *, fresh: bool = False) -> dict[str, Any]:
        """The trace document of ``run_id``: ``trace.json`` when it is as new as ``events.jsonl``'s
        last event, else rebuilt from ``events.jsonl`` (a running run between checkpoints, or a
        ``trace.json`` left older by a power loss: it is written without fsync, the log is the
        durable record). ``fresh=True`` always rebuilds from the log.

        Raises:
            UserError: invalid id or unknown run.
            StoreError: neither ``trace.json`` nor ``events.jsonl`` is usable (with ``fresh``:
                ``events.jsonl`` is damaged).
        """
        run_dir = self.run_dir(run_id)
        doc, _source = load_trace_doc(run_dir, prefer_events=fresh)
        if doc is None:
            raise StoreError(
                f"run {run_id} has no readable trace in {run_dir}: trace.json and events.jsonl are "
                "missing or empty (the run may have failed before its first event)"
            )
        return doc

    def read_events(self, run_id: str, after_seq: int = 0) -> list[RunEvent]:
        """Events of ``run_id`` with ``seq > after_seq`` (for replay after SSE ``Last-Event-ID``).

        Raises:
            UserError: invalid id or unknown run.  StoreError: the log is damaged or unreadable.
        """
        return EventLog(self.run_dir(run_id) / EVENTS_FILE).read(after_seq=after_seq)

    def get(self, run_id: str) -> RunRow:
        """The index row of ``run_id``.

        Raises:
            UserError: invalid id or unknown run.
        """
        row = self.index.get(validate_run_id(run_id))
        if row is None:
            raise UserError(f"no run {run_id}; see `pse trace`")
        return row

    def list_runs(self, **filters: Any) -> RunPage:
        """:meth:`RunIndex.list` (keyword filters: task, verdict, status, since, until, limit, cursor)."""
        return self.index.list(**filters)

    def _ensure_traces_dir(self) -> None:
        try:
            self.traces_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise store_error(self.traces_dir, exc, "create") from exc
        if not os.access(self.traces_dir, os.W_OK | os.X_OK):
            code = errno.EACCES
            with contextlib.suppress(OSError, AttributeError):
                if os.statvfs(self.traces_dir).f_flag & os.ST_RDONLY:
                    code = errno.EROFS
            raise store_error(self.traces_dir, OSError(code, os.strerror(code)), "write")
