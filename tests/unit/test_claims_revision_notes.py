"""Artifacts revised after an evaluator's PARTIAL carry notes on what changed (samples from the corpus
batch zx, written as a local model and a revising writer write them): the quoted issue, the old value
and the removed item are no claim of the artifact, the verdict's words are no unknown names, while
what a note says now is still checked. Plus the body forms of that batch: a fall *to* a level, an
aside naming its own holding, a loss word followed by the holdings it is about, the writer's
emphasis, a CV's "Why I am a strong fit" section.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.revisions import retracted, revision_lines
from tests.claims_support import assert_clean, assert_pair, status_of, statuses

NOTES = """\
Revised review below. **Addressed in this cycle** (evaluator: PARTIAL, DATA_MISMATCH):

- "GOOG holding period 581 days" → corrected to 851 days.
- "Total cost shown as $78,890.50" → corrected to $75,890.50.
- MSFT holding period corrected to 3,712 days (the previous draft said 3,172).
- IBM volatility corrected from 25.30% to 23.50%.
- Removed the ORCL bullet from Findings: ORCL is not one of the five holdings.

## Summary

As of 2010-03-01 the portfolio is worth $127,157.10 on a cost basis of $75,890.50.
"""


def test_the_notes_run_from_their_lead_to_the_next_heading() -> None:
    assert revision_lines(NOTES) == {1, 3, 4, 5, 6, 7}
    plain = "## Summary\n\nThe first version of the review.\n\n- AAPL is 43.85%.\n"
    assert revision_lines(plain) == set()


def test_a_note_keeps_what_it_says_now_and_drops_what_it_replaced() -> None:
    note = retracted("- IBM volatility corrected from 25.30% to 23.50% (was 25.3%).")
    assert "23.50%" in note and "25.30%" not in note and "25.3%" not in note
    assert len(note) == len("- IBM volatility corrected from 25.30% to 23.50% (was 25.3%).")
    removed = retracted("- **DATA_MISMATCH:** removed Prometheus and Grafana from Skills; neither is in the CV.")
    assert "Prometheus" not in removed and "Skills" in removed


def test_a_revised_review_passes_and_a_wrong_correction_fails(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, NOTES)
    assert_pair(portfolio_verifier, NOTES, NOTES.replace("corrected to 851 days", "corrected to 815 days"))
    assert_pair(portfolio_verifier, NOTES, NOTES.replace("to 23.50%", "to 25.30%"))


def test_a_count_in_a_note_is_still_checked(portfolio_verifier: Verifier) -> None:
    lead = "Revised review below (evaluator verdict PARTIAL — INCOMPLETE):\n\n"
    assert_pair(portfolio_verifier, lead + "- Added Actions rows for all three triggered holdings (previously only AAPL had one).",
                lead + "- Added Actions rows for all four triggered holdings (previously only AAPL had one).")


CV_NOTES = """\
### Revision notes (second cycle)

Evaluator verdict: PARTIAL — two DATA_MISMATCH issues and one INCOMPLETE.

- **DATA_MISMATCH:** removed the Summary claim of "PCI DSS experience"; nothing in the CV supports it.
- **DATA_MISMATCH:** removed Prometheus and Grafana from Skills; neither is in the CV.
- Removed "zero-downtime" from the Kubernetes migration bullet.

---

Job keywords not supported by the CV (Rust, gRPC) are left out.
"""


def test_a_revised_cvs_notes_claim_nothing_removed(resume_verifier: Verifier) -> None:
    assert_clean(resume_verifier, CV_NOTES)
    assert Status.CONTRADICTED in statuses(resume_verifier, "Skills: Go, Python, Prometheus, Grafana.")
    assert Status.CONTRADICTED in statuses(resume_verifier, "Job keywords (Rust, gRPC) are all on the CV.")


def test_zero_downtime_is_a_fact_only_the_cv_can_support(resume_verifier: Verifier) -> None:
    bullet = "Led the migration of 14 Python services to Kubernetes on AWS{}, reducing deploy time to 6 minutes."
    assert status_of(resume_verifier, bullet.format("")) is Status.SUPPORTED
    assert status_of(resume_verifier, bullet.format(" with zero downtime")) is not Status.SUPPORTED


RISK_TABLE = """\
| Symbol | Volatility (ann.) | Max Drawdown | Annualised Return | Risk/Return Comment |
|---|---:|---:|---:|---|
| AMZN | 48.04% | −54.16% | 47.52% | Highest volatility, highest return |
"""


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Revisit GOOG: SELL is allowed if the long-held loss persists, and a fall to -20.00% would also hit the "
         "stop-loss.",
         "Revisit GOOG: SELL is allowed if the long-held loss persists, and a fall to -25.00% would also hit the "
         "stop-loss."),
        ("Review GOOG before the next close; a further fall to -20.00% would add a stop-loss trigger.",
         "Review GOOG before the next close; a further fall to -30.00% would add a stop-loss trigger."),
        ("The three largest holdings are AAPL, GOOG and IBM (IBM at 14.81% is above MSFT at 13.59%).",
         "The three largest holdings are AAPL, GOOG and IBM (IBM at 14.18% is above MSFT at 13.59%)."),
        ("Main risks are the Apple concentration and the losing positions in Microsoft and Google.",
         "Main risks are the Apple concentration and the losing positions in Microsoft and Amazon."),
        ("A fall of only about 1% from the 1 March close would turn GOOG's long-held-loss flag into a stop-loss.",
         "A fall of only about 5% from the 1 March close would turn GOOG's long-held-loss flag into a stop-loss."),
        ("- **Best/worst CAGR:** AMZN 47.52% > AAPL 40.58% > IBM 16.07% > MSFT −3.14% > GOOG −8.73% ✔.",
         "- **Best CAGR:** AAPL 40.58%, ahead of AMZN 47.52%."),
        ("Orders entered: AAPL -79, MSFT -600, GOOG -40.", "Orders entered: AAPL -97, MSFT -600, GOOG -40."),
        ("Drawdowns tell the same story: four of the five have fallen more than half from a peak since purchase, "
         "with Microsoft's -63.42% the worst.",
         "Drawdowns tell the same story: four of the five have fallen more than half from a peak since purchase, "
         "with Microsoft's -36.42% the worst."),
        ("IBM: hold, and revisit once the TRIM and SELL in section 2 are done.",
         "IBM: hold, and SELL once the TRIM in section 2 is done."),
        (RISK_TABLE, RISK_TABLE.replace("| AMZN | 48.04% | −54.16% | 47.52% | Highest volatility,",
                                        "| AAPL | 47.12% | −56.91% | 40.58% |")),
    ],
)
def test_the_faithful_form_passes_and_its_twin_fails(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    ledger = build_ledger(good, portfolio_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    assert_pair(portfolio_verifier, good, bad)


def test_the_writers_emphasis_is_no_ranking(resume_verifier: Verifier) -> None:
    note = "Note: I kept all three roles but put the most weight on Brightline Payments because it matches the job."
    assert Status.CONTRADICTED not in statuses(resume_verifier, note)
    assert Status.CONTRADICTED in statuses(resume_verifier, "She carried the most weight of any engineer at Brightline.")


FIT = """\
# Elena Marsh

**Experience**

**Senior Backend Engineer**
*Brightline Payments Ltd* | Manchester, UK | Mar 2020 – Present

- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.

**Why I am a strong fit for this role**

- **Payments:** I designed an idempotent payments API in Go at Brightline Payments Ltd.
"""


def test_a_why_i_fit_section_is_no_cv_entry(resume_checker: Checker) -> None:
    errors = {r.name for r in resume_checker.check(FIT) if not r.ok and r.severity == "error"}
    assert "entries" not in errors
    invented = FIT.replace("**Senior Backend Engineer**", "**Head of Payments**")
    assert "titles" in {r.name for r in resume_checker.check(invented) if not r.ok and r.severity == "error"}


@pytest.mark.parametrize(
    "text",
    [
        'Her talk, "Paying less for the cloud without cutting corners", draws on that project.',
        '💡 Tip: profiles with a short "Proudest achievement" get 2× more replies.',
        "8/8 Paper trail: MSc CS (Leeds, 2015), BSc Maths (York, 2014).",
        "Thank you for the thoughtful note — it's rare to get an InMail that clearly read the profile.",
    ],
)
def test_a_quotation_a_threads_numbering_and_a_platforms_words_are_no_claims(resume_verifier: Verifier,
                                                                            text: str) -> None:
    assert_clean(resume_verifier, text)


def test_a_quoted_name_in_title_case_and_a_paper_are_still_claims(resume_verifier: Verifier) -> None:
    assert Status.SUPPORTED not in statuses(resume_verifier, 'She built the "Zorblax Mesh" routing layer.')
    assert status_of(resume_verifier, "She published a paper on idempotency.") is Status.UNVERIFIABLE


def test_a_hyphened_mixed_number_a_business_and_a_first_initial(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "Five tickers, three-and-a-half stocks' worth of diversification.",
                "Five tickers, four-and-a-half stocks' worth of diversification.")
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, "MSFT is a drag. But it's a huge, profitable company.")
    assert Status.CONTRADICTED in statuses(portfolio_verifier, "MSFT is a drag. But it's a profitable position.")
    call = "2010-02-15 13:30 | Call (in) | H. Abernathy-Cruz\n\nAccount: 401(k) rollover IRA ...3377\n"
    assert_clean(portfolio_verifier, call)
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, "We also hold Ford and Zorblax Motors.")


@pytest.mark.parametrize(
    "text",
    [
        "[00:00:19] RENATA ALVES, ADVISER: Thank you.",
        "**Sam Ortega** lgtm.",
        "**Sam Ortega** changed status *In Progress* → *Closed*",
    ],
)
def test_a_speaker_a_reviewer_and_a_tickets_status_are_no_holdings(portfolio_verifier: Verifier, text: str) -> None:
    assert_clean(portfolio_verifier, text)


def test_a_company_beside_a_role_word_is_still_a_name(portfolio_verifier: Verifier) -> None:
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, "We bought Zorblax Mining (client request) last year.")


def test_the_two_big_winners_are_some_of_them_not_a_count(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "The volatility line is high for the two big winners and lowest for IBM.",
                "The volatility line is high for the four big winners and lowest for IBM.")
    assert Status.CONTRADICTED in statuses(portfolio_verifier, "Two holdings are winners.")


def test_what_an_action_requires_is_a_rule_of_no_holding(portfolio_verifier: Verifier) -> None:
    rule = "**Amazon and IBM — no triggers.** SELL is not, since SELL needs a stop-loss or long-held-loss trigger."
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, rule)
    assert Status.CONTRADICTED in statuses(portfolio_verifier, "**IBM.** It has a long-held-loss trigger.")
