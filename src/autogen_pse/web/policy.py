"""What a web client may ask for in ``POST /api/runs`` beyond the schema: model policies.

A :data:`~autogen_pse.web.deps.ModelPolicy` sees the model spec a run would use (the request's
``model`` or the server's default) and returns None to allow it or the reason to refuse it (422).
Whatever the policy, :func:`confine_model` always applies to a web client's spec: what its argument
may name is asked of the provider's registration (``ProviderPlugin.argument_kind``): a model id is
passed on, a file must lie in ``PSE_WEB_SCRIPTED_DIR``, anything else (a path, a URL, a provider
that does not say) is refused. The CLI is not affected: whoever runs the CLI already has the machine.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from autogen_pse.errors import UserError
from autogen_pse.web.deps import ModelPolicy

__all__ = ["confine_model", "confine_scripted", "confine_vars", "scripted_only"]


def confine_model(spec: str, folder: Path) -> str:
    """A web client's model ``spec``, checked against what its provider's argument names:

    * no argument (``local``) or a ``name`` (``openai:<model>``): returned unchanged;
    * a ``file`` (``scripted:<file.json>``): confined to ``folder`` (``PSE_WEB_SCRIPTED_DIR``) — a
      relative file is taken inside the folder, an absolute one must resolve (symlinks included)
      inside it; returned with the resolved path;
    * anything else (``other``): refused.

    Nothing outside the folder is opened or even looked at, so the answer never tells whether a
    file exists elsewhere on the server, nor what it holds.

    Raises:
        UserError: an unknown spec, a file outside ``folder`` (the message names the folder, not
            the path), or an argument of a provider that may read server files or addresses.
    """
    from autogen_pse.models import resolve_spec

    found, _has_colon, arg = resolve_spec(spec)
    if not arg or found.argument_kind == "name":
        return spec
    if found.argument_kind != "file":
        raise UserError(f"model specs {found.prefix}:<…> are not accepted from the web (the argument may name "
                        "a file or an address on the server); the operator can make it the server's default "
                        "model (PSE_MODEL)")
    return f"{found.prefix}:{_inside(arg, folder)}"


def confine_scripted(spec: str, folder: Path) -> str:
    """:func:`confine_model` (kept for callers of the earlier name)."""
    return confine_model(spec, folder)


def _inside(arg: str, folder: Path) -> Path:
    root = folder.resolve()
    where = f"the folder set by PSE_WEB_SCRIPTED_DIR ({root.name}/)"
    try:
        real = (root / arg).resolve()  # an absolute path replaces root
    except (OSError, ValueError, RuntimeError):
        raise UserError(f"invalid model file path; model files from the web must be in {where}") from None
    if not real.is_relative_to(root):
        raise UserError(f"model files from the web must be in {where}; give a file name inside it")
    return real


def confine_vars(tasks_dir: Path, task: str, values: dict[str, str]) -> dict[str, str]:
    """A web client's ``--var`` values with every *file* var taken inside the task's folder.

    A var is a file var when its default (``_registry.json``) names a file of the task. A task
    resolves a relative file against the current directory first (the CLI's way); from the web that
    would be the server's directory (its ``.env`` included), so a file var's value is made the
    absolute path inside the task folder; one that leaves the folder (``..``, a symlink) is refused
    with the same answer whether or not the file exists. Other vars (a date, a name) are unchanged.
    An unknown task is left to the caller.

    Raises:
        UserError: a file var's value leaves the task's folder.
    """
    from autogen_pse.errors import PseError
    from autogen_pse.registry import load_task

    try:
        spec = load_task(tasks_dir, task)
    except PseError:
        return values
    root = spec.dir.resolve()
    out = dict(values)
    for key, value in values.items():
        default = spec.entry.vars.get(key)
        if not default or not (spec.dir / default).is_file():
            continue
        try:
            real = (root / value.strip()).resolve()
        except (OSError, ValueError, RuntimeError):
            real = None
        if real is None or not real.is_relative_to(root):
            raise UserError(f"vars.{key}: a file from the web must be one of the task's own files, relative to "
                            f"its folder (e.g. {default})")
        out[key] = str(real)
    return out


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
