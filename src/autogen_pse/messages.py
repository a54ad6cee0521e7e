"""Convert AutoGen stream items into RunEvent kinds and payloads (see docs/CONTRACTS.md)."""

from __future__ import annotations

import json
import re
from typing import Any

from autogen_agentchat.messages import (
    BaseAgentEvent,
    BaseChatMessage,
    ToolCallExecutionEvent,
    ToolCallRequestEvent,
)
from autogen_core.models import RequestUsage

from .events import EventKind

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean(text: str) -> str:
    """``text`` with lone surrogates (a model may send ``"\\ud800"``; UTF-8 cannot hold them)
    replaced by U+FFFD, so the event can always be written."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def cap(text: str, limit: int) -> str:
    """``text`` (see :func:`clean`) cut to ``limit`` characters with a visible marker naming what was cut."""
    text = clean(text)
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n…[truncated {len(text) - limit} characters]"


def usage_dict(usage: RequestUsage | None) -> dict[str, int] | None:
    """``{prompt_tokens, completion_tokens}`` of one model call, or None (the loop adds cost)."""
    if usage is None:
        return None
    return {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens}


def message_event(item: BaseAgentEvent | BaseChatMessage, output_cap: int) -> tuple[EventKind, dict[str, Any]] | None:
    """``(kind, payload)`` for an item of ``run_stream``; None for items not traced (chunks)."""
    usage = usage_dict(getattr(item, "models_usage", None))
    if isinstance(item, ToolCallRequestEvent):
        calls = [{"id": c.id, "name": c.name, "arguments": _arguments(c.arguments)} for c in item.content]
        return EventKind.TOOL_CALL, {"source": item.source, "calls": calls, "usage": usage}
    if isinstance(item, ToolCallExecutionEvent):
        results = [
            {"call_id": r.call_id, "name": r.name, "content": cap(r.content, output_cap), "is_error": bool(r.is_error)}
            for r in item.content
        ]
        return EventKind.TOOL_RESULT, {"source": item.source, "results": results}
    if isinstance(item, BaseChatMessage):
        return EventKind.MESSAGE, {
            "source": item.source,
            "type": type(item).__name__,
            "content": cap(item.to_text(), output_cap * 4),
            "usage": usage,
        }
    if type(item).__name__ == "ThoughtEvent":
        return EventKind.MESSAGE, {"source": item.source, "type": "ThoughtEvent",
                                   "content": cap(item.to_text(), output_cap), "usage": None}
    return None


def _arguments(raw: str) -> Any:
    try:
        value = json.loads(raw)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # no lone surrogates from "\\ud800" escapes
    except (TypeError, ValueError, RecursionError):  # not JSON, nested too deep, not UTF-8 encodable
        return clean(raw) if isinstance(raw, str) else raw
    return value
