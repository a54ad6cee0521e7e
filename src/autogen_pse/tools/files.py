"""Text-file tools confined to a workspace: :func:`write_file`, :func:`read_file`, :func:`list_files`.

Race safety: after :func:`~autogen_pse.tools.paths.resolve_in_workspace` accepted a path, the file
is reached by walking directory file descriptors with ``O_NOFOLLOW`` from the workspace root, so a
directory swapped for a symlink between the check and the use (e.g. by a test process running in
the same workspace) makes the call fail instead of escaping. Writes go to a temporary file in the
target directory and are renamed over the target (atomic); a final component that is a symlink
is refused, never written through.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

from autogen_pse.tools.paths import ToolError, display_path, resolve_in_workspace

__all__ = [
    "MAX_READ_BYTES",
    "MAX_WRITE_BYTES",
    "Listing",
    "list_files",
    "read_file",
    "write_file",
]

MAX_WRITE_BYTES = 256 * 1024
MAX_READ_BYTES = 256 * 1024
MAX_LIST_ENTRIES = 1000
SKIP_DIRS = frozenset({".git", "__pycache__", ".pytest_cache", ".ruff_cache", ".venv", "node_modules"})

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class Listing(NamedTuple):
    """Result of :func:`list_files`: ``files`` = [(relative POSIX path, size in bytes)], sorted;
    ``omitted`` = how many further files were not listed because of the entry cap."""

    files: list[tuple[str, int]]
    omitted: int

    def as_text(self) -> str:
        """One ``path (N bytes)`` line per file, with a visible marker when entries were omitted."""
        if not self.files and not self.omitted:
            return "(workspace is empty)"
        lines = [f"{path} ({size} bytes)" for path, size in self.files]
        if self.omitted:
            lines.append(f"…[{self.omitted} more files not listed]")
        return "\n".join(lines)


@contextmanager
def _open_parent(root: Path, parts: tuple[str, ...], *, create: bool, shown: str) -> Iterator[int]:
    """Yield an fd of ``root/parts[...]`` reached without following any symlink; maybe mkdir."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        for part in parts:
            try:
                nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise ToolError(f"no such file: {shown!r}; use list_files to see what exists") from None
                with suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
                nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise ToolError(f"{shown!r}: a parent folder is a symlink or not a folder") from None
                raise ToolError(f"{shown!r}: cannot open folder {part!r}: {exc.strerror}") from None
            os.close(fd)
            fd = nfd
        yield fd
    finally:
        os.close(fd)


def _split(workspace: Path, path: str) -> tuple[Path, Path, tuple[str, ...], str]:
    root = Path(workspace).resolve()
    if not root.is_dir():
        raise ToolError("the workspace folder does not exist")
    target = resolve_in_workspace(root, path)
    if target == root:
        raise ToolError(f"{path!r} is the workspace folder itself, not a file")
    parts = target.relative_to(root).parts
    return root, target, parts[:-1], parts[-1]


def write_file(workspace: Path, path: str, content: str, *, max_bytes: int = MAX_WRITE_BYTES) -> str:
    """Atomically create or replace the UTF-8 text file ``path`` inside ``workspace``.

    Missing parent folders are created. Returns a one-line confirmation
    (``"wrote N bytes to path"``).

    Raises:
        ToolError: path refused (see ``resolve_in_workspace``), the final component is a symlink
            or a folder, content is not a string, contains a NUL byte, or is larger than
            ``max_bytes`` once UTF-8 encoded.
    """
    if not isinstance(content, str):
        raise ToolError(f"content must be text, got {type(content).__name__}")
    if "\x00" in content:
        raise ToolError("content contains a NUL byte; only text files can be written")
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ToolError(f"content is not valid UTF-8 text: {exc.reason}") from None
    if len(data) > max_bytes:
        raise ToolError(f"content is {len(data)} bytes, over the write limit of {max_bytes} bytes")
    root, target, parents, name = _split(workspace, path)
    if (root / path).is_symlink():
        raise ToolError(f"{path!r} is a symlink; writing through symlinks is not allowed")
    shown = display_path(root, target)
    with _open_parent(root, parents, create=True, shown=shown) as dfd:
        try:
            st = os.lstat(name, dir_fd=dfd)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise ToolError(f"{shown!r} is a symlink; writing through symlinks is not allowed")
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise ToolError(f"{shown!r} exists and is not a regular file")
        tmp = f".{name[:100]}.{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(tmp, flags, 0o644, dir_fd=dfd)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            with suppress(FileNotFoundError):
                os.unlink(tmp, dir_fd=dfd)
            raise
    return f"wrote {len(data)} bytes to {shown}"


def read_file(workspace: Path, path: str, *, max_bytes: int = MAX_READ_BYTES) -> str:
    """Return the text of the UTF-8 file ``path`` inside ``workspace``.

    Symlinks inside the workspace that point to files inside it are followed (resolved first);
    anything else is refused.

    Raises:
        ToolError: path refused, missing, a folder or special file (FIFO, device), larger than
            ``max_bytes``, or binary (contains a NUL byte or is not valid UTF-8).
    """
    root, target, parents, name = _split(workspace, path)
    shown = display_path(root, target)
    with _open_parent(root, parents, create=False, shown=shown) as dfd:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(name, flags, dir_fd=dfd)
        except FileNotFoundError:
            raise ToolError(f"no such file: {shown!r}; use list_files to see what exists") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise ToolError(f"{shown!r} is a symlink; reading through symlinks is not allowed") from None
            raise ToolError(f"cannot read {shown!r}: {exc.strerror}") from None
        try:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise ToolError(f"{shown!r} is a folder; use list_files to see its files")
            if not stat.S_ISREG(st.st_mode):
                raise ToolError(f"{shown!r} is not a regular file")
            if st.st_size > max_bytes:
                raise ToolError(f"{shown!r} is {st.st_size} bytes, over the read limit of {max_bytes} bytes")
            os.set_blocking(fd, True)
            with os.fdopen(fd, "rb", closefd=False) as fh:
                data = fh.read(max_bytes + 1)
        finally:
            os.close(fd)
    if len(data) > max_bytes:
        raise ToolError(f"{shown!r} is over the read limit of {max_bytes} bytes")
    if b"\x00" in data:
        raise ToolError(f"{shown!r} is a binary file (contains NUL bytes); only text files can be read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{shown!r} is a binary file (not UTF-8 text); only text files can be read") from None


def list_files(workspace: Path, *, max_entries: int = MAX_LIST_ENTRIES) -> Listing:
    """List regular files under ``workspace`` (symlinks are not followed and not listed).

    Folders named in ``SKIP_DIRS`` (caches, ``.git``, virtualenvs) are skipped.

    Returns:
        :class:`Listing` with at most ``max_entries`` files, sorted by path.
    """
    root = Path(workspace).resolve()
    if not root.is_dir():
        raise ToolError("the workspace folder does not exist")
    found: list[tuple[str, int]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for fname in filenames:
            full = Path(dirpath, fname)
            try:
                st = full.lstat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found.append((full.relative_to(root).as_posix(), st.st_size))
    found.sort()
    return Listing(found[:max_entries], max(0, len(found) - max_entries))
