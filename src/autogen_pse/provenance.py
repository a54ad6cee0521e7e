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
    if not root.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or path.suffix not in _SUFFIXES or any(part in top_skip for part in rel.parts[:-1]):
            continue
        digest.update(rel.as_posix().encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            continue
        digest.update(b"\0")
    return digest.hexdigest()[:SHA_CHARS]


def combined_sha(parts: dict[str, str]) -> str:
    """One hash of several named hashes (e.g. role → prompt hash), independent of dict order."""
    return text_sha("\n".join(f"{k}={v}" for k, v in sorted(parts.items())))


def provenance(task_dir: Path) -> dict[str, Any]:
    """``{product_version, task_sha, prompts_sha}`` for the ``run_started`` event."""
    return {"product_version": __version__, "task_sha": tree_sha(task_dir),
            "prompts_sha": tree_sha(task_dir / "prompts")}
