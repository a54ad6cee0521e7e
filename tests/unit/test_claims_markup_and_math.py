"""Layouts the blind batches zf and zg brought (a model's answer with its working in TeX math, a
teacher's walkthrough with HHI worked by hand, newswire shorthand; a CV pasted with its tracked
changes and reviewers' comments, a press-release bio with placeholders, a CV with footnotes and
reference links): each read right when faithful and still contradicted when one fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.mathtext import plain_math, read_math
from tests.claims_support import assert_pair, statuses


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"w_{\text{AAPL}} = \frac{55{,}755.00}{127{,}157.10} \approx 0.4385", "w AAPL = 55,755.00 / 127,157.10 ≈ 0.4385"),
        (r"\frac{28.80}{39.81} - 1 \approx -27.66\% \le -20\%", "28.80 / 39.81 - 1 ≈ -27.66% ≤ -20%"),
        (r"\left(\frac{560.19}{693.00}\right)^{1/2.33}", "(560.19 / 693.00)^(1/2.33)"),
        (r"0.4385^2 + 0.1762^{2}", "0.4385² + 0.1762²"),
        (r"\underbrace{79 \times 223.02}_{\text{AAPL trim}}", "79 × 223.02 (AAPL trim)"),
    ],
)
def test_tex_math_reads_as_plain_text(tex: str, plain: str) -> None:
    assert " ".join(plain_math(tex).split()) == plain


def test_math_spans_are_found_and_amounts_are_left_alone() -> None:
    text = "Apple is $43.85\\% > 30\\%$ of the book; it cost $9,612.50 and is worth $55,755 now.\n"
    reading = read_math(text)
    assert reading is not None
    assert reading.text.startswith("Apple is 43.85% > 30% of the book; it cost $9,612.50 and is worth $55,755 now.")
    assert read_math("between $5 and $10 a share") is None  # two amounts, no math


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # TeX working: the arithmetic and the figures are checked as in prose
        ("$$ w_{\\text{AAPL}} = \\frac{250 \\times 223.02}{127{,}157.10} = \\frac{55{,}755.00}{127{,}157.10} "
         "\\approx 0.4385 $$",
         "$$ w_{\\text{AAPL}} = \\frac{250 \\times 223.02}{127{,}157.10} = \\frac{55{,}755.00}{127{,}157.10} "
         "\\approx 0.4853 $$"),
        ("The three largest positions (`AAPL`, `GOOG`, `IBM`) together make up $76.28\\%$.",
         "The three largest positions (`AAPL`, `GOOG`, `IBM`) together make up $67.28\\%$."),
        ("- **GOOG**: held 851 days ($\\ge 730$) and $-19.16\\% \\le -10\\%$ → long-held loss.",
         "- **GOOG**: held 581 days ($\\ge 730$) and $-19.16\\% \\le -10\\%$ → long-held loss."),
        # squares worked by hand, and a chain of sums
        ("HHI by hand:\n\n    AAPL 0.4385² = 0.1923\n    MSFT 0.1359² = 0.0185\n",
         "HHI by hand:\n\n    AAPL 0.4385² = 0.1923\n    MSFT 0.1359² = 0.0285\n"),
        ("0.4385² + 0.1762² + 0.1481² + 0.1359² + 0.1013² ≈ 0.192 + 0.031 + 0.022 + 0.018 + 0.010 ≈ 0.274",
         "0.4385² + 0.1762² + 0.1481² + 0.1359² + 0.1013² ≈ 0.192 + 0.031 + 0.022 + 0.018 + 0.010 ≈ 0.374"),
        # "a share" after a price names the price, whatever the article
        ("At $28.80 a share against a cost of $39.81, Microsoft is down $6,606.",
         "At $23.80 a share against a cost of $39.81, Microsoft is down $6,606."),
        # a column of years
        ("| Holding | Weight | Held (years) |\n|---|---|---|\n| AMZN | 10.13% | 3.16 |\n",
         "| Holding | Weight | Held (years) |\n|---|---|---|\n| AMZN | 10.13% | 4.16 |\n"),
        # Markdown's escaped dollar
        ("Portfolio level: \\$127,157.10 of value on \\$75,890.50 of cost.",
         "Portfolio level: \\$127,157.10 of value on \\$57,890.50 of cost."),
        # a direction with no holding and no whole is no claim; the whole's is
        ("One measures the wiggle; the other measures the worst hole you fell into.",
         "Overall, the portfolio fell over the period."),
    ],
)
def test_math_and_worked_figures(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


@pytest.mark.parametrize(
    "text",
    [
        "Annualised return uses the holding period in years, $t_i = d_i / 365.25$.",
        "Volatility is monthly (up to 36 months), annualised as $\\sigma_{ann} = \\sigma_{month} \\times \\sqrt{12}$.",
        "The cap in `rules.json` is $0.30 \\times MV = 38{,}147.13$.",
    ],
)
def test_constants_of_formulas_are_no_claims(portfolio_verifier: Verifier, text: str) -> None:
    assert Status.CONTRADICTED not in statuses(portfolio_verifier, text), text


@pytest.mark.parametrize(
    ("faithful", "fabricated"),
    [
        # tracked changes: the deleted words and the reviewers' notes are no claims, the inserted ones are
        ("- Mentored a team of ~~five~~ [inserted: six] engineers.",
         "- Mentored a team of ~~six~~ [inserted: five] engineers."),
        ("Languages: Python, Go, SQL, JavaScript~~, Rust~~\n"
         "[Comment JD: Deleted Rust, it is not on her CV. Same for gRPC below.]\n",
         "Languages: Python, Go, SQL, JavaScript, Rust\n"),
        ("Data: PostgreSQL, {--Cassandra, --}Kafka, Redis {>>no Cassandra on the CV<<}",
         "Data: PostgreSQL, {++Cassandra, ++}Kafka, Redis"),
        # a press release's placeholders are no organisations
        ("Elena Marsh joins [EVENT NAME] on [DATE] as a featured speaker. Press contact: [NAME], [EMAIL]",
         "Elena Marsh joins Stripe on Monday as a featured speaker."),
        # footnotes: a note of its own (not of the entry above it); "note 3" is a reference, not a figure
        ("## Experience\n\n**Copperleaf Studio**, Leeds — Software Developer, Sep 2015 – May 2017\n\n"
         "- Built Flask and React web applications for 12 clients (see note 3).\n\n"
         "[^3]: CV figures: 35% of monthly cloud spend, $420,000 a year, at Brightline.\n",
         "## Experience\n\n**Copperleaf Studio**, Leeds — Software Developer, Sep 2015 – May 2017\n\n"
         "- Built Flask and React web applications for 12 clients (see note 3).\n\n"
         "[^3]: CV figures: 35% of monthly cloud spend, $240,000 a year, at Brightline.\n"),
        # a profile link's text names where her code is, not a skill; a tool list's link is a skill
        ("Code: [GitHub profile][gh]\n\n[gh]: https://github.com/elena-marsh-example\n",
         "- Tools: [GitHub](https://github.com), Jenkins, Gradle\n"),
        # "-first" in a compound is no superlative; "since 2015" before the current employer is the career's
        ("She built a correctness-first payments API at Brightline.",
         "She built the fastest payments API at Brightline."),
        ("Payments and logistics backends in Go and Python since 2015; currently at Brightline Payments.",
         "Payments and logistics backends in Go and Python since 2012; currently at Brightline Payments."),
    ],
)
def test_tracked_changes_placeholders_and_notes(resume_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(resume_verifier, faithful, fabricated)


def test_a_footnote_is_read_as_a_note_of_its_own(resume_verifier: Verifier) -> None:
    text = ("## Education\n\nBSc Mathematics, University of York, 2014\n\n"
            "[^1]: First job at Copperleaf Studio in Leeds from September 2015.\n")
    notes = [c for c in build_ledger(text, resume_verifier).claims if c.text.startswith("[^1]")]
    assert notes and notes[0].section == "notes"
