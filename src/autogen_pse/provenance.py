"""What produced a run: the product version and hashes of the task's prompts and code.

``task_sha`` covers every prompt, rule and code file of the task folder (``*.md``, ``*.py``,
``*.json``, ``*.txt``, ``*.toml``, ``*.yaml`` outside ``data/``, ``knowledge/`` and caches);
``prompts_sha`` only ``prompts/``. Both are the first 16 hex digits of a SHA-256 over the sorted
relative paths and contents, so two runs compare equal exactly when those files were equal.
The system prompts a run actually sent (rules and retrieved passages included) are hashed per
cycle by :func:`text_sha` and recorded as ``prompt`` events.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from . import __version__

_SUFFIXES = frozenset({".md", ".py", ".json", ".txt", ".toml", ".yaml", ".yml"})
_SKIP_DIRS = frozenset({"data", "knowledge", "__pycache__", ".pytest_cache"})
SHA_CHARS = 16


def text_sha(text: str) -> str:
    """First :data:`SHA_CHARS` hex digits of the SHA-256 of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:SHA_CHARS]


def tree_sha(root: Path, *, top_skip: frozenset[str] = _SKIP_DIRS) -> str | None:
    """Hash of the source files under ``root`` (see the module docstring); None when ``root`` is missing."""
    return _tree_shas(root, top_skip=top_skip)[0]


def _tree_shas(root: Path, *, top_skip: frozenset[str] = _SKIP_DIRS, sub: str | None = None
               ) -> tuple[str | None, str | None]:
    """``(tree_sha(root), tree_sha(root / sub))`` from one walk of ``root`` (``sub``: a top folder
    that is not skipped; its hash is None when it is missing or ``sub`` is None)."""
    if not root.is_dir():
        return None, None
    digest, inner = hashlib.sha256(), hashlib.sha256()
    has_sub = sub is not None and (root / sub).is_dir()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or path.suffix not in _SUFFIXES or any(part in top_skip for part in rel.parts[:-1]):
            continue
        try:
            data = path.read_bytes()
        except OSError:
            digest.update(rel.as_posix().encode() + b"\0")
            if has_sub and rel.parts[0] == sub:
                inner.update(Path(*rel.parts[1:]).as_posix().encode() + b"\0")
            continue
        digest.update(rel.as_posix().encode() + b"\0" + data + b"\0")
        if has_sub and rel.parts[0] == sub and len(rel.parts) > 1:
            inner.update(Path(*rel.parts[1:]).as_posix().encode() + b"\0" + data + b"\0")
    return digest.hexdigest()[:SHA_CHARS], inner.hexdigest()[:SHA_CHARS] if has_sub else None


def file_sha256(path: Path) -> str:
    """Full hex SHA-256 of the file ``path``, read in 1 MiB blocks (raises OSError)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def combined_sha(parts: dict[str, str]) -> str:
    """One hash of several named hashes (e.g. role → prompt hash), independent of dict order."""
    return text_sha("\n".join(f"{k}={v}" for k, v in sorted(parts.items())))


def provenance(task_dir: Path) -> dict[str, Any]:
    """``{product_version, task_sha, prompts_sha}`` for the ``run_started`` event."""
    task_sha, prompts_sha = _tree_shas(task_dir, sub="prompts")
    return {"product_version": __version__, "task_sha": task_sha, "prompts_sha": prompts_sha}
