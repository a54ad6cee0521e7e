"""Layouts the blind batches zf, zg and zh brought (a model's answer with its working in TeX math, a
teacher's walkthrough with HHI worked by hand, newswire shorthand, a legal-style letter in clauses,
a text-message thread; a CV pasted with its tracked changes and reviewers' comments, a press-release
bio with placeholders, a CV with footnotes and reference links, a GitHub CV of collapsible blocks):
each read right when faithful and still contradicted when one fact is changed."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.mathtext import plain_math, read_math
from autogen_pse.claims.number_formats import normaliser
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
        # working in brackets after the figure it gives
        ("Combined, the two are about 31% of the portfolio (17.62% + 13.59%).",
         "Combined, the two are about 35% of the portfolio (17.62% + 13.59%)."),
        ("Between them they're ~31% of the portfolio (17.62 + 13.59 = 31.21%).",
         "Between them they're ~35% of the portfolio (17.62 + 13.59 = 31.21%)."),
        # "worth of stock" after an amount is an amount of shares, not the holding's value
        ("Apple is 13.85 points above the cap, which is $17,607.87 worth of stock; in whole shares, 79.",
         "Apple is worth $17,607.87."),
        # a chat thread: a message about "it" is about the holding of the messages before it
        ("10:40 Sandra (advisor): Google: down 19.2%, held since Nov 2007\n10:41 Me: ok\n"
         "10:41 Sandra (advisor): Not at the stop tho (-19.2 vs -20)\n",
         "10:40 Sandra (advisor): Google: down 19.2%, held since Nov 2007\n10:41 Me: ok\n"
         "10:41 Sandra (advisor): Not at the stop tho (-21.2 vs -20)\n"),
        # "add" in a sum is no purchase; a whole number with a vulgar fraction is one number
        ("Apple alone is 43.85% of the portfolio; add Google and IBM and the top three come to 76.28%.",
         "Apple alone is 43.85% of the portfolio; I would add to Google on this weakness."),
        ("IBM is the calm one: lowest volatility (about 23½ percent a year).",
         "IBM is the calm one: lowest volatility (about 25½ percent a year)."),
        # a scholarly text: citations and its reference list are no claims about the portfolio
        ("Concentration matters (Evans & Archer, 1968; Statman, 1987). Perold and Sharpe (1988) agree "
         "(Kaminski & Lo, 2014).\n\n## References\n\nStatman, M. (1987). *Journal of Finance, 22*(3), 353–363.\n",
         "Concentration matters (Evans & Archer, 1968; Statman, 1987). Perold and Sharpe (1988) agree "
         "(Kaminski & Lo, 2014). Apple was bought in 2003.\n"),
        # a table of the writer's scores: the scores are judgements, its verdicts are claims
        ("## Decision matrix (scores out of 10 — my judgement)\n\n| Criterion | AAPL | AMZN | IBM |\n|---|---|---|---|\n"
         "| Return | 10 | 9 | 7 |\n| **Total (/20)** | **14** | **13** | **15** |\n",
         "| Symbol | Return | Risk | Total /20 | Verdict |\n|---|---|---|---|---|\n| MSFT | 1 | 4 | 5 | BUY |\n"),
        # a holding's figure held to a rule's level
        ("## Microsoft\n\n- Stop-loss hit: -27.66% vs -20%\n", "## Microsoft\n\n- Stop-loss hit: -22.66% vs -20%\n"),
        ("## Google\n\n- Not at the stop-loss (-19.16% vs -20%)\n", "## Google\n\n- The stop-loss is -25%.\n"),
        # weights by cost, and the largest position by cost
        ("Worth noting: GOOG is the largest position *by cost* ($27,720) but only the second-largest by value.",
         "Worth noting: MSFT is the largest position *by cost* ($23,886)."),
        ("| Holding | Cost | Share of cost |\n|---|---|---|\n| Google | $27,720.00 | 36.5% |\n",
         "| Holding | Cost | Share of cost |\n|---|---|---|\n| Google | $27,720.00 | 31.5% |\n"),
        # the holdings after "below" are the other side of the comparison
        ("## Google\n\n- Volatility 36.91%, below AAPL and AMZN\n", "## Google\n\n- Volatility 38.91%, below AAPL and AMZN\n"),
        # YAML list items: an item's name holds for its sibling keys and nested lists
        ("```yaml\nholdings:\n  - symbol: AAPL\n    weight: \"43.85%\"\n    pros:\n      - \"+480.03% on cost (+$46,142.50)\"\n"
         "  - symbol: GOOG\n    weight: \"17.62%\"\n```\n",
         "```yaml\nholdings:\n  - symbol: AAPL\n    weight: \"43.85%\"\n    pros:\n      - \"+480.03% on cost (+$46,142.50)\"\n"
         "  - symbol: GOOG\n    weight: \"43.85%\"\n```\n"),
        # a spreadsheet's formulas and a chart's scale are no figures; the cells' values are
        ("| 2 | AAPL | 250 | 9,612.50 `=B2*C2` | 55,755.00 `=B2*D2` |\n| 8 | Top 3 | 96,995.10 `=SUM(F2:F4)` | 76.28% |\n",
         "| 2 | AAPL | 250 | 9,612.50 `=B2*C2` | 57,755.00 `=B2*D2` |\n| 8 | Top 3 | 96,995.10 `=SUM(F2:F4)` | 76.28% |\n"),
        ("Weight by holding (█ = 2%)          cap = 30%\n\n0%     10%     20%     30%     40%     50%\n",
         "Weight by holding (█ = 2%)          cap = 35%\n"),
        # return per unit of volatility (a Sharpe-like ratio without the risk-free rate)
        ("| Symbol | CAGR ÷ volatility |\n|---|---|\n| AMZN | 0.99 |\n| MSFT | −0.11 |\n",
         "| Symbol | CAGR ÷ volatility |\n|---|---|\n| AMZN | 0.99 |\n| MSFT | −0.21 |\n"),
        ("AMZN has the best return per unit of vol, then AAPL.", "IBM has the best return per unit of vol, then AAPL."),
        # "from" a price "to" another: from the price paid
        ("Apple's price went from $38.45 to $223.02 (+480.03%).", "Apple's price went from $34.85 to $223.02 (+480.03%)."),
        # each holding's squared weight and its share of the HHI; the HHI as the sum of the squared weights
        ("The gap comes almost entirely from Apple: its squared weight (0.192) is about 70% of the whole HHI.",
         "The gap comes almost entirely from Apple: its squared weight (0.192) is about 50% of the whole HHI."),
        ("It's the sum of the squared weights: 0.274.", "It's the sum of the squared weights: 0.247."),
        # a spreadsheet's total row behind its row number
        ("| # | Holding | Value | Weight |\n|---|---|---|---|\n| 7 | TOTAL | 127,157.10 | 100.00% |\n",
         "| # | Holding | Value | Weight |\n|---|---|---|---|\n| 7 | TOTAL | 172,157.10 | 100.00% |\n"),
        # a rule stated of any holding
        ("BUY is forbidden for an overweight holding. The policy caps any single position at 30% of value.",
         "BUY is forbidden for Apple. The policy caps Apple at 30% of value."),
        # the number of holdings, said with a verb of having
        ("The portfolio has five holdings.", "The Portfolio consists of seven holdings."),
        ("So the book behaves like it has 3-and-a-bit equal positions rather than 5.", "You own 7 stocks."),
        # a chat export: each message a claim of its own, its time and sender no claim
        ("[01/03/2010, 19:10] Tom Reyes (IFA): Hi Priya! Yes just finished\n"
         "[01/03/2010, 19:11] Priya Shah: nice\n"
         "[01/03/2010, 19:14] Tom Reyes (IFA): AAPL - too big. 43.85% of the portfolio, cap is 30\n",
         "[01/03/2010, 19:10] Tom Reyes (IFA): Hi Priya! Yes just finished\n"
         "[01/03/2010, 19:11] Priya Shah: nice\n"
         "[01/03/2010, 19:14] Tom Reyes (IFA): AAPL - too big. 48.35% of the portfolio, cap is 30\n"),
        # a letter in clauses: references to schedules and clauses are no figures; a tag names a figure's holding
        ("3.3 The composition of the Portfolio, by Holding, is set out in Schedule 1.",
         "3.3 The composition of the Portfolio, by Holding, is set out in Schedule 1, including the Oracle Holding."),
        ("4.2 Annualised volatility ranges from 23.50% (the IBM Holding) to 48.04% (the AMZN Holding).",
         "4.2 Annualised volatility ranges from 23.50% (the IBM Holding) to 44.04% (the AMZN Holding)."),
        ("3.2 The Portfolio carries an unrealised gain of USD 51,266.60, equivalent to 67.55% of total Cost Basis.",
         "3.2 The Portfolio carries an unrealised gain of USD 51,266.60, equivalent to 76.55% of total Cost Basis."),
        ("(b) Its Holding Period (851 days) exceeds 730 days.", "(b) Its Holding Period (815 days) exceeds 730 days."),
        # a rule's definition is of no holding; the levels people compute from the rules are facts
        ("**Long-held loss** — held for 730 days or more and down 10% or more.",
         "**Long-held loss** — Google has been held for 730 days or more and is up 10% or more."),
        ("| Symbol | Stop price | Long-held-loss price | Cushion to stop |\n|---|---|---|---|\n"
         "| GOOG | 554.40 | 623.70 | ≈ 1% |\n| AAPL | 30.76 | 34.61 | ≈ 86% |\n",
         "| Symbol | Stop price | Long-held-loss price | Cushion to stop |\n|---|---|---|---|\n"
         "| GOOG | 554.40 | 632.70 | ≈ 1% |\n| AAPL | 30.76 | 34.61 | ≈ 86% |\n"),
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
        # (GitLab: none of hers; GitHub is, as the family of her GitHub Actions)
        ("Code: [GitHub profile][gh]\n\n[gh]: https://github.com/elena-marsh-example\n",
         "- Tools: [GitLab](https://gitlab.com), Jenkins, Gradle\n"),
        # a recruiter's scorecard: ratings are judgements, the evidence beside them is checked
        ("| Requirement | Rating | Evidence from CV |\n|---|---|---|\n"
         "| Payments | 4 | Designed an idempotent payments API in Go handling 1,200 requests per second at peak. |\n"
         "| Rust / gRPC | 1 | Neither on the CV. |\n",
         "| Requirement | Rating | Evidence from CV |\n|---|---|---|\n"
         "| Payments | 4 | Designed an idempotent payments API in Go handling 1,800 requests per second at peak. |\n"),
        ("Mentoring and code review Score: 4/5 Evidence: mentored a team of 6 engineers.",
         "Mentoring and code review Score: 4/5 Evidence: mentored a team of 9 engineers."),
        # a static site's template tags
        ("{% include cv/work.html %}\n\n- Designed an idempotent payments API in Go at Brightline.\n",
         "{% include cv/work.html %}\n\n- Designed an idempotent payments API in Rust at Brightline.\n"),
        # a web page's furniture
        ("Home · About · Projects · Contact\n\nView project →\n\n© 2024 Elena Marsh",
         "Home · About · Projects · Contact\n\nI joined Brightline in 2019.\n"),
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


def test_a_github_cv_of_collapsible_blocks_keeps_its_entries(resume_checker: Checker) -> None:
    """Markdown with HTML blocks in it ("<details><summary>Employer — Title — 2020 → present</summary>")
    is still Markdown: its sections, entries and date ranges are read."""
    cv = ("# Elena Marsh\n\n## Experience\n\n<details>\n"
          "<summary>Brightline Payments Ltd — Senior Backend Engineer — 2020 → present</summary>\n\n"
          "* Idempotent payments API in Go, 1,200 requests/second at peak\n"
          "* Monthly cloud spend cut 35%, or $420k a year\n\n</details>\n\n"
          "<details>\n<summary>Harbourside Logistics GmbH — Backend Engineer — 2017 → 2020</summary>\n\n"
          "* p95 latency down 60% (Redis caching, PostgreSQL tuning)\n\n</details>\n")
    failing = {r.name for r in resume_checker.check(cv) if not r.ok and r.severity == "error"}
    assert not failing & {"employers", "titles", "entries", "claims"}, failing
    invented = cv.replace("Senior Backend Engineer — 2020", "Staff Backend Engineer — 2020")
    assert "titles" in {r.name for r in resume_checker.check(invented) if not r.ok}


@pytest.mark.parametrize(
    "cv",
    [
        # an application form's numbered entries, their heads given as fields
        "## My Experience\n\n**Work experience 1**\n- Job title: Senior Backend Engineer\n"
        "- Company: Brightline Payments Ltd\n- From: 03/2020 — To: I currently work here\n"
        "- Role description: Designed an idempotent payments API in Go.\n",
        # a project spotlight inside an entry is no entry of its own
        "## Experience\n\n**Senior Backend Engineer** — Brightline Payments Ltd\nManchester, UK · 03/2020 – present\n\n"
        "**Project spotlight: idempotent payments API**\nI designed an idempotent payments API in Go.\n",
        # several certifications on one line, with a square bullet between them
        "## Certifications\n\nAWS Certified Solutions Architect – Associate (2021)  ▪  "
        "Certified Kubernetes Application Developer (CKAD) (2022)\n",
        # the job sought, named in a scorecard's table
        "# Scorecard\n\n| | |\n|---|---|\n| **Role** | Staff Backend Engineer, Payments Platform |\n"
        "| **Candidate** | Elena Marsh |\n",
    ],
)
def test_cv_layouts_keep_their_entries(resume_checker: Checker, cv: str) -> None:
    failing = {r.name for r in resume_checker.check(cv) if not r.ok and r.severity == "error"}
    assert not failing & {"employers", "titles", "entries", "degrees"}, failing


def test_thousands_written_with_a_space_are_one_figure() -> None:
    """A French line's "1 200 requêtes" is one figure, 1,200 (not 1 and 200)."""
    line = "FR : une API de paiement qui encaisse 1 200 requêtes par seconde, et 420 000 $ par an."
    assert normaliser(line)(line) == line.replace("1 200", "1,200").replace("420 000", "420,000")

