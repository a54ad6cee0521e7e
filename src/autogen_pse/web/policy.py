"""What a web client may ask for in ``POST /api/runs`` beyond the schema: model policies.

A :data:`~autogen_pse.web.deps.ModelPolicy` sees the model spec a run would use (the request's
``model`` or the server's default) and returns None to allow it or the reason to refuse it (422).
Whatever the policy, :func:`confine_scripted` always applies: a web client's scripted file comes
from ``PSE_WEB_SCRIPTED_DIR`` only. The CLI is not affected: whoever runs the CLI already has the
machine.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from autogen_pse.errors import UserError
from autogen_pse.web.deps import ModelPolicy

__all__ = ["confine_scripted", "scripted_only"]


def confine_scripted(spec: str, folder: Path) -> str:
    """A web client's model ``spec`` with any ``scripted:<file>`` confined to ``folder``
    (``PSE_WEB_SCRIPTED_DIR``): a relative file is taken inside the folder, an absolute one must
    resolve (symlinks included) inside it. Other specs are returned unchanged.

    Nothing outside the folder is opened or even looked at, so the answer never tells whether a
    file exists elsewhere on the server, nor what it holds.

    Raises:
        UserError: the file lies outside ``folder`` (the message names the folder, not the path).
    """
    kind, sep, arg = (spec or "").strip().partition(":")
    if kind.strip().lower() != "scripted" or not sep or not arg.strip():
        return spec
    root = folder.resolve()
    where = f"the folder set by PSE_WEB_SCRIPTED_DIR ({root.name}/)"
    try:
        real = (root / arg.strip()).resolve()  # an absolute path replaces root
    except (OSError, ValueError, RuntimeError):
        raise UserError(f"invalid scripted model path; scripted files from the web must be in {where}") from None
    if not real.is_relative_to(root):
        raise UserError(f"scripted model files from the web must be in {where}; give a file name inside it")
    return f"scripted:{real}"


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
