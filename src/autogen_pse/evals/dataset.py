"""Eval datasets: the cases of ``pse eval TASK --inputs FILE|DIR``, validated whole before any run.

Two layouts (see ``docs/eval.md``):

* **JSONL** — one JSON object per line: ``{"name": "…", "vars": {"cv": "cases/cv.md"}, "expect":
  {"verdict": "PASS", "verified": true}, "max_cycles": 2, "scripted": {"flaw": "wrong-figure"}}``;
  only ``vars`` is required. Relative file paths are taken from the dataset file's folder. Blank
  lines and lines starting with ``#`` are skipped.
* **folder** — one sub-folder per case, named after the case: a file named after one of the task's
  file vars (``holdings.csv`` sets ``holdings``, ``cv.md`` sets ``cv``) sets that var; an optional
  ``case.json`` holds the rest (``vars``, ``expect``, ``max_cycles``, ``scripted``). Files at the
  top level (a README) are ignored.

Every problem raises :class:`~autogen_pse.errors.UserError` naming ``file:line`` (or the file) and
the fix; nothing is run or written before the whole dataset is valid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..errors import UserError
from ..registry import TaskSpec

__all__ = ["Case", "Dataset", "Expect", "file_vars", "load_dataset"]

VERDICTS = ("PASS", "PARTIAL", "FAIL", "BLOCKED")
CASE_KEYS = ("name", "vars", "expect", "max_cycles", "scripted")
CASE_FILE = "case.json"
MAX_CASES = 10_000
MAX_LINE = 64 * 1024


class Expect(BaseModel):
    """What a case is expected to end with (optional; reported as met or not)."""

    verdict: str | None = None
    verified: bool | None = None

    def met(self, verdict: str | None, verified: bool) -> bool:
        return ((self.verdict is None or self.verdict == verdict)
                and (self.verified is None or self.verified == verified))


class Case(BaseModel):
    """One case: a name, the ``--var`` values of its run, and where it was defined (``file:line``)."""

    name: str
    vars: dict[str, str] = Field(default_factory=dict)
    expect: Expect | None = None
    max_cycles: int | None = None
    flaw: str | None = Field(default=None, description="read by the scripted-facts model only")
    source: str = ""


@dataclass(frozen=True)
class Dataset:
    path: Path
    layout: Literal["jsonl", "folder"]
    cases: list[Case]


def file_vars(task: TaskSpec) -> set[str]:
    """The task's vars that name an input file: those whose registry default is a file in the task folder."""
    return {name for name, value in task.entry.vars.items()
            if isinstance(value, str) and value and (task.dir / value).is_file()}


def load_dataset(path: Path, task: TaskSpec) -> Dataset:
    """Read and validate every case of ``path`` (a ``.jsonl`` file or a folder of case folders).

    Raises:
        UserError: a missing path, a bad line, an unknown var, a missing file, a duplicate or empty
            dataset — one line naming ``file:line`` and the fix.
    """
    path = path.expanduser()
    layout: Literal["jsonl", "folder"]
    if path.is_dir():
        cases, layout = _folder_cases(path, task), "folder"
    elif path.is_file():
        cases, layout = _jsonl_cases(path, task), "jsonl"
    else:
        raise UserError(f"--inputs {path}: not found; pass a .jsonl file of cases or a folder with one "
                        "sub-folder per case")
    if not cases:
        raise UserError(f"{path}: no cases; add one JSON object per line (or one sub-folder per case)")
    seen: dict[str, str] = {}
    for case in cases:
        if case.name in seen:
            raise UserError(f"{case.source}: case name {case.name!r} is also used at {seen[case.name]}; "
                            "give every case its own name")
        seen[case.name] = case.source
    return Dataset(path=path, layout=layout, cases=cases)


def _jsonl_cases(path: Path, task: TaskSpec) -> list[Case]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text; save the dataset as UTF-8 JSONL") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    cases: list[Case] = []
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{path}:{number}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise UserError(f"{where}: line longer than {MAX_LINE:,} characters; put long inputs in files")
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{where}: not JSON ({exc.msg} at column {exc.colno}); write one object per line: "
                            '{"name": "case-1", "vars": {"KEY": "VALUE"}}') from None
        cases.append(_case(raw, where, task, base=path.parent, default_name=f"line-{number}"))
        if len(cases) > MAX_CASES:
            raise UserError(f"{where}: more than {MAX_CASES:,} cases; split the dataset")
    return cases


def _folder_cases(root: Path, task: TaskSpec) -> list[Case]:
    known_files = file_vars(task)
    cases = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        options: dict[str, Any] = {}
        options_file = folder / CASE_FILE
        where = str(options_file)
        if options_file.is_file():
            try:
                options = json.loads(options_file.read_text(encoding="utf-8-sig"))
            except UnicodeDecodeError:
                raise UserError(f"{where}: not UTF-8 text; save it as UTF-8 JSON") from None
            except json.JSONDecodeError as exc:
                raise UserError(f"{where}:{exc.lineno}: not JSON ({exc.msg}); write one object such as "
                                '{"vars": {"KEY": "VALUE"}}') from None
            if not isinstance(options, dict):
                raise UserError(f"{where}: must be a JSON object such as " + '{"vars": {"KEY": "VALUE"}}')
        vars_from_files: dict[str, str] = {}
        for file in sorted(p for p in folder.iterdir() if p.is_file() and p.name != CASE_FILE
                           and not p.name.startswith(".")):
            if file.stem not in known_files:
                raise UserError(f"{file}: unknown var {file.stem!r} for task {task.name!r}; name a case's files "
                                f"after the task's file vars ({', '.join(sorted(known_files)) or 'none'})")
            vars_from_files[file.stem] = str(file.resolve())
        if not vars_from_files and not options:
            raise UserError(f"{folder}: empty case folder; add input files named after the task's vars "
                            f"({', '.join(sorted(known_files)) or 'none'}) or a {CASE_FILE}")
        raw = {**options, "vars": {**(options.get("vars") or {}), **vars_from_files}}
        if isinstance(options.get("vars"), dict):
            clash = sorted(set(options["vars"]) & set(vars_from_files))
            if clash:
                raise UserError(f"{where}: var {clash[0]!r} is set both here and by a file in {folder}; keep one")
        elif "vars" in options:
            raise UserError(f"{where}: \"vars\" must be an object of KEY: VALUE strings")
        raw.setdefault("name", folder.name)
        cases.append(_case(raw, where if options_file.is_file() else str(folder), task, base=folder,
                           default_name=folder.name))
    return cases


def _case(raw: Any, where: str, task: TaskSpec, *, base: Path, default_name: str) -> Case:
    if not isinstance(raw, dict):
        raise UserError(f"{where}: a case must be a JSON object such as " + '{"name": "c1", "vars": {"KEY": "VALUE"}}')
    unknown = sorted(set(raw) - set(CASE_KEYS))
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r}; a case has {', '.join(CASE_KEYS)}")
    name = raw.get("name", default_name)
    if not isinstance(name, str) or not name.strip() or len(name) > 120:
        raise UserError(f"{where}: \"name\" must be a non-empty string of at most 120 characters")
    values = raw.get("vars", {})
    if not isinstance(values, dict):
        raise UserError(f"{where}: \"vars\" must be an object of KEY: VALUE strings")
    known, files = task.known_vars(), file_vars(task)
    out: dict[str, str] = {}
    for key, value in values.items():
        if key not in known:
            raise UserError(f"{where}: unknown var {key!r} for task {task.name!r}; known vars: "
                            f"{', '.join(known) or 'none'}")
        if not isinstance(value, str):
            raise UserError(f"{where}: var {key!r} must be a string, not {type(value).__name__}; quote it")
        if key in files:
            file = Path(value).expanduser()
            file = file if file.is_absolute() else base / file
            if not file.is_file():
                raise UserError(f"{where}: var {key!r}: file not found: {file} (relative paths are taken from "
                                f"{base})")
            value = str(file.resolve())
        out[key] = value
    return Case(name=name.strip(), vars=out, expect=_expect(raw.get("expect"), where),
                max_cycles=_max_cycles(raw.get("max_cycles"), where), flaw=_flaw(raw.get("scripted"), where),
                source=where)


def _expect(raw: Any, where: str) -> Expect | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"verdict", "verified"}:
        raise UserError(f"{where}: \"expect\" must be an object with \"verdict\" and/or \"verified\"")
    verdict, verified = raw.get("verdict"), raw.get("verified")
    if verdict is not None and verdict not in VERDICTS:
        raise UserError(f"{where}: expect.verdict {verdict!r}: use one of {', '.join(VERDICTS)}")
    if verified is not None and not isinstance(verified, bool):
        raise UserError(f"{where}: expect.verified must be true or false")
    return Expect(verdict=verdict, verified=verified)


def _max_cycles(raw: Any, where: str) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 50:
        raise UserError(f"{where}: \"max_cycles\" must be a whole number from 1 to 50")
    return raw


def _flaw(raw: Any, where: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"flaw"} or not isinstance(raw.get("flaw"), str):
        raise UserError(f"{where}: \"scripted\" must be an object such as " + '{"flaw": "wrong-figure"}')
    return str(raw["flaw"])
