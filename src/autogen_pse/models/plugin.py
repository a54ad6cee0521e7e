"""What a model provider registers: :class:`ProviderPlugin`, found by its spec prefix.

A package adds a provider by declaring, in its ``pyproject.toml``::

    [project.entry-points."autogen_pse.providers"]
    echo = "pse_echo:PLUGIN"          # --model echo:<argument>

where ``PLUGIN = ProviderPlugin(prefix="echo", open=..., remote=False, priced=False)``. The built-in
``local``, ``openai`` and ``scripted`` providers are registered the same way (see
:mod:`autogen_pse.models.builtin`). Whether prompts leave the machine (PII redaction) and whether
calls cost money are asked of the registered plugin, never of the spelling of the spec.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..config import Settings
    from .base import ModelProvider


@dataclass(frozen=True)
class ProviderPlugin:
    """A model provider, registered under ``prefix`` (lower case) in ``autogen_pse.providers``.

    Attributes:
        prefix: the spec's part before ``:`` (``openai`` in ``openai:gpt-4o-mini``).
        open: ``(argument, settings) -> ModelProvider``; the argument is the stripped text after
            ``:`` (``""`` for ``argument="none"``). Raises UserError for a bad argument or setup.
        remote: prompts leave this machine (PII is redacted before they do). Given to the opened
            provider, whatever its class says.
        priced: calls cost money (looked up in the price table; False: cost 0).
        argument: ``required`` (``prefix:<arg>``), ``none`` (``prefix`` alone) or ``optional``.
        usage: how the spec is written, for help and errors (default ``prefix:<argument>``).
        validate: optional cheap check of the argument without opening (no model load, no
            network); raises UserError.
        argument_kind: what the argument names, which decides what a *web client* may send
            (the CLI is not limited): ``name`` (an identifier the provider passes on, such as a
            model id: accepted), ``file`` (a file on the server: accepted only inside the folder
            set by ``PSE_WEB_SCRIPTED_DIR``) or ``other`` (a path, a URL, anything else: refused
            from the web). The default is ``other``: a provider that does not say is never handed
            a web client's argument. A spec without an argument reads only the operator's settings.
    """

    prefix: str
    open: Callable[[str, Settings], ModelProvider]
    remote: bool = True
    priced: bool = True
    argument: Literal["required", "none", "optional"] = "required"
    usage: str = ""
    validate: Callable[[str, Settings], None] | None = None
    argument_kind: Literal["name", "file", "other"] = "other"

    @property
    def form(self) -> str:
        if self.usage:
            return self.usage
        return {"required": f"{self.prefix}:<argument>", "none": self.prefix,
                "optional": f"{self.prefix}[:<argument>]"}[self.argument]

    def accepts(self, has_colon: bool, argument: str) -> bool:
        if self.argument == "none":
            return not has_colon
        if self.argument == "required":
            return has_colon and bool(argument)
        return True
