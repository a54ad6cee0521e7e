"""Everything a task's hooks need, in one module: a task imports ``autogen_pse.hooks`` only.

A task folder may hold:

* ``prepare.py`` with ``prepare(ctx: PrepareContext) -> Prepared`` — deterministic facts and the
  prepared task text, computed from the task's ``data/`` (or ``--var`` overrides).
* ``checks.py`` with ``checks(ctx: CheckContext) -> list[CheckResult]`` — programmatic checks run
  after the evaluator in every cycle and again after sanitizing.
* ``sanitize.py`` with ``sanitize(ctx: CheckContext) -> Sanitized`` — deterministic rules applied to
  the final artifact; every change is logged.

Each hook gets one context object (a :class:`HookContext`): the task folder, the run's ``--var``
values, the run's settings (``None`` outside a run), its cancel signal, and ``ctx.tools`` —
helpers that honour those settings (``ctx.tools.pytest(folder)`` runs pytest with the run's
sandbox, timeout and cancel; ``ctx.tools.module("name")`` imports a helper module of the task).
Also exported here: :class:`Reason` (a failing check's verdict reason), the errors a hook raises
for bad input (:class:`UserError`, :class:`InputFileError`), :func:`save_facts`, and for an
artifact schema :class:`ArtifactSchema` / :class:`SchemaContext`. See ``docs/write-a-task.md``.

Facts are a flat mapping ``fact_id -> Fact``; agents may write ``{{fact:<id>}}`` in artifacts and
the reference is resolved when the artifact is rendered (see :mod:`autogen_pse.facts`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from .errors import InputFileError, UserError
from .verdict import Reason

if TYPE_CHECKING:
    from .artifacts import ArtifactSchema, SchemaContext
    from .config import Settings
    from .facts import save_facts
    from .tools.agent_tools import PytestOutcome

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


class HookTools:
    """Helpers for hooks that honour the run's settings (``ctx.tools``)."""

    def __init__(self, ctx: HookContext) -> None:
        self._ctx = ctx

    def pytest(self, folder: Path, *, timeout: float | None = None) -> PytestOutcome:
        """Run ``pytest -q`` in ``folder`` as the agents' tool does: the run's sandbox
        (``PSE_TOOL_ISOLATION``), its tool timeout (``timeout`` overrides; 60 s outside a run),
        killed at once when the run is cancelled. ``ran`` is False when pytest never started
        (sandbox unavailable): report that as such, never as failing tests."""
        from .tools.agent_tools import pytest_outcome

        settings = self._ctx.settings
        limit = timeout or (settings.tool_timeout if settings is not None else 60.0)
        isolation = settings.tool_isolation if settings is not None else "bwrap"
        return pytest_outcome(folder, limit, isolation=isolation, cancel=self._ctx.cancel)

    def module(self, name: str) -> ModuleType:
        """A helper module of the task (``name.py`` or ``name/`` in the task folder), re-imported
        when its files change (see :func:`task_module`)."""
        return task_module(str(self._ctx.task_dir / "__hook__.py"), name)


@dataclass(frozen=True, kw_only=True)
class HookContext:
    """What every hook gets. ``settings`` and ``cancel`` are ``None`` outside a run (tests,
    ``pse prepare``)."""

    task_dir: Path
    vars: dict[str, str] = field(default_factory=dict)
    settings: Settings | None = None  # the run's settings (tool isolation, timeouts)
    cancel: threading.Event | None = None  # set when the run is cancelled: give it to long subprocesses

    @property
    def tools(self) -> HookTools:
        return HookTools(self)


@dataclass(frozen=True, kw_only=True)
class PrepareContext(HookContext):
    out_dir: Path  # where prepare may write files (facts.json, prepared task text)


@dataclass(frozen=True, kw_only=True)
class CheckContext(HookContext):
    """What checks and sanitize rules see. ``artifact`` is the *rendered* artifact text, read as
    Markdown (an HTML page or LaTeX source converted, a data file's fences read as text); ``written``
    is the rendered artifact as it was written, for a check that parses the document's own structure
    (a CV written as JSON, YAML or TOML data)."""

    artifact: str
    facts: dict[str, Fact]
    data: dict[str, Any]
    workspace: Path
    raw_artifact: str = ""
    written: str = ""


@dataclass(frozen=True, kw_only=True)
class ExampleContext(HookContext):
    """What a task's ``example`` hook (``tasks/<name>/example.py``) sees: one case's prepared facts.

    ``flaw`` names a deliberate mistake to make (``wrong-figure``: one figure typed wrong), or is
    ``None`` for the faithful artifact. Used by the ``scripted-facts`` model of ``pse eval``."""

    facts: dict[str, Fact]
    data: dict[str, Any]
    task_text: str
    flaw: str | None = None


class Example(BaseModel):
    """What an ``example`` hook returns: the planner's plan and the specialist's artifact (Markdown,
    ``{{fact:<id>}}`` references allowed), faithful to the facts unless a flaw was asked for."""

    plan: str
    artifact: str


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


_LAZY = {"ArtifactSchema": "artifacts", "SchemaContext": "artifacts", "save_facts": "facts",
         "PytestOutcome": "tools.agent_tools"}


def __getattr__(name: str) -> Any:
    """Re-exports imported on first use (they import this module themselves)."""
    if name in _LAZY:
        module = importlib.import_module(f"{__package__}.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ArtifactSchema", "CheckContext", "CheckResult", "Example", "ExampleContext", "Fact",
    "HookContext", "HookTools", "InputFileError",
    "PrepareContext", "Prepared", "PytestOutcome", "Reason", "SanitizeChange", "Sanitized", "SchemaContext",
    "Severity", "UserError", "save_facts", "task_module",
]
