"""A video's subtitles (SRT), Mermaid charts in a review, and the whole portfolio's own measures said in
passing ("you own five stocks but you're diversified like someone who owns three and a half"): each
faithful sample passes with its facts read, and its twin with one fact changed fails.

The samples come from the blind batch zr (tests/fixtures/claims/portfolio-review/zr: a finance
YouTuber's captions, auto-generated and hand-corrected; a review with Mermaid pie, flowchart, Gantt
and mind-map blocks) and from faithful reviews of earlier batches that used to fail (j, o, v, w, zc).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier
from autogen_pse.claims.dataliterals import data_as_yaml
from autogen_pse.claims.formats import read_document
from tests.claims_support import assert_pair, check, failing


@pytest.mark.parametrize(("faithful", "fabricated"), [
    ("HHI 0.274 ≈ 3.65 effective names (5 held)", "HHI 0.274 ≈ 3.65 effective names (7 held)"),
    ("So she owns five stocks but it behaves like she owns fewer than four.",
     "So she owns five stocks but it behaves like she owns two."),
    ("The top three (Apple, Google, IBM) make up about 76% of the portfolio. The \"effective number of "
     "holdings\" works out to roughly 3.65 — in plain English, we own five stocks but we're diversified like "
     "someone who owns three and a half.",
     "The top three (Apple, Google, IBM) make up about 76% of the portfolio. The \"effective number of "
     "holdings\" works out to roughly 3.65 — in plain English, we own five stocks but we're diversified like "
     "someone who owns two and a half."),
    ("AAPL, GOOG and IBM together are ~76% of everything, and the HHI is 0.274 (effective # of holdings ~3.65).",
     "AAPL, GOOG and IBM together are ~76% of everything, and the HHI is 0.274 (effective # of holdings ~2.65)."),
])
def test_the_whole_portfolios_measures_said_in_passing(
    portfolio_verifier: Verifier, faithful: str, fabricated: str
) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


def test_a_holdings_figure_that_equals_a_measure_of_the_whole_named_elsewhere_still_fails(
    portfolio_verifier: Verifier,
) -> None:
    # the effective number (3.65) is named, but the figure is said of Apple's weight, right after Apple
    assert_pair(portfolio_verifier, "The effective number of holdings is 3.65, and Apple weighs 43.85%.",
                "The effective number of holdings is 3.65, and Apple weighs 3.65%.")


CAPTIONS = """\
1
00:00:00,500 --> 00:00:04,100
[Music]

2
00:00:04,100 --> 00:00:08,347
Okay, so this week's portfolio comes from a viewer.
Five stocks, all priced as of the first of March, 2010.

3
00:00:08,347 --> 00:00:12,134
Apple is forty-three point eight five percent
of the portfolio on its own. His cap is thirty percent.

4
00:00:12,134 --> 00:00:16,161
So Apple is overweight, and the fix is a trim. Microsoft: six hundred shares,
bought back in January of 2000.

5
00:00:16,161 --> 00:00:20,212
Thirty-nine eighty-one a share, and it closed at twenty-eight eighty.
[Applause]

6
00:00:20,212 --> 00:00:24,446
That's down twenty-seven point six six percent.
"""

AUTO_CAPTIONS = """\
1
00:00:02,107 --> 00:00:08,135
hey guys welcome back to the channel

2
00:00:08,435 --> 00:00:14,606
now the losers google bought november 2007 down 19.16%

3
00:00:14,606 --> 00:00:21,212
that's minus 8.73% a year
and microsoft

4
00:00:21,332 --> 00:00:26,830
microsoft was bought january 2000 down 27.66%

5
00:00:27,130 --> 00:00:33,325
so the plan trim apple sell microsoft review google hold amazon and ibm
"""


def test_subtitles_are_read_as_their_transcript() -> None:
    reading = read_document(CAPTIONS)
    assert "-->" not in reading.text and "[Music]" not in reading.text and "[Applause]" not in reading.text
    # a sentence broken across two cues is one again; each piece points back at its line
    assert "Apple is forty-three point eight five percent of the portfolio on its own." in reading.text
    start = reading.text.index("Thirty-nine")
    assert CAPTIONS[reading.original(start):].startswith("Thirty-nine eighty-one a share")


def test_auto_captions_are_read_cue_by_cue() -> None:
    text = read_document(AUTO_CAPTIONS).text
    assert "that's minus 8.73% a year\n\nand microsoft microsoft was bought" in text  # the next clause


@pytest.mark.parametrize(("doc", "good", "bad"), [
    (CAPTIONS, "forty-three point eight five percent", "forty-one point eight five percent"),
    (CAPTIONS, "Thirty-nine eighty-one a share", "Thirty-two eighty-one a share"),
    (AUTO_CAPTIONS, "that's minus 8.73% a year", "that's minus 9.73% a year"),
    (AUTO_CAPTIONS, "trim apple sell microsoft", "sell apple trim microsoft"),
])
def test_subtitles_are_checked(portfolio_checker: Checker, doc: str, good: str, bad: str) -> None:
    report = check(portfolio_checker, doc, "captions.srt")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert check(portfolio_checker, doc.replace(good, bad), "captions.srt").contradicted >= 1


CHARTS = """\
## Where the money sits

```mermaid
pie showData title Weight by holding (%)
    "AAPL" : 43.85
    "GOOG" : 17.62
    "IBM" : 14.81
```

```mermaid
flowchart TD
    START([Each holding]) --> Q1{Weight above 30%?}
    Q1 -->|yes| AAPL["AAPL · 43.85%"] --> TRIM[[TRIM 79 shares]]
    Q1 -->|no| OK["AMZN · +241.97%<br/>IBM · +72.70%"] --> HOLD[[HOLD]]
    I[IBM] -->|"no trigger · 3rd-largest weight"| I1([HOLD])
```

```mermaid
gantt
    title Positions held
    dateFormat YYYY-MM-DD
    section Holdings
    MSFT :msft, 2000-01-01, 2010-03-01
    IBM  :ibm, 2006-07-01, 2010-03-01
```

```mermaid
mindmap
  root((Portfolio<br/>$127,157.10))
    Winners
      AAPL +$46,142.50
      AMZN +$9,115.00
```
"""


def test_mermaid_charts_are_read_as_text() -> None:
    read = data_as_yaml(CHARTS)
    assert len(read) == len(CHARTS) and read.count("\n") == CHARTS.count("\n")
    assert "```chart  \n" in read  # a fence of text whose lines are no table rows
    assert "AAPL  : 43.85" in read and "pie" not in read
    assert "Q1" not in read and "-->" not in read  # ids and arrows
    assert "AMZN · +241.97%;    IBM · +72.70%" in read  # a line break in a label: a clause break
    assert "MSFT:" in read and ":msft," not in read and "dateFormat" not in read
    assert "- AAPL +$46,142.50" in read and "root" not in read


@pytest.mark.parametrize(("good", "bad"), [
    ('"GOOG" : 17.62', '"GOOG" : 12.62'),
    ("IBM · +72.70%", "IBM · +241.97%"),  # a true figure of another holding
    ("3rd-largest weight", "2nd-largest weight"),
    ("IBM  :ibm, 2006-07-01", "IBM  :ibm, 2004-07-01"),
    ("AMZN +$9,115.00", "AMZN +$7,927.50"),
])
def test_mermaid_charts_are_checked(portfolio_checker: Checker, good: str, bad: str) -> None:
    report = check(portfolio_checker, CHARTS)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert good in CHARTS
    assert check(portfolio_checker, CHARTS.replace(good, bad)).contradicted >= 1


@pytest.mark.parametrize(("faithful", "fabricated"), [
    # a middle dot spaced on both sides separates; it multiplies only in a formula
    ("AAPL · 43.85% · TRIM 79 shares", "AAPL · 41.85% · TRIM 79 shares"),
    # "a share" after a spoken price is the price's unit, not a count of shares
    ("Microsoft: bought at thirty-nine eighty-one a share.", "Microsoft: bought at thirty-two eighty-one a share."),
    # "back down to 30%": the cap a trim brings it to
    ("Apple needs a trim: he'd need to sell 79 shares to get back down to 30%.",
     "Apple needs a trim: he'd need to sell 79 shares to get back down to 25%."),
    # a difference of two holding periods
    ("Apple's +480% looks bigger mainly because it has been held two years longer than Amazon.",
     "Apple's +480% looks bigger mainly because it has been held four years longer than Amazon."),
    # a table column of periods held in years
    ("| Holding | Days held | ≈ Years |\n|---|---|---|\n| MSFT | 3,712 | 10.2 |\n| AAPL | 1,885 | 5.2 |",
     "| Holding | Days held | ≈ Years |\n|---|---|---|\n| MSFT | 3,712 | 12.2 |\n| AAPL | 1,885 | 5.2 |"),
])
def test_separators_prices_targets_and_periods(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


def test_bought_back_then_is_no_buyback(portfolio_verifier: Verifier) -> None:
    from autogen_pse.claims import Status
    from tests.claims_support import statuses

    assert Status.UNVERIFIABLE not in statuses(portfolio_verifier,
                                               "Microsoft: six hundred shares, bought back in January of 2000.")
    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, "Microsoft bought back shares last year.")


@pytest.mark.parametrize("text", [
    "Could we buy more Google instead?",  # asked, not advised
    "Why did the goose refuse to buy more Microsoft?",
    "**olu** — Today at 18:06 and if we trim aapl to 30 what do we sell",  # a half-question; 30: the cap
    '"My broker told me to buy Microsoft for the long term."',  # reported
    "(Buying more Apple isn't allowed while it's overweight.)",  # written as forbidden, and it is
])
def test_questions_reports_and_denials_advise_nothing(portfolio_verifier: Verifier, text: str) -> None:
    from autogen_pse.claims import Status
    from tests.claims_support import statuses

    assert Status.CONTRADICTED not in statuses(portfolio_verifier, text)


@pytest.mark.parametrize(("faithful", "fabricated"), [
    ("Why not trim Apple back under the cap?", "Why not buy more Google?"),  # a question that advises
    ("We should trim Apple to 30%.", "We should trim Apple to 35%."),
    ("Buying more Apple isn't allowed.", "Buying more IBM isn't allowed."),  # IBM may be bought
])
def test_advice_still_checked(portfolio_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)
