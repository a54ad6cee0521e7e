"""resume-tailor's structured artifact end to end (the LLM is the only fake): a scripted object is
rendered into a tailored CV whose checks pass; an invalid one is asked for once more, then the cycle
is PARTIAL / FORMAT_ISSUE; with a remote model (an OpenAI-compatible server on 127.0.0.1) the schema
travels in ``response_format`` and no contact detail of the rendered CV leaves the machine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, RunResult, run_task
from tests.scripting import review, save
from tests.structured_support import as_json, resume, resume_object
from tests.unit.test_models_openai import KEY, FakeOpenAI, completion, fake  # noqa: F401 (fixture)

EMAIL, PHONE = "elena.marsh@example.com", "7700 900123"


async def _run(settings: Settings, tmp_path: Path, doc: dict[str, Any], cycles: int = 2) -> RunResult:
    path = save(doc, tmp_path / "script.json")
    return await run_task(RunRequest(task="resume-tailor", model=f"scripted:{path}", max_cycles=cycles),
                          settings.model_copy(update={"artifact_mode": "structured"}))


def _cycles(result: RunResult) -> list[dict[str, Any]]:
    return list(json.loads((Path(result.trace_dir) / "trace.json").read_text())["cycles"])


async def test_scripted_object_becomes_a_verified_tailored_cv(settings: Settings, tmp_path: Path) -> None:
    _task, prep, _schema = resume(settings)
    doc = {"planner": ["1. Lead with payments and Kubernetes."], "specialist": [as_json(resume_object(prep))],
           "evaluator": [review("PASS")]}
    result = await _run(settings, tmp_path, doc)
    assert (result.verdict, result.cycles, result.verified, result.artifact_mode) == ("PASS", 1, True, "structured")
    text = Path(result.artifact_path).read_text()
    assert [x for x in text.splitlines() if x.startswith("## ")] == [
        "## Summary", "## Experience", "## Skills", "## Education", "## Certifications"]
    assert "Mar 2020 – Present · Manchester, UK" in text and "{{fact:" not in text
    assert all(c["ok"] for c in result.checks if c["severity"] == "error"), result.checks


async def test_invalid_object_is_reasked_once_then_format_issue(settings: Settings, tmp_path: Path) -> None:
    _task, prep, _schema = resume(settings)
    invented = resume_object(prep)
    invented["experience"]["exp4"] = {"bullets": []}  # a role the CV does not have
    doc = {"planner": ["1. Fill the object."],
           "specialist": ["# Elena Marsh\n\nA CV typed as prose.", as_json(invented)], "evaluator": []}
    result = await _run(settings, tmp_path, doc, cycles=1)
    [cycle] = _cycles(result)
    assert (cycle["verdict"]["outcome"], cycle["verdict"]["reason"], cycle["verdict_origin"]) == (
        "PARTIAL", "FORMAT_ISSUE", "format")
    assert "experience.exp4" in cycle["verdict"]["issues"][0]
    events = [json.loads(x) for x in (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()]
    assert [e["payload"]["role"] for e in events if e["kind"] == "model_call"] == ["planner", "specialist",
                                                                                   "specialist"]
    # an invalid object is never an artifact (what sanitize rebuilds from the CV alone stays unverified)
    assert (Path(result.trace_dir) / "artifact.raw.md").read_text() == "" and not result.verified


async def test_remote_model_gets_the_schema_and_never_the_contact_details(fake: FakeOpenAI,  # noqa: F811
                                                                          settings: Settings) -> None:
    _task, prep, _schema = resume(settings)
    usage = {"prompt_tokens": 50, "completion_tokens": 20}
    fake.add(200, completion("1. Lead with payments.", usage=usage))
    fake.add(200, completion(as_json(resume_object(prep)), usage=usage))
    fake.add(200, completion(review("PARTIAL", "FORMAT_ISSUE", ["Shorten the summary."]), usage=usage))
    fake.add(200, completion("1. Shorten the summary.", usage=usage))
    fake.add(200, completion(as_json(resume_object(prep)), usage=usage))
    fake.add(200, completion(review("PASS"), usage=usage))
    info = json.dumps({"structured_output": True, "json_output": True, "function_calling": False})
    remote = settings.model_copy(update={"openai_base_url": fake.url, "openai_api_key": SecretStr(KEY), "openai_timeout": 5.0,
                                         "openai_max_retries": 0, "openai_model_info": info})
    result = await run_task(RunRequest(task="resume-tailor", model="openai:tiny-test", max_cycles=2), remote)
    assert (result.verdict, result.cycles, result.artifact_mode) == ("PASS", 2, "structured")
    bodies = [r["body"] for r in fake.requests]
    assert len(bodies) == 6
    fmt = bodies[1]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "TailoredCv"
    sent = json.dumps(bodies, ensure_ascii=False)
    assert "## Experience" in json.dumps(bodies[2], ensure_ascii=False)  # the evaluator saw the rendered CV
    assert EMAIL not in sent and PHONE not in sent and "[[EMAIL_1]]" in sent
    text = Path(result.artifact_path).read_text()
    assert EMAIL in text and "[[EMAIL_" not in text  # the artifact file holds the real values
