"""Where evals live: ``<home>/evals/<eval_id>/`` (``report.json``, ``report.html``, ``scripts/``)
and an index of them, ``<home>/evals/index.sqlite`` (one row per eval, derived: rebuilt from the
``report.json`` files when missing). The CLI writes, the dashboard reads; both may run at once.

An eval id is a ULID like a run id. A row left ``running`` by a process that is gone reads as
``interrupted``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ValidationError

from ..config import Settings
from ..errors import StoreError, UserError
from ..store.files import atomic_write_text
from ..store.ids import RUN_ID_PATTERN
from .report import EvalReport

__all__ = ["EvalRow", "EvalStore", "validate_eval_id"]

REPORT_FILE, HTML_FILE, SCRIPTS_DIR = "report.json", "report.html", "scripts"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS evals (eval_id TEXT PRIMARY KEY NOT NULL, task TEXT NOT NULL, "
    "models TEXT NOT NULL, status TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0, "
    "started_at TEXT NOT NULL, ended_at TEXT, runs INTEGER NOT NULL, done INTEGER NOT NULL, "
    "passed INTEGER NOT NULL, verified INTEGER NOT NULL, pid INTEGER, inputs TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS evals_started ON evals (started_at, eval_id)",
)
_COLUMNS = ("eval_id", "task", "models", "status", "complete", "started_at", "ended_at", "runs", "done",
            "passed", "verified", "pid", "inputs")


class EvalRow(BaseModel):
    """One eval in the index (what the Evals list shows)."""

    eval_id: str
    task: str
    models: list[str]
    status: str
    complete: bool
    started_at: str
    ended_at: str | None
    runs: int
    done: int
    passed: int
    verified: int
    inputs: str


def validate_eval_id(value: str) -> str:
    """``value`` when it has the shape of an eval id (a ULID), else UserError (never a path)."""
    if not RUN_ID_PATTERN.fullmatch(value or ""):
        raise UserError(f"invalid eval id {value[:60]!r}: expected 26 characters of 0-9 and A-Z without I, L, O, U "
                        "(see `pse eval --list`)")
    return value


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EvalStore:
    def __init__(self, settings: Settings) -> None:
        self.root = settings.home / "evals"
        self.db_path = self.root / "index.sqlite"

    def eval_dir(self, eval_id: str) -> Path:
        return self.root / validate_eval_id(eval_id)

    def report_path(self, eval_id: str) -> Path:
        return self.eval_dir(eval_id) / REPORT_FILE

    def html_path(self, eval_id: str) -> Path:
        return self.eval_dir(eval_id) / HTML_FILE

    def scripts_dir(self, eval_id: str) -> Path:
        return self.eval_dir(eval_id) / SCRIPTS_DIR

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        fresh = not self.db_path.exists()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.db_path, timeout=10.0)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the eval index {self.db_path}: {exc}; "
                             "check the folder's permissions") from exc
        try:
            conn.row_factory = sqlite3.Row
            with conn:
                for statement in _SCHEMA:
                    conn.execute(statement)
                if fresh:
                    self._rebuild(conn)
                yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"cannot use the eval index {self.db_path}: {exc}; delete it and it is rebuilt") from exc
        finally:
            conn.close()

    def _upsert(self, conn: sqlite3.Connection, report: EvalReport, pid: int | None) -> None:
        values = (report.eval_id, report.task, json.dumps(report.models), report.status, int(report.complete),
                  report.started_at, report.ended_at, len(report.runs), report.done,
                  sum(1 for r in report.runs if r.verdict == "PASS"), sum(1 for r in report.runs if r.verified),
                  pid, report.inputs)
        conn.execute(f"INSERT OR REPLACE INTO evals ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                     values)

    def _rebuild(self, conn: sqlite3.Connection) -> None:
        for folder in sorted(self.root.iterdir()) if self.root.is_dir() else []:
            if RUN_ID_PATTERN.fullmatch(folder.name) and (folder / REPORT_FILE).is_file():
                with contextlib.suppress(OSError, ValueError, ValidationError):
                    self._upsert(conn, EvalReport.model_validate_json((folder / REPORT_FILE).read_text("utf-8")), None)

    def save(self, report: EvalReport, *, html: str | None = None) -> Path:
        """Write ``report.json`` (and ``report.html`` when given) atomically and update the index row."""
        folder = self.eval_dir(report.eval_id)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_text(folder / REPORT_FILE, report.model_dump_json(indent=2) + "\n", durable=False)
            if html is not None:
                atomic_write_text(folder / HTML_FILE, html, durable=False)
        except OSError as exc:
            raise StoreError(f"cannot write the eval report in {folder}: {exc.strerror}; check the folder") from exc
        with self._db() as conn:
            self._upsert(conn, report, os.getpid() if report.status == "running" else None)
        return folder / REPORT_FILE

    def load(self, eval_id: str) -> EvalReport:
        """The report of ``eval_id`` (a running one as far as it got; ``interrupted`` if its process is gone).

        Raises:
            UserError: no such eval.  StoreError: the report cannot be read.
        """
        path = self.report_path(eval_id)
        if not path.is_file():
            raise UserError(f"no eval {eval_id}; list them with `pse eval --list`")
        try:
            report = EvalReport.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{path}: unreadable eval report ({str(exc)[:200]})") from exc
        if report.status == "running" and not self._running(eval_id):
            report.status = "interrupted"
        return report

    def _running(self, eval_id: str) -> bool:
        with self._db() as conn:
            row = conn.execute("SELECT pid FROM evals WHERE eval_id = ?", (eval_id,)).fetchone()
        return row is not None and _alive(row["pid"])

    def list(self, *, limit: int = 100, task: str | None = None) -> tuple[list[EvalRow], int]:
        """Evals newest first (at most ``limit``) and how many there are."""
        where, args = ("WHERE task = ?", [task]) if task else ("", [])
        with self._db() as conn:
            count = conn.execute(f"SELECT COUNT(*) FROM evals {where}", args).fetchone()[0]
            rows = conn.execute(f"SELECT * FROM evals {where} ORDER BY started_at DESC, eval_id DESC LIMIT ?",
                                [*args, limit]).fetchall()
        out = []
        for row in rows:
            data = dict(row)
            status = data["status"]
            if status == "running" and not _alive(data["pid"]):
                status = "interrupted"
            out.append(EvalRow(**{**data, "models": json.loads(data["models"]), "complete": bool(data["complete"]),
                                  "status": status}))
        return out, int(count)
