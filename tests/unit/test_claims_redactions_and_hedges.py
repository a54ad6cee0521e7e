"""Artifacts in the forms of the corpus batch zzd and of older failures it led back to: a terminal
tool's box-drawn tables, a review and a CV with personal details redacted and placeholders left in,
a draft's to-do notes, and hedged statements, which still claim what they hedge. Each faithful form
passes and its twin with one fact changed fails.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier, build_ledger
from autogen_pse.claims.model import Status
from tests.claims_support import assert_pair, statuses

BOX_TABLE = """\
┌────────┬─────┬────────────┬─────────┬────────────┬──────────┐
│ Symbol │ Qty │ Mkt value  │ Weight  │ P/L        │ P/L %    │
├────────┼─────┼────────────┼─────────┼────────────┼──────────┤
│ AAPL   │ 250 │  55,755.00 │  43.85% │ +46,142.50 │ +480.03% │
│ MSFT   │ 600 │  17,280.00 │  13.59% │  -6,606.00 │  -27.66% │
├────────┼─────┼────────────┼─────────┼────────────┼──────────┤
│ TOTAL  │     │ 127,157.10 │ 100.00% │ +51,266.60 │  +67.55% │
└────────┴─────┴────────────┴─────────┴────────────┴──────────┘
"""


def test_a_box_drawn_tables_total_row_is_a_row_of_the_table(portfolio_verifier: Verifier) -> None:
    ledger = build_ledger(BOX_TABLE, portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [(c.text, c.why()) for c in ledger.claims]
    assert_pair(portfolio_verifier, BOX_TABLE, BOX_TABLE.replace("+67.55%", "+76.55%"))
    assert_pair(portfolio_verifier, BOX_TABLE, BOX_TABLE.replace(" 13.59% ", " 31.59% "))


@pytest.mark.parametrize(
    "line",
    [
        "**Account:** Individual brokerage, Account ****3307",
        "Client: ██████ ████, account ending 4821.",
        "Risk profile:       [insert from KYC file]",
        "Names and tax identifiers of the account holder have been replaced with [REDACTED].",
    ],
)
def test_what_a_redaction_or_a_template_left_claims_nothing(portfolio_verifier: Verifier, line: str) -> None:
    assert statuses(portfolio_verifier, line) <= {Status.NONE, Status.SUPPORTED}


def test_a_tools_status_line_counts_all_the_holdings(portfolio_verifier: Verifier) -> None:
    line = "-- rulecheck: {n} holdings, cap 30%, stop -20%, long-held >=730d & <=-10%"
    assert_pair(portfolio_verifier, line.format(n=5), line.format(n=3))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # the other side of a comparison is not the figure's holding
        ("Apple's volatility is 47.12%, second only to Amazon.", "Apple's volatility is 48.04%, second only to Amazon."),
        # a distance past a rule's levels
        ("GOOG: 851 d is 121 d past the 730 d threshold; loss ~9pp beyond the −10% line.",
         "GOOG: 851 d is 151 d past the 730 d threshold; loss ~9pp beyond the −10% line."),
        ("GOOG: the loss is about 9 points beyond the −10% line.", "GOOG: the loss is about 12 points beyond the −10% line."),
        # under the cap, said with the distance, is not over it
        ("GOOG sits 12.38 points below the 30% cap.", "AAPL sits 13.85 points below the 30% cap."),
        # a mixed number in LaTeX
        ("GOOG has been held for about $2\\tfrac{1}{3}$ years.", "GOOG has been held for about $3\\tfrac{1}{3}$ years."),
        # the negation is of the stop-loss, not of the purchase
        ("With the stop-loss not yet hit it may be worth adding a few Amazon shares.",
         "With the stop-loss not yet hit it may be worth adding a few Google shares."),
    ],
)
def test_comparisons_distances_and_negations(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    "projection",
    [
        "Trim Apple back under the 30% cap.",
        "Selling 79 shares would take Apple below the 30% cap.",
        "Afterwards AAPL sits just under the 30% cap.",
    ],
)
def test_where_a_trim_leaves_a_holding_is_no_flag_of_it(portfolio_verifier: Verifier, projection: str) -> None:
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, projection)


@pytest.mark.parametrize("negated", ["I would not recommend adding to Google.", "Google is not a holding we would add to."])
def test_a_negated_purchase_is_no_purchase(portfolio_verifier: Verifier, negated: str) -> None:
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, negated)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Microsoft, which appears to have been held since approximately early 2000, may account for about 13.59%.",
         "Microsoft, which appears to have been held since approximately early 2003, may account for about 13.59%."),
        ("It would appear that Google has been held since November 2007.",
         "It would appear that Google has been held since November 2004."),
    ],
)
def test_a_hedged_statement_still_claims_what_it_hedges(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


def test_a_hedged_fact_without_a_number_is_flagged(portfolio_verifier: Verifier) -> None:
    hedged = "It may be worth noting that Microsoft recently raised its quarterly dividend."
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, hedged)
    # advice stays advice: its words are not claimed
    assert statuses(portfolio_verifier, "AMZN may be worth adding to on weakness.") <= {Status.NONE, Status.SUPPORTED}


def test_what_a_cited_study_found_is_not_a_fact_of_the_portfolio(portfolio_verifier: Verifier) -> None:
    text = (
        "Stop-loss rules can add value when returns exhibit momentum (Kaminski & Lo, 2014). Volatility of single "
        "stocks is high (Campbell, Lettau, Malkiel, & Xu, 2001), and losses are held too long (Odean, 1998). "
        "Jegadeesh and Titman (1993) provide evidence of "
        "momentum at horizons of three to twelve months. Microsoft was bought in January 2000.\n"
    )
    assert_pair(portfolio_verifier, text, text.replace("January 2000", "January 2001"))


CV = """\
# Candidate #A-117

Senior Backend Engineer · [REDACTED city]

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present

- Designed an idempotent payments API in Go handling 1,200 requests per second at peak. [Add metric here]
- Mentored 6 engineers.

## Education

- MSc Computer Science — [REDACTED institution], 2015
- BSc Mathematics, 2014 — institution [REDACTED]
- MSc Computer Science, 2015 — [university redacted]

---

**Before sending:**
1. [confirm dates] — month/year for each role.
2. TODO: quantify the mentoring if you can (e.g. how many of the 6 were promoted).
"""


def _failed(checker: Checker, text: str) -> set[str]:
    return {r.name for r in checker.check(text) if not r.ok and r.severity == "error"} - {"sections"}


def test_a_redacted_cv_with_a_drafts_notes(resume_checker: Checker, resume_verifier: Verifier) -> None:
    assert not _failed(resume_checker, CV)
    assert_pair(resume_verifier, CV, CV.replace("1,200 requests", "2,100 requests"))
    # a degree with its school redacted is still checked: its level, its field and its year
    assert "degrees" in _failed(resume_checker, CV.replace("- BSc Mathematics, 2014", "- PhD Mathematics, 2014"))
    assert _failed(resume_checker, CV.replace("- BSc Mathematics, 2014", "- BSc Mathematics, 2012")) & {"dates", "claims"}
