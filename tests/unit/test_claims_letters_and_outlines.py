"""Layouts the blind batches zl and zm brought (a CV kept in Emacs org-mode, a former manager's
reference letter, a conference speaker bio, a Slack hello with emoji; a retrieval-augmented answer
with bracketed citations, a mind-map outline, a personal-finance blog post, a bank chatbot's
transcript): each read right when faithful and still caught when one fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.orgmode import is_org, read_org
from autogen_pse.claims.quantities import find_quantities
from tests.claims_support import assert_pair, failed_checks, statuses

ORG_CV = """#+TITLE: Elena Marsh — CV
#+OPTIONS: toc:nil num:nil

* Experience
** Senior Backend Engineer — Brightline Payments Ltd
:PROPERTIES:
:DATES:    Mar 2020 – Present
:LOCATION: Manchester, UK
:END:
- Designed an *idempotent payments API in Go* handling 1,200 requests per second at peak.
- Cut monthly cloud spend by 35% ($420,000 a year); see [[https://example.com][the write-up]].

** Backend Engineer — Harbourside Logistics GmbH
:PROPERTIES:
:DATES:    Jun 2017 – Feb 2020
:END:
- Reduced p95 API latency by 60% with =Redis= caching.

* Skills
| Area      | Tools           |
|-----------+-----------------|
| Languages | Python, Go, SQL |
"""



def test_org_mode_reads_as_markdown_of_the_same_length() -> None:
    assert is_org(ORG_CV) and not is_org("* a Markdown bullet\n* another\n")
    read = read_org(ORG_CV)
    assert len(read) == len(ORG_CV) and read.count("\n") == ORG_CV.count("\n")
    assert "\n## Senior Backend Engineer — Brightline Payments Ltd\n" in read
    assert "\n Dates:    Mar 2020 – Present\n" in read and ":PROPERTIES:" not in read
    assert "|-----------|-----------------|" in read and "the write-up" in read and "https" not in read


def test_an_org_mode_cv_keeps_its_entries(resume_checker: Checker) -> None:
    assert not failed_checks(resume_checker, ORG_CV) & {"employers", "entries", "titles", "claims"}
    assert "titles" in failed_checks(resume_checker, ORG_CV.replace("** Senior Backend", "** Lead Backend"))
    assert "claims" in failed_checks(resume_checker, ORG_CV.replace("by 60%", "by 80%"))


LETTER = """Harbourside Logistics GmbH · Hamburg

To the hiring committee,

From June 2017 to February 2020 Elena Marsh worked in my team as a Backend Engineer. She moved our
nightly batch jobs to Kafka streams, cutting data delays from 24 hours to 15 minutes.

With kind regards,

Engineering Manager
Harbourside Logistics GmbH
"""


def test_a_reference_letter_is_signed_by_its_writer_not_the_candidate(resume_checker: Checker) -> None:
    """The referee's title under the close and in a memo's "From:" line is not a title she held."""
    assert not failed_checks(resume_checker, LETTER) & {"titles", "claims", "unverifiable"}
    memo = "From: Engineering Manager, Brightline Payments Ltd\n\n" + LETTER.split("\n", 2)[2]
    assert not failed_checks(resume_checker, memo) & {"titles"}
    assert "titles" in failed_checks(resume_checker, LETTER.replace("as a Backend Engineer", "as a Lead Backend Engineer"))


@pytest.mark.parametrize(
    ("faithful", "wrong"),
    [
        ("Elena joined Harbourside Logistics in June 2017 as a Backend Engineer.",
         "Elena joined Harbourside Logistics in June 2017 as a Lead Backend Engineer."),
        ("I'm currently a Senior Backend Engineer at Brightline Payments.",
         "I'm currently a Staff Backend Engineer at Brightline Payments."),
        ("• prev. Backend Engineer at Harbourside Logistics (Hamburg), 2017–2020",
         "• prev. Senior Backend Engineer at Harbourside Logistics (Hamburg), 2017–2020"),
        ("Brightline Payments Ltd (Senior Backend Eng) since 2020.", "Brightline Payments Ltd (Staff Backend Eng) since 2020."),
    ],
)
def test_a_title_in_prose_is_the_named_employers_own(resume_checker: Checker, faithful: str, wrong: str) -> None:
    assert "titles" not in failed_checks(resume_checker, faithful)
    assert "titles" in failed_checks(resume_checker, wrong)


@pytest.mark.parametrize(
    "prose",
    [
        "I'd love to join Tidewater as a Staff Backend Engineer.",  # the job sought
        "She holds the AWS Certified Solutions Architect – Associate certification.",  # a certification
        "Go. Senior Backend Engineer at Brightline Payments since 2020.",
    ],
)
def test_titles_in_prose_that_are_no_titles_held(resume_checker: Checker, prose: str) -> None:
    assert "titles" not in failed_checks(resume_checker, prose)


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # a relative clause about the ad does not make a claimed skill absent
        ("She writes Go and Python, and Rust is on your nice-to-have list.",
         "She writes Go and Python and is comfortable in Rust, which is on your nice-to-have list."),
        # a figure of "our …" estate
        ("She introduced Terraform; it covered 80% of our AWS estate when she left.",
         "She introduced Terraform; it covered 90% of our AWS estate when she left."),
    ],
)
def test_cv_prose_pairs(resume_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(resume_verifier, faithful, fabricated)


def test_a_hyphenated_scale_word_is_part_of_its_figure() -> None:
    """ "a 2-million-events-a-day service": two million, not a 2 and a bare "million"."""
    [q] = find_quantities("She ran a 2-million-events-a-day shipment-tracking service.")
    assert q.value == 2_000_000


@pytest.mark.parametrize(
    "chat",
    [
        "Based in Manchester. Looking forward to the streaming work 🙂 Ping me anytime!",
        "Today's my first day here 🎉 Figured I'd do the classic intro post.",
        "Some background so you know who to blame for my PRs 😅",
    ],
)
def test_chat_words_after_an_emoji_are_no_names(resume_verifier: Verifier, chat: str) -> None:
    assert statuses(resume_verifier, chat) <= {Status.NONE, Status.SUPPORTED}, chat


def test_a_possessive_own_is_no_holding_count(portfolio_verifier: Verifier) -> None:
    text = "Three of my five positions break one of my own rules."
    assert Status.CONTRADICTED not in {c.status for c in build_ledger(text, portfolio_verifier).claims}


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        ("Amazon is about a 3.4-bagger.", "Amazon is about a 5.4-bagger."),
        ("| | AAPL |\n|---|---|\n| Value above cap | $17,607.87 |\n",
         "| | AAPL |\n|---|---|\n| Value above cap | $27,607.87 |\n"),
        # a section sign is a reference, not a figure of the holding beside it
        ("Apple is 43.85% of the book (source: investment_rules.md §1).",
         "Apple is 53.85% of the book (source: investment_rules.md §1)."),
    ],
)
def test_portfolio_pairs(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


@pytest.mark.parametrize(
    "text",
    [
        "# My Dad's Portfolio, March 2010 Edition: The Good, the Bad and the Apple\n",
        '## Reader Q&A: "My Portfolio Is Up 67%. Why Do I Feel Uneasy?"\n',
        'Which, in Dad, means "not sell".',
        "Customer: So it's more than tripled.\n\nAssistant: Yes, Amazon is about 3.4 times its cost.\n",
        "Apple is 43.85% of the book [1].\n\n## Sources\n[1] FACTS.txt — computed facts, 5 holdings\n"
        "[2] holdings.csv — symbols, quantities\n",
    ],
)
def test_blog_and_chat_furniture_is_no_claim(portfolio_verifier: Verifier, text: str) -> None:
    assert statuses(portfolio_verifier, text) <= {Status.NONE, Status.SUPPORTED}, text


@pytest.mark.parametrize(
    "text",
    [
        "No Rust or gRPC on the CV, which I don't see as a blocker.",
        "I also didn't claim settlement or reconciliation experience specifically.",
        "The ad also talks about design documents and about settlement/reconciliation.",
    ],
)
def test_what_the_cv_lacks_claims_nothing(resume_verifier: Verifier, text: str) -> None:
    assert statuses(resume_verifier, text) <= {Status.NONE, Status.SUPPORTED}, text


def test_no_doubt_is_no_absence(resume_verifier: Verifier) -> None:
    assert Status.CONTRADICTED in statuses(resume_verifier, "There's no doubt she knows Rust.")


def test_a_debriefs_remarks_after_the_cv_are_no_entries(resume_checker: Checker) -> None:
    """ "Best evidence for our role", "Gaps", "Recommendation", "How your CV lines up with the ad": a
    reviewer's notes after the CV, not entries of its sections; a date-led entry head is read whole."""
    debrief = ("**Career**\n- 2020–now: Senior Backend Engineer, Brightline Payments Ltd (Manchester)\n"
               "- 2017–2020: Backend Engineer, Harbourside Logistics GmbH (Hamburg)\n\n"
               "**Best evidence for our role**\n1. *Payments* — she designed an idempotent payments API in Go.\n\n"
               "**Education & certs**: MSc Computer Science, Leeds (2015); BSc Mathematics, York (2014).\n\n"
               "**Gaps**: no Rust, no gRPC (both nice-to-haves); nothing on design docs.\n\n"
               "### How your CV lines up with the ad\n\n| Requirement | Evidence | Match |\n|---|---|---|\n"
               "| Payment APIs | Idempotent Go payments API | ✅ |\n\n**Recommendation:** proceed.\n")
    assert not failed_checks(resume_checker, debrief) & {"employers", "entries", "titles", "degrees"}
    assert "titles" in failed_checks(resume_checker, debrief.replace("now: Senior", "now: Staff"))


def test_plain_text_o_bullets_and_wrapped_lines(resume_verifier: Verifier) -> None:
    cv = ("EXPERIENCE\n\nHarbourside Logistics GmbH, Backend Engineer\n  o Moved nightly batch jobs to Kafka\n"
          "    streams -- data delays fell from 24\n    hours to 15 minutes\n")
    assert_pair(resume_verifier, cv, cv.replace("to 15 minutes", "to 25 minutes"))


def test_an_info_panels_role_is_the_new_job(resume_checker: Checker) -> None:
    page = ("# Payments Platform / Team / Elena Marsh\n\n**Role**       Staff Backend Engineer\n"
            "**Previously** Brightline Payments Ltd — Senior Backend Engineer (Mar 2020 – present)\n")
    assert "titles" not in failed_checks(resume_checker, page)


@pytest.mark.parametrize(
    "text",
    [
        "**AAPL: TRIM 79 shares** `[rebalance]` — due Wed 3 Mar",
        "Sat 27 Feb",
        "Reminder: review is Monday, with Monday's closes.",
        "Add Google and IBM and you're at about 76%.",
        "**MANAGER'S COMMENTARY** Our priority is the Apple overweight.",
    ],
)
def test_journal_and_board_furniture_is_no_claim(portfolio_verifier: Verifier, text: str) -> None:
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, text), text
    assert Status.UNVERIFIABLE not in statuses(portfolio_verifier, text), text


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # a plan's delay is no holding period; a holding period still is
        ("GOOG: review in 4 weeks", "GOOG: held for 4 weeks"),
        # "no trigger" after a figure is a flag, not the speaker taking the figure back
        ("Amazon: +241.97%, weight 10.13%, no trigger", "Amazon: +241.97%, weight 12.13%, no trigger"),
        ("Apple is 50% - no - 43.85% of the book.", "Apple is 50% - and 53.85% of the book."),
    ],
)
def test_plans_and_flags_after_figures(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


def test_the_end_of_a_change_takes_its_starts_unit(resume_verifier: Verifier) -> None:
    assert_pair(resume_verifier, "Cut deploy time from 45 minutes to 6.", "Cut deploy time from 45 minutes to 16.")


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        ("I'd trim maybe 79 shares of Apple.", "I'd trim maybe 30 shares of IBM to lock in some of that gain."),
        # a company named as a line or one of the names held is presented as a holding
        ("Also the IBM line — in profit, no trigger.", "Also the Cisco line — small, roughly flat, ignoring it."),
        ("The smaller technology names — Amazon and IBM — carry no rule triggers.",
         "The smaller technology names — Amazon, IBM and Oracle — carry no rule triggers."),
    ],
)
def test_hedged_amounts_and_lines_held(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)
