"""TaskSpec: discover tasks, load prompts (with rule files injected) and hooks.

Layout of a task (``<tasks_dir>/<name>/``)::

    task.md                    template; ``{field}`` filled from --var (missing → UserError)
    prompts/planner.md         system prompts; ``{UPPER_CASE}`` placeholders are filled from
    prompts/specialist.md      prompts/<role>_rules.md (``{RULES}``), the registry's ``inject``
    prompts/evaluator.md       map (``{NAME}`` → a file in the task folder) and built-ins
    prepare.py / checks.py / sanitize.py   optional hooks (see :mod:`autogen_pse.hooks`)
    knowledge/<partition>/...  documents for the knowledge base
    data/                      inputs

``_registry.json``: ``{"tasks": [{"name", "title", "description", ...options}]}``; see
``docs/tasks.md`` for every option.

Where tasks come from: the configured folder (``PSE_TASKS_DIR``; default: the built-in tasks),
then every folder registered under the ``autogen_pse.tasks`` entry point group by an installed
package (``name = "package"`` — the package's folder — or ``"module:attr"`` naming a path or a
function returning one), each holding a ``_registry.json`` and its task folders. The built-in
tasks are registered the same way (``builtin``); ``PSE_TASKS_DIR`` takes the built-in entry's
place. A task name found twice: the first source wins and a warning names both.
"""

from __future__ import annotations

import importlib.util
import inspect
import logging
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr, ValidationError

from .errors import UserError
from .jsonfile import read_json
from .names import ROLES, TASK_NAME

log = logging.getLogger(__name__)

_PLACEHOLDER = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")
_FIELD = re.compile(r"(?<!\{)\{([a-z_][a-z0-9_]*)\}(?!\})")  # {field}, not {{fact:..}}-style doubles


class TaskEntry(BaseModel):
    """One entry of ``_registry.json``."""

    name: str
    title: str
    description: str = ""
    artifact: Literal["message", "files"] = Field(
        default="message",
        description="message: the specialist's last message; files: the workspace files it wrote",
    )
    artifact_glob: list[str] = Field(default_factory=lambda: ["*.py"])
    tools: dict[str, list[str]] = Field(default_factory=dict, description="role → tool names")
    inject: dict[str, str] = Field(default_factory=dict, description="PLACEHOLDER → file in task dir")
    knowledge: dict[str, list[str]] = Field(default_factory=dict, description="role → partitions")
    vars: dict[str, str] = Field(default_factory=dict, description="default --var values")
    retrieval_fields: list[str] = Field(
        default_factory=list, description="vars/facts whose values form retrieval queries"
    )
    redact_pii: bool = False
    _root: Path | None = PrivateAttr(default=None)  # the folder holding this task's folder

    @property
    def root(self) -> Path | None:
        return self._root


class Registry(BaseModel):
    tasks: list[TaskEntry]


class TaskSpec:
    """A loaded task: entry, folder, prompts (placeholders filled) and hooks."""

    def __init__(self, entry: TaskEntry, task_dir: Path, prompts: dict[str, str],
                 compact_prompts: dict[str, str] | None = None):
        self.entry = entry
        self.dir = task_dir
        self.prompts = prompts
        self.compact_prompts = compact_prompts  # prompts/compact/<role>.md, for small local models

    def prompts_for(self, compact: bool) -> dict[str, str]:
        """The compact prompts when asked for and the task has them, else the full ones."""
        return self.compact_prompts if compact and self.compact_prompts else self.prompts

    @property
    def name(self) -> str:
        return self.entry.name

    def hook(self, module: str, func: str) -> Callable[..., Any] | None:
        """``tasks/<name>/<module>.py``'s ``func`` or ``None`` when the file does not exist."""
        path = self.dir / f"{module}.py"
        if not path.is_file():
            return None
        mod = _load_module(path, f"pse_task_{self.name.replace('-', '_')}_{module}")
        fn = getattr(mod, func, None)
        if not callable(fn):
            raise UserError(f"{path}: defines no function {func}(); add it or remove the file")
        _check_hook_signature(path, func, fn)
        return fn

    def known_vars(self) -> list[str]:
        """The ``--var`` names this task reads: the registry's ``vars`` and ``task.md``'s fields."""
        names = set(self.entry.vars)
        path = self.dir / "task.md"
        if path.is_file():
            names |= set(_FIELD.findall(_read_text(path)))
        return sorted(names)

    def check_vars(self, vars: dict[str, str]) -> None:
        """Refuse a ``--var`` the task does not read (a typo such as ``holding=`` for ``holdings=``
        would otherwise be ignored and the default input used instead).

        Raises:
            UserError: names the unknown var(s) and the known ones.
        """
        known = self.known_vars()
        unknown = sorted(k for k in vars if k not in known)
        if unknown:
            listed = ", ".join(known) if known else "none (this task takes no --var)"
            plural = "s" if len(unknown) > 1 else ""
            raise UserError(f"unknown --var{plural} {', '.join(map(repr, unknown))} for task {self.name!r}; "
                            f"known vars: {listed}")

    def render_task(self, vars: dict[str, str]) -> str:
        """Fill ``task.md``'s ``{field}`` markers from ``vars`` (defaults from the registry).

        Raises:
            UserError: ``task.md`` missing, or a field without a value.
        """
        path = self.dir / "task.md"
        if not path.is_file():
            raise UserError(f"{path}: missing; every task needs a task.md template")
        template = _read_text(path)
        values = {**self.entry.vars, **vars}
        missing = sorted({m for m in _FIELD.findall(template) if m not in values})
        if missing:
            flags = " ".join(f"--var {m}=..." for m in missing)
            raise UserError(f"task {self.name!r} needs a value for {', '.join(missing)}: pass {flags}")
        return _FIELD.sub(lambda m: values[m.group(1)], template)


def load_registry(tasks_dir: Path) -> Registry:
    """The tasks of ``tasks_dir``'s ``_registry.json`` followed by those of every task folder
    registered through entry points (see the module docstring); each entry knows its folder
    (:attr:`TaskEntry.root`).

    Raises:
        UserError: a registry file is missing, not JSON, or an entry is invalid (names the
            entry/field); a registered task folder cannot be found.
    """
    registry = _read_registry(tasks_dir)
    for entry in registry.tasks:
        entry._root = tasks_dir
    seen = {entry.name: tasks_dir for entry in registry.tasks}
    for folder in plugin_task_dirs():
        if folder.resolve() == tasks_dir.resolve():
            continue
        for entry in _read_registry(folder).tasks:
            if entry.name in seen:
                log.warning("task %r of %s is shadowed by the one in %s", entry.name, folder, seen[entry.name])
                continue
            entry._root = folder
            seen[entry.name] = folder
            registry.tasks.append(entry)
    return registry


def builtin_tasks() -> Path:
    """The folder of the built-in tasks (entry point ``autogen_pse.tasks: builtin``): the checkout's
    ``tasks/``, or the package's ``builtin_tasks/`` in an installed wheel."""
    from .config import BUILTIN_TASKS_DIR

    return BUILTIN_TASKS_DIR


def plugin_task_dirs() -> list[Path]:
    """Task folders registered under ``autogen_pse.tasks``, except the built-in entry (whose place
    the configured ``PSE_TASKS_DIR`` takes).

    Raises:
        UserError: an entry that names no folder holding a ``_registry.json``.
    """
    from .plugins import entry_points, load

    folders = []
    for name in entry_points("tasks"):
        if name == "builtin":
            continue
        target = load("tasks", name)
        if isinstance(target, ModuleType):
            folder = Path(target.__file__ or ".").resolve().parent
        else:
            folder = Path(target() if callable(target) else target)
        if not (folder / "_registry.json").is_file():
            raise UserError(f"entry point {name!r} (autogen_pse.tasks) names {folder}, which holds no _registry.json; "
                            "fix or uninstall the package that declares it")
        folders.append(folder)
    return folders


def _read_registry(tasks_dir: Path) -> Registry:
    """Parse ``<tasks_dir>/_registry.json``.

    Raises:
        UserError: the file is missing, not JSON, or an entry is invalid (names the entry/field).
    """
    path = tasks_dir / "_registry.json"
    if not path.is_file():
        raise UserError(f"{path}: task registry not found; set PSE_TASKS_DIR to a folder holding it")
    raw = read_json(path)
    try:
        registry = Registry.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise UserError(f"{path}: invalid at {loc}: {err['msg']}") from None
    seen: set[str] = set()
    for entry in registry.tasks:
        if not TASK_NAME.fullmatch(entry.name):
            raise UserError(f"{path}: task name {entry.name!r} must match [a-z0-9][a-z0-9_-]*")
        if entry.name in seen:
            raise UserError(f"{path}: task {entry.name!r} is listed twice")
        seen.add(entry.name)
    return registry


def load_task(tasks_dir: Path, name: str) -> TaskSpec:
    """Load one task by name.

    Raises:
        UserError: unknown name, a name with path characters, a missing prompt file, an unknown or
            unfillable placeholder.
    """
    if not TASK_NAME.fullmatch(name or ""):  # fullmatch: "$" alone lets "demo\n" through
        raise UserError(f"invalid task name {name!r}: use letters, digits, '-' or '_' (see `pse list`)")
    registry = load_registry(tasks_dir)
    entry = next((t for t in registry.tasks if t.name == name), None)
    if entry is None:
        known = ", ".join(t.name for t in registry.tasks) or "none"
        raise UserError(f"unknown task {name!r}; known tasks: {known}")
    task_dir = (entry.root or tasks_dir) / name
    if not task_dir.is_dir():
        raise UserError(f"{task_dir}: task folder missing for registry entry {name!r}")
    prompts: dict[str, str] = {role: _load_prompt(task_dir, entry, role) for role in ROLES}
    compact: dict[str, str] | None = None
    if (task_dir / "prompts" / "compact").is_dir():
        compact = {role: _load_prompt(task_dir, entry, role, folder="prompts/compact") for role in ROLES}
    return TaskSpec(entry, task_dir, prompts, compact)


def builtin_placeholders() -> dict[str, str]:
    """Placeholders every prompt may use; the text comes from :mod:`autogen_pse.prompt_parts`."""
    from .prompt_parts import BLOCKED_FORMAT, FACT_REFERENCES, VERDICT_FORMAT

    return {"VERDICT_FORMAT": VERDICT_FORMAT, "BLOCKED_FORMAT": BLOCKED_FORMAT, "FACT_REFERENCES": FACT_REFERENCES}


def _load_prompt(task_dir: Path, entry: TaskEntry, role: str, folder: str = "prompts") -> str:
    path = task_dir / folder / f"{role}.md"
    if not path.is_file():
        raise UserError(f"{path}: prompt file missing; every task needs planner/specialist/evaluator.md")
    text = _read_text(path)
    values = builtin_placeholders()
    rules = task_dir / folder / f"{role}_rules.md"
    if rules.is_file():
        values["RULES"] = _read_text(rules).strip()
    for key, rel in entry.inject.items():
        file = (task_dir / rel).resolve()
        if not file.is_relative_to(task_dir.resolve()) or not file.is_file():
            raise UserError(f"{task_dir.parent / '_registry.json'}, task {entry.name!r}, field 'inject': "
                            f"{key!r} → {rel!r} is not a file in the task folder {task_dir}")
        values[key] = _read_text(file).strip()

    def fill(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            hint = f"create prompts/{role}_rules.md" if key == "RULES" else f"add {key!r} to the task's inject map"
            raise UserError(f"{path}: unknown placeholder {{{key}}}; {hint}")
        return values[key]

    return _PLACEHOLDER.sub(fill, text)


_HOOK_CONTEXT = {"prepare": "PrepareContext", "checks": "CheckContext", "sanitize": "CheckContext",
                 "evidence": "CheckContext", "artifact_schema": "SchemaContext"}


def _check_hook_signature(path: Path, func: str, fn: Callable[..., Any]) -> None:
    """A hook takes exactly one positional argument, its context object.

    Raises:
        UserError: names the file, the signature found and the one to write.
    """
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return
    kind = inspect.Parameter
    positional = [p for p in params if p.kind in (kind.POSITIONAL_ONLY, kind.POSITIONAL_OR_KEYWORD)]
    required = [p for p in params if p.default is p.empty and p.kind not in (kind.VAR_POSITIONAL, kind.VAR_KEYWORD)]
    takes_one = (bool(positional) or any(p.kind is kind.VAR_POSITIONAL for p in params)) and len(required) <= 1 \
        and (not required or required[0].kind in (kind.POSITIONAL_ONLY, kind.POSITIONAL_OR_KEYWORD))
    if not takes_one:
        ctx = _HOOK_CONTEXT.get(func, "HookContext")
        found = ", ".join(p.name for p in params) or "nothing"
        raise UserError(f"{path}: {func}() takes ({found}); a hook takes one argument, its context: write "
                        f"`def {func}(ctx: {ctx})` with `from autogen_pse.hooks import {ctx}` "
                        f"(settings, vars and tools are on ctx; see docs/write-a-task.md)")


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None


def _load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UserError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
