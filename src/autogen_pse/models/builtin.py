"""The built-in providers, registered through autogen-pse's own ``autogen_pse.providers`` entry
points exactly like a third-party one. Heavy libraries are imported only when a provider opens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UserError
from .plugin import ProviderPlugin

if TYPE_CHECKING:
    from ..config import Settings
    from .base import ModelProvider


def _open_local(argument: str, settings: Settings) -> ModelProvider:
    from .local import LocalProvider

    return LocalProvider(settings)


def _check_local(argument: str, settings: Settings) -> None:
    from .local import resolve_model_path

    resolve_model_path(settings)


def _open_openai(argument: str, settings: Settings) -> ModelProvider:
    from .openai_compat import OpenAIProvider

    return OpenAIProvider(argument, settings)


def _open_scripted(argument: str, settings: Settings) -> ModelProvider:
    from .scripted import ScriptedProvider, resolve_script_path

    if not argument:
        raise UserError("--model scripted:<path.json> needs a file path")
    return ScriptedProvider(resolve_script_path(argument, settings.project_root),
                            max_retries=settings.openai_max_retries, base_delay=settings.retry_base_delay,
                            max_delay=settings.retry_max_delay)


def _check_scripted(argument: str, settings: Settings) -> None:
    from .scripted import load_script, resolve_script_path

    load_script(resolve_script_path(argument, settings.project_root))


LOCAL = ProviderPlugin(prefix="local", open=_open_local, remote=False, priced=False, argument="none",
                       validate=_check_local)
OPENAI = ProviderPlugin(prefix="openai", open=_open_openai, remote=True, priced=True, usage="openai:<model>",
                        argument_kind="name")  # a model id, sent to the operator's endpoint (PSE_OPENAI_BASE_URL)
SCRIPTED = ProviderPlugin(prefix="scripted", open=_open_scripted, remote=False, priced=False,
                          usage="scripted:<path.json>", validate=_check_scripted, argument_kind="file")
