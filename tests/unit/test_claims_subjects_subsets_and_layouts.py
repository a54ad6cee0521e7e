"""The subject a heading, a parenthesis or a "held … longer" gives a claim, rankings within a named set,
and CV layouts whose lines run together (samples from the corpus batches zi, zp, zf, zu, ze, r, zk, m, t, u):
each faithful form passes, and its twin with one fact changed does not.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from tests.claims_support import assert_pair, failed_checks, status_of

PROS_UNDER_A_HOLDING = """\
# Portfolio Review — Pros, Cons & Decision Matrix

## AMZN — Amazon.com, Inc.

**Pros**
- ✅ No trigger of any kind — BUY is permitted

---

## GOOG — Google Inc.

**Pros**
- ✅ Volatility (36.91%) lower than AAPL and AMZN

**Cons**
- ❌ Down $5,312.40 from a cost of $693.00 a share
"""


def test_a_bold_label_under_a_holdings_heading_keeps_that_holding(portfolio_verifier: Verifier) -> None:
    ledger = build_ledger(PROS_UNDER_A_HOLDING, portfolio_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    assert_pair(portfolio_verifier, PROS_UNDER_A_HOLDING, PROS_UNDER_A_HOLDING.replace("(36.91%)", "(47.12%)"))
    assert_pair(portfolio_verifier, PROS_UNDER_A_HOLDING, PROS_UNDER_A_HOLDING.replace("$5,312.40", "$6,606.00"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("IBM: the lowest annualised return among the three winners.",
         "IBM: the highest annualised return among the three winners."),
        ("GOOG has the lowest annualised return of the two losers.",
         "MSFT has the lowest annualised return of the two losers."),
        ("so amzn is the best performer per year but also the jumpiest?",
         "so aapl is the best performer per year but also the jumpiest?"),
        ("On an annualised basis AMZN is actually the best performer, slightly ahead of AAPL.",
         "On an annualised basis IBM is actually the best performer, slightly ahead of AAPL."),
    ],
)
def test_a_ranking_within_a_named_set_or_per_year(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


def test_the_total_return_ranking_is_still_the_default(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "AAPL is the best performer in the portfolio.",
                "AMZN is the best performer in the portfolio.")


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("AMZN has the highest CAGR in the book (47.52%, AAPL next at 40.58%) and the highest vol (48.04%, AAPL "
         "close behind at 47.12%).",
         "AMZN has the highest CAGR in the book (47.52%, AAPL next at 40.58%) and the lowest vol (48.04%, AAPL "
         "close behind at 47.12%)."),
        ("AAPL's total gain (+480.03%) dwarfs AMZN's (+241.97%) because it has been held two years longer.",
         "AAPL's total gain (+480.03%) dwarfs AMZN's (+241.97%) because it has been held four years longer."),
        ("It lets you compare a position held ten years (Microsoft) with one held two and a bit (Google).",
         "It lets you compare a position held ten years (Microsoft) with one held five and a bit (Google)."),
    ],
)
def test_a_subject_named_outside_the_parenthesis_and_periods_compared(
    portfolio_verifier: Verifier, good: str, bad: str
) -> None:
    assert status_of(portfolio_verifier, good) is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


def test_a_sentence_after_a_parenthesis_is_about_the_subject(portfolio_verifier: Verifier) -> None:
    text = ("AMZN has the highest CAGR in the book (47.52%, AAPL next at 40.58%). "
            "No trigger, so a BUY is allowed.")
    assert status_of(portfolio_verifier, text) is Status.SUPPORTED
    assert status_of(portfolio_verifier, text.replace("AMZN has", "MSFT has").replace("47.52%", "-3.14%")) \
        is Status.CONTRADICTED


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ("IBM   Intl Business Machines   weight 14.8%   value $18,833",
         "IBM   Intl Business Machines   weight 14.8%   value $28,833"),
        ("Apple is worth 55 755 $ today.", "Apple is worth 65 755 $ today."),
    ],
)
def test_a_short_form_of_a_name_and_a_currency_after_the_figure(
    portfolio_verifier: Verifier, good: str, bad: str
) -> None:
    assert build_ledger(good, portfolio_verifier).claims[0].status is Status.SUPPORTED
    assert_pair(portfolio_verifier, good, bad)


ONE_LINE_PER_ROLE = """\
`2020–now` **Brightline Payments** Sr Backend Eng: Go idempotent payments API @1.2k rps; cloud −35% ($420k/yr)
`2017–2020` **Harbourside Logistics GmbH** (Hamburg) Backend Eng: nightly batch→Kafka; Terraform ≈80% AWS
`2015–2017` **Copperleaf Studio** (Leeds) Software Dev: Flask/React for 12 clients; coverage 40→85%
"""

PDF_DATE_COLUMN = """\
EXPERIENCE
2017 –
2020
Harbourside Logistics GmbH, Hamburg
Backend Engineer
Django/Celery shipment tracking, 2M events a day · Terraform across 80% of the AWS estate
2015 –
2017
Copperleaf Studio, Leeds
Software Developer
Flask/React apps for 12 clients · Jenkins CI, coverage 40% → 85%

SKILLS                                   EDUCATION
Go, Python, SQL, JavaScript              MSc Computer Science, Univer-
PostgreSQL, Kafka, Redis                 sity of Leeds, 2015
Kubernetes, Docker, AWS (EC2,            BSc Mathematics, University of
S3, RDS), Terraform                      York, 2014
FastAPI, Django, Flask, Celery,          CERTIFICATIONS
React                                    AWS Solutions Architect – As-
Jenkins, GitHub Actions                  sociate, 2021 · CKAD, 2022
"""


@pytest.mark.parametrize("cv", [ONE_LINE_PER_ROLE, PDF_DATE_COLUMN])
def test_a_roles_dates_at_the_start_of_a_line_open_its_record(resume_verifier: Verifier, cv: str) -> None:
    ledger = build_ledger(cv, resume_verifier)
    assert not ledger.contradicted, [(c.text, c.why()) for c in ledger.contradicted]
    assert_pair(resume_verifier, cv, cv.replace("80%", "90%"))


def test_an_iso_date_at_the_start_of_a_line_continues_the_row(portfolio_verifier: Verifier) -> None:
    text = "AAPL bought 2005-01-01 +480.03% CAGR 40.58% GOOG\n2007-11-01 -19.16% CAGR -8.73%\n"
    assert Status.CONTRADICTED not in {c.status for c in build_ledger(text, portfolio_verifier).claims}



PROFILE_TAIL = """\
## Education

University of Leeds
Master of Science - MSc, Computer Science
2015

## Licenses & certifications

AWS Certified Solutions Architect – Associate
Amazon Web Services (AWS) · Issued 2021

## Skills

**Languages**

| Skill | Level | Years |
|---|---|---|
| Go | Expert | 4 |

**Data & streaming**

| Kafka | Intermediate | Jun 2017 – Feb 2020 |
"""


def test_an_issuer_by_its_abbreviation_and_a_skills_sub_label_are_no_entries(resume_checker: Checker) -> None:
    assert failed_checks(resume_checker, PROFILE_TAIL) == set()
    assert failed_checks(resume_checker, PROFILE_TAIL.replace("Amazon Web Services (AWS)", "Google Cloud Platform (GCP)"))


def test_a_labelled_list_under_education_is_no_entry(resume_checker: Checker) -> None:
    education = ("## Education\n\nMSc Computer Science, University of Leeds, 2015\n"
                 "BSc Mathematics, University of York, 2014\n\n"
                 "tech i use:  Python, Go, SQL, PostgreSQL, Kafka, Redis, Kubernetes\n")
    assert failed_checks(resume_checker, education) == set()
    assert failed_checks(resume_checker, education.replace("BSc Mathematics", "BSc Physics"))
