"""Registries resolved by name through entry points (the way simonw/llm registers models).

Four groups, each ``name → object`` declared in a distribution's entry points::

    [project.entry-points."autogen_pse.providers"]    # a ProviderPlugin; name = the spec prefix
    [project.entry-points."autogen_pse.tasks"]        # a folder holding task folders (+ _registry.json)
    [project.entry-points."autogen_pse.sinks"]        # a SinkPlugin factory: (settings) -> EventSinkPlugin
    [project.entry-points."autogen_pse.executors"]    # (settings, sinks) -> RunExecutor

The built-ins are declared the same way in autogen-pse's own ``pyproject.toml``. When the package
runs from a source checkout, that checkout's ``pyproject.toml`` is read first (its installed
metadata may predate a declaration: an editable install not reinstalled since), so built-ins never
silently disappear; an installed wheel has only its metadata. A name declared twice: the first distribution wins and a
warning names both.
"""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from importlib.metadata import EntryPoint, distributions
from typing import Any, Literal

from .errors import UserError

log = logging.getLogger(__name__)

Group = Literal["providers", "tasks", "sinks", "executors"]
GROUPS: dict[Group, str] = {
    "providers": "autogen_pse.providers",
    "tasks": "autogen_pse.tasks",
    "sinks": "autogen_pse.sinks",
    "executors": "autogen_pse.executors",
}
_SELF = "autogen-pse"


@cache
def entry_points(group: Group) -> dict[str, EntryPoint]:
    """``name → EntryPoint`` of ``group`` over every installed distribution (names lower-cased)."""
    full = GROUPS[group]
    found: dict[str, tuple[str, EntryPoint]] = {}
    for ep in _checkout_entry_points(full):  # this source tree's own declarations come first
        _add(found, ep.name.lower(), _SELF + " (checkout)", ep)
    for dist in distributions():
        dist_name = (dist.metadata["Name"] or "?") if dist.metadata else "?"
        for ep in dist.entry_points:
            if ep.group == full:
                _add(found, ep.name.lower(), dist_name, ep)
    return {name: ep for name, (_, ep) in sorted(found.items())}


def load(group: Group, name: str) -> Any:
    """The object registered as ``name`` in ``group``.

    Raises:
        UserError: no such name (the message lists the registered ones), or the entry point
            cannot be imported (names the distribution's entry and the error).
    """
    eps = entry_points(group)
    ep = eps.get(name.lower())
    if ep is None:
        known = ", ".join(eps) or "none"
        raise UserError(f"no {group[:-1]} named {name!r} is registered (entry point group {GROUPS[group]}); "
                        f"registered: {known}")
    try:
        return ep.load()
    except Exception as exc:
        raise UserError(f"entry point {ep.name} = {ep.value} ({GROUPS[group]}) cannot be loaded: "
                        f"{type(exc).__name__}: {exc}; reinstall or remove the package that declares it") from None


def clear_cache() -> None:
    """Forget what was discovered (after installing a package into the running interpreter)."""
    entry_points.cache_clear()


def _add(found: dict[str, tuple[str, EntryPoint]], name: str, dist: str, ep: EntryPoint) -> None:
    if name in found:
        first_dist, first = found[name]
        if first.value != ep.value:
            log.warning("entry point %r of %s is declared by %s (%s) and %s (%s); using %s",
                        name, ep.group, first_dist, first.value, dist, ep.value, first_dist)
        return
    found[name] = (dist, ep)


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _checkout_entry_points(group: str) -> list[EntryPoint]:
    from .config import CHECKOUT_ROOT  # the one rule for "runs from a source checkout"

    if CHECKOUT_ROOT is None:  # an installed package: its metadata only
        return []
    try:
        data = tomllib.loads((CHECKOUT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    project = data.get("project", {})
    if _normal(str(project.get("name", ""))) != _SELF:
        return []
    table = project.get("entry-points", {}).get(group, {})
    return [EntryPoint(name=k, value=v, group=group) for k, v in table.items()]
