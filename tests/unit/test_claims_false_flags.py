"""Faithful portfolio reviews that the old checks flagged: each cause of a false flag is fixed.

Every review below is true of the default portfolio (FACTS.txt, as of 2010-03-01) and written the
way people write reviews; the ledger must find nothing contradicted and nothing unverifiable —
and must still *read* the figures (they are supported, not skipped).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from tests.claims_support import check, claim, failing, findings, supported_by

ABBREVIATIONS = """\
# Portfolio review — Alex Example, 1 March 2010

## Summary

TL;DR: the portfolio is worth $127,157 against a cost of $75,891, an unrealised gain of 67.55%. Apple is 43.85% of the value, well above the 30% cap, and Microsoft has hit its stop-loss. None of this needs a CPA, but the Microsoft sale should go in ASAP.

## Findings

- **AAPL:** 43.85% of the portfolio and up 480.03% on cost; its maximum drawdown (DD) since 2005 was -56.91%. Overweight by 13.85 points.
- **AMZN:** up 241.97% on a 10.13% weight; max DD -54.16%. No trigger.
- **GOOG:** down 19.16% after 851 days, which makes it a long-held loss; the DD was -57.73% at the worst point.
- **IBM:** up 72.70%, with the lowest volatility of the five at 23.50%. No trigger.
- **MSFT:** down 27.66%, past the -20% stop-loss; the DD reached -63.42%.

None of the five is the subject of an SEC or FINRA action, and nothing here depends on one.

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit: -27.66% vs the -20% stop |
| 2 | TRIM | AAPL | 79 units ($17,607.87) | overweight: 43.85% vs the 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss: -19.16% after 851 days |
| 4 | HOLD | AMZN | — | no rule trigger |
| 5 | HOLD | IBM | — | no rule trigger |

## Next steps

- Place the MSFT sale and the AAPL trim ASAP and keep the cash until the next review.
- Re-run the review after the next monthly close.
"""

SP500 = """\
# Portfolio review — 1 March 2010

## Summary

The five holdings are worth $127,157.10 against $75,890.50 of cost, a gain of $51,266.60 (67.55%). The book is a concentrated bet on large US technology names rather than anything resembling the S&P 500, and Apple alone is 43.85% of it.

## Findings

- Apple (AAPL) is up 480.03% and, at 43.85%, sits 13.85 points above the 30% cap.
- Amazon (AMZN) is up 241.97% on a 10.13% weight; no rule is triggered.
- Google (GOOG) is down 19.16% and has been held for 851 days, so it is a long-held loss.
- IBM is up 72.70% and is the steadiest name, with 23.50% volatility; it moves more like the S&P 500 than the others do.
- Microsoft (MSFT) is down 27.66%, through the -20% stop-loss.

Measured against an S&P 500 tracker the portfolio carries far more single-stock risk.

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss: -27.66% vs -20% |
| 2 | TRIM | AAPL | 79 units | overweight: 43.85% vs the 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss of -19.16% |
| 4 | HOLD | AMZN | — | no trigger |
| 5 | HOLD | IBM | — | no trigger |

## Next steps

- Consider moving part of the trim proceeds into an S&P 500 index fund to dilute single-name risk.
- Re-run this review after the next monthly close.
"""

NUMBERED = """\
# Portfolio review, 1 March 2010

## 1. Summary

The portfolio is worth $127,157.10 and shows an unrealised profit of $51,266.60, or 67.55% on cost. Three holdings carry a rule trigger: Apple is overweight, Microsoft has hit its stop-loss and Google is a long-held loss.

## 2. Findings

- **AAPL** — weight 43.85%, profit 480.03%, held 1,885 days. Overweight.
- **AMZN** — weight 10.13%, profit 241.97%. No trigger.
- **GOOG** — weight 17.62%, loss -19.16% after 851 days. Long-held loss.
- **IBM** — weight 14.81%, profit 72.70%. No trigger.
- **MSFT** — weight 13.59%, loss -27.66%. Stop-loss hit and long-held loss.

## 3. Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit at -27.66% |
| 2 | TRIM | AAPL | 79 units ($17,607.87) | 43.85% against a 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss of -19.16% |
| 4 | HOLD | AMZN | — | within the limits |
| 5 | HOLD | IBM | — | within the limits |

## 4. Next steps

- Place the SELL and TRIM orders this week.
- Review Google again after the next monthly close.
"""

ROUNDED = """\
# Portfolio review — March 2010

## Summary

All told the portfolio is worth roughly $127k, about two-thirds more than the $76k it cost. The gain is lopsided: Apple alone accounts for roughly $46k of it and is now worth nearly six times what was paid for it.

## Findings

- **Apple (AAPL):** about 44% of the portfolio, against a 30% cap, and up roughly 480% since it was bought in 2005.
- **Amazon (AMZN):** worth $13k, about 10% of the book, and has more than tripled since 2007.
- **Google (GOOG):** down about 19% after being held for a little over two years, which makes it a long-held loss.
- **IBM:** about 15 % of the portfolio and up roughly 73%; no rule is triggered.
- **Microsoft (MSFT):** down nearly 28%, beyond the 20% stop-loss, after a decade in the portfolio.

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit, down about 28% |
| 2 | TRIM | AAPL | 79 units (about $17.6k) | roughly 44% against the 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss of about 19% |
| 4 | HOLD | AMZN | — | no trigger |
| 5 | HOLD | IBM | — | no trigger |

## Next steps

- Sell the Microsoft position and trim Apple back to the cap.
- Look at Google again after the next monthly close.
"""


@pytest.mark.parametrize("review", [ABBREVIATIONS, SP500, NUMBERED, ROUNDED],
                         ids=["abbreviations", "sp500", "numbered-heading", "rounded"])
def test_faithful_review_has_no_false_flag(portfolio_checker: Checker, review: str) -> None:
    report = check(portfolio_checker, review)
    assert report.contradicted == 0, failing(report)
    assert report.unverifiable == 0, failing(report)
    assert not report.fails
    assert report.grounding == 1.0
    assert report.factual >= 10  # the figures were read, not skipped


def test_abbreviations_are_not_tickers(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, ABBREVIATIONS)
    entity_findings = [f for c in report.claims for f in c["findings"] if f["kind"] == "entity"]
    assert entity_findings == []
    # the sentences around the abbreviations are still checked: their figures are supported
    tldr = claim(report, "TL;DR: the portfolio is worth $127,157 against a cost of $75,891, an unrealised gain "
                         "of 67.55%.")
    assert tldr["status"] == "supported"
    assert {e for f in findings(tldr, "supported") for e in f["evidence"]} >= {"total_value", "total_cost",
                                                                                "total_pnl_pct"}
    dd = claim(report, "**AAPL:** 43.85% of the portfolio and up 480.03% on cost; its maximum drawdown (DD) "
                       "since 2005 was -56.91%.")
    assert dd["status"] == "supported"
    assert "-56.91%" in supported_by(report, "AAPL.max_drawdown_pct")
    agencies = claim(report, "None of the five is the subject of an SEC or FINRA action, and nothing here "
                             "depends on one.")
    assert agencies["status"] in ("none", "supported")  # "the five" is n_holdings; SEC/FINRA are no names
    assert findings(agencies, kind="entity") == [] and findings(agencies, kind="statement") == []


def test_sp500_is_a_name_not_a_figure(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, SP500)
    for c in report.claims:
        if "S&P 500" in c["text"]:
            assert all("500" not in f["text"] for f in c["findings"]), c
            assert c["status"] in ("none", "supported"), c
    ibm = claim(report, "IBM is up 72.70% and is the steadiest name, with 23.50% volatility; it moves more "
                        "like the S&P 500 than the others do.")
    assert ibm["status"] == "supported"
    assert "23.50%" in supported_by(report, "IBM.volatility_pct")


def test_numbered_heading_keeps_the_actions_table_and_priorities_are_not_figures(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, NUMBERED)
    rows = [c for c in report.claims if c["kind"] == "row"]
    assert len(rows) == 5
    assert {c["section"] for c in rows} == {"actions"}
    for row in rows:
        priority = row["text"].split("|")[0].strip()
        figures = [f["text"] for f in findings(row, kind="figure")]
        assert priority not in figures, row
        assert row["status"] == "supported"
        assert any(f["kind"] == "action" for f in findings(row, "supported")), row
    # the amounts in the table are read (and true)
    assert "600" in supported_by(report, "MSFT.quantity")
    assert "79" in supported_by(report, "AAPL.trim_units")


@pytest.mark.parametrize(("written", "fact"), [
    ("15 %", "IBM.weight_pct"),          # 14.81 %
    ("$13k", "AMZN.market_value"),       # 12,882
    ("$46k", "AAPL.pnl"),                # 46,142.50, "roughly $46k"
    ("six times", "AAPL.multiple"),      # 5.80x, "nearly six times"
    ("19%", "GOOG.pnl_pct"),             # -19.16 %, "down about 19%"
    ("44%", "AAPL.weight_pct"),          # 43.85 %
    ("28%", "MSFT.pnl_pct"),             # -27.66 %, "down nearly 28%"
    ("tripled", "AMZN.multiple"),        # 3.42x, "more than tripled"
    ("$127k", "total_value"),
    ("two-thirds", "total_pnl_pct"),     # 67.55 %
])
def test_rounded_figures_are_supported_by_their_fact(portfolio_checker: Checker, written: str, fact: str) -> None:
    report = check(portfolio_checker, ROUNDED)
    assert written in supported_by(report, fact), failing(report)


def test_the_rounding_review_is_fully_grounded(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, ROUNDED)
    assert report.supported == report.factual


COMPARISONS = """\
## Findings

**Amazon's been the surprise.** Up about 242% since January 2007, and at ~47.5% a year it has compounded faster than Apple. It's also the most volatile position, with vol around 48%.

Apple is about two and a half times the size of Google, roughly three times the size of IBM, and has returned almost five times its cost.

## Next steps

- Sell the AAPL excess and the whole MSFT position, and hold the roughly $35k of proceeds in cash.
"""


def test_comparisons_ratios_and_proceeds_are_read(portfolio_checker: Checker) -> None:
    """The other side of a comparison is not what the next "it" is about; ratios between holdings
    are the ratio of their weights; proceeds of two sales may reach the sum of both positions."""
    report = check(portfolio_checker, COMPARISONS)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    rank = claim(report, "It's also the most volatile position, with vol around 48%.")
    assert findings(rank, "supported", "rank")
    ratio = claim(report, "Apple is about two and a half times the size of Google, roughly three times the size "
                          "of IBM, and has returned almost five times its cost.")
    assert len(findings(ratio, "supported", "figure")) == 3
