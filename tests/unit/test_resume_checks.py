"""Claim-level checks of the resume-tailor task: planted fabrications are caught, faithful CVs pass.

The task's checks.py verifies the entries (employers, titles, degrees, entries) and the sections;
figures, dates and technologies are verified by the claim ledger from evidence.py (checks
``claims`` — contradicted — and ``unverifiable`` — no source; both errors for this task).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.facts import render
from autogen_pse.registry import load_task
from tests.unit.test_resume_support import (
    CV_TEXT,
    ERROR_CHECKS,
    FAITHFUL,
    FAITHFUL_ALT,
    LEDGER_CHECKS,
    ROOT,
    checker,
    context,
    failing,
    hook,
    mutate,
    prepared,
    run_checks,
)

# --- faithful CVs: nothing flagged -------------------------------------------------------------


def _subset() -> str:
    """Only the two most recent roles, two bullets each, skills trimmed, sections reordered."""
    return """# Elena Marsh

Senior Backend Engineer · Manchester, UK

## Skills

Go, Python, PostgreSQL, Kafka, Kubernetes, AWS, Terraform

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present

- Built an idempotent Go payments API: 1200 requests per second at peak.
- Consolidated PostgreSQL clusters, cutting cloud spend by 35 percent ($420k a year).

### Backend Engineer — Harbourside Logistics
Jun 2017 – Feb 2020

- Replaced nightly batch jobs with Kafka streams (delays down from 24 hours to 15 minutes).
- Processed 2 million events per day in a Python shipment-tracking service.

## Summary

Engineer with 9 years in Python and Go who has mentored six engineers.

## Education

- MSc Computer Science, University of Leeds, 2015

## Certifications

- Certified Kubernetes Application Developer (CKAD) (2022)
"""


@pytest.mark.parametrize("name", ["source_cv", "faithful", "alternative_layout", "subset"])
def test_faithful_cvs_pass_every_check(name: str) -> None:
    artifact = {
        "source_cv": CV_TEXT,
        "faithful": FAITHFUL,
        "alternative_layout": FAITHFUL_ALT,
        "subset": _subset(),
    }[name]
    results = run_checks(artifact)
    bad = {n: r.detail for n, r in results.items() if not r.ok and r.severity == "error"}
    assert bad == {}
    for n in ("employers", "titles", "entries", "claims"):
        assert results[n].claims_checked > 0, n
        assert results[n].claims_supported == results[n].claims_checked
        assert results[n].unsupported == []
    assert results["unverifiable"].ok and results["unverifiable"].unsupported == []
    # the figures, dates and technologies were read (supported), not skipped
    ledger = checker().ledger
    assert ledger is not None and ledger.grounding == 1.0
    kinds = {f.kind for c in ledger.claims for f in c.findings if f.status == "supported"}
    assert {"figure", "date"} <= kinds
    assert any(e.startswith("tech:") for c in ledger.claims for e in c.entities)


def test_check_names_and_severities() -> None:
    results = list(hook("checks").checks(context(FAITHFUL)))
    assert [r.name for r in results] == [*ERROR_CHECKS, "keywords"]
    assert all(r.severity == "error" for r in results[:-1])
    assert results[-1].severity == "warning"
    # a run appends the claim ledger's checks; an unverifiable claim is an error for this task
    results = list(run_checks(FAITHFUL).values())
    assert [r.name for r in results] == [*ERROR_CHECKS, "keywords", *LEDGER_CHECKS]
    assert [r.severity for r in results[-2:]] == ["error", "error"]


def test_fact_references_render_to_supported_claims() -> None:
    text = mutate(
        FAITHFUL,
        "### Backend Engineer — Harbourside Logistics GmbH\nJun 2017 – Feb 2020",
        "### {{fact:exp2.title}} — {{fact:exp2.employer}}\n{{fact:exp2.start}} – {{fact:exp2.end}}",
    )
    text = mutate(text, "cut infrastructure costs by 35%", "cut infrastructure costs by {{fact:exp1.n5}}")
    rendered, unknown = render(text, prepared().facts)
    assert unknown == []
    assert "Harbourside Logistics GmbH\nJun 2017 – Feb 2020" in rendered
    assert failing(rendered) == set()


# --- planted fabrications: each caught by the right check -------------------------------------

PLANTED = {
    # kind: (old, new, check that must fail, text that must be listed as unsupported); figures, dates
    # and technologies are the claim ledger's (check "claims"), entries and sections checks.py's
    "wrong_number": ("1,200 requests", "1,500 requests", "claims", "1,500"),
    "wrong_percentage": ("by 60% with Redis", "by 70% with Redis", "claims", "70%"),
    "figure_of_another_unit": ("9 years of experience", "12 years of experience", "claims", "12 years"),
    "figure_from_another_role": ("rose from 40% to 85%", "rose from 40% to 80%", "claims", "80%"),
    "repeated_figure": ("from 45 minutes to 6 minutes", "from 45 minutes to 45 minutes", "claims", "45 minutes"),
    "wrong_money": ("$420,000 a year", "$2M a year", "claims", "$2M"),
    "invented_employer": (
        "Harbourside Logistics GmbH",
        "Northwind Freight GmbH",
        "employers",
        "Northwind Freight GmbH",
    ),
    "invented_employer_in_prose": (
        "building payment platforms at\nBrightline Payments.",
        "building payment platforms at\nGlobex Corporation.",
        "employers",
        "Globex Corporation",
    ),
    "invented_title": (
        "### Senior Backend Engineer — Brightline",
        "### Staff Backend Engineer — Brightline",
        "titles",
        "Staff Backend Engineer",
    ),
    "inflated_headline": (
        "Senior Backend Engineer · Manchester, UK",
        "Staff Backend Engineer · Manchester, UK",
        "titles",
        "Staff Backend Engineer",
    ),
    "shifted_start": ("Jun 2017 – Feb 2020", "Jun 2016 – Feb 2020", "claims", "Jun 2016"),
    "shifted_end_within_cv_dates": (
        "Sep 2015 – May 2017",
        "Sep 2015 – Jun 2017",
        "claims",
        "Jun 2017",
    ),
    "extended_to_present": ("Jun 2017 – Feb 2020", "Jun 2017 – Present", "claims", "Present"),
    "wrong_education_year": (
        "### BSc Mathematics — University of York\n2014",
        "### BSc Mathematics — University of York\n2013",
        "claims",
        "2013",
    ),
    "invented_degree": (
        "### MSc Computer Science",
        "### PhD Computer Science",
        "degrees",
        "PhD Computer Science",
    ),
    "invented_degree_in_prose": ("Led teams of up", "Holds an MBA. Led teams of up", "degrees", "MBA"),
    "invented_institution": (
        "University of York",
        "Imperial College London",
        "degrees",
        "Imperial College London",
    ),
    "invented_technology_in_skills": (
        "- Languages: Go, Python, SQL",
        "- Languages: Go, Python, SQL, Rust",
        "claims",
        "Rust",
    ),
    "invented_technology_in_bullet": (
        "payments API in Go",
        "payments API in Go and gRPC",
        "claims",
        "gRPC",
    ),
    "invented_skill_outside_vocabulary": (
        "Terraform, Docker",
        "Terraform, Docker, Zorblax Mesh",
        "unverifiable",  # outside every vocabulary: no source says anything about it
        "Zorblax Mesh",
    ),
    "invented_experience_entry": (
        "### Software Developer — Copperleaf Studio",
        "### Data Engineer — Initech Ltd\nJan 2014 – Aug 2015\n\n- Built ETL jobs.\n\n"
        "### Software Developer — Copperleaf Studio",
        "entries",
        "Data Engineer — Initech Ltd",
    ),
    "invented_role_at_real_employer": (
        "### Software Developer — Copperleaf Studio",
        "### Intern — Copperleaf Studio\nJan 2015 – Aug 2015\n\n- Tested apps.\n\n"
        "### Software Developer — Copperleaf Studio",
        "entries",
        "Intern — Copperleaf Studio",
    ),
    "invented_education_entry": (
        "### BSc Mathematics — University of York\n2014",
        "### BSc Mathematics — University of York\n2014\n\n### MBA — London Business School\n2019",
        "entries",
        "MBA — London Business School",
    ),
    "invented_certification": (
        "- AWS Certified Solutions Architect – Associate (2021)",
        "- AWS Certified Solutions Architect – Associate (2021)\n"
        "- Google Professional Cloud Architect (2021)",
        "entries",
        "Google Professional Cloud Architect (2021)",
    ),
    "missing_section": (
        "## Technical Skills\n\n- Languages: Go, Python, SQL\n- Data and streaming: PostgreSQL, "
        "Kafka, Redis\n- Platform: Kubernetes, AWS (EC2, S3, RDS), Terraform, Docker\n\n",
        "",
        "sections",
        "missing section Skills",
    ),
}


# Fabrications the claim ledger does not catch yet (the old dates check did): xfail(strict), so a
# ledger that learns them turns these into failures to un-mark.
LEDGER_GAPS: dict[str, str] = {}


def planted_kinds() -> list:
    return [pytest.param(k, marks=pytest.mark.xfail(reason=LEDGER_GAPS[k], strict=True)) if k in LEDGER_GAPS
            else k for k in sorted(PLANTED)]


def _changed_line(before: str, after: str) -> int:
    return next(n for n, (a, b) in enumerate(zip(before.splitlines(), after.splitlines(), strict=False), 1)
                if a != b)


@pytest.mark.parametrize("kind", planted_kinds())
def test_planted_fabrication_is_caught(kind: str) -> None:
    old, new, check, claim = PLANTED[kind]
    text = mutate(FAITHFUL, old, new)
    results = run_checks(text)
    result = results[check]
    assert not result.ok, f"{kind}: {check} passed"
    assert result.severity == "error"
    if check in LEDGER_CHECKS:
        # the ledger lists the planted sentence by its line, and its detail names what is wrong
        line = _changed_line(FAITHFUL, text)
        assert any(u.startswith(f"line {line}: ") and claim in u for u in result.unsupported), result.unsupported
        assert claim in result.detail
        if check == "claims":
            assert result.claims_supported < result.claims_checked
        return
    assert any(u.startswith(claim) for u in result.unsupported), result.unsupported
    assert result.claims_supported < result.claims_checked
    assert claim.split(" (")[0] in result.detail or check == "sections"


def test_planted_error_in_alternative_layout() -> None:
    text = mutate(FAITHFUL_ALT, "(Jun 2017 – Feb 2020)", "(Jun 2017 – Feb 2021)")
    text = mutate(
        text,
        "**Senior Backend Engineer**, Brightline Payments",
        "**Head of Engineering**, Brightline Payments",
    )
    text = mutate(text, "Software Developer at Copperleaf Studio", "Software Developer at Copperleaf Games")
    assert {"claims", "titles", "employers", "entries"} <= failing(text)  # claims: the Feb 2021 end date


def test_detail_names_line_and_what_the_cv_says() -> None:
    r = run_checks(mutate(FAITHFUL, "Jun 2017 – Feb 2020", "Jun 2016 – Feb 2020"))["claims"]
    line = FAITHFUL.splitlines().index("Jun 2017 – Feb 2020 · Hamburg, Germany") + 1
    assert f"line {line}" in r.detail
    assert "Jun 2016 is not a date of exp2 (exp2.start = Jun 2017, exp2.end = Feb 2020)" in r.detail
    r = run_checks(
        mutate(FAITHFUL, "### Senior Backend Engineer — Brightline", "### Lead Engineer — Brightline")
    )
    assert "the CV's title at Brightline Payments Ltd is 'Senior Backend Engineer'" in r["titles"].detail


def test_figures_are_scoped_to_their_role() -> None:
    r = run_checks(mutate(FAITHFUL, "rose from 40% to 85%", "rose from 40% to 80%"))["claims"]
    # 80% is a figure of the Harbourside role (exp2), not of the Copperleaf one (exp3)
    assert "80% does not match exp3 coverage" in r.detail and "80% is exp2." in r.detail
    merged = mutate(
        FAITHFUL,
        "- Cut p95 API latency by 60% with Redis caching and PostgreSQL query tuning.\n"
        "- Brought in Terraform, covering 80% of the AWS estate.",
        "- Cut p95 API latency by 60% with Redis and brought in Terraform for 80% of the AWS estate.",
    )
    assert failing(merged) == set()


def test_several_errors_are_all_listed() -> None:
    text = mutate(FAITHFUL, "1,200 requests", "1,900 requests")
    text = mutate(text, "from 40% to 85%", "from 30% to 95%")
    r = run_checks(text)["claims"]
    assert len(r.unsupported) == 2 and r.claims_checked - r.claims_supported == 2  # two sentences
    for figure in ("1,900", "30%", "95%"):
        assert f"{figure} does not match" in r.detail
    ledger = checker().ledger
    assert ledger is not None
    wrong = [f.text for c in ledger.contradicted for f in c.findings if f.status == "contradicted"]
    assert sorted(wrong) == ["1,900", "30%", "95%"]


# --- normalisation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old,new",
    [
        ("1,200 requests", "1200 requests"),
        ("$420,000 a year", "$420k a year"),
        ("$420,000 a year", "USD 420,000 a year"),
        ("by 35% ($", "by 35 percent ($"),
        ("Harbourside Logistics GmbH", "HARBOURSIDE LOGISTICS"),
        ("Brightline Payments Ltd", "Brightline Payments Limited"),
        ("Brightline Payments Ltd", "Brightline Payments, Ltd."),
        ("### Senior Backend Engineer", "### Sr. Backend Engineer"),
        ("Mar 2020 – Present", "March 2020 - present"),
        ("Mar 2020 – Present", "03/2020 – Present"),
        ("Jun 2017 – Feb 2020", "2017 – 2020"),
        ("PostgreSQL clusters", "Postgres clusters"),
        ("9 years of experience", "9+ yrs of experience"),
        ("deploys went from 45 minutes to 6 minutes", "deploys went from 45 min to 6 min"),
        ("Mentored a team of 6 engineers", "Mentored six engineers"),
        ("onto Kubernetes", "onto K8s"),
        ("### MSc Computer Science", "### M.Sc. in Computer Science"),
        ("### MSc Computer Science", "### Master's in Computer Science"),
    ],
)
def test_equivalent_forms_are_supported(old: str, new: str) -> None:
    assert failing(mutate(FAITHFUL, old, new)) == set()


def test_contact_details_and_urls_are_not_figures() -> None:
    text = mutate(
        FAITHFUL,
        "elena.marsh@example.com · +44 7700 900123",
        "elena.marsh@example.com · +44 7700 900123 · [[PHONE_1]] · github.com/elena-marsh-example",
    )
    assert failing(text) == set()


def test_month_precision_not_in_cv_is_flagged() -> None:
    text = mutate(
        FAITHFUL,
        "### BSc Mathematics — University of York\n2014",
        "### BSc Mathematics — University of York\nJun 2014",
    )
    r = run_checks(text)["unverifiable"]  # more precise than the CV: a claim the CV does not make (an error here)
    assert not r.ok and r.severity == "error" and "Jun 2014" in r.detail and "the sources give only 2014" in r.detail


# --- structure --------------------------------------------------------------------------------


def test_no_experience_entries_fails_entries() -> None:
    # an Experience section whose roles cannot be read fails the entries check …
    r = run_checks("# Elena Marsh\n\n## Experience\n\n## Skills\n\nPython, Go\n")
    assert not r["entries"].ok and "no experience entries" in r["entries"].detail
    # … with no Experience section at all the sections check says so (a snippet of a CV invents nothing)
    r = run_checks("# Elena Marsh\n\n## Summary\n\nBackend engineer.\n")
    assert r["entries"].ok
    assert not r["sections"].ok
    assert set(r["sections"].unsupported) == {
        "missing section Experience",
        "missing section Skills",
        "missing section Education",
        "missing section Certifications",
    }


def test_keywords_warning_lists_supported_keywords_left_out() -> None:
    text = mutate(
        FAITHFUL,
        "- Moved nightly batch jobs to Kafka streams: data delays fell from 24 hours to 15 minutes.\n",
        "",
    )
    text = text.replace("Data and streaming: PostgreSQL, Kafka, Redis", "Data: PostgreSQL, Redis")
    r = run_checks(text)["keywords"]
    assert not r.ok and r.severity == "warning" and "Kafka" in r.detail
    assert "Rust" not in r.detail  # never suggest what the CV does not support


def test_checks_reload_inputs_when_data_is_missing() -> None:
    text = mutate(FAITHFUL, "1,200 requests", "1,300 requests")
    results = hook("checks").checks(context(text, data={}))
    assert {r.name: r for r in results}["employers"].ok
    # the evidence is rebuilt from the inputs too: the ledger still catches the wrong figure
    bare = Checker(load_task(ROOT / "tasks", "resume-tailor"), facts={}, data={}, workspace=ROOT, vars={})
    by = {r.name: r for r in bare.check(text)}
    assert not by["claims"].ok and "1,300 does not match" in by["claims"].detail and by["employers"].ok
