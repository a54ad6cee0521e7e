"""open_provider's spec grammar, role checks and the shared token counter."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.models import ROLES, open_provider
from autogen_pse.models.tokens import count_prompt_tokens, count_tokens, tool_schema_text


@pytest.mark.parametrize("spec", ["", "gpt-4o", "openai", "scripted", "local:x", "ollama:llama3", "LOCALHOST"])
def test_unknown_specs_name_the_spec_and_the_three_forms(spec: str) -> None:
    with pytest.raises(UserError) as info:
        open_provider(spec, Settings(_env_file=None))  # type: ignore[call-arg]
    message = str(info.value)
    assert repr(spec) in message
    for form in ("local", "openai:<model>", "scripted:<path.json>"):
        assert form in message


def test_scripted_spec_needs_a_path() -> None:
    with pytest.raises(UserError, match="needs a file path"):
        open_provider("scripted:  ", Settings(_env_file=None))  # type: ignore[call-arg]


async def test_roles_and_client_identity(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"planner": ["a"]}))
    provider = open_provider(f" scripted:{path} ", Settings(_env_file=None))  # type: ignore[call-arg]
    assert ROLES == ("planner", "specialist", "evaluator")
    assert provider.client_for("planner") is provider.client_for("planner")
    assert provider.client_for("planner") is not provider.client_for("evaluator")
    with pytest.raises(ValueError, match="unknown agent role 'critic'"):
        provider.client_for("critic")
    await provider.close()
    await provider.close()  # idempotent


def test_heavy_libraries_stay_unimported() -> None:
    import subprocess

    code = "import sys, autogen_pse.models; print('llama_cpp' in sys.modules, 'openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_count_tokens_is_a_real_tokenizer_without_length_cap() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("unbelievably") > 1  # WordPiece splits rare words
    long_text = "token " * 1000
    assert count_tokens(long_text) == 1000  # the file's 128-token truncation is switched off
    assert count_tokens("Hello") == count_tokens("hello")  # uncased vocabulary


def test_prompt_tokens_include_tool_schemas() -> None:
    from autogen_core.models import SystemMessage, UserMessage

    msgs = [SystemMessage(content="be brief"), UserMessage(content="what is two plus two", source="user")]
    schema = {"name": "calc", "description": "Evaluate arithmetic", "parameters": {"type": "object"}}
    bare = count_prompt_tokens(msgs)
    assert bare == count_tokens("be brief") + count_tokens("what is two plus two")
    assert count_prompt_tokens(msgs, [schema]) == bare + count_tokens(tool_schema_text([schema]))
    assert tool_schema_text([]) == ""
