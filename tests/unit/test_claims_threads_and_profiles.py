"""A personal-finance Q&A page (question, answers, commenters), a Europass XML CV and a job platform's
candidate profile: each faithful sample passes the ledger, and its twin with one fact changed fails.

The samples come from the blind batches zu (tests/fixtures/claims/<task>/zu).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier
from autogen_pse.claims.conversation import question_lines, speaker_labels
from tests.claims_support import assert_pair, check, failing, status_of

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
