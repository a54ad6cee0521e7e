"""Artifacts in the forms of the corpus batch zza and of the older failures it led back to: a chat
answer with the CV inside a Markdown fence and notes around it, a small local model's broken
Markdown, an influencer's post (emoji labels, quoted "mistakes"), working written out ("250 ×
(223.02 − 38.45)", "minus … leaves", "→ round up to 79"), and CV layouts whose lines the structure
reader took for entries (a project table, a date run into a title, a bilingual title).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier, wrapper_lines
from tests.claims_support import assert_clean, assert_pair

CHAT_CV = """\
Sure! Here's your CV tailored to the **Staff Backend Engineer, Payments Platform** role at Tidewater \
Financial. I reordered it around the posting so the match is obvious on the first read.

```markdown
# Elena Marsh

Senior Backend Engineer · Manchester, UK

## Summary

Backend engineer, 9 years in Python and Go on payment and logistics platforms.

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present · Manchester, UK

- Idempotent payments API in Go: 1,200 requests per second at peak.

## Skills

Go, Python, SQL · PostgreSQL, Kafka, Redis

## Education

MSc Computer Science, University of Leeds (2015)

## Certifications

CKAD (2022)
```

What I changed:
- Cut it down to one page: shorter bullets, dropped the Jenkins bullet.
- Kept every number exactly as in your original.

Want me to also draft a cover letter?
"""


def test_the_words_around_a_fenced_document_are_the_chats() -> None:
    lines = wrapper_lines(CHAT_CV)
    assert lines == {1, 2, 3} | set(range(30, 37))  # the preamble, the fences, the notes

    assert wrapper_lines(CHAT_CV.replace("```markdown", "").replace("```", "")) == set()
    # two fenced documents: no telling which one is the artifact
    assert wrapper_lines(CHAT_CV + "\n```markdown\n# A\n## B\n```\n") == set()


def test_a_chat_answers_notes_are_no_cv_entries(resume_checker: Checker, resume_verifier: Verifier) -> None:
    failed = {r.name: r.detail for r in resume_checker.check(CHAT_CV) if not r.ok and r.severity == "error"}
    assert not failed, failed
    assert_pair(resume_verifier, CHAT_CV, CHAT_CV.replace("1,200 requests", "2,100 requests"))
    bad = CHAT_CV.replace("### Senior Backend Engineer — Brightline", "### Principal Engineer — Brightline")
    assert "titles" in {r.name for r in resume_checker.check(bad) if not r.ok}


@pytest.mark.parametrize(
    ("layout", "fabricated"),
    [
        # a project table: the project is no title, the client column is the employer
        ("| Project | Client / employer | Outcome |\n|---|---|---|\n"
         "| Monolith → Kubernetes on AWS (14 Python services) | Brightline Payments Ltd | deploys 45 → 6 min |",
         "| Monolith → Kubernetes on AWS (14 Python services) | Stripe Payments Ltd | deploys 45 → 6 min |"),
        # a project head naming its client in italics
        ("**Payments API** — *Brightline Payments Ltd*\nDesigned an idempotent payments API in Go.",
         "**Streaming pipeline** — *Ocado Technology* (client engagement)\nMoved batch jobs to Kafka."),
        # the title on the line under the dates and the employer
        ("06/2017 – 02/2020 | Harbourside Logistics GmbH, Hamburg\nBackend Engineer\n- Terraform across 80% of the AWS "
         "estate.",
         "06/2017 – 02/2020 | Harbourside Logistics GmbH, Hamburg\nSenior Backend Engineer\n- Terraform across 80% of "
         "the AWS estate."),
        # a bilingual title: the French half has no English title word
        ("### Brightline Payments Ltd — Senior Backend Engineer / Ingénieure backend senior\nMar 2020 – Present",
         "### Brightline Payments Ltd — Principal Engineer / Ingénieure principale\nMar 2020 – Present"),
    ],
)
def test_entry_layouts_read_as_entries(resume_checker: Checker, layout: str, fabricated: str) -> None:
    def failed(body: str) -> set[str]:
        cv = f"# Elena Marsh\n\n## Experience\n\n{body}\n"
        return {r.name for r in resume_checker.check(cv) if not r.ok and r.severity == "error"} - {"sections"}

    assert not failed(layout) & {"employers", "titles", "entries"}, failed(layout)
    assert failed(fabricated) & {"employers", "titles", "entries"}


def test_a_box_drawn_header_with_dates_and_a_sentence_case_headline(resume_checker: Checker) -> None:
    cv = (
        "ELENA MARSH .................................... Senior Backend Engineer\n"
        "Payments-focused backend engineer: Go and Python, Kafka, PostgreSQL.\n"
        "  │ Mar 2020 – Present   SENIOR BACKEND ENGINEER                 │\n"
    )
    titles = next(r for r in resume_checker.check(cv) if r.name == "titles")
    assert titles.ok, titles.detail
    bad = cv.replace("SENIOR BACKEND ENGINEER  ", "PRINCIPAL ENGINEER       ")
    assert not next(r for r in resume_checker.check(bad) if r.name == "titles").ok


def test_an_unindented_line_goes_on_with_its_bullet(resume_verifier: Verifier) -> None:
    cv = (
        "## Experience\n\n### Senior Backend Engineer — Brightline Payments Ltd\n"
        "▪ Designed an idempotent payments API in Go\nhandling 1,200 requests per second at peak.\n"
        "▪ Moved nightly batch jobs to Kafka streams\nat Harbourside, cutting data delays from 24 hours\n"
        "to 15 minutes.\n"
    )
    assert_pair(resume_verifier, cv, cv.replace("at Harbourside,", "at Brightline,"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Apple gain: 250 × (223.02 − 38.45) = 250 × 184.57 = $46,142.50.",
         "Apple gain: 250 × (223.02 − 38.45) = 250 × 184.57 = $64,142.50."),
        ("Apple's value of $55,755.00 minus $38,147.13 leaves $17,607.87, the excess over the cap.",
         "Apple's value of $55,755.00 minus $38,147.13 leaves $71,607.87, the excess over the cap."),
        ("Shares: $17,607.87 / $223.02 = 78.95 → round **up** to **79**.",
         "Shares: $17,607.87 / $223.02 = 78.95 → round **up** to **97**."),
        ("Check: 600 x 28.80 = 17,280 vs cost 600 x 39.81 = 23,886, loss 6,606.",
         "Check: 600 x 28.80 = 17,280 vs cost 600 x 39.81 = 23,886, loss 5,312."),
    ],
)
def test_working_written_out(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


POST = """\
I thought I owned 5 stocks. Here's what I learned 👇

🏆 THE CARRIERS

❌ Mistake #3: "Google is cheap now — buy the dip!"
✅ Fix: reviewing Google, not buying more. My rules forbid adding to a long-held loss.

My rules:
→ Sell-signal if it's down 10%+ and I've held it 2+ years (long-held loss)
→ Sell if it's down 20%+ (stop-loss)

Microsoft broke TWO of them.
"""


def test_an_influencers_post(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, POST)
    assert_pair(portfolio_verifier, POST, POST.replace("✅ Fix: reviewing Google, not buying more.",
                                                       "✅ Fix: buying more Google on the dip."))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("2) MSFT: Microsoft, held since 2000, stop-loss hit.", "2) ORCL: Oracle, bought as a hedge, no trigger."),
        ("[MUSIC: soft synth pad] Apple is 43.85% of the portfolio.",
         "[MUSIC: soft synth pad] Apple is 48.35% of the portfolio."),
    ],
)
def test_a_ticker_as_a_lines_key(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("I tried (17,280/23,886)^(1/10.16) and got something like 0.9686 → −3.1%.",
         "I tried (17,280/23,886)^(1/10.16) and got something like 0.9286 → −3.1%."),
        ("MSFT: t = 3712 / 365.25 ≈ 10.16, (28.80 / 39.81)^(1/10.16) - 1 ≈ -3.14%.",
         "MSFT: t = 3712 / 365.25 ≈ 10.16, (28.80 / 39.81)^(1/10.16) - 1 ≈ -4.13%."),
        ("AAPL: 5.80^(1/5.16) ≈ 1.406, so about 40.6% a year.", "AAPL: 5.80^(1/5.16) ≈ 1.604, so about 40.6% a year."),
    ],
)
def test_formulas_with_powers(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


def test_a_fraction_is_no_count_of_shares(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, "I thought I owned 5 stocks. Math says I own 3.65.")  # effective holdings
    assert_pair(portfolio_verifier, "You own 250 Apple shares.", "You own 205 Apple shares.")


def test_a_rows_names_anywhere_in_it(resume_verifier: Verifier) -> None:
    row = ("| Need | Evidence | Where |\n|---|---|---|\n"
           "| PostgreSQL | Consolidated PostgreSQL clusters; p95 latency −60% via Redis caching | Brightline; Harbourside |\n")
    assert_pair(resume_verifier, row, row.replace("−60%", "−70%"))


def test_a_letters_paragraph_is_no_head_for_the_list_after_it(resume_verifier: Verifier) -> None:
    message = (
        "Hi Jonas — yes, interested! That stack is basically my day job: Go and Python, Kubernetes on AWS, "
        "PostgreSQL, and Kafka from my time at Harbourside Logistics. Terraform too. Being upfront: I haven't "
        "used Rust or gRPC, but I'm happy to learn.\n\n"
        "- 9 yrs backend, Senior Backend Engineer at Brightline Payments since 2020\n"
        "- Go payments API, 1,200 req/s at peak\n"
    )
    assert_pair(resume_verifier, message, message.replace("1,200 req/s", "1,500 req/s"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Look at GOOG again: is there a reason to own it at 560 that isn't \"I paid 693\"?",
         "Look at GOOG again: is there a reason to own it at 650 that isn't \"I paid 693\"?"),
        ("MSFT largest loss in $ and % | −6,606.00 vs −5,312.40; −27.66% vs −19.16% | ✔",
         "MSFT largest loss in $ and % | −6,606.00 vs −5,312.40; −27.66% vs −29.16% | ✔"),
    ],
)
def test_a_price_after_at_and_a_figure_after_vs(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


RIREKISHO = """\
# Elena Marsh

## Education and work history

| Year | Month | Event |
|---|---|---|
| | | **Education** |
| Heisei 27 (2015) | | University of Leeds — MSc Computer Science, completed |
| | | **Work history** |
| Heisei 27 (2015) | 9 | Joined Copperleaf Studio, Leeds. Software Developer |
| Heisei 29 (2017) | 5 | Left Copperleaf Studio |
| Reiwa 2 (2020) | 3 | Joined Brightline Payments Ltd. Senior Backend Engineer |
| | | End |

## Licences and certifications

| 2021 | | AWS Certified Solutions Architect – Associate |

## Self-PR

Backend engineer with 9 years of experience.
"""


def test_a_rirekishos_history_table(resume_checker: Checker) -> None:
    failed = {r.name: r.detail for r in resume_checker.check(RIREKISHO) if not r.ok and r.severity == "error"}
    assert not set(failed) & {"employers", "titles", "entries"}, failed
    bad = RIREKISHO.replace("Joined Copperleaf Studio, Leeds. Software Developer",
                            "Joined Copperleaf Studio, Leeds. Lead Developer")
    assert "titles" in {r.name for r in resume_checker.check(bad) if not r.ok}


LETTER = """\
**Object: Review of your portfolio of securities — situation at 1 March 2010**

Dear Sir,

At 01/03/2010, the market value of your five lines amounts to USD 127 157,10 for a cost of acquisition of \
USD 75 890,50. The portfolio thus presents a latent plus-value of USD 51 266,60, which is +67,55 %.

The line Apple Inc. alone represents 43,85 % of the total value, and the three first lines together 76,28 %.

| Line | Opened | Days held | Annualised |
|---|---|---|---|
| Microsoft Corp. | 01/01/2000 | 3 712 | −3,14 % |

The principal risks are this concentration and the two lines in moins-value.

We remain at your disposal and we pray you to accept, Dear Sir, the assurance of our best sentiments.

Jean-Baptiste Roux
Conseiller en gestion de patrimoine
Crédit Privé Lafayette
"""


def test_a_machine_translated_french_letter(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, LETTER)
    assert_pair(portfolio_verifier, LETTER, LETTER.replace("USD 75 890,50", "USD 75 980,50"))
    assert_pair(portfolio_verifier, LETTER, LETTER.replace("| 3 712 |", "| 3 172 |"))
    assert_pair(portfolio_verifier, LETTER, LETTER.replace("the two lines in moins-value", "the three lines in moins-value"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("We suggest to reinforce progressively the line Amazon.com, Inc.",
         "We suggest to reinforce progressively the line Microsoft Corp."),
        ("The five lines are Apple Inc., Amazon.com, Inc., Google Inc., IBM and Microsoft Corp.",
         "The portfolio also holds the line Total S.A. (300 titres), held in euros."),
        ("**Draft:** v3 — reviewed by E. Moreau, Senior Portfolio Reviewer. Apple is 43.85% of the book.",
         "**Draft:** v3 — reviewed by E. Moreau, Senior Portfolio Reviewer. Apple is 48.35% of the book."),
        ("BUY on AMZN is allowed, but we shouldn't recommend adding to the most volatile name where we cut Apple.",
         "BUY on IBM is allowed, but we shouldn't recommend adding to the most volatile name where we cut Apple."),
    ],
)
def test_a_private_banks_wording(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


COACHED = """\
# Elena Marsh

## Summary

~~Senior engineer with a decade of experience~~ Backend engineer with 9 years of experience building payment and \
logistics platforms in Python and Go. ~~Fluent in all major cloud providers.~~

> **Coach:** "A decade" overstates it, and "all major cloud providers" isn't backed by anything on your CV —
> your cloud work is AWS. GCP/Azure gone.

## Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present

- Led the migration of 14 Python services from a monolith to Kubernetes on AWS, deploys 45 → 6 minutes.

<!--
Coach checklist before sending:
- Copperleaf: 12 clients, 40% → 85%. OK.
-->

## Competences

**Frameworks**
Django, Flask, FastAPI, Celery, React
"""


def test_a_coachs_notes_are_no_claims(resume_checker: Checker, resume_verifier: Verifier) -> None:
    failed = {r.name: r.detail for r in resume_checker.check(COACHED) if not r.ok and r.severity == "error"}
    assert not set(failed) - {"sections"}, failed  # (a short sample: no Education, no Certifications)
    assert_pair(resume_verifier, COACHED, COACHED.replace("14 Python services", "41 Python services"))
    assert_pair(resume_verifier, COACHED, COACHED.replace("Python and Go. ~~", "Python and Rust. ~~"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("Migration of 14 services to Kubernetes: the deployment time divided by 7.5.",
         "Migration of 14 services to Kubernetes: the deployment time divided by ten."),
        ("Moved 14 services to Kubernetes, which cut deploy times by a factor of 7.5.",
         "Moved 14 services to Kubernetes, which cut deploy times by a factor of twelve."),
    ],
)
def test_a_reduction_written_as_a_factor(resume_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(resume_verifier, good, bad)
