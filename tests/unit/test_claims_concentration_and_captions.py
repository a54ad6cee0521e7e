"""The whole portfolio's own measures said in passing ("you own five stocks but you're diversified like
someone who owns three and a half", "(5 held)"): each faithful sentence passes, and its twin with the
figure changed fails.

The samples come from faithful reviews of the corpus that used to fail (batches j, o, v, w, zc).
"""

from __future__ import annotations

import pytest

from autogen_pse.claims import Verifier
from tests.claims_support import assert_pair


@pytest.mark.parametrize(("faithful", "fabricated"), [
    ("HHI 0.274 ≈ 3.65 effective names (5 held)", "HHI 0.274 ≈ 3.65 effective names (7 held)"),
    ("So she owns five stocks but it behaves like she owns fewer than four.",
     "So she owns five stocks but it behaves like she owns two."),
    ("The top three (Apple, Google, IBM) make up about 76% of the portfolio. The \"effective number of "
     "holdings\" works out to roughly 3.65 — in plain English, we own five stocks but we're diversified like "
     "someone who owns three and a half.",
     "The top three (Apple, Google, IBM) make up about 76% of the portfolio. The \"effective number of "
     "holdings\" works out to roughly 3.65 — in plain English, we own five stocks but we're diversified like "
     "someone who owns two and a half."),
    ("AAPL, GOOG and IBM together are ~76% of everything, and the HHI is 0.274 (effective # of holdings ~3.65).",
     "AAPL, GOOG and IBM together are ~76% of everything, and the HHI is 0.274 (effective # of holdings ~2.65)."),
])
def test_the_whole_portfolios_measures_said_in_passing(
    portfolio_verifier: Verifier, faithful: str, fabricated: str
) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


def test_a_holdings_figure_that_equals_a_measure_of_the_whole_named_elsewhere_still_fails(
    portfolio_verifier: Verifier,
) -> None:
    # the effective number (3.65) is named, but the figure is said of Apple's weight, right after Apple
    assert_pair(portfolio_verifier, "The effective number of holdings is 3.65, and Apple weighs 43.85%.",
                "The effective number of holdings is 3.65, and Apple weighs 3.65%.")
