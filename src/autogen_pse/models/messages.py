"""Plain-text rendering of AutoGen ``LLMMessage`` objects.

Used to count prompt tokens (scripted provider, OpenAI fallback) and to turn any history into the
``{"role", "content"}`` dicts a model without tool support understands (local provider). Every
message type is handled: ``SystemMessage``, ``UserMessage`` (text and images), ``AssistantMessage``
(text or tool calls), ``FunctionExecutionResultMessage``; anything else is rendered with ``str()``
rather than raising.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

ChatDict = dict[str, str]


def _content_text(content: Any) -> str:
    """Text of a message ``content``: a string, or a list of strings / images / function calls."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, str):
                parts.append(item)
            elif hasattr(item, "name") and hasattr(item, "arguments"):  # FunctionCall
                parts.append(f"[tool call {item.name}({item.arguments})]")
            else:  # Image or unknown part: never send binary data as text
                parts.append(f"[{type(item).__name__.lower()} omitted]")
        return "\n".join(parts)
    return str(content)


def _results_text(results: Sequence[Any]) -> str:
    lines = []
    for result in results:
        name = getattr(result, "name", "") or "tool"
        status = " (error)" if getattr(result, "is_error", False) else ""
        lines.append(f"[tool result {name}{status}]\n{getattr(result, 'content', result)}")
    return "\n".join(lines)


def message_text(message: Any) -> str:
    """All the text a message carries (content, thought, tool calls, tool results)."""
    kind = getattr(message, "type", type(message).__name__)
    if kind == "FunctionExecutionResultMessage":
        return _results_text(message.content)
    text = _content_text(getattr(message, "content", message))
    thought = getattr(message, "thought", None)
    return f"{thought}\n{text}" if thought else text


def to_chat_dicts(messages: Sequence[Any], *, self_name: str | None = None) -> list[ChatDict]:
    """Convert LLM messages to ``[{"role": "system"|"user"|"assistant", "content": str}]``.

    * ``SystemMessage`` → system.
    * ``UserMessage`` → user; when its ``source`` is another agent (not ``"user"``) the text is
      prefixed with ``"<source>: "`` so a model can tell speakers apart.
    * ``AssistantMessage`` → assistant; tool calls become ``[tool call name({...})]`` lines.
    * ``FunctionExecutionResultMessage`` → user, one ``[tool result name]`` block per result.

    Consecutive messages of the same role are kept separate (chat templates accept that).
    """
    out: list[ChatDict] = []
    for message in messages:
        kind = getattr(message, "type", type(message).__name__)
        if kind == "SystemMessage":
            out.append({"role": "system", "content": _content_text(message.content)})
        elif kind == "UserMessage":
            text = _content_text(message.content)
            source = getattr(message, "source", "user") or "user"
            if source not in ("user", self_name):
                text = f"{source}: {text}"
            out.append({"role": "user", "content": text})
        elif kind == "AssistantMessage":
            out.append({"role": "assistant", "content": message_text(message)})
        elif kind == "FunctionExecutionResultMessage":
            out.append({"role": "user", "content": _results_text(message.content)})
        else:
            out.append({"role": "user", "content": str(getattr(message, "content", message))})
    return out


def function_call_text(name: str, arguments: str | dict[str, Any]) -> str:
    """Text of one tool call as counted for completion tokens: ``name`` + JSON arguments."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return f"{name}({args})"
