"""Phrasings the blind batches u–v brought (reasoning models showing their working, slide decks,
notebook exports, newsletters, CVs with editing notes): each read right when faithful and still
contradicted when one fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.arithmetic import find_computations
from autogen_pse.claims.quantities import find_quantities
from tests.claims_support import status_of


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # a computation written out: its operands are inputs, its result is checked
        ("*Apple.* Cost 250 × 38.45 = 9,612.50.", "*Apple.* Cost 250 × 38.45 = 9,812.50."),
        ("*Apple.* Market value 250 × 223.02 = 55,755.", "*Apple.* Market value 250 × 223.02 = 57,755."),
        ("Excess = 55,755 − 38,147.13 = 17,607.87.", "Excess = 55,755 − 38,147.13 = 19,607.87."),
        ("HHI 0.2740 → effective holdings 1 / 0.274 ≈ 3.65.", "HHI 0.2740 → effective holdings 1 / 0.274 ≈ 4.65."),
        # a money figure and the percentage it converts to are two figures, not a range
        ("*Amazon.* P/L 9,115 → +241.97%.", "*Amazon.* P/L 9,915 → +241.97%."),
        # fractions printed by a program are the percentages they stand for
        ("```\nAMZN    0.4804  -0.5416\nAAPL    0.4712  -0.5691\n```",
         "```\nAMZN    0.4804  -0.5416\nAAPL    0.4712  -0.6691\n```"),
        # more decimals than the sources keep
        ("```\nAMZN    10.130775\nGOOG    17.621981\n```", "```\nAMZN    10.130775\nGOOG    18.621981\n```"),
        # a nickname names its company
        ("Redmond (MSFT) is about 28% below cost.", "Redmond (MSFT) is about 38% below cost."),
        # "trigger-free" counts the holdings without a trigger
        ("Only the two trigger-free holdings qualify for BUY.", "Only the three trigger-free holdings qualify for BUY."),
        ("Only one of the five positions is above its cap.", "Only one of the five positions is under water."),
        # money per dollar: a multiple of cost, or a share
        ("*Microsoft* — worth about 72 cents per dollar invested.", "*Microsoft* — worth about 82 cents per dollar invested."),
        ("Apple is about forty-four cents of every dollar you have invested.",
         "Apple is about forty-seven cents of every dollar you have invested."),
        ("Almost all of your gain, about nine dollars in ten, has come from Apple.",
         "Almost all of your gain, about seven dollars in ten, has come from Apple."),
        # a multiple owns the metric word right after it ("5.8× cost"), not the figure after that
        ("*Apple* — 5.8× cost, +$46.1k.", "*Apple* — 5.8× cost, +$56.1k."),
        # a direction word with its figure in apposition
        ("Microsoft's annual rate is a small negative, about 3 percent a year.",
         "Microsoft's annual rate is a small positive, about 3 percent a year."),
        # a metric phrase with a clause inside it
        ("IBM's worst peak-to-trough drop while we've owned it was only about 36 percent.",
         "IBM's worst peak-to-trough drop while we've owned it was only about 23.5 percent."),
        ("Redmond has cost us more than a quarter of what we put in.", "Redmond has cost us about half of what we put in."),
    ],
)
def test_faithful_and_its_twin(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert status_of(portfolio_verifier, faithful) is Status.SUPPORTED
    assert status_of(portfolio_verifier, fabricated) is Status.CONTRADICTED


@pytest.mark.parametrize(
    "projection",
    [
        "Give the orders in the order of priority; after the Apple trim the weight is just under 30 %.",
        "Trim 79 sh → wt ≈ 30.0%.",
        "Cash becomes the second-biggest line at roughly 27%.",
        "Either is fine. Amazon would end up around 24%, IBM around 29%.",
        "Re-evaluate GOOG promptly — if it falls roughly another 1%, it will also hit the stop-loss.",
        "Selling 79 shares brings AAPL to 29.99 % of the portfolio.",
        "**After the trades** (total value unchanged)\n\n| Holding | Value | Weight |\n|---|---|---|\n"
        "| Apple (171 sh) | $38,136.42 | 29.99% |\n| Cash | $34,898.58 | 27.45% |\n",
    ],
)
def test_a_projection_is_not_checked_against_todays_facts(portfolio_verifier: Verifier, projection: str) -> None:
    assert not build_ledger(projection, portfolio_verifier).contradicted


def test_money_per_dollar_invested_is_the_portfolios_multiple(portfolio_verifier: Verifier) -> None:
    text = "So for every dollar you put in, you now have about a dollar and sixty-eight cents."
    assert status_of(portfolio_verifier, text) is Status.SUPPORTED
    assert status_of(portfolio_verifier, text.replace("sixty", "eighty")) in (Status.CONTRADICTED, Status.UNVERIFIABLE)


def test_a_projection_still_checks_what_it_says_of_today(portfolio_verifier: Verifier) -> None:
    text = ("Bringing it back to the cap would mean selling roughly 97 shares, which would still leave a "
            "sizeable position in place.")
    assert status_of(portfolio_verifier, text) is Status.CONTRADICTED  # 79 shares, not 97: said before "would leave"
    assert status_of(portfolio_verifier, text.replace("97", "79")) is not Status.CONTRADICTED
    assert status_of(portfolio_verifier, "Trim 97 sh → wt ≈ 30.0%.") is Status.CONTRADICTED  # the order, before its arrow


def test_trial_computations_of_a_reasoning_model_claim_nothing(portfolio_verifier: Verifier) -> None:
    text = "*Apple.* Let me estimate: 127,157 × 0.44 = 55,949, a bit too high; × 0.4385 = 55,758. So ≈ 43.85%."
    assert not build_ledger(text, portfolio_verifier).contradicted


def test_a_list_or_a_range_is_no_computation() -> None:
    for text in ("amzn $14.9k / 10% / +$9.1k", "a 10 – 15 % drop", "held 2-10 yrs", "5.8x cost"):
        assert find_computations(text, find_quantities(text)) == [], text
    text = "55,755 / 127,157.10"
    assert [c.operands for c in find_computations(text, find_quantities(text))] == [[0, 1]]


def test_a_wrong_computation_is_contradicted_even_with_true_operands(portfolio_verifier: Verifier) -> None:
    claim = build_ledger("Total value: 55,755 + 12,882 + 22,407.60 + 18,832.50 + 17,280 = 137,157.10.",
                         portfolio_verifier).claims[0]
    assert claim.status is Status.CONTRADICTED
    assert "the computation gives 127,157.10" in claim.why()


def test_document_words_and_app_lines_are_no_names(portfolio_verifier: Verifier) -> None:
    text = ("Thought for 41 seconds\n\nSlide 2: The number   $127k   Speaker notes: Let that sink in.\n\n"
            "AAPL ~40.6% a year compounded [Chart: cumulative P/L by holding]\n")
    ledger = build_ledger(text, portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.why() for c in ledger.claims if c.findings]


def test_an_editors_bracketed_note_is_no_claim(resume_verifier: Verifier) -> None:
    text = ("## Experience\n\n**Senior Backend Engineer — Brightline Payments Ltd**\n\n"
            "[Moved the payments API bullet to the top — it is literally their first responsibility.]\n\n"
            "- Designed an idempotent payments API in Go serving 1,200 requests per second at peak.\n")
    ledger = build_ledger(text, resume_verifier)
    note = next(c for c in ledger.claims if c.text.startswith("[Moved"))
    assert note.kind == "meta" and not ledger.contradicted


def test_bullets_in_a_blockquote_are_bullets(portfolio_verifier: Verifier) -> None:
    text = ("> **Reasoning**\n>\n> - Microsoft: −27.66% vs cost. Held since Jan 2000 → also long-held loss.\n"
            "> - Google: −19.16%. Held since Nov 2007, which is over 730 days → long-held loss.\n"
            "> - IBM: +72.70%, 14.81% weight. Fine.\n")
    ledger = build_ledger(text, portfolio_verifier)
    assert not ledger.contradicted, [c.why() for c in ledger.contradicted]
    assert build_ledger(text.replace("Nov 2007", "Nov 2006"), portfolio_verifier).contradicted  # Google's, not IBM's


def test_people_in_a_newsletter_are_no_unknown_organisations(portfolio_verifier: Verifier) -> None:
    text = ("Welcome to our newest member, Priya, who asked about concentration.\n\n"
            "See you at the meeting, Bev (secretary)\n\nSun-kissed regards, Edie\n\n"
            "Google (the Googlers) is down ~19%.\n")
    ledger = build_ledger(text, portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.why() for c in ledger.claims if c.findings]
    assert build_ledger("Our newest holding, Oracle, is 12% of the portfolio.", portfolio_verifier).contradicted


def test_a_json_resume_is_read_entry_by_entry(resume_verifier: Verifier) -> None:
    def cv(company: str) -> str:
        return ("```json\n{\n  \"work\": [\n    {\n      \"name\": \"" + company + "\",\n"
                "      \"position\": \"Backend Engineer\",\n      \"highlights\": [\n"
                "        \"Moved nightly batch jobs to Kafka streams, cutting data delays from 24 hours to 15 minutes.\"\n"
                "      ]\n    }\n  ],\n  \"basics\": {\"profiles\": [{\"network\": \"GitHub\"}]}\n}\n```\n")

    assert not build_ledger(cv("Harbourside Logistics GmbH"), resume_verifier).contradicted
    swapped = build_ledger(cv("Brightline Payments Ltd"), resume_verifier)  # the Kafka move was at Harbourside
    assert [c.text for c in swapped.contradicted] == [
        "Moved nightly batch jobs to Kafka streams, cutting data delays from 24 hours to 15 minutes."]


def test_an_emails_quoted_messages_header_and_signature_are_no_claims(portfolio_verifier: Verifier) -> None:
    text = ("Subject: Re: Apple\nDate: Tue, 2 Mar 2010 09:14:52 -0500\n\nHi Dana,\n\n"
            "Apple is 43.85% of the portfolio.\n\nBest,\nMartin\n\n--\nMartin Keogh\nKeogh Wealth Partners\n\n"
            "On Mon, 1 Mar 2010, Dana Whitfield wrote:\n> My brother-in-law says Apple must be about half my portfolio.\n"
            ">> And Microsoft is up 30%?\n")
    ledger = build_ledger(text, portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.why() for c in ledger.claims if c.findings]
    assert build_ledger(text.replace("43.85%", "53.85%"), portfolio_verifier).contradicted  # the reply itself is checked


def test_a_podcast_transcript(portfolio_verifier: Verifier) -> None:
    text = ("TOM: I'm Tom.\n\nJESS: And I'm Jess. Let's go name by name. Apple.\n\n"
            "TOM: Apple is fifty— no, sorry, forty-four percent of the portfolio.\n\n"
            "JESS: Gain about forty-six thousand one hundred.\n\n"
            "TOM: Stop-loss at minus twenty percent from cost. If you've held something for two years or more "
            "and it's down ten percent or worse, that's a long-held loss.\n\nJESS: Ten years, man.\n")
    ledger = build_ledger(text, portfolio_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.why() for c in ledger.claims if c.findings]
    wrong = text.replace("forty-four percent", "fifty-four percent")
    assert build_ledger(wrong, portfolio_verifier).contradicted


def test_a_plain_text_timeline_cv(resume_verifier: Verifier) -> None:
    text = ("EXPERIENCE\n───────────────────────────────\n\n"
            "  2020 ──●── now   Senior Backend Engineer @ Brightline Payments Ltd\n"
            "         ├─ Designed an idempotent payments API in Go — 1,200 req/s at peak\n"
            "         └─ Cut monthly cloud spend by 35% (−$420k/yr)\n")
    assert not build_ledger(text, resume_verifier).contradicted
    assert build_ledger(text.replace("1,200", "2,400"), resume_verifier).contradicted


def test_a_date_first_entry_head_is_an_entry(resume_checker: Checker) -> None:
    cv = ("Experience\n\n  2020 ──●── now   {title} @ Brightline Payments Ltd\n"
          "         ├─ Designed an idempotent payments API in Go (1,200 req/s at peak)\n"
          "         └─ Mentored a team of 6; code review guidelines adopted by 3 teams\n")
    titles = next(r for r in resume_checker.check(cv.format(title="Senior Backend Engineer")) if r.name == "titles")
    assert titles.ok, titles.detail
    wrong = next(r for r in resume_checker.check(cv.format(title="Staff Backend Engineer")) if r.name == "titles")
    assert not wrong.ok and "line 3" in wrong.detail, wrong.detail


def test_first_or_only_before_a_verb_is_no_superlative(resume_verifier: Verifier) -> None:
    assert status_of(resume_verifier, "A backend engineer for nine years, first building client web apps.") is not \
        Status.CONTRADICTED
    assert status_of(resume_verifier, "Led the top-rated engineering team at Brightline.") is Status.CONTRADICTED
    assert status_of(resume_verifier, "The most experienced engineer at Brightline.") is Status.CONTRADICTED
    assert status_of(resume_verifier, "Delivered the biggest saving in Brightline's history.") is Status.CONTRADICTED
