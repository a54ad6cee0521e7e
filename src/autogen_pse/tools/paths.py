"""Workspace path confinement and the :class:`ToolError` every sandboxed tool raises.

Every path an agent hands to a tool is *relative to the run's workspace*. It is resolved one
component at a time as the kernel would (each symlink followed, ``..`` applied to the real folder
reached so far) and accepted only when the result ``is_relative_to`` the resolved workspace — a
component-wise check, never a string prefix, so a sibling ``/tmp/ws-evil`` is refused for workspace
``/tmp/ws``. A symlink loop is refused; ``Path.resolve(strict=False)`` is not used because on a loop
it leaves the rest of the path unresolved and collapses ``..`` lexically (``loop/../out`` came back
as ``<ws>/out`` while ``out`` was a symlink to a folder outside).
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path, PurePosixPath

__all__ = ["ToolError", "cap_text", "display_path", "resolve_in_workspace"]

_MAX_PATH_CHARS = 1024
_MAX_SYMLINKS = 40  # the kernel's limit before ELOOP


class ToolError(ValueError):
    """A tool call was refused or failed. ``str(err)`` is a one-line message written for the model.

    Agent-facing wrappers turn it into a returned ``"ERROR: ..."`` string; nothing crashes.
    """


def resolve_in_workspace(workspace: Path, rel: str) -> Path:
    """Resolve ``rel`` inside ``workspace`` and return the absolute, symlink-free path.

    Args:
        workspace: the run's workspace directory (need not be resolved; it is resolved here).
        rel: a relative path such as ``"src/app.py"``; ``"."`` names the workspace itself.

    Returns:
        ``Path`` — absolute, resolved, guaranteed to be the workspace or inside it (at call time).

    Raises:
        ToolError: ``rel`` is empty, not a string, contains a NUL byte, is absolute or
            home-relative (``~``), is overlong, or resolves (through ``..`` or a symlink) outside
            the workspace.
    """
    if not isinstance(rel, str):
        raise ToolError(f"path must be a string, got {type(rel).__name__}")
    if "\x00" in rel:
        raise ToolError("path contains a NUL byte; use a plain relative path like 'src/app.py'")
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError("path is not valid text (unpaired surrogate); use a plain relative path") from None
    if not rel.strip():
        raise ToolError("path is empty; give a path relative to the workspace, like 'src/app.py'")
    if len(rel) > _MAX_PATH_CHARS:
        raise ToolError(f"path is longer than {_MAX_PATH_CHARS} characters")
    if PurePosixPath(rel).is_absolute() or rel.startswith("\\"):
        raise ToolError(
            f"absolute path {rel!r} refused; paths are relative to the workspace, like 'src/app.py'"
        )
    if rel.startswith("~"):
        raise ToolError(f"home-relative path {rel!r} refused; paths are relative to the workspace")
    root = Path(workspace).resolve()
    try:
        target = _resolve_under(root, rel)
    except OSError as exc:  # ENAMETOOLONG, EACCES on a folder on the way
        raise ToolError(f"path {rel!r} cannot be resolved: {exc.strerror or exc}") from None
    if target is None:
        raise ToolError(f"path {rel!r} cannot be resolved: it runs into a symlink loop")
    if not target.is_relative_to(root):
        raise ToolError(f"path {rel!r} leads outside the workspace; only files inside it can be used")
    return target


def _resolve_under(root: Path, rel: str) -> Path | None:
    """``root / rel`` with every symlink followed (``None`` on a loop); ``root`` is already resolved.

    The path built so far never holds a symlink, so ``..`` steps to its real parent. Components that
    do not exist (a file about to be written) are appended as they are.
    """
    current = root
    pending = deque(PurePosixPath(rel).parts)
    links = 0
    while pending:
        part = pending.popleft()
        if part in (".", ""):
            continue
        if part == "..":
            current = current.parent
            continue
        candidate = current / part
        if not candidate.is_symlink():  # absent, a folder or a file: taken as it is
            current = candidate
            continue
        links += 1
        if links > _MAX_SYMLINKS:
            return None
        link = PurePosixPath(os.readlink(candidate))
        if link.is_absolute():
            current = Path(link.anchor)
        pending.extendleft(reversed([p for p in link.parts if p != link.anchor]))
    return current


def display_path(workspace: Path, target: Path) -> str:
    """``target`` relative to the resolved workspace as a POSIX string (``"."`` for the root)."""
    rel = target.relative_to(Path(workspace).resolve()).as_posix()
    return rel or "."


def cap_text(text: str, cap: int) -> str:
    """Keep the first ``cap`` characters of ``text``; append ``…[truncated N chars]`` if cut.

    Raises:
        ValueError: ``cap`` is negative.
    """
    if cap < 0:
        raise ValueError("cap must be >= 0")
    if len(text) <= cap:
        return text
    return f"{text[:cap]}\n…[truncated {len(text) - cap} chars]"
