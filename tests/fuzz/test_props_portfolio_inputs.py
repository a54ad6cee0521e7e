"""Hypothesis properties of the portfolio-review input loaders (``tasks/portfolio-review/inputs.py``):
any bytes given as holdings.csv, prices.csv or rules.json end in an :class:`InputFileError` naming
the file, or in rows that really are valid — never in another exception."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import tempfile
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from autogen_pse.errors import InputFileError

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tasks" / "portfolio-review" / "data"
PROFILE = settings(max_examples=250, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pse_props_portfolio_inputs", ROOT / "tasks" / "portfolio-review"
                                                  / "inputs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


inputs = _load()
HELD = {h["symbol"]: h["row"] for h in inputs.read_holdings(DATA / "holdings.csv")}
SYMBOL = re.compile(r"[A-Z][A-Z0-9]{0,5}(?:[.-][A-Z0-9]{1,2})?")

# --- CSV-shaped bytes: mostly well-formed, with every kind of bad cell mixed in -------------------
cells = st.one_of(
    st.sampled_from(["AAPL", "IBM", "BRK.B", "aapl", "A$", "", " ", "USD", "usd", "EURO", "equity", "2005-01-01",
                     "2005-02-30", "01/02/2005", "1e400", "nan", "-inf", "-5", "0", "12.5", "1,000", "1_000",
                     "٣", '"quoted, comma"', '"unterminated', "\x00", "\ufeff", "𝟙𝟚"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-10**6, max_value=10**30).map(str),
    st.dates().map(date.isoformat),
    st.text(max_size=12),
)
headers = st.one_of(
    st.just(list(inputs.HOLDINGS_COLUMNS)), st.just(list(inputs.PRICES_COLUMNS)),
    st.permutations([*inputs.HOLDINGS_COLUMNS, "note"]),
    st.lists(st.sampled_from([*inputs.HOLDINGS_COLUMNS, "Symbol ", "CLOSE", "x"]), max_size=9),
)


@st.composite
def csv_bytes(draw: Any) -> bytes:
    header = draw(headers)
    width = max(1, len(header))
    rows = draw(st.lists(st.lists(cells, min_size=width - 1, max_size=width + 1), max_size=6))
    sep = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = sep.join(",".join(r) for r in [header, *rows]) + draw(st.sampled_from(["", sep, sep * 3]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16"]))
    return text.encode(encoding, "replace")


def real_variants(path: Path) -> st.SearchStrategy[bytes]:
    """The shipped file, cut or with one byte changed."""
    data = path.read_bytes()[:20_000]
    lines = data.splitlines(keepends=True)
    return st.one_of(
        st.integers(0, len(data)).map(lambda n: data[:n]),
        st.lists(st.integers(1, len(lines) - 1), max_size=5).map(  # whole rows dropped
            lambda drop: b"".join(line for n, line in enumerate(lines) if n not in drop)),
        st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)).map(
            lambda t: data[: t[0]] + bytes([t[1]]) + data[t[0] + 1:]),
    )


def any_bytes(path: Path) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=400), csv_bytes(), real_variants(path))


def _load_file(content: bytes, reader: Any, *args: Any) -> tuple[Path, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.csv"
        path.write_bytes(content)
        try:
            result = reader(path, *args)
        except InputFileError as exc:
            assert str(path) in str(exc) and exc.path == path
            event("InputFileError")
            return path, None
        event("valid")
        return path, result


def _positive(value: Any) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


@PROFILE
@given(content=any_bytes(DATA / "holdings.csv"))
@example(content=(DATA / "holdings.csv").read_bytes())
@example(content=b"symbol,name,asset_class,quantity,cost_per_unit,currency,opened_on\nA,\x00,e,1,1,USD,2000-01-01\n")
@example(content=b"symbol,name,asset_class,quantity,cost_per_unit,currency,opened_on\n" + b"A" * 200_000 + b"\n")
def test_holdings_any_bytes(content: bytes) -> None:
    _path, rows = _load_file(content, inputs.read_holdings)
    if rows is None:
        return
    assert rows and len({r["symbol"] for r in rows}) == len(rows)
    assert [r["row"] for r in rows] == sorted(r["row"] for r in rows) and rows[0]["row"] >= 2
    for r in rows:
        assert SYMBOL.fullmatch(r["symbol"])
        assert _positive(r["quantity"]) and _positive(r["cost_per_unit"])
        assert re.fullmatch(r"[A-Z]{3}", r["currency"]) and r["currency"] == rows[0]["currency"]
        assert isinstance(r["opened_on"], date)
        assert "\x00" not in r["name"] + r["asset_class"]


@PROFILE
@given(content=any_bytes(DATA / "prices.csv"))
@example(content=(DATA / "prices.csv").read_bytes())
def test_prices_any_bytes(content: bytes) -> None:
    held = {**HELD, "BRK.B": 90}
    _path, series = _load_file(content, inputs.read_prices, held)
    if series is None:
        return
    assert series and set(series) <= set(held)
    for closes in series.values():
        days = [d for d, _ in closes]
        assert days == sorted(set(days))
        assert all(_positive(c) for _, c in closes)


rules_json = st.one_of(
    st.binary(max_size=300),
    st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=10),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                 max_leaves=10).map(lambda v: json.dumps(v).encode()),
    st.builds(lambda base, key, value: json.dumps({**base, key: value}).encode(),
              st.just(json.loads((DATA / "rules.json").read_text())),
              st.sampled_from(["max_position_weight", "stop_loss_pct", "long_held_loss_days", "long_held_loss_pct",
                               "always_allowed", "default_allowed", "triggers"]),
              st.one_of(st.floats(allow_nan=True), st.integers(), st.booleans(), st.none(), st.text(max_size=5),
                        st.lists(st.sampled_from(["BUY", "SELL", "HOLD", "NOPE", 1]), max_size=3),
                        st.dictionaries(st.sampled_from(["stop_loss_hit", "overweight", "x"]),
                                        st.just({"allows": ["SELL"]}), max_size=3))),
    real_variants(DATA / "rules.json"),
)


@PROFILE
@given(content=rules_json)
@example(content=(DATA / "rules.json").read_bytes())
@example(content=b"[" * 100_000 + b"]" * 100_000)
@example(content=b'{"max_position_weight": ' + b"7" * 5000 + b"}")
@example(content=b'{"max_position_weight": NaN}')
def test_rules_any_bytes(content: bytes) -> None:
    _path, rules = _load_file(content, inputs.read_rules)
    if rules is None:
        return
    assert 0.01 <= rules["max_position_weight"] <= 1.0 and -0.99 <= rules["stop_loss_pct"] <= -0.001
    assert isinstance(rules["long_held_loss_days"], int) and "HOLD" in rules["always_allowed"]
    assert sorted(rules["triggers"]) == sorted(inputs.TRIGGERS)
    for spec in rules["triggers"].values():
        assert set(spec["allows"]) | set(spec["forbids"]) <= set(inputs.ACTIONS)
