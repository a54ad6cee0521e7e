"""What a web client may ask for in ``POST /api/runs`` beyond the schema: model policies.

A :data:`~autogen_pse.web.deps.ModelPolicy` sees the model spec a run would use (the request's
``model`` or the server's default) and returns None to allow it or the reason to refuse it (422).
The CLI is not affected: whoever runs the CLI already has the machine.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from autogen_pse.web.deps import ModelPolicy

__all__ = ["scripted_only"]


def scripted_only(*folders: Path, project_root: Path | None = None) -> ModelPolicy:
    """Allow only ``scripted:<file>`` models whose file lies inside one of ``folders`` (real paths,
    symlinks resolved). For demos and for fuzzing a server that must never call a paid model or
    read a file outside its fixtures."""
    roots = [f.resolve() for f in folders]

    def policy(spec: str) -> str | None:
        kind, sep, arg = (spec or "").strip().partition(":")
        if kind.strip().lower() != "scripted" or not sep or not arg.strip():
            return f"this server runs scripted models only (scripted:<file.json> under {_names(roots)})"
        path = Path(arg.strip())
        if not path.is_absolute() and project_root is not None:
            path = project_root / path
        try:
            real = path.resolve()
        except (OSError, ValueError, RuntimeError):
            return "invalid scripted model path"
        if not any(real.is_relative_to(root) for root in roots):
            return f"scripted model files must be under {_names(roots)}"
        return None

    return policy


def _names(roots: Iterable[Path]) -> str:
    return ", ".join(r.name + "/" for r in roots) or "(nowhere)"
