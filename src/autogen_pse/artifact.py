"""What a cycle produced: the specialist's message, or the files in the run workspace.

For ``files`` tasks a model that cannot call tools may still deliver files as fenced code blocks
whose info string names the file (```` ```python quicksort.py ````); :func:`materialize_code_blocks`
writes those into the workspace through the same sandboxed file tool the agents use.
"""

from __future__ import annotations

import re
from pathlib import Path

from .tools.files import write_file
from .tools.paths import ToolError
from .verdict import trailer_start

_BLOCK = re.compile(r"```[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)```", re.DOTALL)
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z0-9]+$")
MAX_ARTIFACT_FILE = 64_000  # characters of one workspace file shown in the artifact


def message_artifact(text: str) -> str:
    """The specialist's message without a trailing verdict block (a declared BLOCKED)."""
    start = trailer_start(text)
    return text.strip() if start is None else text[:start].rstrip()


def code_blocks_with_names(text: str) -> dict[str, str]:
    """``{file_name: content}`` of fenced blocks whose info string ends with a file name."""
    files: dict[str, str] = {}
    for m in _BLOCK.finditer(text or ""):
        words = m.group("info").split()
        if words and _FILE_NAME.match(words[-1]) and words[-1] != "verdict":
            files[words[-1]] = m.group("body")
    return files


def materialize_code_blocks(text: str, workspace: Path) -> list[str]:
    """Write named code blocks into ``workspace``; returns the names written (errors skipped).

    Writes go through :func:`autogen_pse.tools.files.write_file`, so containment and size caps
    are the agents' own; a block the sandbox refuses is skipped.
    """
    written = []
    for name, body in code_blocks_with_names(text).items():
        try:
            write_file(workspace, name, body)
        except ToolError:
            continue  # a name outside the workspace or too large: not materialised
        written.append(name)
    return written


def files_artifact(workspace: Path, globs: list[str]) -> str:
    """The workspace files matching ``globs`` as one Markdown document (sorted by path)."""
    paths = sorted({p for g in globs for p in workspace.glob(g) if p.is_file() and not p.is_symlink()})
    parts = []
    for path in paths:
        rel = path.relative_to(workspace).as_posix()
        try:
            body = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if len(body) > MAX_ARTIFACT_FILE:
            body = body[:MAX_ARTIFACT_FILE] + f"\n…[truncated {len(body) - MAX_ARTIFACT_FILE} characters]"
        lang = "python" if path.suffix == ".py" else ""
        # A fence longer than any backtick run in the file, so its content cannot close it.
        fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", body)), default=0))
        parts.append(f"### {rel}\n\n{fence}{lang}\n{body.rstrip()}\n{fence}")
    return "\n\n".join(parts)
