"""Constrained artifact output per provider, with validation and one re-ask.

:class:`StructuredClient` wraps the specialist's client for a run whose task declares an artifact
schema. How the object is asked for depends on the provider's ``output_strategy``:

* ``grammar`` (llama.cpp) — decoding constrained by a grammar compiled from the JSON schema
  (``json_output=<model>``: llama-cpp-python builds it with ``LlamaGrammar.from_json_schema``), with
  the schema's completion cap;
* ``json_schema`` (OpenAI-compatible, structured output) — ``response_format`` of type
  ``json_schema``; when the endpoint rejects it (HTTP 400/422) the client falls back to
  ``json_object`` for the rest of the run;
* ``json_object`` (JSON mode) and ``validate`` (scripted, or no JSON support) — the schema is sent
  in the prompt and the reply validated.

Every reply is validated against the schema; an invalid or truncated one is asked for once more
with the validation errors. The second reply is returned as is: the cycle loop reads an invalid
object as a malformed artifact (PARTIAL / FORMAT_ISSUE), never as an artifact.

With a ``review`` (the cycle loop's programmatic checks of the document rendered from the object),
a *valid* object whose document fails an error check is asked for once more too, with the failing
checks' findings — evidence before output: a small model's contradicted claim is corrected in the
same turn instead of costing a whole fix cycle. The second reply is kept when it is a valid object,
else the first. Either way at most two calls per turn.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from autogen_core import CancellationToken
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    CreateResult,
    LLMMessage,
    RequestUsage,
    UserMessage,
)

from ..models.client import CallOptions
from ..models.delegate import DelegatingClient
from .parse import ArtifactParseError, parse_object
from .schema import ArtifactSchema

logger = logging.getLogger(__name__)

STRATEGIES = ("grammar", "json_schema", "json_object", "validate")
REJECTED_STATUS = (400, 422)
ASK = "Your reply is one JSON object and nothing else; the document is rendered from it. {instructions}"
SCHEMA_TEXT = "\nThe object must match this JSON schema:\n{schema}"
REASK = ("Your last reply was not a valid object ({error}). Reply again with the whole object, valid against "
         "the schema, and nothing else.")
RECHECK = ("The object is valid, but the document rendered from it fails these checks against the data: "
           "{problems} Reply again with the whole object and nothing else; rewrite or simplify the text that "
           "makes a wrong claim, and keep what was right.")
MAX_BAD_ECHO = 4_000  # characters of an invalid reply sent back with the re-ask


def _rejected(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it wraps) is an HTTP 400/422 answer to the request itself."""
    seen: BaseException | None = exc
    while seen is not None:
        if getattr(seen, "status_code", None) in REJECTED_STATUS:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class StructuredClient(DelegatingClient):
    """The specialist's client in a structured run; see the module docstring.

    Args:
        inner: the provider's client for the role (retries included).
        schema: this run's artifact schema.
        strategy: one of :data:`STRATEGIES` (from the provider's ``output_strategy``).
        on_fallback: called with a one-line message when ``json_schema`` falls back to JSON mode.
    """

    def __init__(self, inner: ChatCompletionClient, schema: ArtifactSchema, strategy: str, *,
                 on_fallback: Callable[[str], object] | None = None,
                 review: Callable[[str], Awaitable[str | None]] | None = None,
                 on_recheck: Callable[[str], object] | None = None) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown output strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        super().__init__(inner)
        self.schema = schema
        self.strategy = strategy
        self.attempts: list[str | None] = []  # per call: None valid, else the validation error
        self._on_fallback = on_fallback
        self._review = review
        self._on_recheck = on_recheck

    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        """One object: ask, validate, re-ask once with the errors. ``tools`` are not offered (the
        artifact is the reply). Usage covers both attempts."""
        history = list(messages)
        first = await self._ask(history, options.extra_create_args, options.cancellation_token)
        text = str(first.content)
        error = self._error(text)
        self.attempts.append(error)
        if error is None:
            problems = await self._review(text) if self._review is not None else None
            if problems is None:
                return first
            logger.info("artifact fails its checks (%s); asking once more", problems)
            if self._on_recheck is not None:
                self._on_recheck(problems)
            ask = RECHECK.format(problems=problems)
        else:
            logger.info("artifact object invalid (%s); asking once more", error)
            ask = REASK.format(error=error)
        history += [AssistantMessage(content=text[:MAX_BAD_ECHO], source="specialist"),
                    UserMessage(content=ask, source="user")]
        second = await self._ask(history, options.extra_create_args, options.cancellation_token)
        again = self._error(str(second.content))
        self.attempts.append(again)
        usage = RequestUsage(prompt_tokens=first.usage.prompt_tokens + second.usage.prompt_tokens,
                             completion_tokens=first.usage.completion_tokens + second.usage.completion_tokens)
        kept = first if error is None and again is not None else second  # never trade a valid object for an invalid one
        return kept.model_copy(update={"usage": usage})

    def _error(self, text: str) -> str | None:
        try:
            parse_object(self.schema, text)
        except ArtifactParseError as exc:
            return str(exc)
        return None

    def ask_text(self) -> str:
        """The instruction appended to the specialist's messages (the schema too when not enforced)."""
        text = ASK.format(instructions=self.schema.instructions).strip()
        if self.strategy in ("json_object", "validate"):
            text += SCHEMA_TEXT.format(schema=json.dumps(self.schema.json_schema(), separators=(",", ":")))
        return text

    async def _ask(self, history: list[LLMMessage], extra: Mapping[str, Any],
                   token: CancellationToken | None) -> CreateResult:
        messages = [*history, UserMessage(content=self.ask_text(), source="user")]
        if self.strategy == "json_schema":
            response_format = {"type": "json_schema", "json_schema": {
                "name": self.schema.name, "schema": self.schema.json_schema(), "strict": False}}
            try:
                return await self.inner.create(
                    messages, extra_create_args={**extra, "response_format": response_format}, cancellation_token=token)
            except Exception as exc:
                if not _rejected(exc):
                    raise
                note = (f"the endpoint rejected response_format json_schema ({str(exc).splitlines()[0][:160]}); "
                        "falling back to JSON mode with validation")
                logger.warning(note)
                self.strategy = "json_object"
                if self._on_fallback is not None:
                    self._on_fallback(note)
                messages = [*history, UserMessage(content=self.ask_text(), source="user")]
        if self.strategy == "grammar":
            return await self.inner.create(messages, json_output=self.schema.model,
                                           extra_create_args={**extra, "max_tokens": self.schema.max_tokens},
                                           cancellation_token=token)
        if self.strategy == "json_object":
            return await self.inner.create(messages, json_output=True, extra_create_args=extra,
                                           cancellation_token=token)
        return await self.inner.create(messages, extra_create_args=extra, cancellation_token=token)
