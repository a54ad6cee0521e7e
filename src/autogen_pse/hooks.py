"""Types shared by task hooks (``prepare.py``, ``checks.py``, ``sanitize.py`` in ``tasks/<name>/``).

A task folder may hold:

* ``prepare.py`` with ``prepare(ctx: PrepareContext) -> Prepared`` — deterministic facts and the
  prepared task text, computed from the task's ``data/`` (or ``--var`` overrides).
* ``checks.py`` with ``checks(ctx: CheckContext) -> list[CheckResult]`` — programmatic checks run
  after the evaluator in every cycle and again after sanitizing.
* ``sanitize.py`` with ``sanitize(ctx: CheckContext) -> Sanitized`` — deterministic rules applied to
  the final artifact; every change is logged.

Facts are a flat mapping ``fact_id -> Fact``; agents may write ``{{fact:<id>}}`` in artifacts and
the reference is resolved when the artifact is rendered (see :mod:`autogen_pse.facts`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from .errors import UserError
from .verdict import Reason

if TYPE_CHECKING:
    from .config import Settings

Severity = Literal["error", "warning"]


class Fact(BaseModel):
    """One deterministic fact. ``value`` is a number or a string; ``unit`` e.g. ``USD``, ``%``."""

    id: str
    value: float | int | str
    unit: str = ""
    label: str = ""
    display: str = Field(default="", description="How the value is written when a reference renders")

    def render(self) -> str:
        """The text a ``{{fact:id}}`` reference renders to."""
        if self.display:
            return self.display
        if isinstance(self.value, float):
            return f"{self.value:,.2f}"
        return str(self.value)


class CheckResult(BaseModel):
    """Outcome of one programmatic check. ``reason`` is what a failing error check makes of an
    evaluator's PASS (PARTIAL with this reason); unset: DATA_MISMATCH. Never guessed from ``name``."""

    name: str
    ok: bool
    severity: Severity = "error"
    detail: str = ""
    reason: Reason | None = None
    claims_checked: int = 0
    claims_supported: int = 0
    unsupported: list[str] = Field(default_factory=list)


class SanitizeChange(BaseModel):
    """One deterministic edit made by a sanitize rule."""

    rule: str
    before: str
    after: str


class Sanitized(BaseModel):
    artifact: str
    changes: list[SanitizeChange] = Field(default_factory=list)


class Prepared(BaseModel):
    """What a task's ``prepare`` returns: the task text to run and the facts to check against."""

    task_text: str
    facts: dict[str, Fact] = Field(default_factory=dict)
    data: dict[str, Any] = Field(default_factory=dict, description="Extra structured inputs for checks; "
                                 "data['warnings'] (list of str) is shown to the user and recorded in the trace")


@dataclass(frozen=True)
class PrepareContext:
    task_dir: Path
    vars: dict[str, str]
    out_dir: Path  # where prepare may write files (facts.json, prepared task text)


@dataclass(frozen=True)
class CheckContext:
    """What checks and sanitize rules see. ``artifact`` is the *rendered* artifact text."""

    artifact: str
    facts: dict[str, Fact]
    data: dict[str, Any]
    workspace: Path
    task_dir: Path
    vars: dict[str, str] = field(default_factory=dict)
    raw_artifact: str = ""
    settings: Settings | None = None  # the run's settings (tool isolation, timeouts); None outside a run
    cancel: threading.Event | None = None  # set when the run is cancelled: give it to long subprocesses


_SIGNATURES: dict[str, tuple[tuple[str, int, int, int], ...]] = {}  # module key → files it was loaded from


def _signature(path: Path, package: bool) -> tuple[tuple[str, int, int, int], ...]:
    """``(name, inode, mtime_ns, size)`` of the module's file, or of every ``.py`` file of the
    package folder (recursively): any edit, atomic replace or new file changes it."""
    files = sorted(path.parent.rglob("*.py")) if package else [path]
    out = []
    for file in files:
        try:
            st = file.stat()
        except OSError:
            continue
        out.append((str(file), st.st_ino, st.st_mtime_ns, st.st_size))
    return tuple(out)


def task_module(anchor: str, name: str) -> ModuleType:
    """Import ``name`` — a ``name.py`` file or a ``name/`` package, or ``package.submodule`` of
    such a package — from the folder of ``anchor`` (a hook's ``__file__``). Task folders are not
    packages, so the module gets a private name unique to its path, cached in ``sys.modules`` —
    until one of its files changes: then it (and, for a package, every submodule imported under
    it) is executed again, so a long-running server never prepares or checks with a helper's old
    code. The one loader every task uses: a hook calls ``task_module(__file__, "review")``.

    Raises:
        UserError: neither ``name.py`` nor ``name/__init__.py`` exists there.
    """
    top, _, sub = name.partition(".")
    module = _folder_module(anchor, top)
    return importlib.import_module(f"{module.__name__}.{sub}") if sub else module


def _folder_module(anchor: str, name: str) -> ModuleType:
    folder = Path(anchor).resolve().parent
    path, search = folder / f"{name}.py", None
    if not path.is_file():
        path, search = folder / name / "__init__.py", [str(folder / name)]
    key = f"pse_task_{name}_{hashlib.sha1(str(path).encode()).hexdigest()[:10]}"
    signature = _signature(path, search is not None)
    module = sys.modules.get(key)
    if module is not None and _SIGNATURES.get(key) != signature:
        for loaded in [k for k in sys.modules if k == key or k.startswith(key + ".")]:
            del sys.modules[loaded]
        module = None
    if module is None:
        spec = importlib.util.spec_from_file_location(key, path, submodule_search_locations=search)
        if spec is None or spec.loader is None or not path.is_file():
            raise UserError(f"{path}: cannot be imported (task module {name!r} is missing)")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[key]  # a broken helper is not cached: the next call tries again
            raise
        _SIGNATURES[key] = signature
    return module
