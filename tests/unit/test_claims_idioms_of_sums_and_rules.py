"""Idioms a faithful review uses that are no claim of their own, or whose subject sits elsewhere
(samples from the corpus batches zi, zg, zk, zf, v): "add them up", "a loss trigger", "how far things
fell", scare quotes around a metric, "a larger drawdown than 20%", "lower than Amazon's and Apple's",
"Both …" after a sentence naming two holdings. Each faithful form passes, its twin with one fact
changed does not.
"""

from __future__ import annotations

import pytest

from autogen_pse.claims import Status, Verifier, build_ledger
from tests.claims_support import assert_pair, status_of, statuses


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("- Apple: $55,755.00\n- Amazon: $12,882.00\n\nAdd them up and you get $127,157.10.",
         "- Apple: $55,755.00\n- Amazon: $12,882.00\n\nAdd them up: a total value of $129,157.10."),
        ('HHI 0.274 → about 3.65 "effective" holdings', 'HHI 0.274 → about 4.65 "effective" holdings'),
        ("Every holding has had a larger drawdown than 20% since it was opened.",
         "IBM has had a larger drawdown than 40% since it was opened."),
        ("## Google — GOOG\n\n✅ 36.91% volatility — meaningfully lower than Amazon's and Apple's",
         "## Google — GOOG\n\n✅ 26.91% volatility — meaningfully lower than Amazon's and Apple's"),
        ("Amazon and Apple are the big winners. Both also carry the highest volatility.",
         "Amazon and IBM are the big winners. Both also carry the highest volatility."),
    ],
)
def test_the_faithful_form_passes_and_its_twin_fails(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    ledger = build_ledger(good, portfolio_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    "text",
    [
        "The rules only let you **sell** a holding with a loss trigger.",
        "No selling of Amazon or IBM (the rules don't allow SELL without a loss trigger).",
        "Volatility measures the wiggles, while drawdown measures how far things fell in total.",
    ],
)
def test_a_rule_or_an_indirect_question_says_no_holding_moved(portfolio_verifier: Verifier, text: str) -> None:
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, text)


def test_a_direction_in_a_plain_sentence_is_still_checked(portfolio_verifier: Verifier) -> None:
    assert status_of(portfolio_verifier, "Amazon is at a loss.") is Status.CONTRADICTED
    assert status_of(portfolio_verifier, "IBM is up 72.7%, Microsoft fell 27.7%.") is Status.SUPPORTED


def test_an_amount_worth_of_shares_is_no_holdings_value(portfolio_verifier: Verifier) -> None:
    assert status_of(portfolio_verifier, "Only the part above the cap. Around $17,600 worth.") is not Status.CONTRADICTED
    assert_pair(portfolio_verifier, "Sell about $17.6k worth of Apple.", "Sell about $27k worth of Apple.")
