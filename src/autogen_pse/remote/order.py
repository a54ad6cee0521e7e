"""What travels with a run to a worker, and how the submitting side builds it.

A worker shares nothing with the server but Redis, the Chroma server and its own installed
tasks: the order carries the validated request (resolved model spec and limits), the task's code
hash, the ``--var`` input files (read at submission, size-capped) and, for a resumed run, the
resume point and the run's workspace files.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.provenance import tree_sha
from autogen_pse.store.layout import WORKSPACE_DIR

if TYPE_CHECKING:
    from autogen_pse.runner import PreparedRun

#: Longest ``--var`` value looked at as a file path (the rule of :mod:`autogen_pse.preparation`).
MAX_PATH_CHARS = 4096


class InputFile(BaseModel):
    """One ``--var`` input file: the worker writes it under its state dir and uses that path."""

    var: str
    name: str
    sha256: str
    data: str = Field(description="base64")


class RunOrder(BaseModel):
    run_id: str
    attempt: int = 1
    task: str
    model: str
    vars: dict[str, str] = Field(default_factory=dict)
    max_cycles: int | None = None
    limits: dict[str, Any] = Field(default_factory=dict)
    artifact_mode: str = "auto"
    task_sha: str | None = None
    inputs: list[InputFile] = Field(default_factory=list)
    resume: dict[str, Any] | None = None
    files: dict[str, str] = Field(default_factory=dict, description="run-relative path → base64 (a resume's workspace)")
    heartbeat_ms: int = 30_000
    files_cap: int = 4 * 1024 * 1024
    stream_ttl: int = 86_400


def build_order(plan: PreparedRun, settings: Settings, run_dir: Path | None = None) -> RunOrder:
    """The order for ``plan`` (validated already). ``run_dir``: the run's trace folder when it is
    resumed (its workspace travels with the order).

    Raises:
        UserError: an input file that cannot be read, or input files over ``PSE_REMOTE_INPUT_CAP``.
    """
    resume = None
    if plan.resume is not None:
        resume = dataclasses.asdict(plan.resume)
    files = _workspace_files(run_dir, settings.remote_files_cap) if run_dir is not None and resume else {}
    return RunOrder(
        run_id=plan.run_id, task=plan.task.name, model=plan.model, vars=dict(plan.request.vars),
        max_cycles=plan.request.max_cycles, limits=plan.limits.as_dict(), artifact_mode=settings.artifact_mode,
        task_sha=tree_sha(plan.task.dir), inputs=read_inputs(plan.request.vars, settings.remote_input_cap),
        resume=resume, files=files, heartbeat_ms=int(settings.heartbeat_timeout * 1000),
        files_cap=settings.remote_files_cap, stream_ttl=int(settings.stream_ttl))


def read_inputs(vars: dict[str, str], cap: int) -> list[InputFile]:
    """The ``--var`` values that name files, read now (the worker cannot see this machine's disk).

    Raises:
        UserError: a file that cannot be read, or all of them together over ``cap`` bytes.
    """
    found: list[InputFile] = []
    total = 0
    for var, value in sorted(vars.items()):
        path = Path(value)
        if len(value) >= MAX_PATH_CHARS or not path.is_file():
            continue
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"--var {var}={value}: cannot be read ({exc.strerror or exc}); "
                            "check the path and its permissions") from None
        total += len(data)
        if total > cap:
            raise UserError(f"--var {var}={value}: the input files of a remote run total {total} bytes, over "
                            f"PSE_REMOTE_INPUT_CAP ({cap}); use smaller inputs or raise the cap")
        found.append(InputFile(var=var, name=path.name, sha256=hashlib.sha256(data).hexdigest(),
                               data=base64.b64encode(data).decode("ascii")))
    return found


def _workspace_files(run_dir: Path, cap: int) -> dict[str, str]:
    """``workspace/**`` of a run folder, base64, at most ``cap`` bytes in all (largest files left out)."""
    root = run_dir / WORKSPACE_DIR
    if not root.is_dir():
        return {}
    files = sorted((p for p in root.rglob("*") if p.is_file() and not p.is_symlink()), key=lambda p: p.stat().st_size)
    out: dict[str, str] = {}
    used = 0
    for path in files:
        data = path.read_bytes()
        if used + len(data) > cap:
            break
        used += len(data)
        out[path.relative_to(run_dir).as_posix()] = base64.b64encode(data).decode("ascii")
    return out


def safe_relpath(rel: str) -> str | None:
    """``rel`` if it is a plain path inside a run folder (no ``..``, not absolute), else None."""
    path = Path(rel)
    if path.is_absolute() or not path.parts or any(part in ("..", "") for part in path.parts):
        return None
    return path.as_posix()
