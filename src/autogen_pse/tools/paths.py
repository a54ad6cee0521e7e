"""Workspace path confinement and the :class:`ToolError` every sandboxed tool raises.

Every path an agent hands to a tool is *relative to the run's workspace*. It is resolved with
``Path.resolve(strict=False)`` (symlinks and ``..`` collapsed) and accepted only when the result
``is_relative_to`` the resolved workspace — a component-wise check, never a string prefix, so a
sibling ``/tmp/ws-evil`` is refused for workspace ``/tmp/ws``.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

__all__ = ["ToolError", "cap_text", "display_path", "resolve_in_workspace"]

_MAX_PATH_CHARS = 1024


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
        target = (root / rel).resolve(strict=False)
    except (OSError, RuntimeError) as exc:  # symlink loops, ENAMETOOLONG
        raise ToolError(f"path {rel!r} cannot be resolved: {exc}") from exc
    if not target.is_relative_to(root):
        raise ToolError(f"path {rel!r} leads outside the workspace; only files inside it can be used")
    return target


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
