"""Issue 10, defects 7 and 8 (verdict part): the verdict parser's edge cases, each decided and
documented in docs/cycle-loop.md ("Reading the verdict")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.artifact import message_artifact
from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, run_task
from autogen_pse.verdict import Outcome, Reason, VerdictParseError, parse_trailer, trailer_start
from tests.scripting import PLAN, RUN_TOOLS, save, write_files

PARTIAL = {"outcome": "PARTIAL", "reason": "FORMAT_ISSUE", "issues": ["wrap the code in a fence"], "summary": "s"}
PASS = {"outcome": "PASS", "reason": "OK", "issues": [], "summary": "fine"}


def block(data: dict[str, Any] | str, fence: str = "```", nl: str = "\n") -> str:
    body = data if isinstance(data, str) else json.dumps(data)
    return f"Reviewed.{nl}{fence}verdict{nl}{body}{nl}{fence}"


# --- accepted although unusual (well-formed) --------------------------------------------------

@pytest.mark.parametrize("text", [
    block(PASS, nl="\r\n"),                              # CRLF line endings
    block(PASS, nl="\r\n") + "\r\n",
    block(PASS) + "\u200b",                              # a trailing zero-width space
    block(PASS) + "\n\ufeff \u2060\u200d",               # other invisible tails
    block(PASS, fence="````"),                           # a four-backtick fence
    block(PASS, fence="`````"),
    "Reviewed.\n````verdict\n" + json.dumps(PASS) + "\n`````",  # closed by a longer fence
])
def test_well_formed_variants_are_accepted(text: str) -> None:
    verdict = parse_trailer(text)
    assert (verdict.outcome, verdict.reason) == (Outcome.PASS, Reason.OK)
    assert message_artifact(text) == "Reviewed."  # the whole trailer is cut, whatever its fence


def test_a_partial_whose_issues_quote_a_code_fence_keeps_its_issues() -> None:
    issues = ["wrap the code in ```python``` fences", "close the ``` after the table", "```verdict is not a heading"]
    verdict = parse_trailer(block({**PARTIAL, "issues": issues}))
    assert verdict.outcome is Outcome.PARTIAL and verdict.issues == issues


# --- refused (doubtful: read as PASS before) ---------------------------------------------------

@pytest.mark.parametrize(("text", "why"), [
    ("<think>The tests pass so\n" + block(PASS), "unclosed <think>"),
    ("<think>draft</think>\nok <think> again " + block(PASS), "unclosed <think>"),
    (block('{"outcome": "FAIL", "reason": "TEST_FAILURE", "issues": ["x y"], "outcome": "PASS"}'), "repeats the key"),
    (block('{"outcome": "PASS", "reason": "OK", "issues": [], "summary": "a", "summary": "b"}'), "repeats the key"),
    (block({**PASS, "reason": "TEST_FAILURE"}), "PASS needs reason OK"),
    (block({**PASS, "reason": "FORMAT_ISSUE"}), "PASS needs reason OK"),
    (block({**PASS, "issues": ["the tests for duplicates fail"]}), "PASS needs reason OK and no issues"),
    (block({**PARTIAL, "reason": "OK"}), "reason OK goes with PASS only"),
    (block({**PARTIAL, "issues": ["1", "2"]}), "says nothing"),
    (block({**PARTIAL, "issues": ["fix the table", "- 3."]}), "issue 2"),
    (block(PASS, fence="````").removesuffix("`"), "does not end with"),  # closed by a shorter fence
])
def test_doubtful_verdicts_are_malformed(text: str, why: str) -> None:
    with pytest.raises(VerdictParseError, match=re.escape(why)):
        parse_trailer(text)
    assert trailer_start(text) is None


def test_a_closed_think_block_before_the_verdict_is_fine() -> None:
    assert parse_trailer("<think>hmm</think>\nAll good.\n" + block(PASS)).outcome is Outcome.PASS


async def test_a_self_contradicting_pass_is_asked_again_then_counts_as_format_issue(settings: Settings,
                                                                                   tmp_path: Path) -> None:
    contradictory = block({**PASS, "reason": "FORMAT_ISSUE", "issues": ["1"]})
    doc = {"planner": [PLAN], "specialist": [write_files(), "Both files are written."],
           "evaluator": [RUN_TOOLS, contradictory, contradictory]}
    s = settings.model_copy(update={"max_cycles": 1})
    result = await run_task(RunRequest(task="demo", model=f"scripted:{save(doc, tmp_path / 's.json')}"), s)
    trace = json.loads((Path(result.trace_dir) / "trace.json").read_text())
    first = trace["cycles"][0]
    assert first["verdict_origin"] == "format" and first["verdict"]["outcome"] == "PARTIAL"
    assert first["verdict"]["reason"] == "FORMAT_ISSUE" and result.verdict != "PASS"
