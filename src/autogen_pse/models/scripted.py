"""The ``scripted:<file.json>`` provider: replies read from a file, one list per role.

File format (see ``docs/scripted-model.md``)::

    {"planner": [REPLY, ...], "specialist": [REPLY, ...], "evaluator": [REPLY, ...]}

    REPLY = "text"
          | {"content": "text"}
          | {"tool_calls": [{"name": "tool", "arguments": {...}}, ...]}
          | {"error": "connection" | "timeout" | "rate_limit" | "server"}   (+ optional "retry_after")

A content or tool-call object may add ``"delay": SECONDS``: the call waits that long before it
answers (a model's latency, for benchmarks and cancellation tests).

Each role consumes its own list in order across the whole run (the provider keeps the cursors;
agents may be rebuilt every cycle). A fault raises the real ``openai`` exception, so the
:class:`~autogen_pse.models.retry.RetryingClient` around every scripted client retries it and the
next attempt gets the next reply. Usage is counted with the repo's real tokenizer.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autogen_core import FunctionCall
from autogen_core.models import CreateResult, LLMMessage, ModelInfo, RequestUsage

from ..errors import InputFileError, ModelError, UserError
from ..jsonfile import read_json
from .base import ROLES, ModelProvider, TextClientBase
from .client import CallOptions
from .messages import function_call_text
from .tokens import count_many, count_prompt_tokens, count_tokens

FAULTS = ("connection", "timeout", "rate_limit", "server")
MAX_DELAY = 600.0
SCRIPTED_MODEL_INFO: ModelInfo = {
    "function_calling": True,
    "json_output": False,
    "structured_output": False,
    "vision": False,
    "family": "unknown",
}
_FAKE_URL = "http://scripted.invalid/v1/chat/completions"


@dataclass(frozen=True)
class ToolCallSpec:
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """One validated scripted reply: exactly one of ``content``, ``tool_calls``, ``error``."""

    content: str | None = None
    tool_calls: tuple[ToolCallSpec, ...] = ()
    error: str | None = None
    retry_after: float = 0.0
    delay: float = 0.0  # seconds the call takes before it answers (a model's latency)


@dataclass
class Script:
    """A parsed scripted file and its per-role cursors (shared by all clients of one provider)."""

    path: Path
    replies: dict[str, list[Reply]]
    cursors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROLES, 0))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_reply(self, role: str) -> tuple[int, Reply]:
        """The next reply for ``role`` and its index; the cursor advances.

        Raises:
            ModelError: the role's list is used up.
        """
        with self.lock:
            items = self.replies.get(role, [])
            index = self.cursors[role]
            if index >= len(items):
                raise ModelError(
                    f"scripted model {self.path.name}: no reply left for {role} (used {index}); add replies to the file"
                )
            self.cursors[role] = index + 1
            return index, items[index]


def _bad(path: Path, where: str, message: str) -> InputFileError:
    return InputFileError(path, message, field=where)


def _parse_reply(path: Path, where: str, raw: Any) -> Reply:
    if isinstance(raw, str):
        return Reply(content=raw)
    if not isinstance(raw, dict):
        raise _bad(path, where, f"a reply must be a string or an object, not {type(raw).__name__}")
    keys = set(raw)
    kinds = keys & {"content", "tool_calls", "error"}
    if len(kinds) != 1:
        raise _bad(path, where, 'a reply object needs exactly one of "content", "tool_calls", "error"')
    kind = kinds.pop()
    allowed = {"error", "retry_after"} if kind == "error" else {kind, "delay"}
    if keys - allowed:
        raise _bad(path, where, f"unknown key(s) {sorted(keys - allowed)}; allowed: {sorted(allowed)}")
    delay = raw.get("delay", 0)
    if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= MAX_DELAY:
        raise _bad(path, f"{where}.delay", f"must be a number of seconds from 0 to {MAX_DELAY:g}")
    if kind == "content":
        if not isinstance(raw["content"], str):
            raise _bad(path, f"{where}.content", "must be a string")
        return Reply(content=raw["content"], delay=float(delay))
    if kind == "error":
        if raw["error"] not in FAULTS:
            raise _bad(path, f"{where}.error", f"must be one of {', '.join(FAULTS)}, not {raw['error']!r}")
        retry_after = raw.get("retry_after", 0)
        if isinstance(retry_after, bool) or not isinstance(retry_after, int | float) or retry_after < 0:
            raise _bad(path, f"{where}.retry_after", "must be a number of seconds >= 0")
        return Reply(error=raw["error"], retry_after=float(retry_after))
    calls = raw["tool_calls"]
    if not isinstance(calls, list) or not calls:
        raise _bad(path, f"{where}.tool_calls", "must be a non-empty list")
    specs = []
    for j, call in enumerate(calls):
        here = f"{where}.tool_calls[{j}]"
        if not isinstance(call, dict) or set(call) - {"name", "arguments"} or "name" not in call:
            raise _bad(path, here, 'must be {"name": str, "arguments": {...}}')
        if not isinstance(call["name"], str) or not call["name"].strip():
            raise _bad(path, f"{here}.name", "must be a non-empty string")
        args = call.get("arguments", {})
        if not isinstance(args, dict):
            raise _bad(path, f"{here}.arguments", "must be a JSON object")
        specs.append(ToolCallSpec(name=call["name"], arguments=args))
    return Reply(tool_calls=tuple(specs), delay=float(delay))


def load_script(path: Path) -> Script:
    """Read and validate a scripted file.

    Raises:
        UserError: missing file; :class:`~autogen_pse.errors.InputFileError` (a UserError) naming
            the file and the JSON path (``evaluator[2]``) for invalid JSON, shape, role or reply.
    """
    if not path.is_file():
        raise UserError(f"scripted model file not found: {path} (use --model scripted:<path.json>)")
    data = read_json(path)
    if not isinstance(data, dict):
        raise _bad(path, "$", 'must be an object {"planner": [...], "specialist": [...], "evaluator": [...]}')
    replies: dict[str, list[Reply]] = {}
    for role, items in data.items():
        if role not in ROLES:
            raise _bad(path, role, f"unknown role {role!r}; expected {', '.join(ROLES)}")
        if not isinstance(items, list):
            raise _bad(path, role, "must be a list of replies")
        replies[role] = [_parse_reply(path, f"{role}[{i}]", item) for i, item in enumerate(items)]
    return Script(path=path, replies=replies)


def fault_exception(kind: str, retry_after: float = 0.0) -> Exception:
    """The real ``openai`` exception for a scripted fault (built on httpx request/response)."""
    import httpx2 as httpx  # the HTTP library openai itself is built on (its exceptions carry its types)
    import openai

    request = httpx.Request("POST", _FAKE_URL)
    if kind == "connection":
        return openai.APIConnectionError(message="scripted fault: connection error", request=request)
    if kind == "timeout":
        return openai.APITimeoutError(request=request)
    if kind == "rate_limit":
        headers = {"retry-after": f"{retry_after:g}"}
        response = httpx.Response(429, headers=headers, request=request, json={"error": "rate limited"})
        return openai.RateLimitError("scripted fault: rate limited", response=response, body=None)
    if kind == "server":
        response = httpx.Response(500, request=request, json={"error": "server error"})
        return openai.InternalServerError("scripted fault: server error", response=response, body=None)
    raise ValueError(f"unknown scripted fault {kind!r}")


class ScriptedChatClient(TextClientBase):
    """Replies for one role, taken from a shared :class:`Script`."""

    def __init__(self, script: Script, role: str) -> None:
        super().__init__(SCRIPTED_MODEL_INFO, context_tokens=128_000)
        self._script = script
        self._role = role

    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        """The role's next reply. Raises the scripted ``openai`` exception for a fault reply and
        :class:`ModelError` when the list is used up."""
        index, reply = self._script.next_reply(self._role)
        if reply.error is not None:
            raise fault_exception(reply.error, reply.retry_after)
        if reply.delay:  # like a real call, the wait ends when the run's stop cancels the token
            waiting = asyncio.ensure_future(asyncio.sleep(reply.delay))
            if options.cancellation_token is not None:
                options.cancellation_token.link_future(waiting)
            await waiting
        prompt_tokens = count_prompt_tokens(messages, options.tools)
        if reply.tool_calls:
            calls = [
                FunctionCall(
                    id=f"call_{self._role}_{index}_{j}",
                    name=spec.name,
                    arguments=json.dumps(spec.arguments, ensure_ascii=False),
                )
                for j, spec in enumerate(reply.tool_calls)
            ]
            completion = count_many(function_call_text(c.name, c.arguments) for c in calls)
            result = CreateResult(
                content=calls,
                finish_reason="function_calls",
                usage=RequestUsage(prompt_tokens=prompt_tokens, completion_tokens=completion),
                cached=False,
            )
        else:
            text = reply.content or ""
            result = CreateResult(
                content=text,
                finish_reason="stop",
                usage=RequestUsage(prompt_tokens=prompt_tokens, completion_tokens=count_tokens(text)),
                cached=False,
            )
        self._record(result.usage)
        return result

    async def close(self) -> None:
        """Nothing to release."""


class ScriptedProvider(ModelProvider):
    """Provider for ``scripted:<path.json>``; ``supports_tools`` is True."""

    supports_tools = True
    remote = False
    priced = False

    def __init__(self, path: Path, *, max_retries: int, base_delay: float, max_delay: float) -> None:
        super().__init__()
        self.script = load_script(path)
        self.name = f"scripted:{path.name}"
        self._retry = (max_retries, base_delay, max_delay)

    @property
    def cursors(self) -> dict[str, int]:
        """Replies consumed so far per role (a copy)."""
        return dict(self.script.cursors)

    def restore_cursors(self, cursors: dict[str, int]) -> None:
        """Continue a resumed run where its last completed cycle left each role's replies."""
        for role, index in cursors.items():
            if role in self.script.cursors and isinstance(index, int) and index >= 0:
                self.script.cursors[role] = index

    def _make_client(self, role: str) -> Any:
        from .retry import RetryingClient

        max_retries, base_delay, max_delay = self._retry
        return RetryingClient(
            ScriptedChatClient(self.script, role),
            max_retries=max_retries,
            base_delay=base_delay,
            max_delay=max_delay,
            hint=f"the scripted file {self.script.path.name} injects these faults",
            close_inner=False,
        )


def resolve_script_path(raw: str, project_root: Path) -> Path:
    """``raw`` as given (absolute or relative to the working directory), else relative to the
    project root; the first that exists, or the working-directory form for the error message."""
    path = Path(raw).expanduser()
    if path.is_absolute() or path.is_file():
        return path
    alt = project_root / path
    return alt if alt.is_file() else path
