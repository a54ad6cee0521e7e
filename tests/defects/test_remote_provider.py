"""Issue 10, defect 1: PII redaction (and pricing) ask the opened provider whether it is remote
(priced), never how the model spec was spelled."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from autogen_pse.config import Settings
from autogen_pse.models import open_provider
from autogen_pse.models.base import ModelProvider
from autogen_pse.runner import RunRequest, run_task
from tests.hardening.helpers import ROOT, SCRIPTED, FakeOpenAI, completion
from tests.structured_support import object_reply

CV = (ROOT / "tasks" / "resume-tailor" / "data" / "cv.md").read_text()
EMAIL = "elena.marsh@example.com"
PHONE = "+44 7700 900123"
SPELLINGS = ["OPENAI:gpt-4o-mini", "OpenAI:gpt-4o-mini", " openai:gpt-4o-mini", "openai : gpt-4o-mini"]


def _answer(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    system = str(body["messages"][0]["content"])
    if system.startswith("You are the specialist"):
        found = sorted(set(re.findall(r"\[\[(?:EMAIL|PHONE)_\d+\]\]", json.dumps(body))))
        text = CV
        for p in found:
            text = text.replace(EMAIL if "EMAIL" in p else PHONE, p)
        obj = object_reply(body)  # a structured run: the endpoint returns the tailored-CV object
        return 200, completion(obj if obj is not None else text)
    if system.startswith("You are the planner"):
        return 200, completion("1. Lead with the payments work.")
    verdict = {"outcome": "PASS", "reason": "OK", "issues": [], "summary": "Faithful."}
    return 200, completion("Checked.\n```verdict\n" + json.dumps(verdict) + "\n```")


@pytest.mark.parametrize("spec", SPELLINGS)
async def test_any_spelling_of_openai_redacts_pii_before_it_leaves(spec: str, settings: Settings) -> None:
    with FakeOpenAI(_answer) as fake:
        s = settings.model_copy(update={"openai_base_url": fake.url, "openai_api_key": SecretStr("sk-test"),
                                        "max_cycles": 1})
        result = await run_task(RunRequest(task="resume-tailor", model=spec), s)
    assert result.status == "finished", result.error
    sent = b"".join(r["raw"] for r in fake.requests)
    assert fake.requests and EMAIL.encode() not in sent and b"7700 900123" not in sent
    assert b"[[EMAIL_1]]" in sent
    assert EMAIL in Path(result.artifact_path or "").read_text()  # restored in the final artifact only
    assert result.usage["cost"] is not None and result.usage["cost"] > 0  # priced like openai:gpt-4o-mini


@pytest.mark.parametrize("spec", SPELLINGS)
def test_the_opened_provider_says_it_is_remote_and_priced(spec: str, settings: Settings) -> None:
    provider = open_provider(spec, settings.model_copy(update={"openai_api_key": SecretStr("sk-test")}))
    assert (provider.remote, provider.priced, provider.name) == (True, True, "openai:gpt-4o-mini")


def test_local_kinds_are_neither_remote_nor_priced(settings: Settings) -> None:
    provider = open_provider(f" SCRIPTED:{SCRIPTED / 'demo_pass.json'}", settings)
    assert (provider.remote, provider.priced) == (False, False)


def test_a_provider_that_does_not_say_is_treated_as_remote() -> None:
    class Plugin(ModelProvider):
        name = "acme:x"
        supports_tools = False

        def _make_client(self, role: str) -> Any:
            raise AssertionError

    assert Plugin().remote is True and Plugin().priced is True


async def test_a_free_provider_costs_zero_whatever_its_name(settings: Settings,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from autogen_pse.models import scripted

    orig = scripted.ScriptedProvider.__init__

    def init(self: Any, *a: Any, **k: Any) -> None:
        orig(self, *a, **k)
        self.name = "acme:unpriced"

    monkeypatch.setattr(scripted.ScriptedProvider, "__init__", init)
    result = await run_task(RunRequest(task="demo", model=f"scripted:{SCRIPTED / 'demo_pass.json'}"), settings)
    assert result.usage["cost"] == 0.0
