"""Regenerate the example eval dataset ``portfolios/``: one folder per portfolio (a case of
``pse eval portfolio-review --inputs tasks/portfolio-review/evals/portfolios``).

Every position's ``cost_per_unit`` is the real monthly close of the month it was opened, read from
the task's ``data/prices.csv`` (vega-datasets' stocks.csv, see ``data/build_example.py``), so each
portfolio's profits, losses and triggers are what those prices imply:

* ``overweight`` — AAPL grew to about 51 % of the portfolio (cap 30 %); nothing else triggers;
* ``stop-loss`` — valued as of 2009-03-01: GOOG bought in May 2008 is down about 41 % after 304
  days (stop -20 %, too young for the long-held rule); five holdings of about 20 % each;
* ``long-held-loss`` — GOOG bought in November 2007 is down about 19 % after 851 days (rule:
  730 days and -10 %, above the -20 % stop); five holdings of about 20 % each;
* ``clean`` — five gaining holdings of about 20 % each: no rule triggers;
* ``clean-misquoted`` — the clean portfolio, with the scripted-facts model told to type one figure
  wrong: the case the scripted model is expected to fail (claim check), so an eval shows a failure.

Run: ``.venv/bin/python tasks/portfolio-review/evals/build_portfolios.py`` (writes next to this file).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
PRICES = HERE.parent / "data" / "prices.csv"
NAMES = {"AAPL": "Apple Inc.", "AMZN": "Amazon.com, Inc.", "GOOG": "Google Inc.",
         "IBM": "International Business Machines Corp.", "MSFT": "Microsoft Corp."}

# case → (extra vars and expectations, [(symbol, quantity, opened_on)])
CLEAN = [("AAPL", 40, "2005-01-01"), ("AMZN", 70, "2007-01-01"), ("GOOG", 16, "2009-03-01"),
         ("IBM", 70, "2006-07-01"), ("MSFT", 300, "2009-03-01")]
PORTFOLIOS: dict[str, tuple[dict[str, object], list[tuple[str, int, str]]]] = {
    "overweight": ({"expect": {"verdict": "PASS", "verified": True}},
                   [("AAPL", 120, "2005-01-01"), ("AMZN", 50, "2007-01-01"), ("GOOG", 10, "2009-03-01"),
                    ("IBM", 60, "2006-07-01"),
                    ("MSFT", 200, "2009-03-01")]),
    "stop-loss": ({"vars": {"as_of": "2009-03-01"}, "expect": {"verdict": "PASS", "verified": True}},
                  [("AAPL", 95, "2005-01-01"), ("AMZN", 136, "2007-01-01"), ("GOOG", 29, "2008-05-01"),
                   ("IBM", 105, "2006-07-01"), ("MSFT", 555, "2009-01-01")]),
    "long-held-loss": ({"expect": {"verdict": "PASS", "verified": True}},
                       [("AAPL", 45, "2005-01-01"), ("AMZN", 78, "2007-01-01"), ("GOOG", 18, "2007-11-01"),
                        ("IBM", 80, "2006-07-01"), ("MSFT", 350, "2009-03-01")]),
    "clean": ({"expect": {"verdict": "PASS", "verified": True}}, CLEAN),
    "clean-misquoted": ({"max_cycles": 2, "scripted": {"flaw": "wrong-figure"}, "expect": {"verified": False}},
                        CLEAN),
}


def closes() -> dict[tuple[str, str], str]:
    with PRICES.open(encoding="utf-8", newline="") as fh:
        return {(r["symbol"], r["date"]): r["close"] for r in csv.DictReader(fh)}


def build(out_dir: Path = HERE / "portfolios") -> list[Path]:
    """Write one folder per portfolio (``holdings.csv`` and ``case.json``); returns the folders."""
    close_on = closes()
    written = []
    for case, (options, positions) in PORTFOLIOS.items():
        folder = out_dir / case
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "holdings.csv").open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(["symbol", "name", "asset_class", "quantity", "cost_per_unit", "currency", "opened_on"])
            for symbol, quantity, opened_on in positions:
                writer.writerow([symbol, NAMES[symbol], "equity", quantity, close_on[(symbol, opened_on)], "USD",
                                 opened_on])
        (folder / "case.json").write_text(json.dumps(options, indent=2) + "\n", encoding="utf-8")
        written.append(folder)
    return written


if __name__ == "__main__":
    for path in build():
        print(f"wrote {path}")
