"""Allowlist validation of the arguments agents may pass to ``pytest`` and ``ruff check``.

An allowlist, not a blacklist: every option must be known and harmless; a few dangerous ones get a
specific refusal message (plugins, config files, root directories, temp dirs outside the
workspace). Every positional argument is a path (or a pytest node id ``path::name``) and must stay
inside the workspace; an argument starting with ``@`` (pytest reads more arguments from that file,
which would bypass these checks) is refused wherever it stands. The sandbox itself adds the isolating options (see
:mod:`autogen_pse.tools.commands`); callers cannot override them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from autogen_pse.tools.paths import ToolError, resolve_in_workspace

__all__ = ["validate_pytest_args", "validate_ruff_args"]

_MAX_ARGS = 64
_MAX_ARG_CHARS = 500
_INT_RE = re.compile(r"^[0-9]{1,5}$")
_RULES_RE = re.compile(r"^[A-Z]{1,4}[0-9]{0,4}(,[A-Z]{1,4}[0-9]{0,4})*$|^ALL$")
_REPORT_RE = re.compile(r"^[fEsxXpPaAwN]{1,12}$")


@dataclass(frozen=True)
class _Opt:
    kind: str  # flag | int | choice | expr | rules | report | path
    choices: frozenset[str] = field(default_factory=frozenset)


_FLAG = _Opt("flag")
_INT = _Opt("int")
_EXPR = _Opt("expr")
_PATH = _Opt("path")


def _choice(*values: str) -> _Opt:
    return _Opt("choice", frozenset(values))


PYTEST_OPTIONS: dict[str, _Opt] = {
    "-q": _FLAG, "--quiet": _FLAG, "-v": _FLAG, "--verbose": _FLAG, "-x": _FLAG, "--exitfirst": _FLAG,
    "-s": _FLAG, "-l": _FLAG, "--showlocals": _FLAG, "--no-header": _FLAG, "--no-summary": _FLAG,
    "--co": _FLAG, "--collect-only": _FLAG, "--disable-warnings": _FLAG, "--strict-markers": _FLAG,
    "--runxfail": _FLAG, "--full-trace": _FLAG,
    "-k": _EXPR, "-m": _EXPR, "--maxfail": _INT, "--durations": _INT,
    "--tb": _choice("auto", "long", "short", "line", "native", "no"),
    "--capture": _choice("fd", "sys", "no", "tee-sys"),
    "--color": _choice("yes", "no", "auto"),
    "-r": _Opt("report"),
    "--deselect": _PATH, "--ignore": _PATH,
}  # fmt: skip

PYTEST_FORBIDDEN: dict[str, str] = {
    "-p": "loading or disabling plugins (-p) is not allowed",
    "-c": "choosing a config file (-c) is not allowed",
    "--config-file": "choosing a config file is not allowed",
    "--inifile": "choosing a config file is not allowed",
    "--rootdir": "changing the root directory is not allowed; pytest always runs in the workspace",
    "--confcutdir": "changing the conftest search is not allowed",
    "-o": "overriding ini options (-o) is not allowed",
    "--override-ini": "overriding ini options is not allowed",
    "--basetemp": "changing the temp directory is not allowed",
    "--pyargs": "importing tests from installed packages is not allowed",
    "--import-mode": "changing the import mode is not allowed",
    "--pdb": "debuggers are not available (no terminal)",
    "--trace": "debuggers are not available (no terminal)",
    "--debug": "debug logs to files are not allowed",
    "--junitxml": "writing report files is not allowed",
    "--junit-xml": "writing report files is not allowed",
    "--log-file": "writing log files is not allowed",
    "--cache-clear": "the cache is disabled",
    "-W": "changing warning filters (-W) is not allowed",
}

RUFF_OPTIONS: dict[str, _Opt] = {
    "--fix": _FLAG, "--no-fix": _FLAG, "--diff": _FLAG, "--show-fixes": _FLAG, "--statistics": _FLAG,
    "--unsafe-fixes": _FLAG, "--preview": _FLAG, "-q": _FLAG, "--quiet": _FLAG, "-v": _FLAG,
    "--select": _Opt("rules"), "--ignore": _Opt("rules"), "--extend-select": _Opt("rules"),
    "--output-format": _choice("full", "concise", "grouped", "json", "json-lines", "pylint", "github"),
}  # fmt: skip

RUFF_FORBIDDEN: dict[str, str] = {
    "--config": "choosing a config file is not allowed; the workspace's own ruff config is used",
    "--isolated": "the sandbox decides which config is used",
    "--cache-dir": "changing the cache directory is not allowed",
    "--stdin-filename": "reading from stdin is not allowed",
    "--exit-zero": "--exit-zero would hide failures",
    "--watch": "watch mode never ends",
    "-w": "watch mode never ends",
    "--extension": "changing file extensions is not allowed",
    "-e": "--exit-non-zero-on-fix is not supported here",
}


def _check_value(prog: str, name: str, opt: _Opt, value: str, workspace: Path) -> None:
    if opt.kind == "int" and not _INT_RE.match(value):
        raise ToolError(f"{prog} option {name} needs a whole number, got {value!r}")
    if opt.kind == "choice" and value not in opt.choices:
        raise ToolError(f"{prog} option {name} must be one of {sorted(opt.choices)}, got {value!r}")
    if opt.kind == "rules" and not _RULES_RE.match(value):
        raise ToolError(f"{prog} option {name} needs rule codes like 'E,F401', got {value!r}")
    if opt.kind == "report" and not _REPORT_RE.match(value):
        raise ToolError(f"{prog} option {name} needs report characters like 'fE' or 'A', got {value!r}")
    if opt.kind == "path":
        _check_path(value, workspace)


def _check_path(arg: str, workspace: Path) -> None:
    """A positional path or pytest node id (``path::Class::test``) must stay in the workspace."""
    path_part = arg.split("::", 1)[0]
    resolve_in_workspace(workspace, path_part)


def _validate(
    prog: str,
    args: list[str],
    workspace: Path,
    allowed: dict[str, _Opt],
    forbidden: dict[str, str],
) -> list[str]:
    if len(args) > _MAX_ARGS:
        raise ToolError(f"too many {prog} arguments ({len(args)} > {_MAX_ARGS})")
    for arg in args:
        if not isinstance(arg, str):
            raise ToolError(f"{prog} arguments must be strings")
        if "\x00" in arg or len(arg) > _MAX_ARG_CHARS:
            raise ToolError(f"{prog} argument refused (NUL byte or longer than {_MAX_ARG_CHARS} chars)")
        if arg.startswith("@"):  # argparse reads more arguments from that file, past every check here
            raise ToolError(f"{prog} argument {arg[:60]!r} refused: argument files (@file) are not allowed")
    allowed_list = ", ".join(sorted(allowed))
    i, only_positional = 0, False
    while i < len(args):
        arg = args[i]
        i += 1
        if only_positional or arg == "-" or not arg.startswith("-"):
            _check_path(arg, workspace)
            continue
        if arg == "--":
            only_positional = True
            continue
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name in forbidden:
                raise ToolError(f"{prog} option {name} refused: {forbidden[name]}")
            opt = allowed.get(name)
            if opt is None:
                raise ToolError(f"{prog} option {name} is not allowed; allowed options: {allowed_list}")
            if opt.kind == "flag":
                if eq:
                    raise ToolError(f"{prog} option {name} takes no value")
                continue
            if not eq:
                if i >= len(args):
                    raise ToolError(f"{prog} option {name} needs a value")
                value = args[i]
                i += 1
            _check_value(prog, name, opt, value, workspace)
            continue
        # short options, possibly combined (-qx, -vv) or with an attached value (-kfoo, -rA)
        j = 1
        while j < len(arg):
            name = "-" + arg[j]
            j += 1
            if name in forbidden:
                raise ToolError(f"{prog} option {name} refused: {forbidden[name]}")
            opt = allowed.get(name)
            if opt is None:
                raise ToolError(f"{prog} option {name} is not allowed; allowed options: {allowed_list}")
            if opt.kind == "flag":
                continue
            value = arg[j:]
            if not value:
                if i >= len(args):
                    raise ToolError(f"{prog} option {name} needs a value")
                value = args[i]
                i += 1
            _check_value(prog, name, opt, value, workspace)
            break
    return list(args)


def validate_pytest_args(args: list[str], workspace: Path) -> list[str]:
    """Return ``args`` unchanged if every pytest option is allowlisted and every path is inside.

    Raises:
        ToolError: naming the refused option or path.
    """
    return _validate("pytest", args, workspace, PYTEST_OPTIONS, PYTEST_FORBIDDEN)


def validate_ruff_args(args: list[str], workspace: Path) -> list[str]:
    """Validate ``ruff`` arguments: the subcommand must be ``check``; options allowlisted.

    Raises:
        ToolError: naming the refused subcommand, option or path.
    """
    if not args or args[0] != "check":
        got = args[0] if args else "nothing"
        raise ToolError(f"only 'ruff check' can be run, got 'ruff {got}'")
    return ["check", *_validate("ruff", args[1:], workspace, RUFF_OPTIONS, RUFF_FORBIDDEN)]
