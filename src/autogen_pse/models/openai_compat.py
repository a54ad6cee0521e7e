"""The ``openai:<model>`` provider: any OpenAI-compatible HTTP endpoint.

Built on ``autogen_ext.models.openai.OpenAIChatCompletionClient`` with the SDK's own retries off
(``max_retries=0``): :class:`~autogen_pse.models.retry.RetryingClient` retries instead. Settings
used: ``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` (required), ``PSE_OPENAI_TIMEOUT``,
``PSE_OPENAI_MAX_RETRIES``, ``PSE_RETRY_BASE_DELAY``, ``PSE_RETRY_MAX_DELAY``,
``PSE_OPENAI_STREAM`` (streams request ``include_usage``) and ``PSE_OPENAI_MODEL_INFO`` (JSON
capabilities for model names autogen does not know).

Offline-safe token counting: autogen's ``count_tokens`` uses tiktoken, which downloads its tables
and fails here, so this client counts with the repo tokenizer; a response that reports no usage
at all (some servers, streams) gets estimated usage from the same tokenizer so totals are never 0.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, Sequence
from typing import TYPE_CHECKING, Any

from autogen_core.models import CreateResult, ModelInfo, RequestUsage

from ..errors import UserError
from .base import ModelProvider
from .messages import function_call_text
from .tokens import count_prompt_tokens, count_tokens

if TYPE_CHECKING:
    from ..config import Settings

logger = logging.getLogger(__name__)

#: completion caps per role (``max_tokens``), merged under ``PSE_OPENAI_MAX_TOKENS``: without one a
#: small model can generate until the context is full (7,983 tokens of garbage were seen)
DEFAULT_MAX_TOKENS = {"planner": 1024, "specialist": 4096, "evaluator": 1024}
DEFAULT_BASE_URL = "https://api.openai.com/v1"

DEFAULT_UNKNOWN_MODEL_INFO: ModelInfo = {
    "function_calling": True,
    "json_output": True,
    "structured_output": False,
    "vision": False,
    "family": "unknown",
}
_INFO_KEYS = {
    "function_calling",
    "json_output",
    "structured_output",
    "vision",
    "family",
    "multiple_system_messages",
}


def resolve_model_info(model: str, raw_json: str | None) -> ModelInfo | None:
    """The ``model_info`` to pass to autogen: parsed ``raw_json`` (missing keys from the default),
    ``None`` when autogen knows ``model`` itself, else :data:`DEFAULT_UNKNOWN_MODEL_INFO`.

    Raises:
        UserError: ``raw_json`` is not a JSON object of known capability keys.
    """
    if raw_json:
        try:
            data = json.loads(raw_json)
        except json.JSONDecodeError as exc:
            raise UserError(f"PSE_OPENAI_MODEL_INFO is not valid JSON ({exc.msg})") from None
        if not isinstance(data, dict) or set(data) - _INFO_KEYS:
            raise UserError(f"PSE_OPENAI_MODEL_INFO must be a JSON object with keys from {sorted(_INFO_KEYS)}")
        return {**DEFAULT_UNKNOWN_MODEL_INFO, **data}
    from autogen_ext.models.openai import _model_info

    try:
        _model_info.get_info(model)
    except (ValueError, KeyError):
        return dict(DEFAULT_UNKNOWN_MODEL_INFO)  # type: ignore[return-value]
    return None


def _estimate_usage(messages: Sequence[Any], tools: Sequence[Any], content: Any) -> RequestUsage:
    if isinstance(content, list):
        completion = sum(count_tokens(function_call_text(c.name, c.arguments)) for c in content)
    else:
        completion = count_tokens(str(content or ""))
    return RequestUsage(prompt_tokens=count_prompt_tokens(messages, tools), completion_tokens=completion)


def _make_client_class() -> type:
    """Subclass autogen's client lazily (keeps ``openai`` out of module import)."""
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    class PseOpenAIClient(OpenAIChatCompletionClient):
        """autogen's client + offline token counting, stream usage, never-zero usage."""

        def __init__(self, *, stream_usage: bool, context_tokens: int = 128_000,
                     on_truncated: Any = None, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self._stream_usage = stream_usage
            self._context_tokens = context_tokens
            self._on_truncated = on_truncated

        async def create(self, messages: Sequence[Any], **kwargs: Any) -> CreateResult:
            if self._stream_usage:  # PSE_OPENAI_STREAM: agents call create(); the request streams anyway
                final: CreateResult | None = None
                async for chunk in self.create_stream(messages, **kwargs):
                    if isinstance(chunk, CreateResult):
                        final = chunk
                if final is None:  # pragma: no cover - autogen always ends a stream with a result
                    raise RuntimeError("the model stream ended without a result")
                return final
            result = await super().create(messages, **kwargs)
            self._flag(result)
            return self._fill_usage(result, messages, kwargs.get("tools", ()))

        def _flag(self, result: CreateResult) -> None:
            if result.finish_reason == "length" and self._on_truncated is not None:
                self._on_truncated(result)

        async def create_stream(
            self, messages: Sequence[Any], **kwargs: Any
        ) -> AsyncGenerator[str | CreateResult, None]:
            if self._stream_usage and "include_usage" not in kwargs:
                extra = dict(kwargs.get("extra_create_args") or {})
                if "include_usage" not in extra.get("stream_options", {}):
                    kwargs["include_usage"] = True
            async for chunk in super().create_stream(messages, **kwargs):
                if isinstance(chunk, CreateResult):
                    self._flag(chunk)
                    chunk = self._fill_usage(chunk, messages, kwargs.get("tools", ()))
                yield chunk

        def _fill_usage(self, result: CreateResult, messages: Sequence[Any], tools: Sequence[Any]) -> CreateResult:
            usage = result.usage
            if usage.prompt_tokens or usage.completion_tokens:
                return result
            estimated = _estimate_usage(messages, tools or (), result.content)
            logger.info("server reported no token usage; estimated %s with the local tokenizer", estimated)
            self._total_usage = RequestUsage(
                prompt_tokens=self._total_usage.prompt_tokens + estimated.prompt_tokens,
                completion_tokens=self._total_usage.completion_tokens + estimated.completion_tokens,
            )
            self._actual_usage = RequestUsage(
                prompt_tokens=self._actual_usage.prompt_tokens + estimated.prompt_tokens,
                completion_tokens=self._actual_usage.completion_tokens + estimated.completion_tokens,
            )
            return result.model_copy(update={"usage": estimated})

        def count_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
            return count_prompt_tokens(messages, tools)

        def remaining_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
            return max(0, self._context_tokens - self.count_tokens(messages, tools=tools))

    return PseOpenAIClient


_client_class: type | None = None


def _client_cls() -> type:
    global _client_class
    if _client_class is None:
        _client_class = _make_client_class()
    return _client_class


class OpenAIProvider(ModelProvider):
    """Provider for ``openai:<model>``; one HTTP client per role, each wrapped in retries.
    Always ``remote`` (even on a loopback URL: the text leaves the process) and ``priced``.

    Raises:
        UserError: no ``OPENAI_API_KEY``, empty model name, bad ``PSE_OPENAI_MODEL_INFO``.
    """

    remote = True
    priced = True

    def __init__(self, model: str, settings: Settings, **retry_overrides: Any) -> None:
        super().__init__()
        model = model.strip()
        if not model:
            raise UserError("--model openai:<model> needs a model name, e.g. openai:gpt-4o-mini")
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key is not None else ""
        if not key.strip():
            raise UserError("OPENAI_API_KEY is not set; put it in .env or use --model local")
        self.model = model
        self.name = f"openai:{model}"
        self._key = key
        self._settings = settings
        self._model_info = resolve_model_info(model, settings.openai_model_info)
        self._retry_overrides = retry_overrides
        info = self._effective_info()
        self.supports_tools = bool(info["function_calling"])
        self.output_strategy = ("json_schema" if info.get("structured_output") else
                                "json_object" if info.get("json_output") else "validate")

    def _effective_info(self) -> ModelInfo:
        if self._model_info is not None:
            return self._model_info
        from autogen_ext.models.openai import _model_info

        return _model_info.get_info(self.model)

    @property
    def max_tokens(self) -> dict[str, int]:
        """Completion cap per role: :data:`DEFAULT_MAX_TOKENS` under ``PSE_OPENAI_MAX_TOKENS``."""
        return {**DEFAULT_MAX_TOKENS, **self._settings.openai_max_tokens}

    def _hint(self) -> str:
        url = self._settings.openai_base_url or DEFAULT_BASE_URL
        return (f"is an OpenAI-compatible server answering at {url}? (OPENAI_BASE_URL; per-call timeout "
                f"PSE_OPENAI_TIMEOUT={self._settings.openai_timeout:g} s)")

    def _make_client(self, role: str) -> Any:
        from .retry import RetryingClient

        cap = self.max_tokens[role]

        def truncated(result: CreateResult) -> None:
            text = (f"the {role}'s reply was cut at the completion limit (finish_reason length, "
                    f"max_tokens={cap}); raise it with PSE_OPENAI_MAX_TOKENS or ask for less")
            logger.warning("%s", text)
            self.notice(text)

        kwargs: dict[str, Any] = {
            "model": self.model,
            "api_key": self._key,
            "timeout": self._settings.openai_timeout,
            "max_retries": 0,
            "stream_usage": self._settings.openai_stream,
            "max_tokens": cap,
            "on_truncated": truncated,
        }
        if self._settings.openai_base_url:
            kwargs["base_url"] = self._settings.openai_base_url
        if self._model_info is not None:
            kwargs["model_info"] = self._model_info
        inner = _client_cls()(**kwargs)
        options: dict[str, Any] = {
            "max_retries": self._settings.openai_max_retries,
            "base_delay": self._settings.retry_base_delay,
            "max_delay": self._settings.retry_max_delay,
            "secrets": (self._key,),
            "close_inner": False,
            "hint": self._hint(),
            "retry_timeouts": self._settings.openai_retry_timeouts,
        }
        options.update(self._retry_overrides)
        return RetryingClient(inner, **options)


__all__ = ["DEFAULT_UNKNOWN_MODEL_INFO", "OpenAIProvider", "resolve_model_info"]
