"""Run a task's ``prepare`` hook, cache its output, and re-prepare when inputs are newer.

Prepared output lives in ``<state_dir>/prepared/<task>/<vars-key>/``: ``facts.json``, ``data.json``
and ``task.md``. It is stale when any input is newer than ``facts.json``: a file in the task's
``data/`` folder, any ``.py`` file of the task (``prepare.py`` and its helpers), ``task.md``, or a
file named by a ``--var`` value.
Nothing is written unless the hook succeeds (a bad input leaves the old output in place).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RunError, UserError
from .facts import load_facts, save_facts
from .hooks import PrepareContext, Prepared
from .registry import TaskSpec

if TYPE_CHECKING:
    from .config import Settings


@dataclass(frozen=True)
class PrepareOutcome:
    prepared: Prepared
    reprepared: bool
    out_dir: Path | None  # None for tasks without a prepare hook
    seconds: float = 0.0  # wall time of this call (hook run or cache check)

    @property
    def facts_path(self) -> Path | None:
        return self.out_dir / "facts.json" if self.out_dir else None


def needs_prepare(task: TaskSpec, state_dir: Path, vars: dict[str, str]) -> bool:
    """True when the task has a prepare hook and its cached output is missing or stale."""
    if not (task.dir / "prepare.py").is_file():
        return False
    facts = _out_dir(task, state_dir, vars) / "facts.json"
    if not facts.is_file():
        return True
    built = facts.stat().st_mtime
    return any(p.stat().st_mtime > built for p in _inputs(task, vars))


def ensure_prepared(task: TaskSpec, state_dir: Path, vars: dict[str, str], *, force: bool = False,
                    settings: Settings | None = None) -> PrepareOutcome:
    """Prepared task text and facts, running the hook when needed (or when ``force``);
    ``settings`` (the run's) is handed to the hook's context.

    Raises:
        UserError: an unknown ``--var``, bad inputs (from the hook), a missing ``task.md`` or
            ``--var`` value.
        RunError: the hook crashed or returned the wrong type.
    """
    started = time.monotonic()
    outcome = _ensure_prepared(task, state_dir, vars, force=force, settings=settings)
    return dataclasses.replace(outcome, seconds=time.monotonic() - started)


def _ensure_prepared(task: TaskSpec, state_dir: Path, vars: dict[str, str], *, force: bool,
                     settings: Settings | None) -> PrepareOutcome:
    task.check_vars(vars)
    values = {**task.entry.vars, **vars}
    hook = task.hook("prepare", "prepare")
    if hook is None:
        return PrepareOutcome(Prepared(task_text=task.render_task(vars)), False, None)
    out_dir = _out_dir(task, state_dir, vars)
    if not force and not needs_prepare(task, state_dir, vars):
        return PrepareOutcome(_load(out_dir), False, out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".prep-", dir=out_dir.parent))
    try:
        try:
            prepared = hook(PrepareContext(task_dir=task.dir, vars=values, out_dir=tmp, settings=settings))
        except (UserError, RunError):
            raise
        except Exception as exc:
            raise RunError(f"{task.dir / 'prepare.py'}: prepare() raised {type(exc).__name__}: {exc}") from exc
        if not isinstance(prepared, Prepared):
            raise RunError(f"{task.dir / 'prepare.py'}: prepare() must return autogen_pse.hooks.Prepared")
        save_facts(tmp / "facts.json", prepared.facts)
        (tmp / "data.json").write_text(json.dumps(prepared.data, indent=2, default=str), encoding="utf-8")
        (tmp / "task.md").write_text(prepared.task_text, encoding="utf-8")
        _swap_in(tmp, out_dir)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return PrepareOutcome(prepared, True, out_dir)


def input_warnings(prepared: Prepared) -> list[str]:
    """What the prepare hook found doubtful in the inputs (``data["warnings"]``), one line each."""
    found = prepared.data.get("warnings")
    return [str(w) for w in found] if isinstance(found, list) else []


def _swap_in(tmp: Path, out_dir: Path) -> None:
    """Replace ``out_dir`` by ``tmp`` so readers see the old or the new output, never a mix.

    Concurrent prepares of the same inputs may race: the old folder is renamed aside first (a
    rename is atomic), and if another process put its own output in place meanwhile, that
    output — computed from the same inputs — is kept.
    """
    aside = out_dir.with_name(f".old-{out_dir.name}-{os.getpid()}-{id(tmp):x}")
    with contextlib.suppress(FileNotFoundError):
        out_dir.replace(aside)
    with contextlib.suppress(OSError):  # another prepare won the race; its output stands
        tmp.replace(out_dir)
    shutil.rmtree(aside, ignore_errors=True)


def _load(out_dir: Path) -> Prepared:
    try:
        data = json.loads((out_dir / "data.json").read_text(encoding="utf-8"))
        text = (out_dir / "task.md").read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise UserError(f"{out_dir}: prepared output unreadable ({exc}); run `pse prepare` again") from None
    return Prepared(task_text=text, facts=load_facts(out_dir / "facts.json"), data=data)


def _out_dir(task: TaskSpec, state_dir: Path, vars: dict[str, str]) -> Path:
    key = json.dumps(sorted(vars.items()))
    digest = hashlib.sha256(key.encode()).hexdigest()[:12] if vars else "default"
    return state_dir / "prepared" / task.name / digest


def _inputs(task: TaskSpec, vars: dict[str, str]) -> list[Path]:
    paths = [task.dir / "task.md", *task.dir.rglob("*.py")]  # prepare.py and any helper it imports
    data = task.dir / "data"
    if data.is_dir():
        paths += [p for p in data.rglob("*") if p.is_file()]
    for value in {**task.entry.vars, **vars}.values():
        candidate = Path(value)
        if len(value) < 4096 and candidate.is_file():
            paths.append(candidate)
    return [p for p in paths if p.exists()]
