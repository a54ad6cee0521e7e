"""Constrained artifact output against an OpenAI-compatible server on 127.0.0.1 (real HTTP, real
autogen client, openai SDK and retries; only the server is fake): the JSON schema travels in
``response_format``; a server that rejects it gets JSON mode with the schema in the prompt."""

from __future__ import annotations

import json

from autogen_core.models import SystemMessage, UserMessage

from autogen_pse.artifacts import parse_object
from autogen_pse.artifacts.constrained import StructuredClient
from autogen_pse.config import Settings
from autogen_pse.models import open_provider
from tests.structured_support import as_json, portfolio, valid_object
from tests.unit.test_models_openai import FakeOpenAI, completion, fake  # noqa: F401 (fixture)
from tests.unit.test_models_openai import settings as openai_settings

MSGS = [SystemMessage(content="You are the specialist."), UserMessage(content="Review it.", source="user")]
USAGE = {"prompt_tokens": 50, "completion_tokens": 20}


async def test_json_schema_travels_in_response_format(fake: FakeOpenAI, settings: Settings) -> None:  # noqa: F811
    _task, prep, schema = portfolio(settings)
    fake.add(200, completion(as_json(valid_object(prep)), usage=USAGE))
    info = json.dumps({"structured_output": True, "json_output": True, "function_calling": True})
    provider = open_provider("openai:tiny-test", settings_for(fake, info))
    assert provider.output_strategy == "json_schema"
    client = StructuredClient(provider.client_for("specialist"), schema, provider.output_strategy)
    result = await client.create(MSGS)
    assert parse_object(schema, str(result.content))
    [request] = fake.requests
    fmt = request["body"]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "PortfolioReview"
    assert fmt["json_schema"]["schema"] == schema.json_schema()
    await provider.close()


async def test_rejected_schema_falls_back_to_json_mode_then_reasks(fake: FakeOpenAI,  # noqa: F811
                                                                    settings: Settings) -> None:
    _task, prep, schema = portfolio(settings)
    fake.add(400, {"error": {"message": "response_format json_schema is not supported", "type": "invalid_request"}})
    fake.add(200, completion('{"summary": "Cut off', usage=USAGE))  # JSON mode, but truncated
    fake.add(200, completion(as_json(valid_object(prep)), usage=USAGE))  # the re-ask
    info = json.dumps({"structured_output": True, "json_output": True, "function_calling": True})
    provider = open_provider("openai:tiny-test", settings_for(fake, info))
    notes: list[str] = []
    client = StructuredClient(provider.client_for("specialist"), schema, provider.output_strategy,
                              on_fallback=notes.append)
    result = await client.create(MSGS)
    assert parse_object(schema, str(result.content))
    assert client.strategy == "json_object" and notes and "falling back to JSON mode" in notes[0]
    first, second, third = (r["body"] for r in fake.requests)
    assert first["response_format"]["type"] == "json_schema"
    assert second["response_format"] == {"type": "json_object"}
    assert "must match this JSON schema" in second["messages"][-1]["content"]  # the schema is in the prompt
    assert "not valid JSON" in third["messages"][-2]["content"]  # the re-ask carries the error
    assert result.usage.prompt_tokens == 100  # usage of both attempts
    await provider.close()


def settings_for(server: FakeOpenAI, info: str) -> Settings:
    return openai_settings(server.url, openai_model_info=info, openai_max_retries=0)
