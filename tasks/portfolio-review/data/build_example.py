"""Regenerate the example inputs ``prices.csv`` and ``holdings.csv`` from real public data.

Source: ``stocks.csv`` bundled with the PyPI package ``vega-datasets==0.9.0`` (real monthly closing
prices of AAPL, AMZN, GOOG, IBM and MSFT, January 2000 – March 2010; GOOG from August 2004). The file
is read from the installed package; nothing is downloaded.

The holder "Alex Example" is fictional. Each position's ``cost_per_unit`` is the real monthly close
of the month the position was opened, so the example's profits and losses are what those prices
imply. The positions are chosen so that the default as-of date (the last date in the prices,
2010-03-01) triggers every rule in ``rules.json``: MSFT a stop-loss (and a long-held loss), GOOG a
long-held loss, AAPL an overweight position; AMZN and IBM trigger nothing.

Run: ``.venv/bin/python tasks/portfolio-review/data/build_example.py`` (writes next to this file).
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from importlib import resources
from pathlib import Path

HERE = Path(__file__).resolve().parent

# symbol, name, asset_class, quantity, opened_on (a date present in stocks.csv), currency
POSITIONS = [
    ("AAPL", "Apple Inc.", "equity", 250, "2005-01-01", "USD"),
    ("AMZN", "Amazon.com, Inc.", "equity", 100, "2007-01-01", "USD"),
    ("GOOG", "Google Inc.", "equity", 40, "2007-11-01", "USD"),
    ("IBM", "International Business Machines Corp.", "equity", 150, "2006-07-01", "USD"),
    ("MSFT", "Microsoft Corp.", "equity", 600, "2000-01-01", "USD"),
]


def read_vega_stocks() -> list[tuple[str, str, str]]:
    """``(symbol, iso_date, close)`` rows of vega-datasets' stocks.csv, sorted by symbol and date."""
    text = resources.files("vega_datasets").joinpath("_data/stocks.csv").read_text(encoding="utf-8")
    rows = []
    for rec in csv.DictReader(io.StringIO(text)):
        day = datetime.strptime(rec["date"].strip(), "%b %d %Y").date()
        rows.append((rec["symbol"].strip(), day.isoformat(), rec["price"].strip()))
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows


def build(out_dir: Path = HERE) -> tuple[Path, Path]:
    """Write ``prices.csv`` and ``holdings.csv`` into ``out_dir``; returns both paths."""
    prices = read_vega_stocks()
    close_on = {(s, d): c for s, d, c in prices}
    prices_path, holdings_path = out_dir / "prices.csv", out_dir / "holdings.csv"
    with prices_path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["symbol", "date", "close"])
        writer.writerows(prices)
    with holdings_path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["symbol", "name", "asset_class", "quantity", "cost_per_unit", "currency",
                         "opened_on"])
        for symbol, name, asset_class, quantity, opened_on, currency in POSITIONS:
            cost = close_on[(symbol, opened_on)]  # KeyError = a date not in the source: fix POSITIONS
            writer.writerow([symbol, name, asset_class, quantity, cost, currency, opened_on])
    return prices_path, holdings_path


if __name__ == "__main__":
    for path in build():
        print(f"wrote {path}")
