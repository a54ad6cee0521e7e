"""Sanitize rules of the resume-tailor task: deterministic, logged, and the checks pass afterwards."""

from __future__ import annotations

import pytest

from tests.unit.test_resume_checks import LEDGER_GAPS, PLANTED
from tests.unit.test_resume_support import CV_TEXT, FAITHFUL, FAITHFUL_ALT, context, failing, hook, mutate


def _sanitize(text: str):
    return hook("sanitize").sanitize(context(text))


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_sanitize_then_checks_pass(kind: str) -> None:
    old, new, check, _claim = PLANTED[kind]
    planted = mutate(FAITHFUL, old, new)
    if kind not in LEDGER_GAPS:  # a gap is xfail in test_resume_checks; sanitize still repairs it
        assert check in failing(planted)
    result = _sanitize(planted)
    assert failing(result.artifact) == set(), result.artifact
    assert result.changes, "a repair must be logged"
    for change in result.changes:
        assert change.rule and (change.before or change.after)


@pytest.mark.parametrize(
    "kind,rule,gone,kept",
    [
        ("wrong_number", "drop_unsupported_bullet", "1,500 requests", "Mentored a team of 6 engineers."),
        (
            "invented_employer",
            "drop_invented_entry",
            "Northwind Freight",
            "### Software Developer — Copperleaf Studio",
        ),
        (
            "invented_title",
            "fix_title",
            "Staff Backend Engineer",
            "### Senior Backend Engineer — Brightline Payments Ltd",
        ),
        ("shifted_start", "fix_dates", "Jun 2016", "Jun 2017 – Feb 2020 · Hamburg, Germany"),
        ("invented_degree", "drop_invented_entry", "PhD", "### BSc Mathematics — University of York"),
        ("invented_technology_in_skills", "drop_unsupported_skill", "Rust", "- Languages: Go, Python, SQL\n"),
        ("invented_degree_in_prose", "drop_unsupported_sentence", "MBA", "Led teams of up to 6 engineers"),
        ("inflated_headline", "fix_headline", "Staff Backend", "Senior Backend Engineer · Manchester, UK"),
        (
            "missing_section",
            "add_missing_section",
            "## Technical Skills",
            "## Skills\n\n- Languages: Python, Go",
        ),
    ],
)
def test_rule_effects(kind: str, rule: str, gone: str, kept: str) -> None:
    old, new, _, _ = PLANTED[kind]
    result = _sanitize(mutate(FAITHFUL, old, new))
    assert rule in [c.rule for c in result.changes]
    assert gone not in result.artifact
    assert kept in result.artifact


def test_missing_section_is_inserted_in_order() -> None:
    result = _sanitize(mutate(FAITHFUL, PLANTED["missing_section"][0], ""))
    headings = [line for line in result.artifact.splitlines() if line.startswith("## ")]
    assert headings == ["## Summary", "## Experience", "## Skills", "## Education", "## Certifications"]


def test_faithful_cv_only_gets_heading_normalisation() -> None:
    result = _sanitize(FAITHFUL)
    assert {c.rule for c in result.changes} == {"normalise_heading"}
    assert ("## Work Experience", "## Experience") in [(c.before, c.after) for c in result.changes]
    assert _sanitize(CV_TEXT).changes == []


def test_sanitize_is_deterministic_and_idempotent() -> None:
    text = mutate(FAITHFUL, "1,200 requests", "1,500 requests")
    text = mutate(text, "Harbourside Logistics GmbH", "Northwind Freight GmbH")
    first, second = _sanitize(text), _sanitize(text)
    assert first.artifact == second.artifact
    assert [c.model_dump() for c in first.changes] == [c.model_dump() for c in second.changes]
    assert _sanitize(first.artifact).changes == []


def test_alternative_layout_is_normalised_and_still_passes() -> None:
    result = _sanitize(FAITHFUL_ALT)
    assert "## Experience" in result.artifact and "**EXPERIENCE**" not in result.artifact
    assert failing(result.artifact) == set()


def test_unwrap_fence_preamble_and_verdict() -> None:
    wrapped = "```markdown\n" + FAITHFUL + "```\n"
    result = _sanitize(wrapped)
    assert result.artifact.startswith("# Elena Marsh")
    chatty = "Here is the tailored CV:\n\n" + FAITHFUL + '\n```verdict\n{"outcome": "BLOCKED"}\n```\n'
    result = _sanitize(chatty)
    assert result.artifact.startswith("# Elena Marsh") and "```" not in result.artifact
    assert [c.rule for c in result.changes].count("unwrap") == 2
