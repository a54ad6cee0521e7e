"""Phrasings the blind batches r–t brought (footnoted briefs, audit checklists, chat transcripts, Word
pastes), each read right when faithful and still contradicted when one fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.claims import Status, Verifier, build_ledger
from tests.claims_support import status_of


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # a metric after a comparative and a hyphen
        ("IBM is the lower-volatility option (23.50%).", "IBM is the lower-volatility option (33.50%)."),
        # a metric phrase with modifiers between "of" and its noun
        ("AAPL drives ~90% of total unrealised gain.", "AAPL drives ~60% of total unrealised gain."),
        # accounting parentheses: a loss in an accountant's hand is no unsigned gain …
        ("| Symbol | Weight | P/L % |\n|---|---|---|\n| GOOG | 17.62% | (19.16%) |",
         "| Symbol | Weight | P/L % |\n|---|---|---|\n| GOOG | 17.62% | (29.16%) |"),
        # … while a loss written with no sign and no parentheses still reads as a gain
        ("Google's annualised return is -8.73%.", "Google's annualised return is 8.73%."),
        # a rule's level next to its word is the rule's, not the holding's
        ("MSFT at (27.66%) vs cost, beyond the (20%) level.", "MSFT at (27.66%) vs cost, beyond the (25%) level."),
        ("Held 851 days, so the rule applies (threshold 730 days).", "Held 851 days, so the rule applies (threshold 700 days)."),
        # a sum written out
        ("AAPL + GOOG + IBM = 76% of the portfolio.", "AAPL + GOOG + IBM = 86% of the portfolio."),
        # a table's total row and one with blank cells in a plain-text table
        ("| Holding | Weight | Value |\n|---|---|---|\n| AAPL | 43.85% | 55,755.00 |\n| Total | 100% | 127,157.10 |",
         "| Holding | Weight | Value |\n|---|---|---|\n| AAPL | 43.85% | 55,755.00 |\n| Total | 100% | 137,157.10 |"),
        # "the three largest" names a set (its combined weight), not the holding ranked first
        ("The three largest positions add up to 76.3% of the portfolio.",
         "The three largest positions add up to 86.3% of the portfolio."),
        # an action written as not allowed is checked the other way round
        ("**2) Buy more Google — not allowed.**", "**2) Buy more Amazon — not allowed.**"),
        # "sell some" of an overweight holding is a trim
        ("Sell some Apple.", "Sell some IBM."),
    ],
)
def test_faithful_and_its_twin(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert status_of(portfolio_verifier, faithful) is Status.SUPPORTED
    assert status_of(portfolio_verifier, fabricated) is Status.CONTRADICTED


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        ("30% cap in dollars: ~$38,147.", "30% cap in dollars: ~$48,147."),  # the cap in money
        # "add up to" is a total, neither an upper bound nor a gain
        ("Your five stocks add up to $127,157.", "Your five stocks add up to $137,157."),
    ],
)
def test_faithful_and_its_flagged_twin(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert status_of(portfolio_verifier, faithful) is Status.SUPPORTED
    assert status_of(portfolio_verifier, fabricated) in (Status.CONTRADICTED, Status.UNVERIFIABLE)


def test_stop_loss_is_no_metric_after_a_hyphen(portfolio_verifier: Verifier) -> None:
    assert status_of(portfolio_verifier, "MSFT hit its stop-loss at -27.66%.") is Status.SUPPORTED


def test_a_topic_label_does_not_name_the_metric_of_the_sentence(portfolio_verifier: Verifier) -> None:
    assert status_of(portfolio_verifier, "**Cap breach:** AAPL at 43.85% vs a 30% limit.") is Status.SUPPORTED
    assert status_of(portfolio_verifier, "**Volatility:** AAPL 43.85%.") is Status.CONTRADICTED  # a key and its value


def test_the_users_turns_of_a_chat_are_context_not_claims(portfolio_verifier: Verifier) -> None:
    chat = ("User: should I buy more Google? It's 27% of my book.\n\n"
            "Assistant: No: Google is 17.62% of the portfolio and buying more is not allowed.\n")
    ledger = build_ledger(chat, portfolio_verifier)
    assert not ledger.contradicted
    asked = next(c for c in ledger.claims if "should I buy" in c.text)
    assert asked.kind == "meta" and asked.line == 1


def test_greetings_and_checklist_words_are_no_unknown_names(portfolio_verifier: Verifier) -> None:
    text = ("Hi Tom,\n\nDear Mrs Oyelaran-Whitfield,\n\nPosition cap (30%) — NOT MET. Status: OPEN. "
            "AAPL 43.85%.\n")
    ledger = build_ledger(text, portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.text for c in ledger.claims if c.findings]
