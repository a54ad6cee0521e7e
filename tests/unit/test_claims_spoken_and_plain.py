"""Dictated figures, rules stated of any holding, memo headers and plain-text CV layouts: each
faithful sample passes with its figures read, and its twin with one fact changed fails.

The samples come from the blind batches m and n (tests/fixtures/claims/*/m, n): a voice-memo
transcript ("forty-three point eight five percent", "fifty-one grand", "January oh-five"), a
newspaper column that states the reader's rules, a fintech app's cards, a LinkedIn export, an
academic CV with outline-numbered sections.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims.dates import find_dates
from autogen_pse.claims.quantities import find_quantities, matches
from tests.claims_support import check, claim, failing, findings


@pytest.mark.parametrize(("words", "value", "unit"), [
    ("forty-three point eight five percent", 43.85, "pct"),
    ("sixty-seven point five five percent", 67.55, "pct"),
    ("fifty-three hundred bucks", 5300.0, "money"),
    ("about forty-six grand", 46000.0, "money"),
    ("fifty-one K", 51000.0, "money"),
    ("fifty-five thousand seven fifty-five", 55755.0, "count"),
    ("forty-six thousand one hundred forty-two fifty", 46142.5, "count"),
    ("seventy-five thousand eight hundred ninety dollars fifty", 75890.5, "money"),
    ("sixty-six oh six", 6606.0, "count"),
    ("ten years two months", 122.0, "months"),
])
def test_dictated_figures_are_read(words: str, value: float, unit: str) -> None:
    [q] = find_quantities(words)
    assert (q.value, q.unit) == (value, unit)


def test_digits_read_in_groups_may_be_a_price() -> None:
    [q] = find_quantities("bought at thirty-eight forty-five")
    assert matches(q, 38.45) and matches(q, 3845) and not matches(q, 38.5)
    assert find_quantities("the top two three holdings") == []  # no grouping of digits a reader would say


@pytest.mark.parametrize(("text", "value"), [
    ("Bought January oh-five at", "2005-01"),
    ("since November oh-seven.", "2007-11"),
    ("Held since January two thousand, ten years", "2000-01"),
    ("portfolio review as of the first of March, twenty ten.", "2010-03"),
    ("Review, five holdings, March one twenty-ten.", "2010-03"),
    ("held since '98 and still under water", "1998"),
])
def test_dictated_dates_are_read(text: str, value: str) -> None:
    assert [d.value for d in find_dates(text)] == [value]


VOICE_MEMO = """\
Transcription of voice memo. Re: portfolio review, valuation 2010-03-01.

Okay, so, the five stocks. It's worth a hundred twenty-seven thousand one hundred fifty-seven. We're up \
fifty-one thousand two sixty-six, sixty-seven point five five percent.

Apple is, uh, forty-three point eight five percent of the account. It's up four hundred eighty percent, \
forty-six thousand one hundred forty-two fifty, in since January oh-five.

Microsoft's thirteen point five nine percent, down twenty-seven point six six. Bought January two thousand, \
ten years two months.
"""


def test_voice_memo_after_a_memo_header_is_verified(portfolio_checker: Checker) -> None:
    """A "Re:" header is no sign-off: everything after it is still checked."""
    report = check(portfolio_checker, VOICE_MEMO)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    apple = claim(report, "Apple is, uh, forty-three point eight five percent of the account.")
    assert findings(apple, "supported", "figure")
    assert findings(claim(report, "Bought January two thousand, ten years two months."), "supported", "duration")


@pytest.mark.parametrize(("good", "bad"), [
    ("forty-three point eight five percent of the account", "forty-seven point one two percent of the account"),
    ("Microsoft's thirteen point five nine percent, down", "Microsoft's thirteen point five nine percent, up"),
    ("ten years two months", "twelve years two months"),
    ("in since January oh-five", "in since January oh-two"),
])
def test_voice_memo_twins_are_contradicted(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in VOICE_MEMO
    report = check(portfolio_checker, VOICE_MEMO.replace(good, bad))
    assert report.contradicted >= 1, failing(report)


COLUMN = """\
Microsoft has fared worse still. Held since January 2000, the 600 shares are down nearly 28 per cent.
At its lowest, the position was down more than 63 per cent.

The reader's own rules are simple. No position may exceed 30 per cent of the portfolio. A loss of 20 per cent
from cost triggers a stop-loss. A holding down 20 per cent or more has hit its stop-loss.

Amazon, bought two years later, has more than tripled. It has been the best performer on an annualised basis.
Every holding has suffered a drawdown since purchase, from about 36 per cent at IBM to 63 per cent at Microsoft.
"""


def test_column_rules_and_idioms_are_read(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, COLUMN)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    rule = claim(report, "No position may exceed 30 per cent of the portfolio.")
    assert findings(rule, "supported", "figure")


@pytest.mark.parametrize(("good", "bad"), [
    ("down more than 63 per cent", "down more than 73 per cent"),
    ("No position may exceed 30 per cent", "No position may exceed 35 per cent"),
    ("best performer on an annualised basis", "best performer on a volatility-adjusted basis, and the steadiest"),
    ("from about 36 per cent at IBM", "from about 26 per cent at IBM"),
])
def test_column_twins_are_contradicted(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in COLUMN
    report = check(portfolio_checker, COLUMN.replace(good, bad))
    assert report.contradicted >= 1, failing(report)


APP_CARDS = """\
**2 of your 5 holdings** need your attention.

**IBM**
14.81% · $18,832.50 · +$7,927.50 (+72.70%)
✅ No alerts
💡 Tip: Hold IBM and review it next quarter.

**Number of holdings triggering rules:** 3

Overall, the portfolio is worth about 1.7 times what it cost.
"""


def test_app_cards_counts_and_tips(portfolio_checker: Checker) -> None:
    ok = check(portfolio_checker, APP_CARDS.replace("**2 of your 5 holdings**", "**3 of your 5 holdings**"))
    assert ok.contradicted == 0, failing(ok)
    assert check(portfolio_checker, APP_CARDS).contradicted == 1  # two holdings need attention: three do
    wrong = check(portfolio_checker, APP_CARDS.replace("triggering rules:** 3", "triggering rules:** 2")
                  .replace("**2 of your", "**3 of your"))
    assert wrong.contradicted == 1, failing(wrong)
    tip = check(portfolio_checker, APP_CARDS.replace("Hold IBM and review it", "Consider trimming IBM")
                .replace("**2 of your", "**3 of your"))
    assert tip.contradicted == 1, failing(tip)  # an icon-led tip is its own claim: TRIM is not allowed for IBM
    doubled = check(portfolio_checker, APP_CARDS.replace("about 1.7 times what it cost", "about double what it cost")
                    .replace("**2 of your", "**3 of your"))
    assert doubled.contradicted == 1, failing(doubled)


LINKEDIN = """\
Elena Marsh
Senior Backend Engineer | Payments | Python & Go

Experience

Senior Backend Engineer
Brightline Payments Ltd · Full-time
Mar 2020 - Present
Manchester, United Kingdom
• Designed an idempotent payments API in Go, handling 1,200 requests per second at peak
• Cut monthly cloud spend by 35% ($420,000 a year) by consolidating PostgreSQL clusters

Backend Engineer
Harbourside Logistics GmbH · Full-time
Jun 2017 - Feb 2020 · 2 yrs 9 mos
• Reduced p95 API latency by 60% by adding Redis caching and tuning PostgreSQL queries

Education

University of Leeds
Master of Science - MSc, Computer Science
2015
"""


def test_linkedin_export_is_read(resume_checker: Checker) -> None:
    """Plain-text headings, multi-line entry heads and "Master of Science - MSc": one entry each."""
    report = check(resume_checker, LINKEDIN)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    failed = [r.name for r in resume_checker.check(LINKEDIN) if not r.ok and r.severity == "error" and r.name != "sections"]
    assert failed == []


@pytest.mark.parametrize(("good", "bad", "check_name"), [
    # the latency cut was Harbourside's: under Brightline it is another entry's figure
    ("• Cut monthly cloud spend by 35% ($420,000 a year) by consolidating PostgreSQL clusters",
     "• Reduced p95 latency on the payments API by 60% by adding Redis caching", "claims"),
    ("Backend Engineer\nHarbourside", "Lead Backend Engineer\nHarbourside", "titles"),
    ("Master of Science - MSc, Computer Science", "Master of Science - MSc, Physics", "degrees"),
    ("by 35% ($420,000 a year)", "by 45% ($420,000 a year)", "claims"),
])
def test_linkedin_twins_fail(resume_checker: Checker, good: str, bad: str, check_name: str) -> None:
    assert good in LINKEDIN
    failed = [r.name for r in resume_checker.check(LINKEDIN.replace(good, bad)) if not r.ok and r.severity == "error"]
    assert check_name in failed


ACADEMIC = """\
ELENA MARSH

1. EDUCATION

MSc Computer Science — University of Leeds — 2015

2. SUMMARY

Backend engineer with nine years of experience. Holds the AWS Certified Solutions Architect – Associate (2021) \
and the Certified Kubernetes Application Developer (2022) certifications.

3. PROFESSIONAL EXPERIENCE

**3.1 Brightline Payments Ltd, Manchester, UK**
*Senior Backend Engineer, Mar. 2020 – present*

Responsibilities included the design of an idempotent payments API in Go. Achievements included:
1. A 35% reduction in monthly cloud spend ($420,000 a year).

**3.2 Harbourside Logistics GmbH, Hamburg, Germany**
*Backend Engineer, June 2017 – Feb. 2020*

Achievements included:
1. The introduction of Terraform for infrastructure provisioning, covering 80% of the AWS estate.
"""


def test_academic_cv_is_read(resume_checker: Checker) -> None:
    """Numbered ALL-CAPS sections, outline-numbered entry heads scoping the lines below them."""
    report = check(resume_checker, ACADEMIC)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    failed = [r.name for r in resume_checker.check(ACADEMIC) if not r.ok and r.severity == "error" and r.name != "sections"]
    assert failed == []


def test_academic_cv_entry_swap_is_contradicted(resume_checker: Checker) -> None:
    """Harbourside's Terraform figure under the Brightline head: the head scopes the list below it."""
    brightline = "1. A 35% reduction in monthly cloud spend ($420,000 a year)."
    harbourside = "1. The introduction of Terraform for infrastructure provisioning, covering 80% of the AWS estate."
    swapped = ACADEMIC.replace(brightline, "@@B@@").replace(harbourside, brightline).replace("@@B@@", harbourside)
    assert swapped.index(harbourside) < swapped.index("Harbourside Logistics GmbH")
    report = check(resume_checker, swapped)
    assert report.contradicted >= 1, failing(report)


@pytest.mark.parametrize(("line", "status"), [
    ("- **IBM**: No rule applies.", "supported"),
    ("- **MSFT**: No rule applies.", "contradicted"),  # stop-loss and long-held loss: a small model's copied note
    ("- **AMZN**: trigger-free.", "supported"),
    ("- **GOOG**: no trigger.", "contradicted"),
    ("- **AAPL**: Strong gain over the period.", "supported"),
    ("- **GOOG**: Strong gain over the period.", "contradicted"),  # down 19 %
])
def test_notes_without_figures(portfolio_checker: Checker, line: str, status: str) -> None:
    report = check(portfolio_checker, "## Findings\n" + line + "\n")
    assert claim(report, line)["status"] == status, failing(report)


KEY_VALUE = """\
# Portfolio review — as of 2010-03-01

```yaml
summary:
  total_value: 127,157.10
  holdings_with_trigger: 3
findings:
  AAPL:
    weight: 43.85%
    volatility: 47.12%
  AMZN:
    weight: 10.13%
    volatility: 48.04%
```
"""


def test_key_value_blocks_are_checked_under_their_parent_key(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, KEY_VALUE)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert findings(claim(report, "volatility: 48.04%"), "supported", "figure")
    swapped = check(portfolio_checker, KEY_VALUE.replace("volatility: 48.04%", "volatility: 47.12%"))
    assert swapped.contradicted == 1, failing(swapped)  # AAPL's figure under AMZN


LETTER = """\
Kingsbury Wealth Partners LLP
40 Charlotte Square, Edinburgh

Dear Mrs Oyelaran-Whitfield,

The Portfolio was valued at $127,157 on 1 March 2010, some $51,267 above its cost.

Yours sincerely,

Gregory Lockhart
Head of Wealth Advisory
"""


def test_letterhead_and_signature_are_no_claims(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, LETTER)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    wrong = check(portfolio_checker, LETTER.replace("some $51,267 above", "some $61,267 above"))
    assert wrong.contradicted == 1, failing(wrong)


JSON_RESUME = """\
```yaml
basics:
  name: Elena Marsh
  label: Senior Backend Engineer
work:
  - name: Brightline Payments Ltd
    position: Senior Backend Engineer
    startDate: "2020-03"
    highlights:
      - Designed an idempotent payments API in Go handling 1,200 requests per second at peak
  - name: Harbourside Logistics GmbH
    position: Backend Engineer
    startDate: "2017-06"
    endDate: "2020-02"
    highlights:
      - Reduced p95 API latency by 60% by adding Redis caching
education:
  - institution: University of Leeds
    studyType: MSc
    area: Computer Science
    endDate: "2015"
```
"""


def test_json_resume_yaml_is_read_as_a_cv(resume_checker: Checker) -> None:
    report = check(resume_checker, JSON_RESUME)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    failed = [r.name for r in resume_checker.check(JSON_RESUME) if not r.ok and r.severity == "error" and r.name != "sections"]
    assert failed == []
    bad = JSON_RESUME.replace("position: Backend Engineer", "position: Lead Backend Engineer")
    titles = next(r for r in resume_checker.check(bad) if r.name == "titles")
    assert not titles.ok and "(line 11)" in titles.unsupported[0]  # the entry's own line, not the converted one
