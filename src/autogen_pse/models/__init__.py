"""Model providers: one :class:`ModelProvider` per run, one ``ChatCompletionClient`` per role.

Spec grammar (``--model`` / ``PSE_MODEL``):

* ``local`` — llama-cpp-python in process (:mod:`.local`), no tool calls.
* ``openai:<model>`` — any OpenAI-compatible endpoint (:mod:`.openai_compat`), with retries.
* ``scripted:<path.json>`` — replies from a file (:mod:`.scripted`, ``docs/scripted-model.md``).
* ``<prefix>[:<argument>]`` — any provider a package registers under the ``autogen_pse.providers``
  entry point group (:class:`ProviderPlugin`, ``docs/add-a-provider.md``); the three above are
  registered the same way (:mod:`.builtin`).

Usage::

    provider = open_provider(settings.model, settings)
    try:
        client = provider.client_for("planner")   # same object every time for a role
        ...
    finally:
        await provider.close()

Heavy libraries (``llama_cpp``, ``openai``) are imported only by the provider that needs them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..errors import UserError
from .base import ROLES, ModelProvider, check_role
from .plugin import ProviderPlugin
from .retry import RetryingClient
from .tokens import count_tokens

if TYPE_CHECKING:
    from ..config import Settings

log = logging.getLogger(__name__)


def registered() -> dict[str, ProviderPlugin]:
    """Every loadable provider plugin by prefix (entry point group ``autogen_pse.providers``); a
    registration that cannot be loaded is left out with a warning (it fails only when asked for)."""
    from ..plugins import entry_points

    out: dict[str, ProviderPlugin] = {}
    for name in entry_points("providers"):
        try:
            out[name] = plugin(name)
        except UserError as exc:
            log.warning("%s", exc)
    return out


def plugin(prefix: str) -> ProviderPlugin:
    """The provider registered under ``prefix`` (lower case).

    Raises:
        UserError: none is, or its entry point cannot be loaded or is not a :class:`ProviderPlugin`.
    """
    from ..plugins import load

    found = load("providers", prefix)
    if not isinstance(found, ProviderPlugin):
        raise UserError(f"entry point {prefix!r} (autogen_pse.providers) is a {type(found).__name__}, "
                        "not an autogen_pse.ProviderPlugin; fix or uninstall the package that declares it")
    return found


def spec_forms() -> str:
    """How each registered provider's spec is written, comma-joined (for help and errors)."""
    return ", ".join(p.form for p in registered().values())


#: The built-in forms (kept for callers that print them; the registry may hold more).
SPEC_FORMS = "local, openai:<model>, scripted:<path.json>"


def resolve_spec(spec: str) -> tuple[ProviderPlugin, bool, str]:
    """``(plugin, has_colon, argument)`` for ``spec``; the prefix is matched case-insensitively
    and surrounding spaces are ignored.

    Raises:
        UserError: no provider registered under the prefix, or the form does not fit it.
    """
    from ..plugins import entry_points

    prefix, sep, arg = (spec or "").strip().partition(":")
    prefix = prefix.strip().lower()
    found = plugin(prefix) if prefix and prefix in entry_points("providers") else None
    if found is None or (found.argument == "none" and sep) or (found.argument == "required" and not sep):
        raise UserError(f"unknown model spec {spec!r}; use one of: {spec_forms()}")
    return found, bool(sep), arg.strip()


def open_provider(spec: str, settings: Settings) -> ModelProvider:
    """Open the provider named by ``spec`` through its registered :class:`ProviderPlugin`.

    Args:
        spec: ``<prefix>[:<argument>]`` of a registered provider, e.g. ``local``,
            ``openai:<model>``, ``scripted:<path.json>`` (surrounding spaces ignored).
        settings: model settings (paths, keys, timeouts, retry delays, local limits).

    Returns:
        A provider whose ``remote``/``priced`` are the plugin's; call ``await provider.close()``.

    Raises:
        UserError: unknown spec form, empty model/path, missing key or model file, invalid
            scripted file (the message names the file and the JSON path).
        ModelError: the local model file exists but cannot be loaded.
    """
    found, _, arg = resolve_spec(spec)
    provider = found.open(arg, settings)
    provider.remote, provider.priced = found.remote, found.priced  # the registered object decides
    return provider


__all__ = [
    "ROLES",
    "SPEC_FORMS",
    "ModelProvider",
    "ProviderPlugin",
    "RetryingClient",
    "check_role",
    "count_tokens",
    "open_provider",
    "plugin",
    "registered",
    "resolve_spec",
    "spec_forms",
]


#: seconds per model call (typical, slow) of a structured, compact portfolio-review run on the local
#: 135M model on an otherwise idle 2-core machine: bench/bench_local_review.py measured a median of
#: 22 s and a maximum of 99 s per call under a load average of about 5 (load factor ~3 below).
LOCAL_CALL_SECONDS = (8, 35)


def call_seconds_hint(spec: str) -> tuple[int, int] | None:
    """Rough seconds per model call for ``spec`` on this machine, or ``None`` when unknown (remote
    endpoints, scripted files). The local figure grows with the load average per core."""
    import os

    if parse_spec(spec)[0] != "local":
        return None
    try:
        busy = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1) + 0.5)
    except OSError:
        busy = 1.0
    low, high = LOCAL_CALL_SECONDS
    return round(low * busy), round(high * busy)


def validate_spec(spec: str, settings: Settings) -> tuple[str, str]:
    """:func:`parse_spec` plus the plugin's cheap check of what the spec names, without loading a
    model (a scripted file must exist and be valid, a local GGUF file must exist).

    Raises:
        UserError: names the bad spec, file or JSON path, and the fix.
    """
    kind, arg = parse_spec(spec)
    found = plugin(kind)
    if found.validate is not None:
        found.validate(arg, settings)
    return kind, arg


def parse_spec(spec: str) -> tuple[str, str]:
    """Validate a model spec without opening it: ``(prefix, argument)``.

    Raises:
        UserError: no registered provider accepts it (lists the registered forms).
    """
    found, has_colon, arg = resolve_spec(spec)
    if not found.accepts(has_colon, arg):
        raise UserError(f"unknown model spec {spec!r}; use one of: {spec_forms()}")
    return found.prefix, arg
