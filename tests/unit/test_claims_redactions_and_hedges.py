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
from tests.claims_support import assert_pair, failed_checks, statuses

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
    ("good", "bad"),
    [
        # "close behind" is near, not the closing price
        ("Microsoft had the worst drawdown, about sixty-three percent. Google's was close behind, around fifty-eight.",
         "Microsoft had the worst drawdown, about sixty-three percent. Google's was close behind, around forty-eight."),
        # "minus" before a number in words is its sign
        ("Microsoft. Annualised: about minus three percent a year.", "Microsoft. Annualised: about plus three percent a year."),
        # the figure before "vs" is not the compared holding's
        ("On annualised return yes (47.52% vs AAPL's 40.58%), but on total gain AAPL is ahead.",
         "On annualised return yes (41.52% vs AAPL's 40.58%), but on total gain AAPL is ahead."),
        ("AAPL is miles ahead ($46.1k vs $9.1k).", "AAPL is miles ahead ($46.1k vs $7.1k)."),
        # selling some of a holding the rules let you trim is the trim; selling all of it is not allowed
        ("Talk to whoever does your taxes before you sell Apple.", "Talk to whoever does your taxes before you sell all of Apple."),
        ("Talk to whoever does your taxes before you sell Apple.", "Talk to whoever does your taxes before you sell IBM."),
    ],
)
def test_words_around_figures_and_sales(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    "unsaid",
    ["I'd rather decide now than be at −25% in six months wishing we had.", "MSFT: I keep wanting to write −26%."],
)
def test_a_figure_wished_away_claims_nothing(portfolio_verifier: Verifier, unsaid: str) -> None:
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, unsaid)


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



def test_a_redacted_cv_with_a_drafts_notes(resume_checker: Checker, resume_verifier: Verifier) -> None:
    assert not failed_checks(resume_checker, CV)
    assert_pair(resume_verifier, CV, CV.replace("1,200 requests", "2,100 requests"))
    # a degree with its school redacted is still checked: its level, its field and its year
    assert "degrees" in failed_checks(resume_checker, CV.replace("- BSc Mathematics, 2014", "- PhD Mathematics, 2014"))
    assert failed_checks(resume_checker, CV.replace("- BSc Mathematics, 2014", "- BSc Mathematics, 2012")) & {"dates", "claims"}


REPORT = """\
PFR100 - PORTFOLIO REVIEW                       RUN 03-01-2010 07:31    PAGE 001
AS OF 03-01-2010 (LAST CLOSE ON OR BEFORE)      USD
================================================================================
REC  SYM   MKT VAL ....  WT PCT  CUM WT  P/L PCT  HELD  VOL 36M  MAXDD  FLG
---  ----  ------------  ------  ------  -------  ----  -------  -----  ---
P01  AAPL     55,755.00   43.85   43.85   480.03  1885    47.12 -56.91 OW
P01  GOOG     22,407.60   17.62   61.47   -19.16   851    36.91 -57.73 LH
P01  MSFT     17,280.00   13.59   89.87   -27.66  3712    29.11 -63.42 SL LH
T01  TOTAL PORTFOLIO         127,157.10  100.00

RULE EXCEPTIONS
LH  GOOG  851 DAYS (>=730) P/L PCT -19.16 (<=-10.00)
"""


@pytest.mark.parametrize(
    "changed",
    [("47.12 -56.91", "47.12 -65.91"), ("61.47", "64.17"), ("(>=730)", "(>=760)"), ("AS OF 03-01-2010", "AS OF 03-01-2009"),
     ("-63.42 SL LH", "-36.42 SL LH")],
)
def test_a_batch_jobs_fixed_width_report(portfolio_verifier: Verifier, changed: tuple[str, str]) -> None:
    ledger = build_ledger(REPORT, portfolio_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    assert_pair(portfolio_verifier, REPORT, REPORT.replace(*changed))


def test_a_sheets_cells_explained_row_by_row(portfolio_verifier: Verifier) -> None:
    sheet = (
        "| Cell | Formula | Value | What it means |\n|---|---|---|---|\n"
        "| H7 | `=SUM(H2:H6)` | $75,890.50 | What you paid for them in total (your cost basis) |\n"
        "| G7 | `=SUM(G2:G6)` | 100.00% | Just a check that the weights add up |\n\n"
        "G7 sums to 100%, as it should. Because it's been held longer than 730 days and is more than 10% below "
        "cost, Google is a long-held loss.\n"
    )
    assert_pair(portfolio_verifier, sheet, sheet.replace("$75,890.50 | What you paid", "$57,890.50 | What you paid"))
    assert_pair(portfolio_verifier, sheet, sheet.replace("longer than 730 days", "longer than 900 days"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Only two of them are losing money: Google and Microsoft.", "Only three of them are losing money."),
        ("But the rule only bites if there's a loss of ten percent or more, and only two of them are losing money.",
         "But the rule only bites if there's a loss of ten percent or more, and only three of them are losing money."),
    ],
)
def test_counts_of_them_and_a_rule_stated_first(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


GANTT_CV = """\
# Elena Marsh

## Career at a glance

```mermaid
gantt
    title Elena Marsh — career timeline
    dateFormat YYYY-MM-DD
    section Brightline Payments Ltd
    Senior Backend Engineer (Mar 2020 – present) :milestone, bl, 2020-03-01, 0d
    section Harbourside Logistics GmbH
    Backend Engineer, Hamburg                    :hl, 2017-06-01, 2020-02-29
```

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present

- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.
"""


def test_a_gantt_charts_months_and_milestones(resume_checker: Checker, resume_verifier: Verifier) -> None:
    assert not failed_checks(resume_checker, GANTT_CV)
    assert_pair(resume_verifier, GANTT_CV, GANTT_CV.replace("2017-06-01, 2020-02-29", "2016-06-01, 2020-02-29"))


DECK = """\
**Panel interview — slide outline**

**Slide 2 — Payments**
- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.

_Speaker notes:_ Tie this to their settlement work.

**Slide 3 — Streaming**
- {story}

**Slide 4 — Education**
- MSc Computer Science, University of Leeds — 2015

**Slide 5 — Q&A**
- Open questions
"""


def test_a_slide_decks_notes_and_questions_slide(resume_checker: Checker, resume_verifier: Verifier) -> None:
    faithful = DECK.format(story="At Harbourside I moved nightly batch jobs to Kafka streams")
    assert not failed_checks(resume_checker, faithful) - {"unverifiable"}
    # an achievement told of the wrong employer, with no figure in it
    assert_pair(resume_verifier, faithful, DECK.format(story="At Brightline I moved nightly batch jobs to Kafka streams"))


def test_an_achievement_and_the_next_records_employer_on_one_line(resume_verifier: Verifier) -> None:
    line = "mentored 6; review guidelines used by 3 teams 2020 Harbourside Logistics GmbH — Backend Engineer"
    assert Status.CONTRADICTED not in statuses(resume_verifier, line)
    told = "I moved nightly batch jobs to Kafka streams (in logistics, at Harbourside), and mentored a team of 6."
    assert Status.CONTRADICTED not in statuses(resume_verifier, told)

