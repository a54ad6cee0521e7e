"""Numbers and dates written the way other locales write them are read as the figures they are."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims.number_formats import decimal_comma, normaliser
from tests.claims_support import check, failing

EU_REVIEW = """\
## Summary

The portfolio is having a total value of 127.157,10 USD at 01.03.2010, for a cost of 75.890,50 USD.

## Findings

- **Apple (AAPL)** – weight 43,85 %, profit +46.142,50 USD (+480,03 %). Opened 01.01.2005, so 1.885 days.
- **Google (GOOG)** – weight 17,62 %, loss -5.312,40 USD (-19,16 %). Held since 01/11/2007.
- **Microsoft (MSFT)** – worth ca. 0,017 mio USD, held 3 712 days.
"""


def test_a_decimal_comma_document_is_detected() -> None:
    assert decimal_comma(EU_REVIEW)
    assert not decimal_comma("Apple is 43.85% of the book, up $46,142.50; Google is 17.62%.")


@pytest.mark.parametrize(("written", "read"), [
    ("127.157,10 USD", "127,157.10 USD"),
    ("weight 43,85 %", "weight 43.85 %"),
    ("1.885 days", "1,885 days"),
    ("since 01/11/2007", "since 2007-11-01"),
    ("held 3 712 days", "held 3,712 days"),
])
def test_rewrites_keep_the_length(written: str, read: str) -> None:
    rewrite = normaliser(EU_REVIEW)
    assert rewrite(written) == read
    assert len(rewrite(written)) == len(written)


def test_a_decimal_comma_review_is_read_and_its_twin_fails(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, EU_REVIEW)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert report.factual >= 5
    wrong = check(portfolio_checker, EU_REVIEW.replace("weight 17,62 %", "weight 21,62 %"))
    assert wrong.contradicted == 1, failing(wrong)
