"""Each kind of fabrication is caught, in each task where it applies; its faithful twin passes.

A planted sentence is put into an otherwise faithful, realistic document (a portfolio review of
the default data, a CV tailored from ``tasks/resume-tailor/data/cv.md``). The ledger must give the
planted claim the expected status with a finding that names the evidence (a fact id, or a note
naming what is wrong), leave the rest of the document clean, and pass the faithful twin.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from autogen_pse.checking import Checker
from autogen_pse.verification import DocumentReport
from tests.claims_support import check, claim, failing

# --- portfolio-review ---------------------------------------------------------------------------

PORTFOLIO = """\
# Portfolio review — Alex Example, as of 1 March 2010

## Summary

The portfolio is worth $127,157.10 against a cost of $75,890.50, an unrealised gain of $51,266.60 (67.55%). Concentration is high: Apple alone is 43.85% of the value, above the 30% position cap, and the top three holdings make up 76.28%.

## Findings

- **Apple (AAPL):** 43.85% of the portfolio and up 480.03% on cost after 1,885 days. Overweight by 13.85 points.
- **Amazon (AMZN):** 10.13% of the portfolio, up 241.97%. No rule is triggered.
- **Google (GOOG):** 17.62% of the portfolio, down 19.16% after 851 days — a long-held loss.
- **IBM:** 14.81% of the portfolio, up 72.70%, with the lowest volatility of the five (23.50%). No trigger.
- **Microsoft (MSFT):** 13.59% of the portfolio, down 27.66%, through the -20% stop-loss; also a long-held loss.

{SENTENCE}

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit: -27.66% vs the -20% stop |
| 2 | TRIM | AAPL | 79 units ($17,607.87) | overweight: 43.85% vs the 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss: -19.16% after 851 days |
| 4 | HOLD | AMZN | — | no rule trigger |
| 5 | HOLD | IBM | — | no rule trigger |

## Next steps

- Place the SELL and TRIM orders and hold the proceeds in cash until the next review.
- Re-run this review after the next monthly close.
"""


@dataclass(frozen=True)
class Case:
    bad: str  # the planted sentence
    good: str  # its faithful twin
    status: frozenset[str]  # what the planted claim may be
    names: tuple[str, ...]  # each must appear in a failing finding's evidence ids or note


def case(bad: str, good: str, names: tuple[str, ...], status: str | tuple[str, ...] = "contradicted") -> Case:
    return Case(bad, good, frozenset([status] if isinstance(status, str) else status), names)


PORTFOLIO_CASES = {
    "wrong_figure": case(
        "Apple now makes up 48.85% of the portfolio, far above the cap.",
        "Apple now makes up 43.85% of the portfolio, far above the cap.",
        ("AAPL.weight_pct",)),
    "wrong_figure_in_words": case(
        "Google has grown to nearly half the portfolio.",
        "Apple has grown to nearly half the portfolio.",
        ("GOOG.weight_pct",)),
    "forbidden_action_in_prose": case(
        "Microsoft has been hammered, and it is worth adding to Microsoft on weakness.",
        "Amazon has been strong, and it is worth adding to Amazon on weakness.",
        ("rules:MSFT", "BUY")),
    "wrong_superlative": case(
        "IBM, the largest position, has been a steady compounder.",
        "Apple, the largest position, has been a spectacular compounder.",
        ("AAPL.weight_pct", "IBM")),
    "unknown_company_as_holding": case(
        "Our Cisco stake is also comfortably in the green.",
        "Our IBM stake is also comfortably in the green.",
        ("Cisco",)),
    "unsupported_fact": case(
        "Microsoft announced a buyback.",
        "Microsoft has hit the stop-loss.",
        ("buyback",), status="unverifiable"),
    "true_figure_wrong_holding": case(
        "Amazon is up 72.7% since it was bought.",
        "IBM is up 72.7% since it was bought.",
        ("AMZN.pnl_pct", "IBM.pnl_pct")),
    "direction": case(
        "Google is up 19% on cost.",
        "Google is down 19% on cost.",
        ("GOOG.pnl_pct",)),
    "wrong_date": case(
        "Apple, held since 2004, is the biggest winner.",
        "Apple, held since 2005, is the biggest winner.",
        ("AAPL.opened_on",)),
    "wrong_holding_period": case(  # not the 36-month volatility window: the holding period of MSFT
        "Microsoft is down 27.7% after three years in the portfolio.",
        "Microsoft is down 27.7% after ten years in the portfolio.",
        ("MSFT.holding_days",)),
    "number_of_an_unrelated_fact": case(
        "IBM's volatility is 14.8%.",
        "IBM's volatility is 23.5%.",
        ("IBM.volatility_pct", "IBM.weight_pct")),
    "wrong_size_ratio": case(  # 43.85 % / 17.62 % = 2.49x
        "Apple is about twice the size of Google.",
        "Apple is about two and a half times the size of Google.",
        ("AAPL.weight_pct", "GOOG.weight_pct")),
    "wrong_metric_ratio": case(  # 23.50 % / 48.04 %
        "IBM is twice as volatile as Amazon.",
        "Amazon is twice as volatile as IBM.",
        ("IBM.volatility_pct", "AMZN.volatility_pct")),
    "wrong_multiple_of_cost": case(  # worth 5.80x its cost, a gain of 4.80x
        "Apple has returned about eight times its cost.",
        "Apple has returned almost five times its cost.",
        ("AAPL.multiple",)),
    "wrong_count": case(
        "Three of the five positions are losing money.",
        "Two of the five positions are losing money.",
        ("count.losing",)),
}


def test_the_portfolio_base_review_is_faithful(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, PORTFOLIO.replace("{SENTENCE}\n\n", ""))
    assert (report.contradicted, report.unverifiable) == (0, 0), failing(report)
    assert report.grounding == 1.0


def _assert_caught(report: DocumentReport, sentence: str, c: Case) -> None:
    planted = claim(report, sentence)
    assert planted["status"] in c.status, (planted["status"], planted["findings"])
    bad = [f for f in planted["findings"] if f["status"] == planted["status"]]
    named = " ".join([*(e for f in bad for e in f["evidence"]), *(f["note"] for f in bad)])
    for name in c.names:
        assert name in named, f"{name!r} is not named by the findings: {bad}"
    others = [x for x in failing(report) if sentence.lstrip("- ") not in x]
    assert others == [], others  # nothing else in the document fails


@pytest.mark.parametrize("c", list(PORTFOLIO_CASES.values()), ids=list(PORTFOLIO_CASES))
def test_portfolio_fabrication_is_caught(portfolio_checker: Checker, c: Case) -> None:
    report = check(portfolio_checker, PORTFOLIO.replace("{SENTENCE}", c.bad))
    _assert_caught(report, c.bad, c)
    if "contradicted" in c.status:
        assert report.fails


@pytest.mark.parametrize("c", list(PORTFOLIO_CASES.values()), ids=list(PORTFOLIO_CASES))
def test_portfolio_faithful_twin_passes(portfolio_checker: Checker, c: Case) -> None:
    report = check(portfolio_checker, PORTFOLIO.replace("{SENTENCE}", c.good))
    twin = claim(report, c.good)
    assert twin["status"] in ("supported", "none"), twin["findings"]
    assert (report.contradicted, report.unverifiable) == (0, 0), failing(report)


# --- resume-tailor ------------------------------------------------------------------------------

CV = """\
# Elena Marsh

Senior Backend Engineer · Manchester, UK
elena.marsh@example.com · +44 7700 900123 · github.com/elena-marsh-example

## Summary

Backend engineer with 9 years of experience building payment and logistics platforms in Python and Go. I have led teams of up to 6 engineers and cut infrastructure costs by 35% through service consolidation.

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present · Manchester, UK

- Designed an idempotent payments API in Go that serves 1,200 requests per second at peak.
- Moved 14 Python services off a monolith onto Kubernetes on AWS, bringing deploy time down from 45 minutes to 6 minutes.
- Mentored a team of 6 engineers; my code review guidelines were adopted across 3 teams.

### Backend Engineer — Harbourside Logistics GmbH
Jun 2017 – Feb 2020 · Hamburg, Germany

- Reduced p95 API latency by 60% with Redis caching and PostgreSQL query tuning.
- Replaced nightly batch jobs with Kafka streams, so data arrived in 15 minutes instead of 24 hours.

### Software Developer — Copperleaf Studio
Sep 2015 – May 2017 · Leeds, UK

- Set up Jenkins CI pipelines that raised automated test coverage from 40% to 85%.
- Built web applications in Python (Flask) and JavaScript (React) for 12 clients.

## Skills

- Languages: Python, Go, SQL, JavaScript
- Infrastructure: AWS, Kubernetes, Docker, Terraform, Jenkins

## Education

### MSc Computer Science — University of Leeds
2015
"""

API = "- Designed an idempotent payments API in Go that serves 1,200 requests per second at peak."
MENTOR = "- Mentored a team of 6 engineers; my code review guidelines were adopted across 3 teams."
LATENCY = "- Reduced p95 API latency by 60% with Redis caching and PostgreSQL query tuning."
COVERAGE = "- Set up Jenkins CI pipelines that raised automated test coverage from 40% to 85%."
COPPERLEAF_DATES = "Sep 2015 – May 2017 · Leeds, UK"
SUMMARY = ("Backend engineer with 9 years of experience building payment and logistics platforms in Python "
           "and Go.")
LEAD = "I have led teams of up to 6 engineers and cut infrastructure costs by 35% through service consolidation."


@dataclass(frozen=True)
class CvCase:
    replace: str  # the line of the faithful CV the planted line replaces
    bad: str
    bad_claim: str  # the claim the planted line becomes
    good_replace: str
    good: str
    good_claim: str
    status: frozenset[str]
    names: tuple[str, ...]  # "{Harbourside}" is replaced by that employer's role id


def cv_case(replace: str, bad: str, good: str, names: tuple[str, ...], *, status: str | tuple[str, ...] = "contradicted",
            bad_claim: str = "", good_claim: str = "", good_replace: str = "") -> CvCase:
    return CvCase(replace, bad, bad_claim or bad, good_replace or replace, good, good_claim or good,
                  frozenset([status] if isinstance(status, str) else status), names)


FAILS = ("contradicted", "unverifiable")  # both are errors in a CV
RESUME_CASES = {
    "wrong_figure": cv_case(
        MENTOR,
        "- Led a team of 8 engineers and wrote the code review guidelines adopted across 3 teams.",
        "- Led a team of 6 engineers and wrote the code review guidelines adopted across 3 teams.",
        ("{Brightline}.", "= 6")),
    "wrong_figure_in_words": cv_case(
        MENTOR,
        "- Mentored eleven engineers and wrote code review guidelines adopted across 3 teams.",
        "- Mentored six engineers and wrote code review guidelines adopted across three teams.",
        ("{Brightline}.", "= 6")),
    "entity_swap": cv_case(
        API,
        "- Cut p95 API latency by 60% with Redis caching and PostgreSQL query tuning.",
        "- Cut p95 API latency by 60% with Redis caching and PostgreSQL query tuning.",
        ("{Harbourside}.",), good_replace=LATENCY),
    "direction": cv_case(
        COVERAGE,
        "- Set up Jenkins CI pipelines; automated test coverage fell from 85% to 40%.",
        "- Set up Jenkins CI pipelines; automated test coverage rose from 40% to 85%.",
        ("{Copperleaf}.", "'to' figure")),
    "wrong_dates": cv_case(
        COPPERLEAF_DATES,
        "Sep 2014 – May 2017 · Leeds, UK",
        "Sep 2015 – May 2017 · Leeds, UK",
        ("{Copperleaf}.start", "Sep 2015")),
    "wrong_duration": cv_case(
        SUMMARY,
        "Backend engineer with 12 years of experience building payment and logistics platforms in Python and Go.",
        "Backend engineer with nine years of experience building payment and logistics platforms in Python and Go.",
        ("career",)),
    "invented_technology": cv_case(
        API,
        "- Designed an idempotent payments API in Rust that serves 1,200 requests per second at peak.",
        "- Designed an idempotent payments API in Go that serves 1,200 requests per second at peak.",
        ("Rust",)),
    "unknown_employer": cv_case(
        API,
        "- Worked with Stripe to design an idempotent payments API in Go serving 1,200 requests per second at peak.",
        "- Worked with the product team to design an idempotent payments API in Go serving 1,200 requests per "
        "second at peak.",
        ("Stripe",)),
    "unsupported_fact": cv_case(
        LEAD,
        "I am a regular speaker at PyCon UK.",
        "I have led teams of up to 6 engineers.",
        ("PyCon UK",), status=FAILS),
    "superlative": cv_case(
        MENTOR,
        "- Mentored a team of 6 engineers and was the most senior engineer on the payments team.",
        "- Mentored a team of 6 engineers and was a senior engineer on the payments team.",
        ("most senior",), status=FAILS),
}


def _role_ids(checker: Checker) -> dict[str, str]:
    verifier = checker.verifier()
    assert verifier is not None
    out = {}
    for employer in ("Brightline", "Harbourside", "Copperleaf"):
        [mention] = verifier.catalogue.find(employer)
        out[employer] = mention.entity
    return out


def test_the_cv_base_is_faithful(resume_checker: Checker) -> None:
    report = check(resume_checker, CV, "cv.md")
    assert report.policy == "error"
    assert (report.contradicted, report.unverifiable) == (0, 0), failing(report)
    assert not report.fails


@pytest.mark.parametrize("c", list(RESUME_CASES.values()), ids=list(RESUME_CASES))
def test_resume_fabrication_is_caught(resume_checker: Checker, c: CvCase) -> None:
    assert c.replace in CV
    report = check(resume_checker, CV.replace(c.replace, c.bad), "cv.md")
    roles = _role_ids(resume_checker)
    names = tuple(n.format(**roles) for n in c.names)
    _assert_caught(report, c.bad_claim, Case(c.bad, c.good, c.status, names))
    assert report.fails  # unverifiable is an error in this task


@pytest.mark.parametrize("c", list(RESUME_CASES.values()), ids=list(RESUME_CASES))
def test_resume_faithful_twin_passes(resume_checker: Checker, c: CvCase) -> None:
    assert c.good_replace in CV
    report = check(resume_checker, CV.replace(c.good_replace, c.good), "cv.md")
    twin = claim(report, c.good_claim)
    assert twin["status"] in ("supported", "none"), twin["findings"]
    assert (report.contradicted, report.unverifiable) == (0, 0), failing(report)
    assert not report.fails
