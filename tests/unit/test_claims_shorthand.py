"""Phrasings the blind batch x brought (an adviser's shorthand meeting notes, a small local model's
emoji-heavy chat output; an Indian-format résumé, a recruiter's job-match one-pager) and the
podcast/e-mail replies of batch w: each read right when faithful and still contradicted when one
fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.dates import find_dates
from autogen_pse.claims.quantities import find_quantities
from tests.claims_support import status_of


def contradicted(verifier: Verifier, text: str) -> bool:
    return any(c.status is Status.CONTRADICTED for c in build_ledger(text, verifier).claims)


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # one metric word names an amount and its percentage ("GL" is gain/loss)
        ("MSFT: GL -$6.6k, approx -28%.", "MSFT: GL -$6.6k, approx -32%."),
        ("MSFT: P/L -$6.6k, -27.7%.", "MSFT: P/L -$6.6k, -22.7%."),
        # counts with digits: "N out of M", "N of M pos"
        ("✅ **3 out of 5** holdings are **in profit**!", "✅ **4 out of 5** holdings are **in profit**!"),
        ("2 of 5 pos underwater.", "3 of 5 pos underwater."),
        # a month and a two-digit year in a dashboard row; "mid-2008"; "bought '05"
        ("AAPL  ~44%   +480%   Jan 05", "AAPL  ~44%   +480%   Jan 06"),
        ("📆 **IBM opened:** **mid-2006**", "📆 **IBM opened:** **mid-2008**"),
        ("AAPL — bought '05 @ ~$38.", "AAPL — bought '07 @ ~$38."),
        # investors' slang for a multiple of cost
        ("AAPL — bought @ ~$38, now ~$223 → a five-bagger.", "AAPL — bought @ ~$38, now ~$223 → a ten-bagger."),
        # an action with its amount between the verb and the holding
        ("Agreed to sell ~600 MSFT sh.", "Agreed we'd buy ~10 more GOOG sh and average down."),
        ("I'd like to sell 79 of your Apple shares.", "I'd like to sell all 250 of your Apple shares."),
        ("We recommend the sale of 79 Apple shares.", "We recommend the sale of 250 Apple shares."),
        # a ranking in shorthand, in a list of other holdings
        ("sizes: AAPL ~$55.8k (44%), GOOG = 2nd biggest pos, then IBM & AMZN trailing.",
         "sizes: AAPL ~$55.8k (44%), MSFT = 2nd biggest pos, then IBM & AMZN trailing."),
        # an unknown symbol as a bullet's bold lead, talked of as a holding
        ("- **AMZN** 🌐 — also **in profit** and **needs no action** 👍",
         "- **CSCO** 🌐 — also **in profit** and **needs no action** 👍"),
        ("5 equities, no other pos.", "5 equities + small ORCL pos (flat, ignore for now)."),
        # a table whose columns are the holdings
        ("| | **IBM** | **AMZN** |\n|---|---|---|\n| **Weight** | 14.81% | 10.13% |",
         "| | **IBM** | **AMZN** |\n|---|---|---|\n| **Weight** | 10.13% | 14.81% |"),
        # a spoken range of one scale: "fifty-five, fifty-six thousand"
        ("Apple's worth about fifty-five, fifty-six thousand on its own.",
         "Apple's worth about sixty-five, sixty-six thousand on its own."),
    ],
)
def test_shorthand_and_chat_output(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert not contradicted(portfolio_verifier, faithful)
    assert contradicted(portfolio_verifier, fabricated)


@pytest.mark.parametrize(
    "text",
    [
        # a reply about the holding just discussed, by pronoun: true of it, not of the whole portfolio
        "You've had it since November 2007 — more than two years — and it's down more than ten percent.",
        # a figure denied in the same breath
        "Apple is about forty-four percent, not thirty-five.",
        # a person's initials after the name
        "Hosts: Dr. Mei Lin (ML) and Rafael Cruz (RC). Apple is 43.85% of the book.",
        # a to-do list run into one line: its numbers are no figures
        "to do:  1 trim AAPL 79  2 sell MSFT 600  3 note GOOG hold reason in file",
        # "of your money" is a share of the portfolio; "of the money put in" a return on cost
        "Amazon is only around a tenth of your money.",
        "The unrealised gain, some $51,000, is roughly two-thirds of the money put in.",
        # a field gap ends what a count speaks of
        "GL ≈ +$51.3k → roughly two-thirds up on cost  5 pos; 2 in the red (GOOG, MSFT), 3 green",
    ],
)
def test_faithful_phrasings_are_not_contradicted(portfolio_verifier: Verifier, text: str) -> None:
    assert not contradicted(portfolio_verifier, text)


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # a writer who never capitalises: a sentence still ends at ". that's"
        ("you've been holding MSFT since 2000 and it's down ~28%. that's the stop-loss firing.",
         "you've been holding MSFT since 1998 and it's down ~28%. that's the stop-loss firing."),
        # the share of a sale's proceeds that is gain (tax-aware memos)
        ("The Apple trim is mostly taxable gain: about 83% of the proceeds.",
         "The Apple trim is mostly taxable gain: about 63% of the proceeds."),
        # the other side of a comparison owns no figure before it
        ("selling MSFT also gives you a ~$6.6k loss to set against the apple gain.",
         "selling MSFT also gives you a ~$8.6k loss to set against the apple gain."),
        # batch z: figures as said on a call, an excess in points, an add in prose, a name listed among holdings
        ("Apple: told him it would mean selling 79 shares, roughly seventeen and a half thousand dollars.",
         "Apple: told him it would mean selling 79 shares, roughly nineteen and a half thousand dollars."),
        ("AAPL. Weight is 13.85 points above the 30% cap.", "AAPL. Weight is 15.85 points above the 30% cap."),
        ("Google: 40 shares. I said holding the 40 shares at these levels was sensible.",
         "Google: 40 shares. I said I thought buying another ten shares at these levels was sensible."),
        ("Apple, Amazon and IBM are all comfortably in profit.",
         "Apple, Amazon, IBM and Oracle are all comfortably in profit."),
        ("Amazon. Also the jumpiest stock he owns, volatility a touch above Apple's. No rule triggered.",
         "Apple. Also the second jumpiest stock he owns, a touch below Amazon. No rule triggered."),
        # batch za: a figure in brackets after the other side of a comparison; a loss said as "below what you
        # paid"; a projection "you would still own"; an accountant's plain words
        ("Amazon is the most volatile line (48.04 %), just ahead of Apple (47.12 %).",
         "Amazon is the most volatile line (48.04 %), just ahead of Apple (45.12 %)."),
        ("Google. It is about 19 percent below what you paid, roughly $5,312.",
         "Google. It is about 19 percent below what you paid, roughly $6,312."),
        ("Apple. You bought 250 of them in January 2005, paying about $38 each.",
         "Apple. You bought 350 of them in January 2005, paying about $38 each."),
        ("Apple. If we sell 79 shares, you would still own 171 Apple shares.", "Apple. You own 171 Apple shares."),
        # a flag in a table's reason cell belongs to the row, not to a holding named after it
        ("| Symbol | Action | Reason |\n|---|---|---|\n| MSFT | SELL | Stop-loss; long-held loss; offsets Apple gain |",
         "| Symbol | Action | Reason |\n|---|---|---|\n| IBM | HOLD | Stop-loss; long-held loss; offsets Apple gain |"),
    ],
)
def test_casual_replies_and_memos(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    """(batch y; and batch z's call notes and assistant-style reviews below)"""
    assert not contradicted(portfolio_verifier, faithful)
    assert contradicted(portfolio_verifier, fabricated)


@pytest.mark.parametrize(
    "text",
    [
        "if you trim apple and want to put the cash somewhere, those two are the only ones your rules let you buy.",
        "fwiw top 3 (aapl, goog, ibm) = ~76% of the thing. effective number of holdings is like 3.65 even though you own 5.",
        "2.2 Microsoft. Unlike an Apple trim, a sale here would produce a realised loss.",
        "> Please confirm (1) the Apple trim, (2) the Microsoft sale, and (3) whether Google should be held.",
        "first time posting, be gentle. msft is from 2000, the rest i bought 2005-2007.",
        "--- **Decision required:** which of 1.2–1.4 to execute, and whether together. ---",
        "┌──────────────────────────────┐\n│ DECISION REQUIRED            │\n│ (a) Trim Apple by 79 units?  │\n"
        "│ (c) Refer the gain to tax?   │\n└──────────────────────────────┘",
        "MEMO — PRIVATE & CONFIDENTIAL\n\nTo: Principal\nFrom: Portfolio Analyst",
        "apple went from $38 to $223, so like 80%+ of whatever you trim is gain.",
        "Call lasted about twenty minutes. Spoke with the client for about half an hour.",
        "Our third rule covers shares held for two years or more that are still at least 10 percent down.",
        # a holding named inside a sentence ("GOOG: long-held-loss;") heads no entry for the paragraphs after
        "## Summary\n\nRule triggers: AAPL: overweight; GOOG: long-held-loss; MSFT: stop-loss, long-held-loss.\n\n"
        "Prices are month-end closes from 2000 to 2010; the valuation date is 2010-03-01.",
    ],
)
def test_casual_and_memo_phrasings_are_not_flagged(portfolio_verifier: Verifier, text: str) -> None:
    assert all(c.status not in (Status.CONTRADICTED, Status.UNVERIFIABLE) for c in build_ledger(text, portfolio_verifier).claims)


def test_unsupported_news_in_a_sentence_that_also_gives_advice_is_flagged(portfolio_verifier: Verifier) -> None:
    text = "On the positive side, **Google announced a share buyback program**, which could **support the price**."
    assert status_of(portfolio_verifier, text) is Status.UNVERIFIABLE
    assert status_of(portfolio_verifier, "IBM raised its dividend again last qtr, C. likes it. no trigger → HOLD (could BUY).") \
        is Status.UNVERIFIABLE
    assert status_of(portfolio_verifier, "Apple is up 480%, which could tempt you to add more.") is not Status.UNVERIFIABLE


def test_number_readings() -> None:
    def read(text: str) -> list[tuple[str, float]]:
        return [(q.text, q.value) for q in find_quantities(text)]

    assert read("between five and six million") == [("five", 5e6), ("six million", 6e6)]
    assert read("five and six") == [("five", 5), ("six", 6)]
    assert read("two hundred and fifty shares") == [("two hundred and fifty", 250)]
    assert read("Roughly seventeen, eighteen thousand dollars") == [("seventeen, eighteen thousand dollars", 17500)]
    assert read("a ten-bagger.") == [("ten-bagger", 10)]
    assert [d.value for d in find_dates("Jan 05, Nov 07 and Jan 00; on Mar 15 we met")] == [
        "2005-01", "2007-11", "2000-01"]


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # a tick overrides a mere "nice to have" label
        ("✘ **Nice to have: gRPC** — not in the CV.",
         "✔ **Nice to have: gRPC** — exposed the Go payments API to internal consumers over gRPC."),
        # a bullet whose employer is named in another paragraph: its figure is still checked
        ("Led the migration of 14 Python services onto Kubernetes and cut monthly cloud spend by about a third.",
         "Led the migration of 14 Python services onto Kubernetes and cut monthly cloud spend by more than half."),
        ("Happy to talk about payments.", "Gave a talk at PyCon UK on idempotent payments."),
        ("Skills: Python, Go, PostgreSQL.", "📧 email · 📞 +44 7700 900123\n\nSkills: Python, Go, Rust."),
        ("Go payments API (idempotent), 1,200 req/sec at peak.", "Go payments API (idempotent), 2,400 req/sec at peak."),

    ],
)
def test_recruiter_one_pager(resume_verifier: Verifier, faithful: str, fabricated: str) -> None:
    """(and the claims that stay checked beside the readings above: a talk given, a skill listed)"""
    assert not contradicted(resume_verifier, faithful)
    assert contradicted(resume_verifier, fabricated)


@pytest.mark.parametrize(
    "text",
    [
        "Every line is backed by the CV; of the nice-to-haves only Terraform is there.",
        "Any exposure to Rust or gRPC outside the CV.",
        "| Requirement | Match | Evidence |\n|---|---|---|\n| Rust / gRPC / Terraform | partial | Terraform only |",
        "**Containers & IaC** | Kubernetes, Docker, Terraform",
        "Mobile: +44 7700 900123 E-Mail: elena.marsh@example.com",
        "## Tips\n\nBe ready to talk about architecture decisions; the code review guidelines are your best evidence.",
        "📧 email · 🐙 github · 📞 +44 7700 900123",
        "Happy to talk about payments, streaming and making clusters cheaper.",
        "Idempotent payments API in Go, 1,200 requests per second at peak [1]",
        # "twice" is a figure only before what it multiplies ("twice the"), not "without moving money twice"
        "Problem: a payments API has to tolerate retries without moving money twice.",
    ],
)
def test_recruiter_notes_on_gaps_claim_nothing(resume_verifier: Verifier, text: str) -> None:
    assert all(c.status is not Status.CONTRADICTED and c.status is not Status.UNVERIFIABLE
               for c in build_ledger(text, resume_verifier).claims), text


INDIAN_FORMAT = """# ELENA MARSH

### WORK EXPERIENCE

#### Senior Backend Engineer
**Brightline Payments Ltd**, Manchester, UK | March 2020 – Present

**Roles & Responsibilities**
- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.

### KEY STRENGTHS (FROM THE ABOVE)

- Payment API design with idempotency

ACADEMIC DETAILS
Qualification | Institute | Year | Grade
MSc Computer Science | University of Leeds | 2015 | —

PERSONAL DETAILS: Elena Marsh, Manchester, UK

### DECLARATION

I hereby declare that the details furnished above are true to the best of my knowledge.

**Place:** Manchester, UK
"""


CANADIAN_FORMAT = """# Elena Marsh

## Highlights of Qualifications
- Nine years of backend engineering in Python and Go
- Designed an idempotent payments API at Brightline Payments Ltd

## Professional Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar. 2020 – Present
- 35% reduction in cloud spend (~$420K/yr) by consolidating PostgreSQL clusters

## EDUCATION & CERTIFICATIONS
MSc Computer Science, University of Leeds (2015)
AWS Certified Solutions Architect – Associate (2021) · CKAD (2022)

**Additional information:** Terraform, Redis, Docker, Django, FastAPI, GitHub Actions.

---

### Key changes made
- Moved the Kafka work up.

### Tips
- Rust is a gap; say so.
"""


def test_canadian_format_and_assistant_notes_are_read(resume_checker: Checker) -> None:
    """"Highlights of Qualifications" is a summary (not education), a merged "Education &
    Certifications" heading names both sections, and the notes after the CV are no entries."""
    failed = {r.name: r.detail for r in resume_checker.check(CANADIAN_FORMAT) if not r.ok}
    for name in ("entries", "degrees", "employers"):
        assert name not in failed, failed.get(name)
    assert "Certifications" not in failed.get("sections", "")
    wrong = CANADIAN_FORMAT.replace("MSc Computer Science", "PhD Computer Science")
    assert "degrees" in {r.name for r in resume_checker.check(wrong) if not r.ok}


def test_indian_format_sections_are_read(resume_checker: Checker) -> None:
    """A "Roles & Responsibilities" label, "Key strengths", an Academic Details table without its
    rule, an inline "PERSONAL DETAILS:" line and a Declaration are read as what they are."""
    failed = {r.name: r.detail for r in resume_checker.check(INDIAN_FORMAT) if not r.ok}
    for name in ("employers", "entries", "degrees", "titles"):
        assert name not in failed, failed.get(name)
    wrong = INDIAN_FORMAT.replace("University of Leeds", "University of Manchester")
    assert "degrees" in {r.name for r in resume_checker.check(wrong) if not r.ok}
