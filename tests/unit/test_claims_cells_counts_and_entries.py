"""Figures joined to their noun by a hyphen or told in the next cell, exact counts of days and shares,
a possessive's figure, and CV entries written in one line (samples from the corpus batches j, t, p,
x, k, zi and zm): each faithful form passes, and its twin with one fact changed does not.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier
from tests.claims_support import assert_pair, failed_checks, status_of


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Built a 2M-events/day tracking service.", "Built a 5M-events/day tracking service."),
        ("Led a 14-service migration to Kubernetes.", "Led a 41-service migration to Kubernetes."),
    ],
)
def test_a_figure_hyphened_to_its_noun_is_checked(resume_verifier: Verifier, good: str, bad: str) -> None:
    assert status_of(resume_verifier, good) is Status.SUPPORTED
    assert_pair(resume_verifier, good, bad)


IMPACT_TABLE = """\
| Figure | What it was |
|---|---|
| **2M/day** | events through the Django/Celery shipment-tracking service I built |
| **−60%** | p95 API latency, from Redis caching + PostgreSQL tuning |
| **80%** | of the AWS estate provisioned with Terraform after I introduced it |
"""


def test_a_figures_cell_is_told_by_the_next_cell(resume_verifier: Verifier) -> None:
    from autogen_pse.claims import build_ledger

    ledger = build_ledger(IMPACT_TABLE, resume_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.text for c in ledger.unverifiable]
    assert_pair(resume_verifier, IMPACT_TABLE, IMPACT_TABLE.replace("**80%**", "**90%**"))
    # a score in the middle of a wider row is no figure of the cell after it
    scored = "| Mentor engineers | 4 | Mentored a team of 6 |"
    assert Status.CONTRADICTED not in {c.status for c in build_ledger(scored, resume_verifier).claims}


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("You've been in it for 3,712 days.", "You've been in it for 3,713 days."),
        ("He'd need to sell 79 shares to get back down to 30%.", "He'd need to sell 97 shares to get back down to 30%."),
        ("The position was opened with 250 units at $38.45.", "The position was opened with 205 units at $38.45."),
    ],
)
def test_an_exact_count_of_days_or_shares_is_its_fact(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert status_of(portfolio_verifier, bad) is not Status.SUPPORTED  # no fact of that count: not claimed true
    assert status_of(portfolio_verifier, "You've been in it for about 3,712 days.") is not Status.SUPPORTED


def test_a_figure_after_a_possessive_is_that_holdings(portfolio_verifier: Verifier) -> None:
    assert_pair(
        portfolio_verifier,
        "Amazon did about 47.5% annualised against Apple's 40.6%.",
        "Amazon did about 47.5% annualised against Apple's 47.5%.",  # Amazon's figure given as Apple's
    )


EDUCATION_LINES = """\
# Elena Marsh
Senior Backend Engineer · Manchester, UK

## Summary
Backend engineer with 9 years of experience in Python and Go.

## Experience
**Brightline Payments Ltd, Manchester: Senior Backend Engineer**
Mar 2020 – present
- Led the migration of 14 Python services from a monolith to Kubernetes on AWS.

**Education:** MSc Computer Science (Leeds, 2015); BSc Mathematics (York, 2014).

## Certifications
AWS Certified Solutions Architect – Associate (2021)

CONTACT

elena.marsh@example.com
github.com/elena-marsh-example
"""



def test_one_line_education_a_city_before_a_colon_and_a_contact_section(resume_checker: Checker) -> None:
    assert failed_checks(resume_checker, EDUCATION_LINES) == set()
    for good, bad in [("BSc Mathematics (York", "BSc Physics (York"), ("(Leeds, 2015)", "(Oxford, 2015)"),
                      ("Manchester: Senior Backend", "Manchester: Principal Backend")]:
        assert failed_checks(resume_checker, EDUCATION_LINES.replace(good, bad)), bad


def test_years_of_experience_in_a_profiles_header_is_no_section(resume_checker: Checker) -> None:
    header = "**Current:** Senior Backend Engineer, Brightline Payments Ltd\n**Experience:** 9 years, backend, Go\n\n"
    assert failed_checks(resume_checker, header + EDUCATION_LINES.split("\n", 2)[2]) == set()


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Below is a rules check of your five holdings.", "Below is a rules check of your six holdings."),
        ("My five stocks are up about two-thirds overall.", "My seven stocks are up about two-thirds overall."),
        ("IBM and Amazon are the only two names where the rules allow a BUY.",
         "The rules allow a BUY for four names."),
    ],
)
def test_a_count_of_the_whole_or_of_the_names_before_it(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Overweight is just about size, not performance.", "Microsoft is overweight."),
        ("The case asks students to quantify the overweight, then its risk.", "Microsoft is the overweight."),
        ("Your best decision (buying Apple at $38.45) has turned into your biggest risk.",
         "Consider buying Apple at $220 on weakness."),
    ],
)
def test_a_term_defined_and_a_purchase_made_are_no_holdings_flag_or_advice(
    portfolio_verifier: Verifier, good: str, bad: str
) -> None:
    assert_pair(portfolio_verifier, good, bad)


def test_a_technology_named_by_its_family_is_the_cvs(resume_verifier: Verifier) -> None:
    assert_pair(resume_verifier, "Docker, Terraform, Jenkins, GitHub", "Docker, Terraform, Jenkins, GitLab")


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Four of the five holdings have fallen more than half from a peak.",
         "Three of the five holdings have fallen more than half from a peak."),  # counted on the drawdowns
        ("Its $46.1k gain is roughly 90% of the total.", "Its $46.1k gain is roughly 80% of the total."),
    ],
)
def test_a_bound_passed_by_some_holdings_and_a_share_of_the_total_gain(
    portfolio_verifier: Verifier, good: str, bad: str
) -> None:
    assert status_of(portfolio_verifier, "Apple is the big one. " + good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, "Apple is the big one. " + good, "Apple is the big one. " + bad)


def test_apple_as_ninety_percent_of_the_total_is_still_its_weight(portfolio_verifier: Verifier) -> None:
    assert status_of(portfolio_verifier, "Apple is 90% of the total.") is Status.CONTRADICTED  # 90 % is its gain share


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Apple is over our 30% limit, so we'll sell a small part of it.",
         "Apple is over our 30% limit, so we'll sell all of it."),
    ],
)
def test_selling_part_of_a_holding_is_a_trim(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Selling would realise a loss of $6,606 but free up $17,280.",
         "Selling would realise a loss of $6,606 but free up $27,280."),  # one sale's proceeds
        ("cash raised estimate usd : 57306", "cash raised estimate usd : 59306"),  # the trim in whole shares
    ],
)
def test_the_cash_one_sale_or_a_trim_of_whole_shares_raises(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


def test_it_after_a_verb_is_a_holding_named_before(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "Apple is big. Trim it, deal with Microsoft, and watch Google.",
                "Apple is big. Sell it, deal with Microsoft, and watch Google.")


def test_a_first_role_row_is_ranked_on_the_start_dates(resume_verifier: Verifier) -> None:
    assert_pair(resume_verifier, "First role | Software Developer, Copperleaf Studio, Leeds — Sep 2015 to May 2017",
                "First role | Backend Engineer, Harbourside Logistics GmbH — Jun 2017 to Feb 2020")


@pytest.mark.parametrize(
    "text",
    [
        "**Recommendation:** proceed to panel.",
        "Probe: settlement/reconciliation exposure, and appetite for hybrid in London.",
        "Thought: The CV has no reconciliation or settlement work, so I won't imply any.",
        "What I can't see from the CV is Staff-level scope — she's a Senior engineer — and any reconciliation work.",
    ],
)
def test_a_recruiters_decision_probe_or_absence_claims_nothing(resume_verifier: Verifier, text: str) -> None:
    from autogen_pse.claims import build_ledger

    ledger = build_ledger(text, resume_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, text
    assert status_of(resume_verifier, "She has led reconciliation work at Brightline.") is Status.UNVERIFIABLE


def test_a_figure_before_one_its_sentence_later_implies_is_that_holdings(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "It is — 241.97% on cost, and 47.52% a year annualised.",
                "It is — 251.97% on cost, and 47.52% a year annualised.")


def test_a_plan_of_a_few_weeks_claims_no_holding_period(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "We give it two weeks.", "Microsoft has been held two weeks.")


def test_a_hedged_from_figure_and_a_requirement(resume_verifier: Verifier) -> None:
    cut = "Lowered monthly cloud spend by 35% — from roughly {} to $65k a month, or $420,000 a year."
    assert status_of(resume_verifier, cut.format("$100k")) is Status.SUPPORTED  # $1.2M a year before the cut
    assert status_of(resume_verifier, cut.format("$120k")) is not Status.SUPPORTED
    assert_pair(resume_verifier, "Matches the role: more than the 7 years asked for, and Kubernetes.",
                "She has 7 years of experience.")


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("By cost, GOOG is actually our largest position.", "By cost, AAPL is actually our largest position."),
        ("Median annualised vol (36 monthly returns) is about 37%.",
         "Median annualised vol (36 monthly returns) is about 45%."),
        ("The average drawdown is about -54%.", "The average drawdown is about -40%."),
    ],
)
def test_a_ranking_by_a_fronted_measure_and_a_median_of_the_holdings(
    portfolio_verifier: Verifier, good: str, bad: str
) -> None:
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


def test_an_actions_cell_with_its_amount_is_checked(portfolio_verifier: Verifier) -> None:
    table = "| Sym | Trigger | Action |\n|---|---|---|\n| AAPL | overweight | TRIM 79 |\n| MSFT | stop-loss | {} |\n"
    assert_pair(portfolio_verifier, table.format("SELL (all 600)"), table.format("BUY ~$5k"))
    assert_pair(portfolio_verifier, table.format("SELL"), table.replace("TRIM 79", "SELL 100").format("SELL"))


def test_a_judgement_of_the_fit_with_the_ad_is_no_superlative_claim(resume_verifier: Verifier) -> None:
    assert_pair(resume_verifier, "The kafka story is the best match in the whole application.",
                "She is the best engineer at Brightline.")
    assert_pair(resume_verifier, "Terraform is the only nice-to-have she has.",
                "She was the first engineer at Brightline.")


PDF_HEAD = """\
Elena Marsh · Senior Backend Engineer · Manchester
elena.marsh@example.com · +44 7700 900123
Summary Backend engineer, 9 years, Python and Go; payments and logistics platforms.
Experience
Brightline Payments Ltd — Senior Backend Engineer
Mar 2020 – Present
Led the migration of 14 Python services from a monolith to Kubernetes on AWS.
"""


def test_a_heading_run_into_its_line_and_a_sought_roles_caption(resume_checker: Checker) -> None:
    assert "titles" not in failed_checks(resume_checker, PDF_HEAD)
    assert "titles" in failed_checks(resume_checker, PDF_HEAD.replace("Summary Backend engineer", "Summary Principal engineer"))
    caption = "POSITION\nStaff Backend Engineer, Payments Platform\n\n"
    held = PDF_HEAD.replace("elena.marsh@example.com · +44 7700 900123\n", "elena.marsh@example.com\n" + caption)
    assert "titles" not in failed_checks(resume_checker, held)  # the Europass headline: the job applied for
    assert "titles" in failed_checks(resume_checker, held.replace("POSITION\n", ""))


ENTRY = ("**January 2007 — Amazon.** 100 shares at $37.67, now $128.82. That's 47.52% a year, the fastest "
         "compounding in the portfolio — faster than Apple, even though Apple's total percentage gain is about twice "
         "as large. The price of that speed: 48.04% volatility, the highest here. It's the smallest holding at 10.13%.")


def test_a_holding_named_after_a_clause_break_or_in_a_concession_is_not_the_entrys(
    portfolio_verifier: Verifier,
) -> None:
    from autogen_pse.claims import build_ledger

    ledger = build_ledger(ENTRY, portfolio_verifier)
    assert not ledger.contradicted, [c.text for c in ledger.contradicted]
    assert_pair(portfolio_verifier, ENTRY, ENTRY.replace("48.04% volatility", "47.12% volatility"))  # Apple's


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("### AMZN — Amazon\n- Annualised return of 47.52% — the best in the portfolio.",
         "### AMZN — Amazon\n- Annualised return of 47.52% — the second-best in the portfolio after Apple."),
        ("IBM: drawdown of -36.35%, the mildest of the five.", "IBM: drawdown of -36.35%, the deepest of the five."),
        ("Amazon: 48.04% volatility, the highest here.", "Amazon: 48.04% volatility, the lowest here."),
    ],
)
def test_a_rank_written_after_a_figure_is_its_facts_rank(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


PROJECTS = """\
## Selected Projects
- **Idempotent payments API (Brightline):** Go service handling 1,200 requests/second at peak.
- **Batch → streaming (Harbourside):** nightly jobs moved to Kafka, cutting data delays from a day to 15 minutes.
"""


def test_a_project_drawn_from_the_cvs_work_is_an_entry_of_record(resume_checker: Checker) -> None:
    assert "entries" not in failed_checks(resume_checker, PROJECTS)
    assert "entries" in failed_checks(resume_checker, PROJECTS.replace("Idempotent payments API", "Fraud detection engine"))


def test_a_figure_tagged_with_its_holding_and_cents_on_the_dollar(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "Losses: −$5,312.40 on GOOG and −$6,606.00 on MSFT, so −$11,918.40 in total.",
                "Losses: −$6,606.00 on GOOG and −$5,312.40 on MSFT, so −$11,918.40 in total.")
    assert status_of(portfolio_verifier, "Our rules cap any single position at 30 cents on the dollar.") \
        is Status.SUPPORTED
    assert_pair(portfolio_verifier, "Apple is 44 cents on the dollar of the whole account.",
                "Apple is 54 cents on the dollar of the whole account.")


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("AAPL: OVERWEIGHT (+13.85 PTS OVER CAP)", "AAPL: OVERWEIGHT (+15.85 PTS OVER CAP)"),
        ("Put differently, every dollar put into Apple has turned into roughly $5.80.",
         "Put differently, every dollar put into Apple has turned into roughly $7.80."),
        ("You bought 250 shares of Apple in 2005; at $223.02 the gain is $46,142.50.",
         "You bought 250 shares of Apple in 2005; at $233.02 the gain is $46,142.50."),
    ],
)
def test_capital_units_every_dollar_put_in_and_a_price_before_a_gain(
    portfolio_verifier: Verifier, good: str, bad: str
) -> None:
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("3 triggered: AAPL over the cap (43.85%), GOOG long-held loss.",
         "3 triggered: AAPL over the cap (45.85%), GOOG long-held loss."),
        ("It's already flagged as a long-held loss (851 days).", "It's already flagged as a long-held loss (861 days)."),
    ],
)
def test_the_figure_that_trips_a_rule_beside_its_flag(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


def test_a_quarters_label_is_no_figure(portfolio_verifier: Verifier) -> None:
    from autogen_pse.claims import build_ledger

    ledger = build_ledger("Labels | `quarterly-review` `rebalance` `stop-loss` `Q1-2010`", portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("That is a gain of $51,266.60 or 67.55%.", "That is a gain of $51,266.60 or 57.55%."),
        ("Only IBM has avoided a peak-to-trough fall of more than 50%.",
         "Only Amazon has avoided a peak-to-trough fall of more than 50%."),
        ("At some point most of your stocks fell more than half from the top.",
         "At some point most of your stocks fell more than 60% from the top."),
        ("Amazon (48.0%) edges out Apple (47.1%) as the most volatile holding.",
         "Apple (47.1%) edges out Amazon (48.0%) as the most volatile holding."),
        ("Apple alone contributes about $46.1k of the $51.3k net gain.",
         "Apple alone contributes about $46.1k of the $55.3k net gain."),
    ],
)
def test_a_local_models_review_sentences(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    """Samples of the blind batch zw (a local 8B model's and a frontier model's reviews)."""
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


def test_a_figure_named_by_the_noun_after_it_and_part_of_a_gain(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "A portfolio with such a large Apple gain still carries $11.9k of unrealised losses.",
                "A portfolio with such a large Apple gain still carries $11.9k of unrealised gains.")
    row = "| AAPL | TRIM 79 units | Back to the 30% cap. Locks in part of a ~{}% gain. |"
    assert_pair(portfolio_verifier, row.format(480), row.format(580))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("We could redeploy part of the trim proceeds into Amazon.",
         "We could redeploy part of the trim proceeds into Microsoft to lower the average cost."),
        ("Don't put the trim cash into Google.", "Put the AAPL trim cash straight into GOOG."),
    ],
)
def test_money_moved_into_a_holding_is_a_purchase(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)
