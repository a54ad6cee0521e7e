"""The worker's event sink: every RunEvent of a run appended to the run's Redis Stream.

``handle`` (called by the run's emitter, in order) only serialises the event and queues it; a
thread appends queued entries in batches with the fenced :data:`~.broker.PUBLISH` script. When
Redis is down the batch is retried until it is back (the run goes on meanwhile); an entry whose id
is already in the stream is skipped, so nothing is duplicated. Entry ids are ``<seq>-0``.

Files travel with the events: ``checkpoint.json`` whenever it changed, and the artifact and
workspace files (changed ones, within the run's byte cap) with ``cycle_started``, ``artifact``
and ``run_finished``. Paths of the worker's run folder are written as :data:`RUN_DIR` for the
server to put its own folder there.
"""

from __future__ import annotations

import base64
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.remote import keys
from autogen_pse.remote.broker import PUBLISH, script
from autogen_pse.resume import CHECKPOINT_FILE
from autogen_pse.store.layout import ARTIFACT_FILE, RAW_ARTIFACT_FILE, WORKSPACE_DIR

log = logging.getLogger(__name__)

#: Stands for the run folder in paths inside events (each side has its own folder).
RUN_DIR = "@@PSE_RUN_DIR@@"
FILE_KINDS = frozenset({EventKind.CYCLE_STARTED, EventKind.ARTIFACT, EventKind.RUN_FINISHED})
BATCH = 200


class Fenced(Exception):
    """The worker's lease is gone: another worker may own the run now; publish nothing more."""


class StreamPublisher:
    def __init__(self, client: Any, run_id: str, token: str, run_dir: Path, *, replace: dict[str, str],
                 files_cap: int, on_fenced: Callable[[], None]) -> None:
        self.run_id = run_id
        self.token = token
        self.run_dir = run_dir
        self.files_cap = files_cap
        self.fenced = False
        self._client = client
        self._publish = script(client, PUBLISH)
        self._keys = [keys.lease(run_id), keys.stream(run_id)]
        # JSON-escaped worker strings → what the server should see
        self._replace = [(json.dumps(str(run_dir))[1:-1], RUN_DIR),
                         *((json.dumps(k)[1:-1], json.dumps(v)[1:-1]) for k, v in replace.items())]
        self._queue: queue.Queue[tuple[str, str, str, str] | None] = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition()
        self._sent: dict[str, tuple[int, int]] = {}  # rel path → (mtime_ns, size) last sent
        self._files_used = 0
        self._on_fenced = on_fenced
        self._thread = threading.Thread(target=self._pump, name=f"pse-publish-{run_id}", daemon=True)
        self._thread.start()

    # --- the run's side ----------------------------------------------------------------------
    def handle(self, event: RunEvent) -> None:
        """Queue ``event`` (and the files that changed) for the stream; never blocks on Redis."""
        files = self._changed_files(event.kind)
        self.put(f"{event.seq}-0", "event", self.rewrite(event.model_dump_json()), files)

    def put(self, entry_id: str, kind: str, data: str, files: dict[str, str] | None = None) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put((entry_id, kind, data, json.dumps(files) if files else ""))

    def rewrite(self, text: str) -> str:
        for old, new in self._replace:
            if old:
                text = text.replace(old, new)
        return text

    def flush(self, timeout: float) -> bool:
        """Wait until every queued entry is in the stream (or fenced); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._pending and not self.fenced:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(min(left, 0.5))
        return True

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    # --- files -------------------------------------------------------------------------------
    def _changed_files(self, kind: EventKind) -> dict[str, str]:
        out: dict[str, str] = {}
        candidates = [self.run_dir / CHECKPOINT_FILE]
        if kind in FILE_KINDS:
            candidates += [self.run_dir / ARTIFACT_FILE, self.run_dir / RAW_ARTIFACT_FILE]
            workspace = self.run_dir / WORKSPACE_DIR
            if workspace.is_dir():
                candidates += sorted(p for p in workspace.rglob("*") if p.is_file() and not p.is_symlink())
        for path in candidates:
            try:
                st = path.stat()
            except OSError:
                continue
            rel = path.relative_to(self.run_dir).as_posix()
            if self._sent.get(rel) == (st.st_mtime_ns, st.st_size):
                continue
            capped = rel.startswith(WORKSPACE_DIR + "/")
            if capped and self._files_used + st.st_size > self.files_cap:
                log.warning("run %s: %s not sent to the server (PSE_REMOTE_FILES_CAP %d bytes reached)",
                            self.run_id, rel, self.files_cap)
                self._sent[rel] = (st.st_mtime_ns, st.st_size)
                continue
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if capped:
                self._files_used += len(data)
            self._sent[rel] = (st.st_mtime_ns, st.st_size)
            out[rel] = base64.b64encode(data).decode("ascii")
        return out

    # --- the pump thread ---------------------------------------------------------------------
    def _pump(self) -> None:
        import redis

        stop = False
        warned = False
        while not stop:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            args: list[str] = [self.token]
            for entry in batch:
                args.extend(entry)
            while True:
                if self.fenced:
                    break
                try:
                    added = self._publish(keys=self._keys, args=args)
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError) as exc:
                    if not warned:
                        log.warning("run %s: broker unreachable (%s); events are kept and sent when it is back",
                                    self.run_id, exc)
                        warned = True
                    time.sleep(0.2)
                    continue
                except redis.RedisError as exc:  # e.g. loading or read-only replica: retry likewise
                    log.warning("run %s: publishing failed (%s); retrying", self.run_id, exc)
                    time.sleep(0.5)
                    continue
                if added == -1:
                    log.error("run %s: this worker lost its lease; it stops publishing (another worker may "
                              "own the run now)", self.run_id)
                    self.fenced = True
                    self._on_fenced()
                break
            warned = False
            with self._idle:
                self._pending -= len(batch)
                self._idle.notify_all()
