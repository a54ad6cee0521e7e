"""A review written as a MediaWiki page, a review pasted from a terminal-like screen, a CV converted
from Word by pandoc (grid tables) and a recruiter's screen notes: each faithful sample passes the
ledger, and its twin with one fact changed fails.

The samples come from the blind batch zt (tests/fixtures/claims/<task>/zt).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.formats import read_document
from tests.claims_support import assert_pair, check, failing, status_of, statuses

WIKI = """\
{{Infobox holding
| company       = [[Apple Inc.]]
| ticker        = AAPL
| units         = 250
| weight        = 43.85%
| opened        = 2005-01-01
}}
'''Apple (AAPL)''' is the largest holding in the portfolio.<ref>[[Investment rules]], rule 1.</ref>

== Weights ==
{| class="wikitable sortable"
! # !! Holding !! Market value (USD) !! Weight !! Weight²
|-
| 1 || [[Apple Inc.|Apple]] || 55,755.00 || 43.85% || 0.1923
|-
| 2 || [[Google]] || 22,407.60 || 17.62% || 0.0310
|-
| 3 || [[IBM]] || 18,832.50 || 14.81% || 0.0219
|-
| 4 || [[Microsoft]] || 17,280.00 || 13.59% || 0.0185
|-
| 5 || [[Amazon.com|Amazon]] || 12,882.00 || 10.13% || 0.0103
|-
! colspan="2" | Total !! 127,157.10 !! 100.00% !! 0.2740
|}

== Side by side ==
{| class="wikitable"
! !! [[Google]] (GOOG) !! [[Microsoft]] (MSFT)
|-
! Units
| 40 || 600
|-
! Days held
| 851 || 3,712
|}

* Only one holding breaches the cap.
* Two holdings have loss triggers under the [[Stop-loss rules]].
Amazon and IBM carry no trigger.

:OK, I can live with REVIEW for Google as long as nobody proposes buying more. --[[User:PM|PM]] ([[User talk:PM|talk]])

[[Category:Portfolio reviews]]
"""


def test_a_wiki_page_is_read_as_markdown() -> None:
    text = read_document(WIKI).text
    assert "## Weights" in text and "'''" not in text and "[[" not in text and "<ref>" not in text
    assert "| Total |  | 127,157.10 | 100.00% | 0.2740 |" in text  # colspan: an empty cell after "Total"
    assert "| Units | 40 | 600 |" in text  # a row header and its cells on the next line: one row
    assert "infobox holding:\n  ticker: AAPL\n  company: Apple Inc." in text  # the naming field first
    assert "Category" not in text and "User" not in text  # categories and signatures go


def test_a_wiki_review_passes(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, WIKI, "review.wiki")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("| 2 || [[Google]] || 22,407.60 || 17.62%", "| 2 || [[Google]] || 22,407.60 || 19.62%"),
        ("| 40 || 600", "| 40 || 650"),
        ("Only one holding breaches the cap.", "Two holdings breach the cap."),
        ("Two holdings have loss triggers", "Three holdings have loss triggers"),
        ("!! 0.2740", "!! 0.3120"),  # a total row's figure is the column's sum
        ("| weight        = 43.85%", "| weight        = 34.85%"),
        ("nobody proposes buying more", "we propose buying more"),
    ],
)
def test_wiki_twins_fail(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in WIKI
    assert check(portfolio_checker, WIKI.replace(good, bad), "review.wiki").contradicted >= 1


SCREEN = """\
```
PERF  CONTRIBUTION & RETURN                               2010-03-01
 F2 Hold  F3 Perf  F4 Contrib  F5 Risk  F6 Rules  F8 Act
 -------------------------------------------------------------------
 SYM    YRS HELD   MV/COST    CAGR     P&L $        CONTRIB
 MSFT     10.2      0.72x     -3.14    -6,606.00    -12.9%
 AAPL      5.2      5.80x    +40.58   +46,142.50    +90.0%
 IBM       3.7      1.73x    +16.07    +7,927.50    +15.5%
 -------------------------------------------------------------------
 PORT                1.68x             +51,266.60   100.0%
```

 Ticker    Opened      Days    P&L%      CAGR     VOL(36M)    MDD
 AAPL   2005-01-01   1,885   480.03    40.58      47.12    -56.91
 GOOG   2007-11-01     851   -19.16    -8.73      36.91    -57.73

 SIDE   SEC     QTY    REF PX     EST VALUE     RULE
 TRIM   AAPL     79    223.02     17,618.58     TRIM to cap
 SELL   MSFT    600     28.80     17,280.00     STOP / LH-LOSS

 AAPL   TRIM    -79      back to cap, cash stays in acct
 MSFT   SELL    -600     stop hit + long-held loss
 GOOG   HOLD     0       LH-loss, review next cycle

Apple: at $223.02 that is 78.95 units, so 79 whole units. For Google, the stop-loss level would be a close of about $554.40.
"""


def test_a_terminal_screen_passes(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, SCREEN, "review.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("+90.0%", "+80.0%"),  # CONTRIB: the share of the total gain
        ("     36.91    -57.73", "     39.91    -57.73"),  # under "VOL(36M)", a header with a digit in a name
        ("17,618.58     TRIM", "77,618.58     TRIM"),  # an order's value: at most the holding's value
        ("MSFT   SELL    -600", "MSFT   SELL    -900"),  # an order's units: at most those held
        ("78.95 units", "88.95 units"),
        ("about $554.40", "about $584.40"),
    ],
)
def test_terminal_screen_twins_fail(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in SCREEN
    assert check(portfolio_checker, SCREEN.replace(good, bad, 1), "review.md").contradicted >= 1


GRID_CV = """\
Elena Marsh — Senior Backend Engineer

How my experience maps to the role
----------------------------------

+-------------------------------+---------------------------------------+
| **You are looking for**       | **Where I have done it**              |
+===============================+=======================================+
| Kafka or event streaming      | Moved nightly batch jobs to Kafka     |
|                               | streams (24 h → 15 min data delay)    |
+-------------------------------+---------------------------------------+
| Payments experience           | Idempotent payments API in Go, 1,200  |
|                               | requests/second at peak               |
+-------------------------------+---------------------------------------+
"""


def test_a_grid_table_is_read_as_a_pipe_table() -> None:
    text = read_document(GRID_CV).text
    assert "| Payments experience | Idempotent payments API in Go, 1,200 requests/second at peak |" in text
    assert "+----" not in text and "|---|---|" in text


def test_a_grid_table_cv_passes_and_its_twin_fails(resume_checker: Checker) -> None:
    report = check(resume_checker, GRID_CV, "cv.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert check(resume_checker, GRID_CV.replace("1,200  |", "1,500  |"), "cv.md").contradicted >= 1


def test_a_duration_is_of_the_role_named_after_it(resume_verifier: Verifier) -> None:
    said = ("Before that almost three years as a Backend Engineer at Harbourside Logistics (June 2017 to February "
            "2020), and before that just under {} years as a Software Developer at Copperleaf Studio.")
    assert_pair(resume_verifier, said.format("two"), said.format("four"))


def test_the_ads_words_quoted_are_no_title_and_its_points_no_figure(resume_checker: Checker) -> None:
    notes = ('Senior Backend Engineer at Brightline Payments Ltd.\n\n'
             '**"Lead the move of the remaining batch settlement jobs to event streaming"**\n'
             'Very direct match: she moved nightly batch jobs to Kafka streams at Harbourside.\n\n'
             '**"Make our Kubernetes platform on AWS cheaper"** Two pieces of evidence here.\n')
    failed = {r.name for r in resume_checker.check(notes) if not r.ok and r.severity == "error"}
    assert not failed & {"titles", "claims", "unverifiable"}, failed


def test_an_unsupported_superlative_about_her_is_caught(resume_verifier: Verifier) -> None:
    assert status_of(resume_verifier, "She's the strongest Go engineer at Brightline.") is Status.CONTRADICTED


def test_a_screens_short_dates_are_dates(portfolio_verifier: Verifier) -> None:
    row = "| Sec | Open | Qty |\n|---|---|---|\n| IBM | {} | 150 |\n"
    assert_pair(portfolio_verifier, row.format("07/01/06"), row.format("07/01/07"))  # month first, two-digit year


def test_a_ticker_opening_a_sentence_is_still_a_name(portfolio_verifier: Verifier) -> None:
    said = "{} also sitting in the book near cost, no trigger, leave it."
    assert status_of(portfolio_verifier, said.format("CSCO")) is Status.CONTRADICTED
    assert Status.CONTRADICTED not in {c.status for c in build_ledger(said.format("AMZN"), portfolio_verifier).claims}


def test_the_book_without_one_holding(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "AAPL ≈ 90% of total P/L; ex-AAPL the book is up ~$5.1k.",
                "AAPL ≈ 90% of total P/L; ex-AAPL the book is up ~$9.1k.")
    assert_pair(portfolio_verifier,
                "Strip Apple out and the other four together are up $5,124.10 on $66,278 of cost, about 7.7%.",
                "Strip Apple out and the other four together are up $5,124.10 on $66,278 of cost, about 9.7%.")


def test_a_holding_named_in_passing_is_not_the_subject_of_its(portfolio_verifier: Verifier) -> None:
    said = ("Apple is over the cap. It is the largest of the top three holdings (76.28% combined, with Google "
            "and IBM), and its squared weight is about {}.")
    assert_pair(portfolio_verifier, said.format("0.19"), said.format("0.03"))  # 0.03 is Google's


PRO_FORMA = """\
```
                 ---- CURRENT ----           ---- PRO-FORMA ----
 SEC           QTY        MV     WGT       QTY        MV     WGT
 AAPL          250  55,755.00  43.85       171  38,136.42  29.99
 GOOG           40  22,407.60  17.62        40  22,407.60  17.62
```
"""


def test_a_pro_forma_column_group_is_not_checked_against_today(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, PRO_FORMA, PRO_FORMA.replace("250  55,755.00", "250  65,755.00"))


def test_a_skill_since_a_year_in_a_table_row_is_the_careers(resume_verifier: Verifier) -> None:
    row = "| You are looking for | Where I have done it |\n|---|---|\n| 7+ years | 9 years; Python since {}, Go at " \
          "Brightline Payments |\n"
    assert_pair(resume_verifier, row.format("2015"), row.format("2012"))


def test_a_selling_point_is_no_ranking(resume_verifier: Verifier) -> None:
    assert Status.CONTRADICTED not in statuses(resume_verifier, "Her strongest selling point is the Kafka migration.")


def test_a_psql_table_is_no_grid_table() -> None:
    session = ("cv=# SELECT * FROM education;\n+-----------+------+\n|  degree   | year |\n+-----------+------+\n"
               "| MSc CS    | 2015 |\n| BSc Maths | 2014 |\n+-----------+------+\n(2 rows)\n\ncv=# \\q\n")
    text = read_document(session).text
    assert "MSc CS" in text and "MSc CS    | 2015 |\n| BSc Maths" in text  # a row a line, not one joined row


DATAFRAME = """\
```
             close      years     cagr
    symbol
    AAPL    223.02   5.160849   0.4058
    MSFT     28.80  10.162902  -0.0314
```
"""


def test_a_printed_dataframe_has_its_header_over_the_index_name(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, DATAFRAME, DATAFRAME.replace("5.160849", "6.160849"))  # years held


def test_plain_english_counts_and_references(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "One of your shares has hit the stop-loss.",
                "Three of your shares have hit the stop-loss.")  # "of your shares": holdings
    for said in ("Microsoft is the only one of your shares to have reached this point.",
                 "We only sell a share outright when rule two or three applies.",
                 "Two of your shares fall under this rule.",  # the rule named before
                 "MSFT: 3,712 days, -27.66% → yes. The others are in profit, so no."):
        assert Status.CONTRADICTED not in statuses(portfolio_verifier, said), said


def test_the_holdings_owned_and_the_top_threes_share(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "You own five shares, but the portfolio behaves as if you owned fewer than four.",
                "You own six shares, but the portfolio behaves as if you owned fewer than four.")
    assert_pair(portfolio_verifier, "One holding above the cap, and c. 76 per cent of value in the top three.",
                "One holding above the cap, and c. 66 per cent of value in the top three.")


PULL_REQUEST = """\
Trim AAPL back to the cap (#42)

```diff
--- a/portfolio.yaml
+++ b/portfolio.yaml
@@ -12,4 +12,5 @@
 holdings:
   AAPL:
-    excess_value: 0
+    excess_value: 17607.87
+    trim_units: 79
```
"""


def test_a_pull_requests_diff_is_read_as_the_file_it_leaves(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, PULL_REQUEST, PULL_REQUEST.replace("17607.87", "16607.87"))
    text = read_document(PULL_REQUEST).text
    assert "excess_value: 0" not in text and "@@" not in text  # the removed line and the hunk header go


QA_PAGE = """\
**Should I sell my Microsoft shares?**

[question] **11** votes · 4 answers · 2.3k views
> asked by **mrs_okonkwo** (145)

**21** ✔

Microsoft is down 27.66% on cost, past the −20% stop-loss, so selling is allowed.

— **Hollis Grant** · 9,610
— *qm_ledger* (3,402)
"""


def test_a_qa_sites_furniture_claims_nothing(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, QA_PAGE, "answer.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert check(portfolio_checker, QA_PAGE.replace("27.66%", "22.66%"), "answer.md").contradicted == 1
