"""Layouts and idioms of real writing that the ledger reads: each faithful sample passes with its
figures read (supported, not skipped), and its twin with one figure changed is contradicted.

The samples come from the blind batches' styles (tests/fixtures/claims/*/g, h): plain-text e-mails
with space-aligned tables and a signature, committee minutes with outline numbers, per-period
rates and from/to differences in CVs, CV education written as prose or as a table.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from tests.claims_support import check, claim, failing, findings

PLAIN_EMAIL = """\
Dear Alex,

HOLDING BY HOLDING

  Apple       $55.8k   43.9%   +480%    5 yrs 2 mths   over the cap
  Google      $22.4k   17.6%   -19.2%   2 yrs 4 mths   long-held loss
  IBM         $18.8k   14.8%   +72.7%   3 yrs 8 mths   fine

Proposed actions
    #  Action   Holding     Amount       Why
    1  TRIM     Apple       79 shares    over the 30% cap (rule 2)
    2  SELL     Microsoft   600 shares   stop-loss hit, long-held loss

Together the two trades would raise roughly $34.9k in cash. The winners are up about $63.2k between
them and the losers down about $11.9k. Microsoft has been held ten years and two months.

Kind regards,

Helen Marsh
Private Client Adviser
"""


def test_plain_text_email_is_read(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, PLAIN_EMAIL)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    row = claim(report, "Apple       $55.8k   43.9%   +480%    5 yrs 2 mths   over the cap")
    assert len(findings(row, "supported")) >= 4  # value, weight, gain, holding period (and the flag)
    assert findings(claim(report, "Microsoft has been held ten years and two months."), "supported", "duration")


@pytest.mark.parametrize(("good", "bad"), [
    ("5 yrs 2 mths   over the cap", "6 yrs 2 mths   over the cap"),
    ("roughly $34.9k in cash", "roughly $44.9k in cash"),
    ("losers down about $11.9k", "losers down about $15.9k"),
    ("ten years and two months", "ten years and nine months"),
    ("600 shares   stop-loss hit", "650 shares   stop-loss hit"),  # more than the position
])
def test_plain_text_email_twins_are_contradicted(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in PLAIN_EMAIL
    report = check(portfolio_checker, PLAIN_EMAIL.replace(good, bad))
    assert report.contradicted == 1, failing(report)


MINUTES = """\
Present: Ms A. Ferreira (Chair), Mr K. Osei, Dr N. Hartmann

1.1 The Committee noted that the portfolio was valued at approx. USD 127.2k on a cost of approx. USD 75.9k.
1.2 Three triggers were recorded: AAPL (overweight), GOOG (long-held loss) and MSFT (stop-loss).
2.1 The Committee noted that Google and Microsoft together were c. 31 per cent of value.
2.2 Mr Osei noted that IBM was the least volatile at c. 23.5 per cent.
3.1 Resolved: TRIM 79 AAPL shares (approx. USD 17.6k); proceeds to cash.
A. Sell 79 Apple shares, worth about $17,600, and keep the cash.
"""


def test_committee_minutes_are_read(portfolio_checker: Checker) -> None:
    """Outline numbers are no figures, "c." and "approx." end no sentence, people are no companies."""
    report = check(portfolio_checker, MINUTES)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert findings(claim(report, "2.1 The Committee noted that Google and Microsoft together were c. 31 per cent "
                                  "of value."), "supported", "figure")
    bad = check(portfolio_checker, MINUTES.replace("c. 31 per cent", "c. 41 per cent"))
    assert bad.contradicted == 1, failing(bad)


CV_PROSE = """\
# Elena Marsh

Senior Backend Engineer

## Experience

### Brightline Payments Ltd — Senior Backend Engineer
Mar 2020 – Present

Cut monthly cloud spend by 35%, about $35,000 a month, by consolidating PostgreSQL clusters.

### Copperleaf Studio — Software Developer
Sep 2015 – May 2017

Set up CI pipelines with Jenkins and raised automated test coverage from 40% to 85%, an increase of 45
percentage points.

## Education

I hold an MSc in Computer Science from the University of Leeds, which I took straight after a BSc in Mathematics at the University of York.

| Certification | Year |
|---|---|
| AWS Certified Solutions Architect – Associate | 2021 |

## Certifications

I hold two certifications: AWS Certified Solutions Architect – Associate (2021) and Certified Kubernetes Application Developer, CKAD (2022).
"""


def test_cv_rates_differences_and_prose_education_are_read(resume_checker: Checker) -> None:
    report = check(resume_checker, CV_PROSE)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    failed = [r.name for r in resume_checker.check(CV_PROSE) if not r.ok and r.severity == "error" and r.name != "sections"]
    assert failed == []
    rate = claim(report, "Cut monthly cloud spend by 35%, about $35,000 a month, by consolidating PostgreSQL clusters.")
    assert len(findings(rate, "supported", "figure")) == 2


@pytest.mark.parametrize(("good", "bad", "check_name"), [
    ("about $35,000 a month", "about $45,000 a month", "claims"),
    ("an increase of 45\npercentage points", "an increase of 55\npercentage points", "claims"),
    ("a BSc in Mathematics at the University of York", "a BSc in Physics at the University of York", "entries"),
    ("Certified Kubernetes Application Developer, CKAD (2022)", "Certified Kubernetes Administrator, CKA (2022)",
     "entries"),
])
def test_cv_twins_fail(resume_checker: Checker, good: str, bad: str, check_name: str) -> None:
    assert good in CV_PROSE
    failed = [r.name for r in resume_checker.check(CV_PROSE.replace(good, bad)) if not r.ok and r.severity == "error"]
    assert check_name in failed


@pytest.mark.parametrize(("good", "bad", "kind"), [
    # a change stated the other way round, with no figure to compare
    ("Moved nightly batch jobs to Kafka streams.", "Moved our Kafka streams over to nightly batch jobs.", "direction"),
    ("Migrated 14 Python services from a monolith to Kubernetes on AWS.",
     "Consolidated 14 Python services from k8s into a single monolith.", "direction"),
    # counts compared with the source's count of the same thing
    ("Migrated 14 Python services to Kubernetes.", "Migrated 18 Python services to Kubernetes.", "figure"),
    ("Code review guidelines adopted across three teams.", "Code review guidelines adopted across five teams.",
     "figure"),
    # durations in words
    ("Cut data delays from a full day to a quarter of an hour.",
     "Cut data delays from a full day to around half an hour.", "figure"),
])
def test_cv_sentence_twins(resume_checker: Checker, good: str, bad: str, kind: str) -> None:
    head = "# Elena Marsh\n\n## Experience\n\n### Harbourside Logistics GmbH — Backend Engineer\nJun 2017 – Feb 2020\n\n"
    if "services" in good or "review" in good:
        head = head.replace("Harbourside Logistics GmbH — Backend Engineer\nJun 2017 – Feb 2020",
                            "Brightline Payments Ltd — Senior Backend Engineer\nMar 2020 – Present")
    ok = check(resume_checker, head + "- " + good + "\n")
    assert ok.contradicted == 0 and ok.unverifiable == 0, failing(ok)
    wrong = check(resume_checker, head + "- " + bad + "\n")
    c = claim(wrong, bad)
    assert c["status"] == "contradicted" and findings(c, "contradicted", kind), failing(wrong)


def test_cv_claim_phrases_are_whole_words(resume_checker: Checker) -> None:
    """ "on-call" is one claim word, though it is written with a hyphen."""
    head = "# Elena Marsh\n\n## Experience\n\n### Brightline Payments Ltd — Senior Backend Engineer\nMar 2020 – Present\n\n"
    report = check(resume_checker, head + "- Owned the on-call rotation for the payments API.\n")
    assert claim(report, "Owned the on-call rotation for the payments API.")["status"] == "unverifiable"
