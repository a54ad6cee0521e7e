"""Phrasings and layouts the blind batches zb and zc brought (notes-app vaults with callouts and
wiki-links, a German adviser's report through a machine translator, OCR of handwritten notes, a
model's JSON then prose; AsciiDoc/reStructuredText CVs, skill-bar CVs, a translated European CV, an
elevator pitch): each read right when faithful and still contradicted when one fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.dates import find_dates
from autogen_pse.claims.formats import read_document
from autogen_pse.claims.quantities import find_quantities
from tests.claims_support import assert_pair, statuses


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # counts written "N of M" without a noun, as a label, or with an adjective before the noun
        ("We hold 3 of 5 in the green.", "We hold 4 of 5 in the green."),
        ("holdings in profit: 3 of 5", "holdings in profit: 4 of 5"),
        ("Three of the five positions show a gain.", "Four of the five positions show a gain."),
        ("Two red positions, both flagged.", "Three red positions, all flagged."),
        ("The two loss positions Google and Microsoft make together 31.21 % of the portfolio.",
         "The three loss positions make together 31.21 % of the portfolio."),
        # "pieces" (German "Stück") are shares; "acquisition costs" are the cost basis
        ("It is recommended to reduce the position Apple by 79 pieces.",
         "It is recommended to reduce the position Apple by 97 pieces."),
        ("The total market value amounts to 127.157,10 USD with total acquisition costs of 75.890,50 USD.",
         "The total market value amounts to 127.157,10 USD with total acquisition costs of 79.890,50 USD."),
        # a stop price said as where a fall would take it
        ("Google: a further fall to about $554.40 a share would also trigger the stop-loss.",
         "Google: a further fall to about $504.40 a share would also trigger the stop-loss."),
        ("the weakest compounder in the book is Google, at -8.7% a year",
         "the weakest compounder in the book is Microsoft, at -3.1% a year"),
        # a figure with a sign is a change, never a level such as the weight
        ("- [[Google]] in the red on the position, ~-19% since Nov '07",
         "- [[Google]] still green on the position, ~+19% since Nov '07"),
        # a name standing alone as a list item's lead is presented as a holding
        ("- [[IBM]] — +72.7%, fine", "- [[Cisco]] — flat, no flag, leave it"),
        ("IBM — no trigger, leave as is", "INTC — small, no trigger, leave as is"),
        # "the sale of Apple shares" is some of them (a trim); "all your Apple shares" is not
        ("7.3 The sale of Apple shares may give rise to a capital gains tax liability.",
         "We recommend the sale of all your Apple shares."),
    ],
)
def test_notes_and_translated_reports(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


@pytest.mark.parametrize(
    "text",
    [
        "The stop-loss price lies at 554,40 USD (80 % of 693,00 USD), the closing price lies above it.",
        "**AUDIT — PORTFOLIO RULES — 1 MAR 2010**",
        "**[MUSIC — theme, 10 sec, fade]**",
        "Verdict — hold everything",
        # batches zd and ze: a UK suitability report, a junior analyst's draft, a bilingual review
        "2.3 We recommend that you hold your Google shares, for the reason given at 3.3.",
        "MSFT: held 3,712 days, which I make 10 years and about 2 months.",
        "AAPL 43.85% → TRIM 79 sh (excess $17,607.87, I got 78.95 sh and rounded up)",
        'The draft says "Amazon has been the best performer". Maybe say "the highest annualised return"?',
        "3.2 Most of that is down to Apple.",
        "La ganancia de Apple, 46.142,50 USD, explica casi toda la ganancia. Apple is 43.85% of the portfolio.",
        "Un abrazo, Andrés",
        "Hola Carlos — quick summary de tu cartera:",
        "Atentamente, Jorge Villaseñor",
    ],
)
def test_working_titles_and_letters_are_not_flagged(portfolio_verifier: Verifier, text: str) -> None:
    assert statuses(portfolio_verifier, text) <= {Status.NONE, Status.SUPPORTED}, text


def test_a_percentage_of_a_figure_is_an_operand_only_when_the_product_is_written(portfolio_verifier: Verifier) -> None:
    """"80 % of 693.00" is the 554.40 written beside it; with no such product the percentage is a claim."""
    ledger = build_ledger("The stop-loss price lies at 554.40 USD (70 % of 693.00 USD).", portfolio_verifier)
    assert any(f.text == "70 %" and f.status is Status.UNVERIFIABLE for c in ledger.claims for f in c.findings)


def test_news_after_a_colon_in_advice_is_flagged(portfolio_verifier: Verifier) -> None:
    text = "I'd keep it for now: Google also announced a share buyback this quarter, which should support the price."
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, text)


EUROPEAN_CV = """CURRICULUM VITAE

Personal data
Name .................. Elena Marsh
Residence ............. Manchester, UK
Date of birth ......... on request

Professional experience

since 03/2020        Senior Backend Engineer
                     Brightline Payments Ltd, Manchester (UK)
                     - Conception of an idempotent payments API in Go with 1.200 requests per second in peak
                     - Reduction of the monthly cloud costs by 35 % (USD 420.000 per year)

Education

2015                 Master of Science (MSc) Computer Science
                     University of Leeds

2014                 Bachelor of Science (BSc) Mathematics
                     University of York

Languages (programming)
Python, Go, SQL, JavaScript

IT knowledge
PostgreSQL, Redis, Kafka
"""


def test_a_translated_european_cv(resume_checker: Checker) -> None:
    """Thousands dots in a decimal-comma CV, dot leaders of a personal-data block, a date-first head
    over its indented employer or school, "IT knowledge" and "Languages (programming)" as skills."""
    report = {r.name: r for r in resume_checker.check(EUROPEAN_CV)}
    failed = {name: r.detail for name, r in report.items() if not r.ok and name not in ("sections", "keywords")}
    assert not failed, failed
    for wrong in (EUROPEAN_CV.replace("1.200 requests", "1.500 requests"),
                  EUROPEAN_CV.replace("USD 420.000", "USD 520.000"),
                  EUROPEAN_CV.replace("(BSc) Mathematics\n                     University of York",
                                      "(BSc) Mathematics\n                     University of Leeds")):
        assert {r.name for r in resume_checker.check(wrong) if not r.ok} - {"sections", "keywords"}, wrong


DOCS_REPO_CV = """Experience
==========

Senior Backend Engineer — Brightline Payments Ltd
-------------------------------------------------

*Mar 2020 – present · Manchester, UK*

- Designed an idempotent payments API in Go that handles 1,200 requests per second at peak.

.. list-table:: Skills
   :widths: 22 18 60
   :header-rows: 1

Education
=========

MSc Computer Science
    University of Leeds, 2015

BSc Mathematics
    University of York, 2014

[cols="4,1"]
|===
| AWS Certified Solutions Architect – Associate | 2021
|===

Python | █████████░ 90%
Phone: {phone} · GitHub: {github}
"""


def test_a_cv_kept_in_a_docs_repo(resume_checker: Checker) -> None:
    """reStructuredText sub-headings and definition lists, directives and their options, AsciiDoc
    block attributes, a template's unfilled placeholders and a skill bar's self-rating."""
    failed = {r.name: r.detail for r in resume_checker.check(DOCS_REPO_CV) if not r.ok}
    assert set(failed) <= {"sections", "keywords"}, failed
    wrong = DOCS_REPO_CV.replace("BSc Mathematics\n    University of York", "BSc Physics\n    University of York")
    assert "degrees" in {r.name for r in resume_checker.check(wrong) if not r.ok}


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        ("9 YEARS EXPERIENCE", "11+ YEARS EXPERIENCE"),
        ("Reduction of the monthly cloud costs by 35 % at Brightline.", "Halving of the monthly cloud costs at Brightline."),
        ("Replacement of nightly batch jobs by Kafka streams at Harbourside.",
         "Replacement of the Kafka streams by nightly batch jobs at Harbourside."),
        ("Designed an idempotent payments API in Go at Brightline.", "Designed the company's busiest API."),
    ],
)
def test_caps_nouns_and_superlatives_in_a_cv(resume_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(resume_verifier, faithful, fabricated)


@pytest.mark.parametrize(
    "text",
    ["The parts of my work that map most directly onto a payments platform role:",
     "| Surname, first name | Marsh, Elena |"],
)
def test_ordinary_words_are_no_superlatives(resume_verifier: Verifier, text: str) -> None:
    assert Status.CONTRADICTED not in statuses(resume_verifier, text)


def test_a_degree_given_the_other_degree_s_field_is_caught(resume_checker: Checker) -> None:
    pitch = "Background\n- MSc Computer Science, University of Leeds (2015)\n- BSc {field}, University of York (2014)\n"
    assert "degrees" not in {r.name for r in resume_checker.check(pitch.format(field="Mathematics")) if not r.ok}
    assert "degrees" in {r.name for r in resume_checker.check(pitch.format(field="Computer Science")) if not r.ok}


def test_markdown_with_line_breaks_in_table_cells_is_not_html() -> None:
    table = ("## Experience\n\n| Period | Role |\n|---|---|\n| 2020 – today | **Brightline** <br> • API <br> • k8s |\n"
             "| 2017 – 2020 | **Harbourside** <br> • Kafka <br> • Django |\n")
    assert read_document(table).text.splitlines()[0] == "## Experience"


def test_ranges_written_with_a_hyphen() -> None:
    """"2-10 yrs", "10-15%": both bounds take the unit; "2005-2007" is two years."""
    assert [(q.value, q.unit) for q in find_quantities("held 2-10 yrs")] == [(2, "years"), (10, "years")]
    assert [(q.value, q.unit) for q in find_quantities("up 10-15%")] == [(10, "pct"), (15, "pct")]
    assert [d.value for d in find_dates("the rest i bought 2005-2007.")] == ["2005", "2007"]
    assert not find_quantities("COVID-19 hit") and not find_dates("COVID-2019")


def test_a_bilingual_review_reads_each_sentence_in_its_own_number_format(portfolio_verifier: Verifier) -> None:
    assert_pair(portfolio_verifier, "Microsoft: pérdida de 6.606 dólares, un 27,66 %. It is at -27.66%.",
                "Microsoft: pérdida de 7.606 dólares, un 27,66 %. It is at -27.66%.")


APPLICATION_FORM = """### Employment

**Current/most recent employer:** Brightline Payments Ltd
**Job title:** Senior Backend Engineer
**Dates:** March 2020 – Present

### Screening questions

**Years of relevant experience:** 9 years

**Describe a project you are proud of (max 200 words):** The cloud cost work at Brightline.

**Highest qualification:** {degree}, University of Leeds (2015)
"""

COMPACT_CV = """**Experience**
- **Brightline Payments Ltd** ({title}) 03/20–now, Manchester: idempotent Go payments API, 1.2k rps peak
- **Harbourside Logistics GmbH** (Backend Eng) 06-2017 – 02-2020, Hamburg: nightly batch→Kafka streams

**Certs**
- AWS Certified Solutions Architect – Associate, 2021
"""


def test_forms_and_compact_cvs(resume_checker: Checker) -> None:
    """A form's sibling headings and field labels are no sections, its length limits no figures, a
    "highest qualification" no superlative; one-line roles with the title in brackets and MM/YY dates."""
    for doc, field, wrong in ((APPLICATION_FORM, "degree", "MSc Software Engineering"),
                              (COMPACT_CV, "title", "Staff Backend Eng")):
        right = doc.format(degree="MSc Computer Science", title="Sr Backend Eng")
        failed = {r.name: r.detail for r in resume_checker.check(right) if not r.ok}
        assert set(failed) <= {"sections", "keywords"}, failed
        assert {r.name for r in resume_checker.check(doc.format(**{**{"degree": "MSc Computer Science",
                                                                       "title": "Sr Backend Eng"}, field: wrong}))
                if not r.ok} - {"sections", "keywords"}


def test_era_years_and_form_limits_are_no_figures(resume_verifier: Verifier) -> None:
    for text in ("Heisei 27 (2015) | 9 | Joined Copperleaf Studio, Leeds.",
                 "**How many years in Python or Go? (minimum 7)** Nine years."):
        assert Status.CONTRADICTED not in statuses(resume_verifier, text), text
