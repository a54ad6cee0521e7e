"""The scripted provider: file format, per-role cursors, faults through the real retry path."""

from __future__ import annotations

import json
from pathlib import Path

import openai
import pytest
from autogen_core import FunctionCall
from autogen_core.models import SystemMessage, UserMessage

from autogen_pse.config import Settings
from autogen_pse.errors import InputFileError, ModelError, UserError
from autogen_pse.models import open_provider
from autogen_pse.models.scripted import ScriptedProvider, fault_exception, load_script
from autogen_pse.models.tokens import count_tokens
from autogen_pse.verdict import parse_trailer

TRAILER = '```verdict\n{"outcome": "PASS", "reason": "OK", "issues": [], "summary": "fine"}\n```'
MSGS = [
    SystemMessage(content="You are the planner."),
    UserMessage(content="Summarise the data.", source="user"),
]


def settings(**kw: object) -> Settings:
    base = {"retry_base_delay": 0.0, "retry_max_delay": 0.0, "openai_max_retries": 3}
    base.update(kw)
    return Settings(**base)  # type: ignore[arg-type]


def write(tmp_path: Path, data: object, name: str = "script.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def provider(tmp_path: Path, data: object, **kw: object) -> ScriptedProvider:
    p = open_provider(f"scripted:{write(tmp_path, data)}", settings(**kw))
    assert isinstance(p, ScriptedProvider)
    return p


async def test_name_and_capabilities(tmp_path: Path) -> None:
    p = provider(tmp_path, {"planner": ["x"]})
    assert p.name == "scripted:script.json"
    assert p.supports_tools is True
    info = p.client_for("planner").model_info
    assert info["function_calling"] is True
    assert (info["json_output"], info["structured_output"], info["vision"]) == (False, False, False)
    assert info["family"] == "unknown"


async def test_each_role_has_its_own_cursor_across_rebuilds(tmp_path: Path) -> None:
    p = provider(tmp_path, {"planner": ["p0", "p1"], "specialist": ["s0"], "evaluator": ["e0", "e1"]})
    assert (await p.client_for("planner").create(MSGS)).content == "p0"
    assert (await p.client_for("evaluator").create(MSGS)).content == "e0"
    assert (await p.client_for("specialist").create(MSGS)).content == "s0"
    # An agent rebuilt next cycle asks client_for again: the cursor persists.
    assert (await p.client_for("planner").create(MSGS)).content == "p1"
    assert (await p.client_for("evaluator").create(MSGS)).content == "e1"
    assert p.cursors == {"planner": 2, "specialist": 1, "evaluator": 2}


async def test_every_reply_form(tmp_path: Path) -> None:
    data = {
        "specialist": [
            "plain text",
            {"content": "object text\n" + TRAILER},
            {
                "tool_calls": [
                    {"name": "query_csv", "arguments": {"sql": "SELECT 1", "limit": 5}},
                    {"name": "ls"},
                ]
            },
        ]
    }
    client = provider(tmp_path, data).client_for("specialist")
    first = await client.create(MSGS)
    assert (first.content, first.finish_reason) == ("plain text", "stop")
    second = await client.create(MSGS)
    assert parse_trailer(second.content).outcome.value == "PASS"
    third = await client.create(MSGS)
    assert third.finish_reason == "function_calls"
    assert isinstance(third.content, list) and all(isinstance(c, FunctionCall) for c in third.content)
    call0, call1 = third.content
    assert call0.name == "query_csv" and json.loads(call0.arguments) == {"sql": "SELECT 1", "limit": 5}
    assert call1.name == "ls" and json.loads(call1.arguments) == {}
    assert call0.id != call1.id and call0.id


async def test_usage_counts_real_tokens_of_prompt_tools_and_reply(tmp_path: Path) -> None:
    reply = "The answer is forty-two."
    client = provider(tmp_path, {"planner": [reply, reply]}).client_for("planner")
    plain = await client.create(MSGS)
    expected_prompt = count_tokens("You are the planner.") + count_tokens("Summarise the data.")
    assert plain.usage.prompt_tokens == expected_prompt
    assert plain.usage.completion_tokens == count_tokens(reply) > 0
    schema = {"name": "read_file", "description": "Read a file", "parameters": {"type": "object"}}
    with_tools = await client.create(MSGS, tools=[schema])
    assert with_tools.usage.prompt_tokens > expected_prompt  # tool schemas cost prompt tokens
    total = client.total_usage()
    assert total.prompt_tokens == plain.usage.prompt_tokens + with_tools.usage.prompt_tokens


async def test_exhausted_list_raises_model_error(tmp_path: Path) -> None:
    client = provider(tmp_path, {"planner": ["only"]}).client_for("planner")
    await client.create(MSGS)
    with pytest.raises(ModelError) as info:
        await client.create(MSGS)
    assert str(info.value) == (
        "scripted model script.json: no reply left for planner (used 1); add replies to the file"
    )
    with pytest.raises(ModelError, match="no reply left for evaluator \\(used 0\\)"):
        await provider(tmp_path, {"planner": []}).client_for("evaluator").create(MSGS)


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"judge": ["x"]}, "'judge'"),
        ({"planner": "x"}, "'planner'"),
        ({"evaluator": ["a", "b", 3]}, "'evaluator[2]'"),
        ({"evaluator": ["a", {"content": 1}]}, "'evaluator[1].content'"),
        ({"planner": [{"content": "a", "error": "server"}]}, "'planner[0]'"),
        ({"planner": [{"error": "meteor"}]}, "'planner[0].error'"),
        ({"planner": [{"error": "rate_limit", "retry_after": -1}]}, "'planner[0].retry_after'"),
        ({"specialist": [{"tool_calls": []}]}, "'specialist[0].tool_calls'"),
        (
            {"specialist": [{"tool_calls": [{"name": "x", "arguments": [1]}]}]},
            "'specialist[0].tool_calls[0].arguments'",
        ),
        ({"specialist": [{"tool_calls": [{"arguments": {}}]}]}, "'specialist[0].tool_calls[0]'"),
        ({"specialist": [{"text": "hi"}]}, "'specialist[0]'"),
        (["not", "an", "object"], "'$'"),
    ],
)
def test_invalid_files_name_file_and_json_path(tmp_path: Path, data: object, where: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(InputFileError) as info:
        open_provider(f"scripted:{path}", settings())
    assert isinstance(info.value, UserError)
    assert str(path) in str(info.value)
    assert where in str(info.value)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, '{"planner": ["a",]}')
    with pytest.raises(UserError, match=r"script\.json: not valid JSON \(line 1, column"):
        load_script(path)
    with pytest.raises(UserError, match="scripted model file not found"):
        open_provider(f"scripted:{tmp_path / 'nope.json'}", settings())


def test_relative_path_falls_back_to_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fixtures").mkdir()
    write(tmp_path / "fixtures", {"planner": ["x"]}, "demo_pass.json")
    monkeypatch.chdir(tmp_path / "fixtures")  # not where the relative path points
    p = open_provider("scripted:fixtures/demo_pass.json", settings(project_root=tmp_path))
    assert p.name == "scripted:demo_pass.json"


@pytest.mark.parametrize(
    ("kind", "cls"),
    [
        ("connection", openai.APIConnectionError),
        ("timeout", openai.APITimeoutError),
        ("rate_limit", openai.RateLimitError),
        ("server", openai.InternalServerError),
    ],
)
def test_fault_replies_are_real_openai_exceptions(kind: str, cls: type) -> None:
    exc = fault_exception(kind)
    assert type(exc) is cls
    if kind == "rate_limit":
        assert exc.status_code == 429 and exc.response.headers["retry-after"] == "0"  # type: ignore[attr-defined]


async def test_faults_are_retried_and_the_cursor_moves_past_them(tmp_path: Path) -> None:
    data = {
        "planner": [
            {"error": "connection"},
            {"error": "timeout"},
            {"error": "rate_limit"},
            {"error": "server"},
            "finally",
        ]
    }
    p = provider(tmp_path, data, openai_max_retries=4)
    client = p.client_for("planner")
    seen: list[str] = []
    client.on_retry = lambda attempt, kind, delay: seen.append(kind)  # set by the cycle loop
    result = await client.create(MSGS)
    assert result.content == "finally"
    assert client.retries == 4
    assert seen == ["connection error", "timeout", "rate limit (HTTP 429)", "server error (HTTP 500)"]
    assert p.cursors["planner"] == 5


async def test_faults_exhaust_retries_into_model_error(tmp_path: Path) -> None:
    data = {"evaluator": [{"error": "server"}] * 3 + ["too late"]}
    p = provider(tmp_path, data, openai_max_retries=2)
    with pytest.raises(ModelError, match=r"^model call failed after 3 attempts: server error \(HTTP 500\)"):
        await p.client_for("evaluator").create(MSGS)
    assert p.cursors["evaluator"] == 3
    assert (await p.client_for("evaluator").create(MSGS)).content == "too late"


async def test_scripted_retry_after_is_honoured(tmp_path: Path) -> None:
    data = {"planner": [{"error": "rate_limit", "retry_after": 0.02}, "ok"]}
    p = provider(tmp_path, data, retry_max_delay=5.0, retry_base_delay=0.0)
    client = p.client_for("planner")
    assert (await client.create(MSGS)).content == "ok"
    assert client.waits == [pytest.approx(0.02)]


async def test_stream_yields_text_then_result(tmp_path: Path) -> None:
    client = provider(tmp_path, {"planner": ["streamed"]}).client_for("planner")
    chunks = [c async for c in client.create_stream(MSGS)]
    assert chunks[0] == "streamed"
    assert chunks[-1].content == "streamed"  # type: ignore[union-attr]


async def test_assistant_agent_runs_a_tool_call_round_trip(tmp_path: Path) -> None:
    """The scripted client works under a real AutoGen AssistantAgent (tool call → result → text)."""
    from autogen_agentchat.agents import AssistantAgent
    from autogen_core.tools import FunctionTool

    seen: list[str] = []

    def lookup(symbol: str) -> str:
        """Look up a price."""
        seen.append(symbol)
        return f"{symbol}=223.02"

    data = {
        "specialist": [
            {"tool_calls": [{"name": "lookup", "arguments": {"symbol": "AAPL"}}]},
            "AAPL is 223.02",
        ]
    }
    p = provider(tmp_path, data)
    agent = AssistantAgent(
        "specialist",
        model_client=p.client_for("specialist"),
        tools=[FunctionTool(lookup, description="Look up a price")],
        reflect_on_tool_use=True,
    )
    result = await agent.run(task="Price of AAPL?")
    assert seen == ["AAPL"]
    assert result.messages[-1].content == "AAPL is 223.02"
    await p.close()


def test_examples_in_the_docs_are_valid_scripted_files(tmp_path: Path) -> None:
    import re

    doc = Path(__file__).resolve().parents[2] / "docs" / "scripted-model.md"
    blocks = re.findall(r"```json\n(.*?)\n```\n", doc.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 3
    for i, block in enumerate(blocks):
        script = load_script(write(tmp_path, block, f"doc{i}.json"))
        assert script.replies
    evaluator = load_script(write(tmp_path, blocks[0], "verdict.json")).replies["evaluator"][0]
    assert parse_trailer(evaluator.content or "").outcome.value == "PASS"
