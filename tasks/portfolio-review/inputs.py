"""Read and validate the portfolio-review inputs (holdings.csv, prices.csv, rules.json).

Every problem raises :class:`autogen_pse.errors.InputFileError` naming the file, the row and the
field. Row numbers are line numbers in the file: the header is row 1, the first data row is row 2
(what a spreadsheet shows). Files are read with the stdlib ``csv``/``json`` modules, must be UTF-8
(a leading BOM is accepted) and at most :data:`MAX_BYTES` large.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from datetime import date
from pathlib import Path
from typing import Any

from autogen_pse.hooks import InputFileError, UserError

MAX_BYTES = 5 * 1024 * 1024
ACTIONS = ("BUY", "SELL", "TRIM", "HOLD", "REVIEW")
TRIGGERS = ("stop_loss_hit", "long_held_loss", "overweight")
HOLDINGS_COLUMNS = ("symbol", "name", "asset_class", "quantity", "cost_per_unit", "currency", "opened_on")
PRICES_COLUMNS = ("symbol", "date", "close")
MAX_PRICE_AGE_DAYS = 45

_SYMBOL = re.compile(r"^[A-Z][A-Z0-9]{0,5}(?:[.-][A-Z0-9]{1,2})?$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_DECIMAL = re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")  # 1234, 1234.5, .5: no exponent or separator
MAX_PRICE_GAP_DAYS = 93  # monthly closes: a gap longer than a quarter changes volatility and drawdown


def resolve_path(value: str, task_dir: Path) -> Path:
    """An input path from a ``--var``: absolute as given; relative tried against the current
    directory first, then the task folder.

    Raises:
        InputFileError: the file exists in neither place.
    """
    path = Path(value).expanduser()
    candidates = [path] if path.is_absolute() else [Path.cwd() / path, task_dir / path]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    tried = " or ".join(str(c) for c in candidates)
    raise InputFileError(value, f"file not found (tried {tried}); pass an existing file with --var")


def read_text(path: Path) -> str:
    """The file's text after the size and encoding checks.

    Raises:
        InputFileError: larger than 5 MB, not UTF-8 or holding a NUL byte (row = the line holding
            the bad byte), or empty.
    """
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise InputFileError(path, f"file is {size:,} bytes, over the 5 MB limit; trim it")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputFileError(path, f"not UTF-8 text (byte {exc.start}); re-save the file as UTF-8",
                             row=line) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputFileError(path, "binary file (NUL byte); give a UTF-8 text file", row=line)
    if not text.strip():
        raise InputFileError(path, "file is empty")
    return text


def read_csv(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV file as ``(row_number, {column: stripped cell})`` with the required columns.

    Extra columns are ignored; blank lines are skipped (but still counted in row numbers).

    Raises:
        InputFileError: missing column (row 1), a row with the wrong number of cells, an empty cell,
            a header without data rows.
    """
    text = read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except (StopIteration, csv.Error) as exc:
        raise InputFileError(path, f"no CSV header ({exc})", row=1) from None
    names = [h.strip().lower() for h in header]
    for col in columns:
        if col not in names:
            raise InputFileError(path, f"missing column; the header must hold {', '.join(columns)}",
                                 row=1, field=col)
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            row = reader.line_num
            if len(cells) != len(names):
                raise InputFileError(path, f"has {len(cells)} cells, the header has {len(names)}", row=row)
            record = {n: c.strip() for n, c in zip(names, cells, strict=True)}
            for col in columns:
                if not record[col]:
                    raise InputFileError(path, "empty value", row=row, field=col)
            rows.append((row, record))
    except csv.Error as exc:
        raise InputFileError(path, f"not valid CSV ({exc})", row=reader.line_num) from None
    if not rows:
        raise InputFileError(path, "no data rows after the header", row=2)
    return rows


def parse_positive(path: Path, row: int, field: str, text: str) -> float:
    """A finite number > 0 in plain decimal notation (``1234.5``): no exponent (``2.5e2``),
    thousands separator or underscore — what a spreadsheet writes, read the way a person reads it."""
    if text.strip("+-").lower() in ("nan", "inf", "infinity"):
        raise InputFileError(path, f"{text!r} is not a finite number", row=row, field=field)
    if not _DECIMAL.match(text):
        raise InputFileError(path, f"{text!r} is not a number in plain decimal notation (write e.g. 1234.5: "
                             "no exponent or separators)", row=row, field=field)
    value = float(text)
    if not math.isfinite(value):
        raise InputFileError(path, f"{text!r} is not a finite number", row=row, field=field)
    if value <= 0:
        raise InputFileError(path, f"{text!r} must be greater than 0", row=row, field=field)
    return value


def parse_date(path: Path, row: int, field: str, text: str) -> date:
    """A calendar date written ``YYYY-MM-DD``."""
    if not _ISO_DATE.match(text):
        raise InputFileError(path, f"{text!r} is not a date in YYYY-MM-DD form", row=row, field=field)
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InputFileError(path, f"{text!r} is not a valid date ({exc})", row=row, field=field) from None


def parse_symbol(path: Path, row: int, text: str) -> str:
    if not _SYMBOL.match(text):
        raise InputFileError(path, f"{text!r} is not a ticker symbol (upper-case letters/digits, e.g. AAPL)",
                             row=row, field="symbol")
    return text


def read_holdings(path: Path) -> list[dict[str, Any]]:
    """Validated holdings: ``[{symbol, name, asset_class, quantity, cost_per_unit, currency,
    opened_on (date), row}]`` in file order.

    Raises:
        InputFileError: any invalid cell, a symbol listed twice, mixed currencies.
    """
    holdings: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for row, rec in read_csv(path, HOLDINGS_COLUMNS):
        symbol = parse_symbol(path, row, rec["symbol"])
        if symbol in seen:
            raise InputFileError(path, f"{symbol} is listed twice (also row {seen[symbol]}); merge the lots",
                                 row=row, field="symbol")
        seen[symbol] = row
        currency = rec["currency"].upper()
        if not _CURRENCY.match(currency):
            raise InputFileError(path, f"{rec['currency']!r} is not a 3-letter currency code",
                                 row=row, field="currency")
        if holdings and currency != holdings[0]["currency"]:
            raise InputFileError(
                path, f"{currency} differs from {holdings[0]['currency']} (row {holdings[0]['row']}); "
                "all holdings must share one currency (no FX conversion)", row=row, field="currency")
        holdings.append({
            "symbol": symbol,
            "name": rec["name"],
            "asset_class": rec["asset_class"],
            "quantity": parse_positive(path, row, "quantity", rec["quantity"]),
            "cost_per_unit": parse_positive(path, row, "cost_per_unit", rec["cost_per_unit"]),
            "currency": currency,
            "opened_on": parse_date(path, row, "opened_on", rec["opened_on"]),
            "row": row,
        })
    return holdings


def read_prices(path: Path, held: dict[str, int], holdings_path: Path | None = None
                ) -> dict[str, list[tuple[date, float]]]:
    """Validated closes per symbol, sorted by date: ``{symbol: [(date, close), ...]}``.

    Args:
        held: held symbols → their holdings.csv row (a price for any other symbol is an error).
        holdings_path: the holdings file, named when a held symbol has no prices at all (a typo
            there, e.g. ``APPL`` for ``AAPL``, is reported where it was made).

    Raises:
        InputFileError: invalid cell, a held symbol without prices (names the holdings row), a
            symbol that is not held, a (symbol, date) listed twice.
    """
    series: dict[str, dict[date, tuple[float, int]]] = {}
    strangers: dict[str, int] = {}  # price symbols that are not held → first row
    for row, rec in read_csv(path, PRICES_COLUMNS):
        symbol = parse_symbol(path, row, rec["symbol"])
        if symbol not in held:
            strangers.setdefault(symbol, row)
            continue
        day = parse_date(path, row, "date", rec["date"])
        close = parse_positive(path, row, "close", rec["close"])
        closes = series.setdefault(symbol, {})
        if day in closes:
            raise InputFileError(path, f"{symbol} {day} is listed twice (also row {closes[day][1]})",
                                 row=row, field="date")
        closes[day] = (close, row)
    unpriced = [s for s in held if s not in series]
    if unpriced and holdings_path is not None:
        symbol = unpriced[0]
        hint = f" (it has prices for {', '.join(sorted(strangers))}, not held)" if strangers else ""
        raise InputFileError(holdings_path, f"{symbol} has no close in {path.name}{hint}; fix the symbol "
                             "or add its closes", row=held[symbol], field="symbol")
    if strangers:
        symbol, row = min(strangers.items(), key=lambda item: item[1])
        raise InputFileError(path, f"{symbol} is not in the holdings; remove its rows or add the holding",
                             row=row, field="symbol")
    return {s: sorted((d, c) for d, (c, _r) in v.items()) for s, v in series.items()}


def price_gaps(series: dict[str, list[tuple[date, float]]], until: date,
               limit: int = MAX_PRICE_GAP_DAYS) -> list[str]:
    """Warnings for closes more than ``limit`` days apart (up to ``until``): a missing stretch
    silently changes volatility and drawdown, which are computed from monthly closes."""
    warnings = []
    for symbol, closes in series.items():
        days = [d for d, _c in closes if d <= until]
        for a, b in itertools.pairwise(days):
            if (b - a).days > limit:
                warnings.append(f"prices: {symbol} has no close between {a} and {b} ({(b - a).days} days); "
                                "its volatility and drawdown skip that stretch — add the missing closes")
    return warnings


def read_rules(path: Path) -> dict[str, Any]:
    """Validated ``rules.json`` (fractions, not percent: ``stop_loss_pct`` -0.20 means -20%).

    Raises:
        InputFileError: invalid JSON (row = line), a missing/ill-typed/out-of-range key (field = key).
    """
    text = read_text(path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, f"not valid JSON ({exc.msg}, column {exc.colno})",
                             row=exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # an over-long integer, nesting too deep
        raise InputFileError(path, f"not valid JSON ({type(exc).__name__}: {str(exc)[:120]})") from None
    if not isinstance(raw, dict):
        raise InputFileError(path, "must be a JSON object")

    def number(key: str, lo: float, hi: float, *, integer: bool = False) -> float:
        value = raw.get(key)
        wrong_type = isinstance(value, bool) or not isinstance(value, int | float)
        if wrong_type or (integer and not isinstance(value, int)):
            kind = "an integer" if integer else "a number"
            raise InputFileError(path, f"must be {kind}, got {value!r}", field=key)
        if not lo <= value <= hi:
            raise InputFileError(path, f"{value!r} is outside [{lo}, {hi}]", field=key)
        return value

    def actions(key: str, value: object) -> list[str]:
        if not isinstance(value, list) or any(a not in ACTIONS for a in value):
            raise InputFileError(path, f"must be a list of actions from {', '.join(ACTIONS)}, got {value!r}",
                                 field=key)
        return list(value)

    rules: dict[str, Any] = {
        "max_position_weight": number("max_position_weight", 0.01, 1.0),
        "stop_loss_pct": number("stop_loss_pct", -0.99, -0.001),
        "long_held_loss_days": int(number("long_held_loss_days", 1, 36_500, integer=True)),
        "long_held_loss_pct": number("long_held_loss_pct", -0.99, 0.0),
        "always_allowed": actions("always_allowed", raw.get("always_allowed")),
        "default_allowed": actions("default_allowed", raw.get("default_allowed", [])),
    }
    if "HOLD" not in rules["always_allowed"]:
        raise InputFileError(path, "must include HOLD (the sanitizer falls back to HOLD)",
                             field="always_allowed")
    triggers = raw.get("triggers")
    if not isinstance(triggers, dict) or sorted(triggers) != sorted(TRIGGERS):
        got = sorted(triggers) if isinstance(triggers, dict) else triggers
        raise InputFileError(path, f"must be an object with exactly the keys {', '.join(TRIGGERS)}, "
                             f"got {got!r}", field="triggers")
    rules["triggers"] = {}
    for name in TRIGGERS:
        spec = triggers[name]
        if not isinstance(spec, dict):
            raise InputFileError(path, "must be an object {allows: [...], forbids: [...]}",
                                 field=f"triggers.{name}")
        rules["triggers"][name] = {
            "allows": actions(f"triggers.{name}.allows", spec.get("allows", [])),
            "forbids": actions(f"triggers.{name}.forbids", spec.get("forbids", [])),
        }
    return rules


def parse_as_of(value: str | None) -> date | None:
    """``--var as_of``: ``YYYY-MM-DD``, or ``latest`` for the last date in the prices (also when the
    var is not given at all). An empty value is an error, not "latest": it is usually a mistake.

    Raises:
        UserError: empty or not a date.
    """
    if value is None or value.strip().lower() == "latest":
        return None
    if not value.strip():
        raise UserError("--var as_of is empty: pass a date (YYYY-MM-DD) or 'latest'")
    text = value.strip()
    try:
        if not _ISO_DATE.match(text):
            raise ValueError("expected YYYY-MM-DD")
        return date.fromisoformat(text)
    except ValueError:
        raise UserError(f"--var as_of={value!r} is not a date: pass YYYY-MM-DD or 'latest'") from None


def allowed_actions(rules: dict[str, Any], active: list[str]) -> list[str]:
    """Actions allowed for a holding with the ``active`` triggers, in :data:`ACTIONS` order.

    allowed = (always_allowed ∪ default_allowed ∪ allows of each active trigger) − forbids of each
    active trigger; ``always_allowed`` is never removed.
    """
    allowed = set(rules["always_allowed"]) | set(rules["default_allowed"])
    forbidden: set[str] = set()
    for name in active:
        allowed |= set(rules["triggers"][name]["allows"])
        forbidden |= set(rules["triggers"][name]["forbids"])
    allowed -= forbidden - set(rules["always_allowed"])
    return [a for a in ACTIONS if a in allowed]
