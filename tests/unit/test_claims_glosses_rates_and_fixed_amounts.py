"""Artifacts in the forms of batch zzg (a CV explained to a non-technical panel, a LinkedIn carousel, a
Notion export, a British answer in fractions and "c."): a percentile spelled out in brackets, a rate given
per hour for one the CV gives per second, a line led by its figure and a dash, "Slide 5/9", "the numbers that
matter most", a hedge written "c." before a holding's own drawdown, a trim's size (rule 2 fixes it) and value,
and a name in the stating clause of advice. Each faithful form passes and its twin with one fact changed fails.
"""

from __future__ import annotations

import pytest

from autogen_pse.claims import Verifier, build_ledger
from autogen_pse.claims.model import Status
from tests.claims_support import assert_clean, assert_pair, statuses


@pytest.mark.parametrize(
    ("verifier", "good", "bad"),
    [
        # a percentile's own definition in brackets is no figure of hers; the cut is
        ("resume_verifier",
         "Made the slowest answers quicker: p95 latency (the time within which 95 out of 100 requests are "
         "answered) dropped by 60%, thanks to Redis caching.",
         "Made the slowest answers quicker: p95 latency (the time within which 95 out of 100 requests are "
         "answered) dropped by 70%, thanks to Redis caching."),
        ("resume_verifier", "p95 API latency (the wait for the slowest 5% of requests) cut by 60%, via Redis caching.",
         "p95 API latency (the wait for the slowest 5% of requests) cut by 5%, via Redis caching."),
        # a figure named by "p95" itself is still checked
        ("resume_verifier", "She cut p95 API latency by 60% with Redis caching.",
         "She cut p95 API latency by 95% with Redis caching."),
        # a line led by its figure, a dash, then what it counts
        ("resume_verifier", "**1,200** — payment-related requests per second her Go API handles at its busiest.",
         "**1,500** — payment-related requests per second her Go API handles at its busiest."),
        # a slide's number is no figure; the figure after it is
        ("resume_verifier", "Slide 3/9 — I lead a team of 6 engineers at Brightline.",
         "Slide 3/9 — I lead a team of 9 engineers at Brightline."),
        # "c." hedges a holding's own worst drawdown: the figure, not a ranking of holdings
        ("portfolio_verifier", "- **Apple (AAPL):** Volatility c. 47 per cent; worst drawdown c. 57 per cent.",
         "- **Apple (AAPL):** Volatility c. 47 per cent; worst drawdown c. 67 per cent."),
        ("portfolio_verifier",
         "Apple has compounded at c. 41 per cent a year; worst drawdown a shade over 56 per cent.",
         "Apple has compounded at c. 41 per cent a year; the worst drawdown of the five."),
        # rule 2 fixes a trim's size: trim_units (a sign for the sale is no other figure)
        ("portfolio_verifier", "| 1 | TRIM | AAPL | 79 units | 30% position cap |",
         "| 1 | TRIM | AAPL | 97 units | 30% position cap |"),
        ("portfolio_verifier", "AAPL   TRIM    -79      back to cap, cash stays in acct",
         "AAPL   TRIM    -97      back to cap"),
        # a trim's value, in a sentence about the trim, whatever metric word stands nearer
        ("portfolio_verifier", "The AAPL trim is 79 whole shares; at the 223.02 reference close that is 17,618.58.",
         "The AAPL trim is 79 whole shares; at the 223.02 reference close that is 18,618.58."),
        ("portfolio_verifier",
         "The reduction of the line Apple Inc. to the ceiling corresponds to a value of USD 17 607,87.",
         "The reduction of the line Apple Inc. to the ceiling corresponds to a value of USD 19 607,87."),
    ],
)
def test_faithful_forms_pass_and_their_twins_fail(
    request: pytest.FixtureRequest, verifier: str, good: str, bad: str
) -> None:
    checked: Verifier = request.getfixturevalue(verifier)
    assert_clean(checked, good)
    assert_pair(checked, good, bad)


def test_a_rate_per_hour_for_the_cvs_rate_per_second(resume_verifier: Verifier) -> None:
    """4.3 million in an hour is 1,200 a second; 6.3 million is no fact (and on a CV that is an error)."""
    good = "At peak the Go API handles 1,200 requests per second — roughly 4.3 million in an hour."
    assert_clean(resume_verifier, good)
    assert Status.UNVERIFIABLE in statuses(resume_verifier, good.replace("4.3 million", "6.3 million"))


@pytest.mark.parametrize(
    "line",
    [
        "The numbers that matter most for a payments team:",
        "*Prepared for the Tidewater Financial hiring panel (Staff Backend Engineer, Payments Platform).*",
        "Progress to the full panel. I'd put her in the system-design slot, and have Ana run the code review.",
    ],
)
def test_cv_lines_that_claim_nothing(resume_verifier: Verifier, line: str) -> None:
    assert statuses(resume_verifier, line) <= {Status.NONE, Status.SUPPORTED}, line


def test_places_the_rules_allow_are_the_documents_own_count(portfolio_verifier: Verifier) -> None:
    line = "If B. wants to redeploy the Apple trim, these are the two places the rules allow."
    assert statuses(portfolio_verifier, line) <= {Status.NONE, Status.SUPPORTED}


def test_a_dash_after_a_figure_mid_line_does_not_name_it(portfolio_verifier: Verifier) -> None:
    """Only a line led by its figure takes the words after a dash as its name: "AAPL 43.85% — breach
    (excess 13.85 pts)" is the weight, then the excess."""
    assert_clean(portfolio_verifier, "AAPL 43.85% — breach (excess 13.85 pts)")


def test_a_sale_within_the_holding_is_still_a_proposal(portfolio_verifier: Verifier) -> None:
    """A SELL's size is the user's choice up to the holding (only a TRIM's is fixed by the rules)."""
    table = "| Priority | Action | Symbol | Amount |\n|---|---|---|---|\n| 2 | SELL | MSFT | 300 units |\n"
    assert_clean(portfolio_verifier, table)
    assert Status.CONTRADICTED in statuses(portfolio_verifier, table.replace("300 units", "900 units"))


def test_a_name_in_the_stating_clause_of_advice_is_flagged(portfolio_verifier: Verifier) -> None:
    text = ("Sell Microsoft — it's through the stop-loss, and that's also the view in the recent "
            "Goldman Sachs note on large-cap software.")
    ledger = build_ledger(text, portfolio_verifier)
    assert [c.status for c in ledger.claims] == [Status.UNVERIFIABLE], [c.why() for c in ledger.claims]
    assert "Goldman Sachs" in ledger.claims[0].why()
    assert_clean(portfolio_verifier, "Sell Microsoft — it's through the stop-loss.")
