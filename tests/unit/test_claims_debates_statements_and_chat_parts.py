"""Artifacts in the forms of batch zzh (a multi-agent debate log, an annotated custody statement, a tailored CV
split over chat messages): agents' names and their stems, "Not allowed:" lists, "one of the two losers", a
metric heading a list of holdings after a colon, "% MV" columns, "01-MAR-2010" and "Jul-2006" dates, a ticker
listed with the holdings' tickers, "given back", "sub-$23k", and a chat's message headers and part marks. Each
faithful form passes and its twin with one fact changed fails.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier, message_header_lines
from autogen_pse.claims.model import Status
from tests.claims_support import assert_clean, assert_pair, failed_checks, statuses

DEBATE = """\
participants: [BullAgent] [BearAgent] [RiskAgent]   moderator: [Moderator]

**turn 1 · [Moderator]** Five holdings, all priced in USD.

**turn 2 · [BearAgent]** Two fail the long-held test: GOOG at -19.16% and MSFT at -27.66%.

**turn 3 · [BullAgent]** Agree with Bear on AAPL: 43.85% of the book, above the 30% cap.

**turn 4 · [RiskAgent]** → Bull: the trim is 79 units. What isn't permitted: BUY on GOOG, BUY on MSFT, and SELL on
AMZN or IBM.

**turn 5 · [BearAgent]** → Bull: fine. Moderator, close it.
"""


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # a total that counts the set its noun names; the first number is a part of it
        ("Largest cost is GOOG ($27.7k) and it's one of the two losers.",
         "Largest cost is GOOG ($27.7k) and it's one of the three losers."),
        ("The agents agree on two of three flagged holdings.", "The agents agree on two of four flagged holdings."),
        # the metric before a colon heads the list; "at" may stand between a holding and its figure
        ("Annualised volatility, from up to 36 monthly returns: AMZN 48.04%, AAPL 47.12%, MSFT at 29.11%.",
         "Annualised volatility, from up to 36 monthly returns: AMZN 48.04%, AAPL 47.12%, MSFT at 27.66%."),
        ("Max drawdown since purchase: AAPL -56.91%, GOOG -57.73%, MSFT -63.42%.",
         "Max drawdown since purchase: AAPL -56.91%, GOOG -57.73%, MSFT -36.35%."),
        # a column of percentages of market value is the weight
        (" SYM   QTY    MARKET VALUE    % MV\n AAPL  250       55,755.00   43.85",
         " SYM   QTY    MARKET VALUE    % MV\n AAPL  250       55,755.00   47.12"),
        # a custody statement's dates
        ("GOOG    01-NOV-2007    27,720.00", "GOOG    01-NOV-2006    27,720.00"),
        ("IBM was opened in Jul-2006 and is up 72.70%.", "GOOG was opened in Jul-2006 and is down 19.16%."),
        # a gain given back is a loss
        ("GOOG has given back $5,312.40 against cost.", "IBM has given back $7,927.50 against cost."),
        # a sum of the other holdings matches before one holding's loss of the same size
        ("Strip Apple out and the other four lines are up only about $5k combined: GOOG and MSFT lose about $11.9k "
         "together, AMZN and IBM make the rest.",
         "Strip Apple out and the other four lines are up only about $8k combined: GOOG and MSFT lose about $11.9k "
         "together, AMZN and IBM make the rest."),
        # "sub-" bounds a holding's value from above
        ("GOOG: a sub-$23k position bought for $27.7k.", "GOOG: a sub-$20k position bought for $27.7k."),
    ],
)
def test_faithful_forms_pass_and_their_twins_fail(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_clean(portfolio_verifier, good)
    assert_pair(portfolio_verifier, good, bad)


def test_a_debate_logs_agents_are_no_names_and_its_figures_are_checked(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, DEBATE)
    assert_pair(portfolio_verifier, DEBATE, DEBATE.replace("MSFT at -27.66%", "MSFT at -29.11%"))
    # an agent named in no label of the log stays a name in no source
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, DEBATE + "\nThe same view is in the Goldman Sachs note.")


def test_a_not_allowed_list_denies_its_actions(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, "Both allowed. Not allowed: adding to Google, Microsoft or Apple; selling Amazon or IBM.")
    assert Status.CONTRADICTED in statuses(portfolio_verifier, "Allowed: adding to Google; selling Amazon.")


def test_a_ticker_listed_with_the_holdings_is_presented_as_one(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, "AMZN, IBM and GOOG have no rule flag between them beyond what is listed.")
    assert Status.CONTRADICTED in statuses(portfolio_verifier, "AMZN, IBM and CSCO are clean: no flags.")
    # a common abbreviation beside a ticker is no holding
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, "AAPL and USD cash: the trim proceeds stay in cash.")


def test_a_pledge_on_a_margin_line_is_a_fact_no_source_gives(portfolio_verifier: Verifier) -> None:
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, "The AAPL lot is pledged as collateral on the margin line.")


CHAT_CV = """\
**You** 09:41
can u do a short version of my CV for the Tidewater job?

**AI** 09:41
Sure! Short version coming in 3 msgs

**AI** 09:42
(1/3)
# Elena Marsh
Senior Backend Engineer, Manchester, UK

**AI** 09:42
(2/3)
## Experience
**Brightline Payments Ltd** — Senior Backend Engineer, Mar 2020 – present
- Go payments API, idempotent, 1.2k requests per second at peak

**AI** 09:43
(3/3)
## Education
MSc Computer Science, University of Leeds, 2015
"""


def test_a_chats_message_headers_and_part_marks_are_no_claims(
    resume_checker: Checker, resume_verifier: Verifier
) -> None:
    assert message_header_lines(CHAT_CV) == {1, 4, 7, 8, 12, 13, 18, 19}
    assert message_header_lines("**AI** 09:41\nOne message only.") == set()
    assert not failed_checks(resume_checker, CHAT_CV) & {"entries", "titles", "employers"}
    assert_clean(resume_verifier, CHAT_CV)
    assert_pair(resume_verifier, CHAT_CV, CHAT_CV.replace("1.2k requests", "2.1k requests"))
