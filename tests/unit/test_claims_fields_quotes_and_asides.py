"""Artifacts in the forms of batch zzf (an agent's YAML output, a review written for a screen reader, an old
Word export's HTML tables), of what batch zze left failing and of older failures they led back to: a
report's dot-leader fields on consecutive lines, "No." in a label, a cell named between a metric and its
figure, a superlative in quotes, a direction set aside ("rather than a loss"), a share of the whole placed
by the words after it, a count within a subset, the panel that interviews a candidate, a translator's note
and a title held at an employer named before it. Each faithful form passes and its twin with one fact
changed fails.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier, build_ledger
from autogen_pse.claims.model import Status
from tests.claims_support import assert_clean, assert_pair, failed_checks, statuses

REPORT_FIELDS = """\
CONCENTRATION
  TOP 3 WT PCT (AAPL GOOG IBM) ............. 76.28
  HHI ..................................... 0.2740
  EFFECTIVE NO. OF HOLDINGS ................ 3.65

CONTROL TOTALS
  COST BASIS ALL POSITIONS ............................... 75,890.50
  POSITIONS READ ......................................... 5
  POSITIONS FLAGGED ...................................... 3
"""


def test_a_reports_dot_leader_fields_are_each_a_claim_of_its_own(portfolio_verifier: Verifier) -> None:
    ledger = build_ledger(REPORT_FIELDS, portfolio_verifier)
    assert_clean(portfolio_verifier, REPORT_FIELDS)
    fields = [c.text for c in ledger.claims if c.findings]
    assert any(t.startswith("EFFECTIVE NO. OF HOLDINGS") for t in fields), fields
    assert any(t.startswith("POSITIONS FLAGGED") for t in fields), fields
    assert_pair(portfolio_verifier, REPORT_FIELDS, REPORT_FIELDS.replace("0.2740", "0.3740"))
    assert_pair(portfolio_verifier, REPORT_FIELDS, REPORT_FIELDS.replace("75,890.50", "57,890.50"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # a cell named between the metric and its figure: the holding's own drawdown, not a ranking
        ("Apple: volatility in J3 is 47.12% and the worst drawdown in K3 is -56.91%.",
         "Apple: volatility in J3 is 47.12% and the worst drawdown in K3 is -65.91%."),
        # a direction set aside is said of nothing; one stated is checked
        ("I put Microsoft first; the Apple trim is about concentration rather than a loss.",
         "I put Microsoft first; the Apple trim is about concentration after a loss."),
        # the share of the whole that the words after it place: the top three
        ("So roughly three-quarters of your money is in three names.",
         "So roughly half of your money is in three names."),
        # a superlative in quotes is the words, not a ranking; unquoted it is a ranking
        ('Amazon\'s annualised return is high, so "best performer" and "smoothest ride" differ.',
         "Amazon's annualised return is high, so it is the best performer."),
        # a count within a subset ("in the top 3") is not a count of the whole portfolio
        ("Two gainers carry most of the weight in the top 3.", "Four gainers carry most of the weight."),
        # a mark ends what a negation before it denies
        ("**GOOG** ✅ not yet at the −20% stop ❌ −19.2% after 851 days = long-held loss",
         "**IBM** ✅ not yet at the −20% stop ❌ +72.7% after 1,339 days = long-held loss"),
        # "the next rebalance" is an event, no trim; "worth a trim" is advice
        ("symbol: GOOG; type: REVIEW; action: Long-held loss; re-examine before the next rebalance.",
         "symbol: GOOG; type: REVIEW; action: Long-held loss; worth a trim before the next rebalance."),
        # a rule named by its test is no holding's flag
        ("The case applies the portfolio's written rules (a 30% cap, a −20% stop-loss and a long-held-loss test).",
         "The case applies the portfolio's written rules (a 30% cap, a −20% stop-loss) to Apple, a long-held loss."),
    ],
)
def test_portfolio_wordings(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    "line",
    [
        "**Panel interview — slide outline** Staff Backend Engineer, Payments Platform",
        "Everything the panel needs is on this slide; the rest is supporting detail.",
        "Translator's note: the original form gives years in the Japanese era system.",
        "(2021) | | Acquired AWS Certified Solutions Architect – Associate",
    ],
)
def test_cv_lines_that_claim_nothing_new(resume_verifier: Verifier, line: str) -> None:
    assert statuses(resume_verifier, line) <= {Status.NONE, Status.SUPPORTED}


@pytest.mark.parametrize(
    "line",
    [
        "Spoke on a panel at KubeCon about Kafka.",
        "Acquired the Confluent Certified Developer certification in 2022.",
        # deeds the job ad asks for and the CV never states
        "Introduced a design-document template used across engineering.",
        "I wrote the design documents for our settlement and reconciliation flows.",
        "Organiser of the Manchester Go meetup.",
        "I was named Brightline's Engineer of the Year for the payments API work.",
        "Designed an idempotent payments API in Go; design adopted as the standard for all new payment services.",
    ],
)
def test_cv_lines_that_claim_what_the_cv_does_not(resume_verifier: Verifier, line: str) -> None:
    assert statuses(resume_verifier, line) & {Status.CONTRADICTED, Status.UNVERIFIABLE}, line


WORD_HTML_CV = """\
# Elena Marsh

## Experience

<table border="0" cellspacing="0" cellpadding="2" width="100%">
<tr>
<td width="25%" valign="top"><font face="Calibri" size="2">Mar 2020 &ndash; Present</font></td>
<td valign="top"><font face="Calibri" size="2"><b>Senior Backend Engineer</b> &ndash; Brightline Payments Ltd</font></td>
</tr>
<tr>
<td valign="top">&nbsp;</td>
<td valign="top"><font face="Calibri" size="2">
&bull;&nbsp;Designed an idempotent payments API in Go handling 1,200 requests per second at peak.<br>
&bull;&nbsp;Cut monthly cloud spend by 35% ($420,000 a year) by consolidating PostgreSQL clusters.<br>
</font></td>
</tr>
</table>
"""


def test_an_html_tables_attributes_are_layout_not_figures(resume_verifier: Verifier) -> None:
    """'<td width="25%" valign="top">' is no log line of fields, and its width no figure of the CV."""
    assert_clean(resume_verifier, WORD_HTML_CV)
    assert_pair(resume_verifier, WORD_HTML_CV, WORD_HTML_CV.replace("by 35%", "by 53%"))


def test_a_title_held_at_an_employer_named_before_it(resume_checker: Checker) -> None:
    line = "I joined Brightline Payments as a {} Backend Engineer and designed its payments API in Go."
    assert "titles" not in failed_checks(resume_checker, line.format("Senior"))
    assert "titles" in failed_checks(resume_checker, line.format("Staff"))  # the job sought, not the one held


AGENT_YAML = """\
```yaml
positions:
  - symbol: GOOG
    pnl_pct: -19.16
    annualised_return_pct: {ret}
    long_held_loss: yes
    stop_loss_hit: no        # -19.16% is just above -20%
  # the small {extra} position was not priced by the tool
risk:
  by_symbol:
    AAPL: {{volatility_pct: 47.12, max_drawdown_pct: -56.91}}
    GOOG: {{volatility_pct: 36.91, max_drawdown_pct: -57.73}}
triggers:
  AAPL: ["overweight"]          # 43.85% vs 30% cap
  GOOG: ["long_held_loss"]      # {goog}, 851 days
trades:
  - action: {action}
    symbol: AAPL
    units: 79
    est_value: 17607.87
```
"""
YAML_FIELDS = {"extra": "unpriced", "goog": "-19.16%", "action": "TRIM", "ret": "-8.73"}


@pytest.mark.parametrize(
    ("field", "fabricated"),
    [("extra", "Cisco (CSCO)"), ("goog", "-27.66%"), ("action", "BUY"), ("ret", "8.73")],
)
def test_an_agents_yaml_output(portfolio_verifier: Verifier, field: str, fabricated: str) -> None:
    """A list item named by a later key ("- action: TRIM / symbol: AAPL"), a trade's amount, a flag's "no",
    a comment line, a percentage key's unsigned value (a gain) and tickers keying a mapping twice (no
    speaker labels) are read as the data they are."""
    faithful = AGENT_YAML.format(**YAML_FIELDS)
    assert_clean(portfolio_verifier, faithful)
    assert_pair(portfolio_verifier, faithful, AGENT_YAML.format(**{**YAML_FIELDS, field: fabricated}))


ALT_TEXT = """\
Image: timeline chart. A horizontal line runs from two thousand to two thousand ten. The first marker, at
January two thousand, is Microsoft.

Bullet. Apple: volatility forty-seven point one percent, worst drawdown minus {dd} percent.

Priority two. Trim Apple by seventy-nine shares. That is worth about {value} dollars.
"""


@pytest.mark.parametrize(
    ("field", "fabricated"),
    [("dd", "sixty-three point four"), ("value", "twenty-seven thousand")],
)
def test_a_screen_reader_review(portfolio_verifier: Verifier, field: str, fabricated: str) -> None:
    """Years and figures in words, "worst drawdown minus …" (the holding's own, not a ranking) and "That is
    worth …" after a trim (the trim's value)."""
    values = {"dd": "fifty-six point nine", "value": "seventeen thousand, six hundred eight"}
    faithful = ALT_TEXT.format(**values)
    assert_clean(portfolio_verifier, faithful)
    assert_pair(portfolio_verifier, faithful, ALT_TEXT.format(**{**values, field: fabricated}))


CV_LEADERS = """\
Some numbers, since that's what people ask for:

  p95 API latency (Redis + Postgres tuning) ... {latency}
  shipment-tracking events processed ... 2M/day
"""


def test_a_cvs_figures_after_three_dot_leaders(resume_verifier: Verifier) -> None:
    """ "… processed ... 2M/day": three spaced dots lead to the figure (no ellipsis ending a sentence), each
    line a row of its own."""
    faithful = CV_LEADERS.format(latency="-60%")
    assert_clean(resume_verifier, faithful)
    assert_pair(resume_verifier, faithful, CV_LEADERS.format(latency="-70%"))
