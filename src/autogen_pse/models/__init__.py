"""Model providers: one :class:`ModelProvider` per run, one ``ChatCompletionClient`` per role.

Spec grammar (``--model`` / ``PSE_MODEL``):

* ``local`` — llama-cpp-python in process (:mod:`.local`), no tool calls.
* ``openai:<model>`` — any OpenAI-compatible endpoint (:mod:`.openai_compat`), with retries.
* ``scripted:<path.json>`` — replies from a file (:mod:`.scripted`, ``docs/scripted-model.md``).

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

from typing import TYPE_CHECKING

from ..errors import UserError
from .base import ROLES, ModelProvider, check_role
from .retry import RetryingClient
from .tokens import count_tokens

if TYPE_CHECKING:
    from ..config import Settings

SPEC_FORMS = "local, openai:<model>, scripted:<path.json>"


def open_provider(spec: str, settings: Settings) -> ModelProvider:
    """Open the provider named by ``spec``.

    Args:
        spec: ``local`` | ``openai:<model>`` | ``scripted:<path.json>`` (surrounding spaces ignored).
        settings: model settings (paths, keys, timeouts, retry delays, local limits).

    Returns:
        A provider; call ``await provider.close()`` when the run ends.

    Raises:
        UserError: unknown spec form, empty model/path, missing key or model file, invalid
            scripted file (the message names the file and the JSON path).
        ModelError: the local model file exists but cannot be loaded.
    """
    raw = (spec or "").strip()
    kind, sep, arg = raw.partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind == "local" and not sep:
        from .local import LocalProvider

        return LocalProvider(settings)
    if kind == "openai" and sep:
        from .openai_compat import OpenAIProvider

        return OpenAIProvider(arg, settings)
    if kind == "scripted" and sep:
        if not arg:
            raise UserError("--model scripted:<path.json> needs a file path")
        from .scripted import ScriptedProvider, resolve_script_path

        return ScriptedProvider(
            resolve_script_path(arg, settings.project_root),
            max_retries=settings.openai_max_retries,
            base_delay=settings.retry_base_delay,
            max_delay=settings.retry_max_delay,
        )
    raise UserError(f"unknown model spec {spec!r}; use one of: {SPEC_FORMS}")


__all__ = [
    "ROLES",
    "SPEC_FORMS",
    "ModelProvider",
    "RetryingClient",
    "check_role",
    "count_tokens",
    "open_provider",
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
    """:func:`parse_spec` plus cheap checks of what the spec names, without loading a model:
    a scripted file must exist and be valid, a local GGUF file must exist.

    Raises:
        UserError: names the bad spec, file or JSON path, and the fix.
    """
    kind, arg = parse_spec(spec)
    if kind == "scripted":
        from .scripted import load_script, resolve_script_path

        load_script(resolve_script_path(arg, settings.project_root))
    elif kind == "local":
        from .local import resolve_model_path

        resolve_model_path(settings)
    return kind, arg


def parse_spec(spec: str) -> tuple[str, str]:
    """Validate a model spec without opening it: ``(kind, argument)``.

    Raises:
        UserError: not one of :data:`SPEC_FORMS`.
    """
    kind, sep, arg = (spec or "").strip().partition(":")
    kind, arg = kind.strip().lower(), arg.strip()
    if (kind == "local" and not sep) or (kind in ("openai", "scripted") and sep and arg):
        return kind, arg
    raise UserError(f"unknown model spec {spec!r}; use one of: {SPEC_FORMS}")
