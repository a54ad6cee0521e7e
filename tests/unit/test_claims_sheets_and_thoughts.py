"""Artifacts in the forms of the corpus batch zzc and of older failures it led back to: a reasoning
model's leaked deliberation before the CV, a developer's README CV with inline HTML and character
references, a spreadsheet's per-share columns, a PDF table's rows and total line, a card's lines,
words hyphenated across lines, a dotted list of achievements, "45m→6m" in a one-line-per-role CV and
a change written with an arrow.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier, build_ledger, mend
from autogen_pse.claims.model import Status
from tests.claims_support import assert_pair, failed_checks

THINK_CV = """\
<think>
The job wants Python or Go, Kubernetes on AWS, PostgreSQL and Kafka. Nice to have: Rust, gRPC, Terraform.
She has no Rust or gRPC, so I must not add them. Put the Kafka move first under Harbourside.
Years: 2015 MSc Leeds, 2014 BSc York, 2021 AWS, 2022 CKAD.
</think>

# Elena Marsh

Senior Backend Engineer · Manchester, UK

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present

- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.

## Education

- MSc Computer Science, University of Leeds, 2015
"""



def test_a_leaked_deliberation_is_no_part_of_the_cv(resume_checker: Checker, resume_verifier: Verifier) -> None:
    assert not failed_checks(resume_checker, THINK_CV)
    thought = [c for c in build_ledger(THINK_CV, resume_verifier).claims if c.line <= 5]
    assert thought and all(c.status is Status.NONE for c in thought)  # read, not checked
    assert_pair(resume_verifier, THINK_CV, THINK_CV.replace("1,200 requests", "2,100 requests"))
    # the CV after it is still read as a CV: a degree it does not hold fails
    assert "degrees" in failed_checks(resume_checker, THINK_CV.replace("- MSc Computer", "- PhD Computer"))


def test_character_references_in_a_readme_cv(resume_checker: Checker) -> None:
    cv = ('<h1 align="center">Elena Marsh</h1>\n\n<p align="center">\n'
          "  Senior Backend Engineer &middot; Manchester, UK<br>\n</p>\n")
    assert "titles" not in failed_checks(resume_checker, cv)
    assert "titles" in failed_checks(resume_checker, cv.replace("Senior Backend Engineer", "Principal Engineer"))


def test_a_summary_paragraph_is_no_head_for_the_highlights_under_it(resume_verifier: Verifier) -> None:
    cv = (
        "## Summary\n\nBackend engineer with 9 years of experience building payment and logistics platforms in "
        "Python and Go, currently at Brightline Payments. Has led teams of up to 6 engineers and cut infrastructure "
        "costs by 35% through service consolidation.\n\n"
        "- **Batch to streaming:** moved nightly batch jobs to Kafka streams, cutting data delays from 24 hours to "
        "15 minutes.\n"
    )
    assert_pair(resume_verifier, cv, cv.replace("from 24 hours", "from 42 hours"))


def test_a_date_is_not_of_a_name_in_a_later_clause(resume_verifier: Verifier) -> None:
    text = ("Payments experience sits entirely in the current role (since March 2020); her earlier backend years "
            "were logistics (Harbourside) and client web work (Copperleaf).")
    assert_pair(resume_verifier, text, text.replace("March 2020", "March 2019"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # "m" after a time: minutes, not months
        ("`2020–now` **Brightline Payments** Sr Backend Eng: 14 svcs→k8s (deploy 45m→6m); cloud −35%",
         "`2020–now` **Brightline Payments** Sr Backend Eng: 14 svcs→k8s (deploy 45m→9m); cloud −35%"),
        # a line starting with a year in code is a record of its own, not the role line's end
        ("`2015–2017` **Copperleaf Studio** (Leeds) Software Dev: Jenkins CI, coverage 40→85%\n"
         "`2015` MSc Computer Science, Univ of Leeds\n`2021` AWS Certified Solutions Architect – Associate",
         "`2015–2017` **Copperleaf Studio** (Leeds) Software Dev: Jenkins CI, coverage 40→58%\n"
         "`2015` MSc Computer Science, Univ of Leeds\n`2021` AWS Certified Solutions Architect – Associate"),
        # a name in a later item of a dotted list is that item's
        ("Payments backend in Go (idempotent API, 1,200 req/s peak) · 14 services moved from a monolith to "
         "Kubernetes on AWS · Kafka streams replacing nightly batch at Harbourside",
         "Payments backend in Go (idempotent API, 1,500 req/s peak) · 14 services moved from a monolith to "
         "Kubernetes on AWS · Kafka streams replacing nightly batch at Harbourside"),
        # a change written with an arrow, the other way round
        ("Brightline Payments (Sr Backend Eng) 03/20–now: 14 Python svcs monolith→k8s on AWS, deploy 45→6 min",
         "Brightline Payments (Sr Backend Eng) 03/20–now: 14 Python svcs k8s→monolith on AWS, deploy 45→6 min"),
    ],
)
def test_one_line_per_role_forms(resume_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(resume_verifier, good, bad)


def test_an_arrow_mapping_a_requirement_is_no_change(resume_verifier: Verifier) -> None:
    text = "Kafka/streaming → batch→Kafka at Harbourside, 24h delay → 15 min"
    assert Status.CONTRADICTED not in {c.status for c in build_ledger(text, resume_verifier).claims}


def test_a_school_ends_at_its_sentence(resume_checker: Checker) -> None:
    cv = ("## Education\n\nShe holds an MSc in Computer Science from the University of Leeds and a BSc in "
          "Mathematics from the University of York. I'm an AWS Certified Solutions Architect – Associate.\n")
    assert "degrees" not in failed_checks(resume_checker, cv)
    assert "degrees" in failed_checks(resume_checker, cv.replace("University of York", "University of Bristol"))


def test_a_project_named_for_what_it_improved(resume_checker: Checker) -> None:
    cv = ("## Projects\n\n### Cloud cost\nMonthly cloud spend down 35% ($420,000 a year) at Brightline.\n\n"
          "### Faster APIs\np95 API latency down 60% at Harbourside Logistics.\n")
    assert "entries" not in failed_checks(resume_checker, cv)
    assert "entries" in failed_checks(resume_checker, cv.replace("### Faster APIs", "### Fraud scoring engine"))


SHEET = """\
```
        A       B (cost/sh)   C (close)   D = C-B     E = D/B     F = B*(1+$B$9)   G = C/F-1
   1    Sym     Cost          Close       Chg/sh      Chg %       Stop price       Cushion vs stop
   2    AAPL     38.45        223.02      184.57      480.03%      30.76           625.03%
   4    GOOG    693.00        560.19     -132.81      -19.16%     554.40             1.04%
   6    MSFT     39.81         28.80      -11.01      -27.66%      31.85            -9.57%
```
"""


@pytest.mark.parametrize("changed", [("-132.81", "-123.81"), ("625.03%", "652.03%"), ("-9.57%", "-7.59%")])
def test_a_sheets_unnamed_columns_hold_the_holdings_own_figures(portfolio_verifier: Verifier,
                                                                  changed: tuple[str, str]) -> None:
    assert_pair(portfolio_verifier, SHEET, SHEET.replace(*changed))


def test_a_pdf_tables_rows_and_total_line(portfolio_verifier: Verifier) -> None:
    table = (
        "Symbol Close Market value Weight P/L P/L %\n"
        "IBM 125.55 18,832.50 14.81% 7,927.50 72.70%\n"
        "MSFT 28.80 17,280.00 13.59% -6,606.00 -27.66%\n"
        "Total 127,157.10 100.00% 51,266.60 67.55%\n"
    )
    ledger = build_ledger(table, portfolio_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    assert [c.line for c in ledger.claims if "MSFT" in c.text] == [3]  # the total is a line of its own
    assert_pair(portfolio_verifier, table, table.replace("-27.66%", "-22.66%"))


def test_a_cards_lines_each_say_one_thing(portfolio_verifier: Verifier) -> None:
    card = (
        "  * The Googlers (Google) — 40 shares @ $560.19\n"
        "      ~ $22,410, about 17.6%\n"
        "      DOWN ~$5,310, about 19%\n"
        "  * The Seattle shop (Amazon) — 100 shares @ $128.82\n"
        "      ~ $12,880, about 10.1%\n"
        "      Up ~$9,115, about 242%\n"
    )
    assert_pair(portfolio_verifier, card, card.replace("about 17.6%", "about 21.6%"))


def test_a_word_hyphenated_across_lines_keeps_its_hyphen_when_the_text_writes_it() -> None:
    text = "GOOG long-held loss; MSFT stop-loss, long-\nheld loss; Post-\ngreSQL"
    mended = mend(text)
    assert len(mended) == len(text) and mended.count("\n") == text.count("\n")
    assert "long-held\n" in mended and "PostgreSQL\n" in mended


def test_a_clause_with_its_own_subject_is_not_named_by_the_words_before(portfolio_verifier: Verifier) -> None:
    text = ("Apple's share price is now almost six times what you paid, and it accounts for $46,142.50 of your "
            "$51,266.60 total gain.")
    assert_pair(portfolio_verifier, text, text.replace("$46,142.50", "$41,642.50"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # "together" after an entry's head and a sentence about the second holding: both of them
        ("**International Business Machines Corp.** (IBM) and **Amazon.com, Inc.** (AMZN) are both in profit.\n"
         "Amazon is up about 242%. Together they're about a quarter of the portfolio — roughly 24.9%.",
         "**International Business Machines Corp.** (IBM) and **Amazon.com, Inc.** (AMZN) are both in profit.\n"
         "Amazon is up about 242%. Together they're about a third of the portfolio — roughly 33.9%."),
        ("Apple has grown to about 44% of everything you hold.", "Apple has grown to about 54% of everything you hold."),
        ("More than three quarters of the money sits in three names.",
         "More than nine tenths of the money sits in three names."),
        # a level, then a change: not one range of percentages
        ("MSFT: 600 sh, close 28.80 vs cost 39.81 → -27.66%", "MSFT: 600 sh, close 28.80 vs cost 93.81 → -27.66%"),
    ],
)
def test_shares_of_the_whole(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    "scenario",
    [
        "At a 43.85% weight, a repeat of that fall would cost the portfolio roughly a quarter of its value; at 30%, "
        "roughly 17%.",
        "Google has not hit the stop-loss: a close at or below $554.40 would put it at −20% or worse.",
        "If you moved all of IBM into Apple, Apple would be around 58.7% of everything you own.",
    ],
)
def test_a_scenario_claims_nothing(portfolio_verifier: Verifier, scenario: str) -> None:
    ledger = build_ledger(scenario, portfolio_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    # the same figures stated as facts are checked
    assert build_ledger("Apple is around 58.7% of everything you own.", portfolio_verifier).contradicted


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("On its own Apple has made about nine out of every ten dollars of your gain.",
         "On its own Apple has made about six out of every ten dollars of your gain."),
        ("So roughly nine dollars in every ten of profit came from Apple.",
         "So roughly six dollars in every ten of profit came from Apple."),
        ("Apple has the bigger total gain, but Amazon got there faster because it's been held for about two years "
         "less.",
         "Apple has the bigger total gain, but Amazon got there faster because it's been held for about four years "
         "less."),
        # a fruit tree is no holding: the sentences after it are still Microsoft's
        ("*Microsoft* is the old apple tree that stopped bearing fruit. It's been in the garden a little over ten "
         "years, and it's down by a bit more than a quarter.",
         "*Microsoft* is the old apple tree that stopped bearing fruit. It's been in the garden a little over six "
         "years, and it's down by a bit more than a quarter."),
    ],
)
def test_figures_in_words_and_comparisons(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("MSFT: 3,712 days. Stop-loss hit + long-held loss. ~5x the 730-day threshold.",
         "MSFT: 3,712 days. Stop-loss hit + long-held loss. ~3x the 730-day threshold."),
        ("Google: she's held it about two and a third years, and it's down more than ten percent.",
         "Google: she's held it about four and a third years, and it's down more than ten percent."),
        # an amount of the set the clause names after it
        ("More than two thirds of the invested money (51.6k USD of 75.9k) was put in the two positions which are "
         "now in loss, Google and Microsoft.",
         "More than two thirds of the invested money (56.1k USD of 75.9k) was put in the two positions which are "
         "now in loss, Google and Microsoft."),
    ],
)
def test_levels_periods_and_sets(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


def test_the_money_of_a_sale_is_no_purchase_of_its_holding(portfolio_verifier: Verifier) -> None:
    text = ("**Hold Amazon and IBM.** No flags. If he wants to put some of the Apple cash to work, these are the only "
            "two the rules let him add to.")
    assert_pair(portfolio_verifier, text, "Use some of the Apple cash to add to Google.")


def test_the_actions_of_other_clauses(portfolio_verifier: Verifier) -> None:
    text = ("IBM carries no Trigger; the Adviser proposes to consider a purchase at the next meeting, once the TRIM "
            "and SELL in Clauses 6.1 and 6.2 have been completed.")  # (their numbers blanked as references)
    assert_pair(portfolio_verifier, text, "IBM carries no Trigger; the Adviser proposes to SELL it at the next meeting.")


def test_a_count_of_the_holdings_a_purchase_is_allowed_for(portfolio_verifier: Verifier) -> None:
    text = "AMZN and IBM carry no flags. They are the only two names where adding would be within the rules."
    assert_pair(portfolio_verifier, text, text.replace("only two names", "only three names"))


APP_CARD = """\
```
Apple
$223.02
Your position
Shares            Market value
250               $55,755.00
Average cost      Portfolio diversity
$38.45            43.85%
Total return      +$46,142.50 (+480.03%)
```
"""


def test_an_app_cards_grid_of_labels_over_figures(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, APP_CARD, APP_CARD.replace("250               $55,755.00",
                                                               "250               $57,555.00"))
    shares = [c for c in build_ledger(APP_CARD, portfolio_verifier).claims if "250" in c.text]
    assert shares and all(c.status is Status.SUPPORTED for c in shares)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("- **Google (GOOG)** — Weight 17.62%. **Trigger: long-held loss** (851 ≥ 730 days, -19.16% ≤ -10%).",
         "- **Google (GOOG)** — Weight 17.62%. **Trigger: long-held loss** (951 ≥ 730 days, -19.16% ≤ -10%)."),
        ("Google: don't add to it, since BUY is off the table for a long-held loss.",
         "IBM is flagged for a long-held loss."),
        ("> **Your portfolio**\n> $127,157.10\n> 5 holdings · Updated Mar 1, 2010",
         "> **Your portfolio**\n> $127,157.10\n> 5 holdings · Intel Corp. (INTC)"),
        ("Combined, the two losers cost the book ($11,918.40) of unrealised P&L.",
         "Combined, the two losers cost the book ($19,118.40) of unrealised P&L."),
    ],
)
def test_comparisons_rules_and_labels(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


def test_a_title_starting_like_a_month_keeps_its_first_word(resume_checker: Checker) -> None:
    # "Junior" is no "Jun", "Marketing" no "Mar": a date word is a month's name, whole
    cv = "## Experience\n\n**{title}**, Harbourside Logistics GmbH (Jun 2017 – Feb 2020)\n- Moved batch jobs to Kafka.\n"
    assert "titles" not in failed_checks(resume_checker, cv.format(title="Backend Engineer"))
    assert "titles" in failed_checks(resume_checker, cv.format(title="Junior Backend Engineer"))
    assert "titles" in failed_checks(resume_checker, cv.format(title="Marketing Engineer"))
