"""A personal-finance Q&A page (question, answers, commenters), a Europass XML CV and a job platform's
candidate profile: each faithful sample passes the ledger, and its twin with one fact changed fails.

The samples come from the blind batches zu (tests/fixtures/claims/<task>/zu).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier
from autogen_pse.claims.conversation import people, question_lines, speaker_labels
from autogen_pse.claims.rconsole import is_r_session, r_console
from tests.claims_support import assert_pair, check, failing, status_of, statuses

QA_PAGE = """\
## Should I sell IBM to buy more Apple?

**Score 2** · asked 2010-03-02 · by **jbaptiste_t**

IBM has been fine but boring. I'm tempted to sell my IBM and put it all into Apple.

### Accepted · Score 17

**Buying more Apple.** Apple is already 43.85% of the account and your cap is 30%.

**How much.** To get from 43.85% to exactly 30% of $127,157.10 you need to sell $17,607.87. At $223.02 that's \
78.95 shares, so call it **79**. You'll still own 171 shares of your favourite stock.

**Selling IBM.** IBM doesn't trip any of your rules. It's +72.70% on cost (+$7,927.50), and it is the least \
volatile thing you own (23.50% annualised, against 47.12% for Apple). IBM is about half as volatile as Amazon.

— **Hollis Grant** · 9,610

> **Hollis Grant**: Then trim Apple first. Two trades, done. – Hollis Grant
"""


def test_a_qa_pages_question_is_context_not_a_claim() -> None:
    assert question_lines(QA_PAGE) == set(range(1, 7))  # up to "### Accepted"
    assert question_lines("I'm tempted to sell my IBM.\n\n### Answer\n\nDon't.") == set()  # no Q&A page


def test_a_commenters_name_and_byline_are_blanked() -> None:
    read = speaker_labels(QA_PAGE)
    assert "Hollis" not in read.splitlines()[-1] and "Then trim Apple first." in read
    # a job title after a dash twice is no commenter: nothing marks it as one (no reputation, no label)
    cv = "# Elena Marsh — Backend Engineer (Payments)\n\n**Harbourside** — Backend Engineer · Hamburg\n"
    assert speaker_labels(cv) == cv


def test_a_qa_page_passes(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, QA_PAGE)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("It's +72.70% on cost", "It's +82.70% on cost"),  # "it": the holding the sentence before named
        ("the least volatile thing", "the most volatile thing"),
        ("about half as volatile as Amazon", "about twice as volatile as Amazon"),
        ("Then trim Apple first.", "Then add to Apple first."),  # a commenter's advice is still checked
    ],
)
def test_qa_page_twins_fail(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in QA_PAGE
    assert check(portfolio_checker, QA_PAGE.replace(good, bad)).contradicted >= 1


def test_a_precise_figure_of_nothing_named_is_its_fact_only_to_every_digit(portfolio_verifier: Verifier) -> None:
    assert status_of(portfolio_verifier, "At $223.02 that's it.") is Status.SUPPORTED
    assert status_of(portfolio_verifier, "At $223.04 that's it.") is Status.UNVERIFIABLE  # no fact: not claimed true
    assert status_of(portfolio_verifier, "At about $223 that's it.") is Status.UNVERIFIABLE  # hedged: not exact


def test_what_youll_still_own_after_a_trim_is_a_projection(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "You'll still own 171 shares of Apple.", "You still own 171 shares of Apple.")


EUROPASS = """\
File: cv.xml (exported from the Europass editor)

<?xml version="1.0" encoding="UTF-8"?>
<SkillsPassport locale="en">
  <DocumentInfo>
    <CreationDate>2024-06-03T08:41:17.562Z</CreationDate>
    <Comment>Automatically generated Europass CV</Comment>
  </DocumentInfo>
  <PrintingPreferences>
    <Document type="ECV">
      <Field name="LearnerInfo" show="true" order="Identification Headline WorkExperience"/>
    </Document>
  </PrintingPreferences>
  <LearnerInfo>
    <Headline>
      <Type><Code>personal_statement</Code><Label>PERSONAL STATEMENT</Label></Type>
      <Description>Backend engineer with 9 years of experience in Python and Go.</Description>
    </Headline>
    <WorkExperience>
      <Employer><Name>Brightline Payments Ltd</Name></Employer>
      <Activities>Led the migration of 14 Python services to Kubernetes on AWS.</Activities>
    </WorkExperience>
  </LearnerInfo>
</SkillsPassport>
"""


def test_a_europass_xml_cv_pasted_under_a_line_is_read(resume_checker: Checker) -> None:
    report = check(resume_checker, EUROPASS, "cv.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert any("14 Python services" in c["text"] for c in report.claims)  # read, not skipped as markup
    assert check(resume_checker, EUROPASS.replace("14 Python", "41 Python"), "cv.md").contradicted >= 1


PROFILE = """\
◀ Previous candidate   |   4 of 27   |   Next candidate ▶

## Elena Marsh
Applied 2 days ago via Indeed Apply
**Spotlights:** Open to work · Likely to respond · Has certifications
**Your match with this role: 85%**

7 of 22                                     [ Save to pipeline ▾ ]  [ Message ]  [ ⋯ ]

Matched keywords: Python ✓ Go ✓ Kubernetes ✓ AWS ✓ PostgreSQL ✓ Kafka ✓
Not found in profile: Rust, gRPC

Most interested in payments infrastructure. Led the migration of 14 Python services to Kubernetes.
"""


def test_a_job_platforms_furniture_is_no_claim(resume_verifier: Verifier) -> None:
    from autogen_pse.claims import build_ledger

    ledger = build_ledger(PROFILE, resume_verifier)
    assert not ledger.contradicted and not ledger.unverifiable, [c.text for c in ledger.contradicted + ledger.unverifiable]
    assert_pair(resume_verifier, PROFILE, PROFILE.replace("Not found in profile: Rust, gRPC", "Also: Rust, gRPC"))
    assert_pair(resume_verifier, PROFILE, PROFILE.replace("14 Python", "40 Python"))
    # a list of names after middle dots is still names: an employer in no source is caught
    assert status_of(resume_verifier, "Employers: Brightline · Harbourside · Stripe") is not Status.SUPPORTED


LINKEDIN_EDUCATION = """\
# Elena Marsh

**Desired role** — Staff Backend Engineer
**Years of experience** — 9 years

### Experience
**Senior Backend Engineer**
Brightline Payments Ltd
Mar 2020 – Present · Manchester
• Led the migration of 14 Python services from a monolith to Kubernetes on AWS.

### Education
**University of Leeds**
MSc, Computer Science · 2015

**BSc in Mathematics**
University of York – 2014

### Licenses & certifications
**Certified Kubernetes Application Developer (CKAD)** · Issued 2022
"""


def test_a_job_platforms_two_line_entries_and_panels_are_read(resume_checker: Checker) -> None:
    failed = {r.name: r.unsupported for r in resume_checker.check(LINKEDIN_EDUCATION)
              if not r.ok and r.severity == "error" and r.name != "sections"}
    assert not failed, failed
    wrong = LINKEDIN_EDUCATION.replace("MSc, Computer Science", "PhD, Computer Science")
    assert "degrees" in {r.name for r in resume_checker.check(wrong) if not r.ok}
    wrong = LINKEDIN_EDUCATION.replace("University of York", "University of Bath")
    assert "degrees" in {r.name for r in resume_checker.check(wrong) if not r.ok}


def test_a_dictated_cvs_corrections_and_spoken_figures_are_read(resume_verifier: Verifier) -> None:
    said = ("Then I led the migration of fourteen python services onto Cooper Netties [Kubernetes], around "
            "one point {} thousand requests per second at peak.")
    assert_pair(resume_verifier, said.format("two"), said.format("five"))
    assert_pair(resume_verifier, "Cut P ninety five latency on the API by sixty percent.",
                "Cut P ninety five latency on the API by seventy percent.")
    assert_pair(resume_verifier, "Backend engineer with roughly a decade (9 years) in payments.",
                "Backend engineer with roughly a decade (12 years) in payments.")
    # a bracketed tag that sounds like nothing before it is no correction: the name before it stays
    assert status_of(resume_verifier, "Ran services on Rust [Brightline].") is not Status.SUPPORTED


CONFLUENCE = """\
{info:title=Tailored CV: Tidewater Financial, Staff Backend Engineer (Payments Platform)}
Draft v2.
{info}

h1. Elena Marsh
{panel:title=Elena Marsh · Senior Backend Engineer|titleBGColor=#DEEBFF}
Manchester, UK
{panel}

h2. Experience
{column:width=65%}
h3. Senior Backend Engineer — Brightline Payments Ltd
* Led the migration of 14 Python services from a monolith to Kubernetes on AWS.
{column}
"""


def test_a_confluence_cv_is_read_as_markdown(resume_checker: Checker) -> None:
    report = check(resume_checker, CONFLUENCE, "cv.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)  # no "65%", no "DEEBFF"
    assert "experience" not in " ".join(r.detail for r in resume_checker.check(CONFLUENCE)
                                        if r.name == "sections" and not r.ok).lower()
    assert check(resume_checker, CONFLUENCE.replace("14 Python", "24 Python"), "cv.md").contradicted >= 1


CALL = """\
**[00:00] Operator:** Good evening, and welcome to the quarterly review of the Castellano portfolio.
**[00:21] Ingrid Sorensen (Adviser):** Thank you, operator. Apple is 43.85% of the portfolio.
**[06:48] Operator:** Thank you, Ms. Sorensen. Our final question is from Theo Castellano.
**[08:16] Theo Castellano:** Should we sell all 600 Microsoft shares?
**[08:20] Ingrid Sorensen:** Yes: Microsoft is down 27.66%, through the stop-loss.
"""


def test_the_people_of_a_call_or_ticket_are_no_claim(portfolio_checker: Checker) -> None:
    read = people(CALL)
    assert "Sorensen" not in read and "Castellano" not in read and "Operator" not in read
    assert "Apple is 43.85%" in read
    report = check(portfolio_checker, CALL)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert check(portfolio_checker, CALL.replace("down 27.66%", "down 17.66%")).contradicted >= 1
    # a company named once as a label is no person: it is still checked
    assert people("Nvidia Corp: a new holding.\n") == "Nvidia Corp: a new holding.\n"
    ticket = "**Tom Reyes** commented · 2010-03-01\n\nReporter: Walter Kim\n\nThe Reyes household holds five stocks."
    assert "Reyes" not in people(ticket) and "Kim" not in people(ticket)


R_SESSION = """\
Pasting the console from this morning's run. Comments are mine, in between.

R version 2.10.1 (2009-12-14)
> pf <- load_portfolio("2010-03-01")
> str(pf[, c("quantity", "close")])
'data.frame':	5 obs. of  2 variables:
 $ quantity : num  250 100 40 150 600
> summary(pf$holding_days)
   Min. 1st Qu.  Median    Mean 3rd Qu.    Max.
    851    1155    1339    1788    1885    3712
> tot$pnl_pct
[1] 0.6755338

So: about $127.2k of value on about $75.9k of cost, +67.55%. Every position is more than two years old
(GOOG is the youngest at 851 days), and MSFT is by far the oldest, opened 1 January 2000.
Highest vol is AMZN (0.4804), deepest drawdown is
MSFT (-0.6342).

| | Trigger | Action | |
|---|---|---|---|
| AAPL | overweight | TRIM | 79 shares, ≈$17,607.87, to the 30% cap |
"""


def test_an_r_session_is_read_as_its_commentary_and_output(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, R_SESSION)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)  # no code, quartiles, banner
    for good, bad in (("$75.9k of cost", "$85.9k of cost"), ("851 days", "951 days"), ("1 January 2000", "1 January 2001"),
                      ("| TRIM |", "| BUY |"), ("deepest drawdown is\nMSFT", "deepest drawdown is\nIBM")):
        assert check(portfolio_checker, R_SESSION.replace(good, bad)).contradicted >= 1, bad
    quote = "> I'd hold Apple at 43.85%.\n> pf <- 1\n\nAgreed.\n"  # a Markdown quote is no R session
    assert is_r_session(R_SESSION) and not is_r_session(quote)
    assert r_console(quote) == quote


WHATSAPP = """\
[01/03/2010, 13:18:30] Rosa Delgado: how have amazon and ibm done per year roughly
[01/03/2010, 13:22:51] Tariq Mahmood: Annualised since you bought:
- Amazon ~47.5% a year (since Jan 2007)
- IBM ~16.1% (since Jul 2006)
[01/03/2010, 13:23:20] Rosa Delgado: amazon beat apple per year? didnt expect that
[01/03/2010, 13:26:04] Tariq Mahmood: Per year yes, because you've held Apple longer. In total Apple's gain is \
much bigger (+480% vs +242% for Amazon).
[01/03/2010, 13:27:02] Rosa Delgado: so what DOES have a limit
[01/03/2010, 13:29:15] Tariq Mahmood: Google: I'd rather wait a month because it's -19.16%, not through the stop, \
and it's only been held ~2.3 yrs vs 10 for Microsoft. Great, thanks Rosa.
"""


def test_a_whatsapp_export_reads_message_by_message(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, WHATSAPP)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert any(c["text"] == "didnt expect that" for c in report.claims)  # not run into the next message
    for good, bad in (("~16.1%", "~26.1%"), ("it's -19.16%", "it's -27.66%"), ("+480%", "+580%")):
        assert check(portfolio_checker, WHATSAPP.replace(good, bad)).contradicted >= 1, bad


def test_an_analysts_asides_are_read_as_meant(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "The mean weight is 20% by construction.", "The mean weight is 25% by construction.")
    assert status_of(portfolio_verifier, "But the max is 0.4385.") is Status.SUPPORTED  # a fraction, to every digit
    assert_pair(portfolio_verifier, "Rule is max 30% in one name.", "Only one name is in the red.")  # a cap, a count
    assert Status.UNVERIFIABLE not in statuses(portfolio_verifier, "Done, I'll send the contract note when it fills.")
    assert status_of(portfolio_verifier, "Google won a government contract.") is Status.UNVERIFIABLE
    assert_pair(portfolio_verifier, "Headline: portfolio is sitting at about $127.2k on today's closes.",
                "Headline: portfolio is sitting at about $131.2k on today's closes.")


def test_an_arrow_to_the_cap_and_a_shocks_size_are_no_claims_of_gain(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "AAPL 55,755.00 → 43.85% ▲ cap", "AAPL 55,755.00 → 53.85% ▲ cap")
    assert status_of(portfolio_verifier, "AAPL ▲ 43.85%") is Status.CONTRADICTED  # an arrow alone is a gain
    assert_pair(portfolio_verifier, "If Apple fell by half, a position of 43.85% would cost you about 22% of the book.",
                "Apple fell by half last year.")
