"""A video's subtitles (SRT), Mermaid charts in a review, a rebalancing job's log, a broker app's
notification digest, and the whole portfolio's own measures said in passing ("you own five stocks
but you're diversified like someone who owns three and a half"): each faithful sample passes with its
facts read, and its twin with one fact changed fails.

The samples come from the blind batches zr and zs (tests/fixtures/claims/portfolio-review/zr, zs: a
finance YouTuber's captions, auto-generated and hand-corrected; a review with Mermaid pie, flowchart,
Gantt and mind-map blocks; logfmt and JSON-lines logs; app notification cards) and from faithful
reviews of earlier batches that used to fail (j, o, v, w, zc).
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


REBALANCER_LOG = """\
here's last night's run from rebal-nightly, looks right to me.

```
2010-03-01T22:00:03Z level=info msg="rules loaded" version=1 max_position_weight_pct=30.00 stop_loss_pct=-20.00 \
long_held_loss_days=730 long_held_loss_pct=-10.00
2010-03-01T22:00:06Z level=info msg="position evaluated" symbol=AAPL qty=250 close=223.02 weight_pct=43.85 pnl_pct=480.03
2010-03-01T22:00:06Z level=warn msg="long-held loss" symbol=GOOG held_days=851 threshold_days=730 threshold_pct=-10.00
2010-03-01T22:12:30Z level=debug msg="rule eval" symbol=MSFT rule=stop_loss value=-27.66 limit=-20.00 hit=true
2010-03-01T22:00:07Z level=info msg="action decided" symbol=AAPL action=TRIM qty=79 est_value_usd=17607.87
{"ts": "2010-03-01T22:00:08Z", "level": "info", "msg": "position evaluated", "symbol": "IBM", "pnl_pct": 72.70}
```
"""


def test_a_log_is_read_line_by_line() -> None:
    reading = read_document(REBALANCER_LOG)
    assert "- position evaluated; symbol: AAPL; qty: 250; close: 223.02; weight pct: 43.85" in reading.text
    assert "level" not in reading.text and "2010-03-01T22" not in reading.text  # the producer's fields
    assert "- rule eval; symbol: MSFT; rule: stop_loss; -27.66; limit: -20.00; hit" in reading.text
    assert "- position evaluated; symbol: IBM; pnl pct: 72.70" in reading.text  # a JSON line
    at = reading.original(reading.text.index("IBM"))  # each field keeps its place: here, its key's
    assert REBALANCER_LOG.rindex('"symbol"') <= at <= REBALANCER_LOG.rindex('"IBM"') + 5
    at = reading.original(reading.text.index("43.85"))
    assert REBALANCER_LOG.index("weight_pct=43.85") <= at <= REBALANCER_LOG.index("weight_pct=43.85") + 12


@pytest.mark.parametrize(("good", "bad"), [
    ("weight_pct=43.85", "weight_pct=41.85"),
    ('"pnl_pct": 72.70', '"pnl_pct": 241.97'),  # AMZN's gain on IBM
    ("symbol=AAPL action=TRIM", "symbol=GOOG action=TRIM"),  # a trim of a holding that is not overweight
    ('msg="rule eval" symbol=MSFT', 'msg="rule eval" symbol=ORCL'),  # a holding in no source
])
def test_logs_are_checked(portfolio_checker: Checker, good: str, bad: str) -> None:
    report = check(portfolio_checker, REBALANCER_LOG)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert good in REBALANCER_LOG
    assert check(portfolio_checker, REBALANCER_LOG.replace(good, bad)).contradicted >= 1


APP_DIGEST = """\
MY ALERTS — inbox export

Mon 1 Mar, 18:05 🔔 Apple now 43.85% of your portfolio — above your 30% limit.
Buying more Apple is blocked until it's back under.
Tap to view · Snooze

Mon 1 Mar, 18:06 ✅ IBM position checked — no rules triggered.
Tap to view · Manage alerts

ℹ️ About your rules: Cap 30% · Stop-loss −20% · Long-held loss: 730+ days and −10% or worse
You can change which alerts you get in Settings › Notifications.

🗓️ Week to Mon 1 Mar
Value      $127,157.10
Paid       $75,890.50
Gain       +$51,266.60 ↑ 67.55%
"""


def test_an_app_digest_passes(portfolio_checker: Checker) -> None:
    report = check(portfolio_checker, APP_DIGEST)
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)


@pytest.mark.parametrize(("good", "bad"), [
    ("✅ IBM position checked", "✅ Intel Corp. position checked"),  # an organisation, at a sentence's start
    ("Buying more Apple is blocked", "Buying more IBM is blocked"),  # IBM may be bought
    ("Paid       $75,890.50", "Paid       $78,890.50"),  # a card of figures: each line its own claim
])
def test_app_digest_twins_fail(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert check(portfolio_checker, APP_DIGEST.replace(good, bad)).contradicted >= 1


def test_a_buyback_in_a_month_is_still_a_buyback(portfolio_verifier: Verifier) -> None:
    from autogen_pse.claims import Status
    from tests.claims_support import statuses

    assert Status.UNVERIFIABLE in statuses(portfolio_verifier, "Google's board approved a share buyback in February.")
