"""portfolio-review prepare: figures against hand-computed values, validation of every bad input."""

from __future__ import annotations

import csv
import importlib.util
import io
import itertools
import json
import math
import statistics
from datetime import date, datetime
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

from autogen_pse.errors import InputFileError, UserError
from autogen_pse.facts import load_facts
from autogen_pse.hooks import PrepareContext

TASK_DIR = Path(__file__).resolve().parents[2] / "tasks" / "portfolio-review"
DATA = TASK_DIR / "data"


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


prepare = _load(TASK_DIR / "prepare.py", "test_portfolio_prepare_hook")


@pytest.fixture(scope="module")
def prepared():
    return prepare.build(TASK_DIR, {})


def _vega_closes(symbol: str) -> list[tuple[date, float]]:
    """Closes straight from vega-datasets' stocks.csv (independent of prices.csv and prepare)."""
    text = resources.files("vega_datasets").joinpath("_data/stocks.csv").read_text(encoding="utf-8")
    rows = [(datetime.strptime(r["date"], "%b %d %Y").date(), float(r["price"]))
            for r in csv.DictReader(io.StringIO(text)) if r["symbol"] == symbol]
    return sorted(rows)


# --------------------------------------------------------------------------- figures


def test_goog_figures_match_hand_computation(prepared):
    f = {k: v.value for k, v in prepared.facts.items()}
    # holdings.csv: GOOG, 40 units at 693.00 opened 2007-11-01; close on 2010-03-01 = 560.19
    assert f["GOOG.quantity"] == 40
    assert f["GOOG.close"] == 560.19
    assert f["GOOG.price_date"] == "2010-03-01"
    assert f["GOOG.cost_basis"] == 27_720.00
    assert f["GOOG.market_value"] == pytest.approx(22_407.60)
    assert f["GOOG.pnl"] == pytest.approx(-5_312.40)
    assert f["GOOG.pnl_pct"] == pytest.approx(-5_312.40 / 27_720 * 100, abs=1e-4)  # -19.1645
    # 2007-11-01 → 2008-11-01 366 days (leap year), → 2009-11-01 365, → 2010-03-01 30+31+31+28
    assert f["GOOG.holding_days"] == 366 + 365 + 120 == 851
    total = 250 * 223.02 + 100 * 128.82 + 40 * 560.19 + 150 * 125.55 + 600 * 28.80
    assert f["total_value"] == pytest.approx(total) == pytest.approx(127_157.10)
    assert f["GOOG.weight_pct"] == pytest.approx(22_407.60 / total * 100, abs=1e-4)
    cagr = ((22_407.60 / 27_720) ** (365.25 / 851) - 1) * 100
    assert f["GOOG.annualised_return_pct"] == pytest.approx(cagr, abs=1e-4)
    assert round(f["GOOG.annualised_return_pct"], 2) == -8.73

    closes = _vega_closes("GOOG")
    last37 = [c for d, c in closes if d <= date(2010, 3, 1)][-37:]
    assert len(last37) == 37
    log_returns = [math.log(b / a) for a, b in itertools.pairwise(last37)]
    volatility = statistics.stdev(log_returns) * math.sqrt(12) * 100
    assert f["GOOG.volatility_pct"] == pytest.approx(volatility, abs=1e-4)

    since = [c for d, c in closes if date(2007, 11, 1) <= d <= date(2010, 3, 1)]
    assert max(since) == 693  # the purchase month is the peak, so the drawdown is trough / cost
    assert f["GOOG.max_drawdown_pct"] == pytest.approx((min(since) / 693 - 1) * 100, abs=1e-4)

    # held 851 ≥ 730 days and -19.16% ≤ -10% → long-held loss; -19.16% > -20% → no stop-loss
    assert (f["GOOG.long_held_loss"], f["GOOG.stop_loss_hit"], f["GOOG.overweight"]) == ("yes", "no", "no")
    assert f["GOOG.allowed_actions"] == "SELL, HOLD, REVIEW"


def test_portfolio_figures_and_triggers(prepared):
    f = {k: v.value for k, v in prepared.facts.items()}
    values = {"AAPL": 250 * 223.02, "AMZN": 12_882.0, "GOOG": 22_407.6, "IBM": 18_832.5, "MSFT": 17_280.0}
    total = sum(values.values())
    weights = {s: v / total for s, v in values.items()}
    assert f["hhi"] == pytest.approx(sum(w * w for w in weights.values()), abs=1e-6)
    assert f["effective_holdings"] == pytest.approx(1 / f["hhi"], rel=1e-4)
    top3 = sorted(weights.values(), reverse=True)[:3]
    assert f["top3_weight_pct"] == pytest.approx(sum(top3) * 100, abs=1e-4)
    assert f["top3_symbols"] == "AAPL, GOOG, IBM"
    assert f["total_cost"] == pytest.approx(250 * 38.45 + 100 * 37.67 + 40 * 693 + 150 * 72.7 + 600 * 39.81)
    # the example triggers every rule
    assert prepared.data["triggers"] == {
        "AAPL": ["overweight"], "AMZN": [], "GOOG": ["long_held_loss"], "IBM": [],
        "MSFT": ["stop_loss_hit", "long_held_loss"],
    }
    assert prepared.data["allowed_actions"]["IBM"] == ["BUY", "HOLD", "REVIEW"]
    assert prepared.data["allowed_actions"]["AAPL"] == ["TRIM", "HOLD", "REVIEW"]
    excess = values["AAPL"] - 0.30 * total
    assert f["AAPL.excess_value"] == pytest.approx(excess, abs=0.005)
    assert f["AAPL.trim_units"] == math.ceil(excess / 223.02) == 79
    assert "AMZN.trim_units" not in f
    assert f["rules.stop_loss_pct"] == -20.0 and f["rules.max_position_weight_pct"] == 30.0
    assert f["MSFT.pnl_pct"] == pytest.approx((28.80 / 39.81 - 1) * 100, abs=1e-4)
    queries = prepared.data["retrieval_queries"]
    assert 1 < len(queries) <= 6 and any("stop-loss" in q for q in queries)


def test_fact_ids_and_displays(prepared):
    for symbol in ("AAPL", "AMZN", "GOOG", "IBM", "MSFT"):
        for suffix in prepare.HOLDING_COLUMNS:
            assert f"{symbol}.{suffix}" in prepared.facts
    assert prepared.facts["GOOG.pnl"].render() == "-5,312.40 USD"
    assert prepared.facts["GOOG.pnl_pct"].render() == "-19.16%"
    assert prepared.facts["MSFT.holding_days"].render() == "3,712"
    assert prepared.facts["hhi"].render() == f"{prepared.facts['hhi'].value:.4f}"
    json.dumps(prepared.data)  # JSON-serialisable


def test_task_text_holds_deliverable_facts_and_allowed_actions(prepared):
    text = prepared.task_text
    assert text.startswith("# Portfolio review for Alex Example as of 2010-03-01")
    for heading in ("## Summary", "## Findings", "## Actions", "## Next steps"):
        assert heading in text
    assert "| Priority | Action | Symbol | Amount | Reason |" in text
    assert "| MSFT | Microsoft Corp. | stop-loss, long-held-loss | SELL, HOLD, REVIEW |" in text
    assert "| `total_value` | 127,157.10 USD |" in text
    assert "| GOOG | 40 | 693.00 USD | 27,720.00 USD | 560.19 USD | 22,407.60 USD |" in text
    assert "{holder}" not in text and "{as_of}" not in text


def test_prepare_writes_outputs(tmp_path):
    out = tmp_path / "out"
    result = prepare.prepare(PrepareContext(task_dir=TASK_DIR, vars={}, out_dir=out))
    assert sorted(p.name for p in out.iterdir()) == ["data.json", "facts.json", "task.md"]
    assert load_facts(out / "facts.json") == result.facts
    assert json.loads((out / "data.json").read_text()) == result.data
    assert (out / "task.md").read_text() == result.task_text


def test_example_data_is_regenerated_identically(tmp_path):
    build = _load(DATA / "build_example.py", "test_portfolio_build_example")
    prices, holdings = build.build(tmp_path)
    assert prices.read_bytes() == (DATA / "prices.csv").read_bytes()
    assert holdings.read_bytes() == (DATA / "holdings.csv").read_bytes()
    assert len((DATA / "prices.csv").read_text().splitlines()) == 561


def test_as_of_override_uses_the_last_close_on_or_before(tmp_path):
    p = prepare.build(TASK_DIR, {"as_of": "2009-12-15"})
    assert p.facts["AAPL.close"].value == 210.73
    assert p.facts["AAPL.price_date"].value == "2009-12-01"
    assert p.facts["AAPL.holding_days"].value == (date(2009, 12, 15) - date(2005, 1, 1)).days


def test_relative_var_paths_resolve_against_cwd_first(tmp_path, monkeypatch):
    (tmp_path / "h.csv").write_text((DATA / "holdings.csv").read_text().replace("250,38.45", "100,38.45"))
    monkeypatch.chdir(tmp_path)
    p = prepare.build(TASK_DIR, {"holdings": "h.csv"})
    assert p.facts["AAPL.quantity"].value == 100
    assert p.data["inputs"]["holdings"] == str(tmp_path / "h.csv")


def test_bad_as_of_var_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="as_of"):
        ctx = PrepareContext(task_dir=TASK_DIR, vars={"as_of": "2010/03/01"}, out_dir=tmp_path / "o")
        prepare.prepare(ctx)
    assert not (tmp_path / "o").exists()


def test_missing_input_file(tmp_path):
    with pytest.raises(InputFileError, match="file not found"):
        prepare.build(TASK_DIR, {"prices": str(tmp_path / "nope.csv")})


# --------------------------------------------------------------------------- bad inputs


def _set_cell(text: str, row: int, column: str, value: str) -> str:
    rows = list(csv.reader(io.StringIO(text)))
    rows[row - 1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


H = (DATA / "holdings.csv").read_text()
P = (DATA / "prices.csv").read_text()
R = json.loads((DATA / "rules.json").read_text())


def _rules(**changes) -> str:
    rules = json.loads(json.dumps(R))
    for key, value in changes.items():
        if value is None:
            rules.pop(key)
        else:
            rules[key] = value
    return json.dumps(rules, indent=2)


# (id, file, content, row, field, message fragment)
BAD = [
    ("h-missing-column", "holdings", H.replace(",currency,", ",ccy,"), 1, "currency", "missing column"),
    ("h-non-numeric", "holdings", _set_cell(H, 3, "quantity", "lots"), 3, "quantity", "not a number"),
    ("h-thousands-sep", "holdings", _set_cell(H, 3, "quantity", "1,000"), 3, "quantity", "not a number"),
    ("h-negative", "holdings", _set_cell(H, 4, "cost_per_unit", "-693"), 4, "cost_per_unit",
     "greater than 0"),
    ("h-zero", "holdings", _set_cell(H, 2, "quantity", "0"), 2, "quantity", "greater than 0"),
    ("h-nan", "holdings", _set_cell(H, 2, "quantity", "nan"), 2, "quantity", "not a finite number"),
    ("h-bad-date", "holdings", _set_cell(H, 5, "opened_on", "2006-13-01"), 5, "opened_on",
     "not a valid date"),
    ("h-us-date", "holdings", _set_cell(H, 5, "opened_on", "07/01/2006"), 5, "opened_on", "YYYY-MM-DD"),
    ("h-empty-cell", "holdings", _set_cell(H, 2, "name", ""), 2, "name", "empty value"),
    ("h-empty-file", "holdings", "", None, None, "file is empty"),
    ("h-header-only", "holdings", H.splitlines()[0] + "\n", 2, None, "no data rows"),
    ("h-duplicate", "holdings", _set_cell(H, 6, "symbol", "AAPL"), 6, "symbol", "listed twice"),
    ("h-currency", "holdings", _set_cell(H, 4, "currency", "EUR"), 4, "currency", "share one currency"),
    ("h-bad-symbol", "holdings", _set_cell(H, 4, "symbol", "goog"), 4, "symbol", "not a ticker"),
    ("h-cell-count", "holdings", H.replace("USD,2007-01-01", "USD,2007-01-01,extra"), 3, None, "has 8 cells"),
    ("h-no-prices", "holdings", H + "ORCL,Oracle Corp.,equity,10,20,USD,2005-01-01\n", 7, "symbol",
     "no close"),
    ("p-unknown-symbol", "prices", P + "NVDA,2010-03-01,10.5\n", 562, "symbol", "not in the holdings"),
    ("p-non-numeric", "prices", _set_cell(P, 10, "close", "n/a"), 10, "close", "not a number"),
    ("p-negative", "prices", _set_cell(P, 11, "close", "-3"), 11, "close", "greater than 0"),
    ("p-bad-date", "prices", _set_cell(P, 12, "date", "2000-02-30"), 12, "date", "not a valid date"),
    ("p-duplicate", "prices", P + "AAPL,2010-03-01,223.02\n", 562, "date", "listed twice"),
    ("p-missing-column", "prices", P.replace("symbol,date,close", "symbol,date,price", 1), 1, "close",
     "missing"),
    ("p-empty", "prices", "\n\n", None, None, "file is empty"),
    ("r-not-json", "rules", '{\n  "max_position_weight": 0.3,\n}', 3, None, "not valid JSON"),
    ("r-positive-stop", "rules", _rules(stop_loss_pct=0.2), None, "stop_loss_pct", "outside"),
    ("r-string-days", "rules", _rules(long_held_loss_days="730"), None, "long_held_loss_days", "integer"),
    ("r-missing-key", "rules", _rules(max_position_weight=None), None, "max_position_weight",
     "must be a number"),
    ("r-no-hold", "rules", _rules(always_allowed=["REVIEW"]), None, "always_allowed", "HOLD"),
    ("r-unknown-action", "rules", _rules(triggers={**R["triggers"], "overweight": {"allows": ["DUMP"]}}),
     None, "triggers.overweight.allows", "list of actions"),
    ("r-missing-trigger", "rules", _rules(triggers={"stop_loss_hit": R["triggers"]["stop_loss_hit"]}),
     None, "triggers", "exactly the keys"),
]


def _inputs(tmp_path: Path, **contents: str | bytes) -> dict[str, str]:
    paths = {}
    for key, default in (("holdings", H), ("prices", P), ("rules", json.dumps(R))):
        path = tmp_path / f"{key}.{'json' if key == 'rules' else 'csv'}"
        content = contents.get(key, default)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        paths[key] = str(path)
    return paths


def _assert_error(exc: InputFileError, path: str, row: int | None, field: str | None, fragment: str) -> None:
    message = str(exc)
    assert Path(str(exc.path)) == Path(path)
    assert message.startswith(path)
    assert exc.row == row and exc.field == field
    if row is not None:
        assert f"row {row}" in message
    if field is not None:
        assert f"field {field!r}" in message
    assert fragment in message


@pytest.mark.parametrize(("which", "content", "row", "field", "fragment"),
                         [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_file_row_field_and_writes_nothing(tmp_path, which, content, row, field, fragment):
    vars = _inputs(tmp_path, **{which: content})
    out = tmp_path / "out"
    with pytest.raises(InputFileError) as err:
        prepare.prepare(PrepareContext(task_dir=TASK_DIR, vars=vars, out_dir=out))
    _assert_error(err.value, vars[which], row, field, fragment)
    assert not out.exists()


def test_non_utf8_names_the_line(tmp_path):
    content = H.replace("Google Inc.", "Göogle Inc.").encode("latin-1")
    vars = _inputs(tmp_path, holdings=content)
    with pytest.raises(InputFileError) as err:
        prepare.prepare(PrepareContext(task_dir=TASK_DIR, vars=vars, out_dir=tmp_path / "out"))
    _assert_error(err.value, vars["holdings"], 4, None, "not UTF-8")
    assert not (tmp_path / "out").exists()


def test_file_over_5_mb_is_rejected(tmp_path):
    vars = _inputs(tmp_path, prices=P + "\n" * (5 * 1024 * 1024))
    with pytest.raises(InputFileError) as err:
        prepare.prepare(PrepareContext(task_dir=TASK_DIR, vars=vars, out_dir=tmp_path / "out"))
    _assert_error(err.value, vars["prices"], None, None, "over the 5 MB limit")
    assert not (tmp_path / "out").exists()


def test_opened_after_as_of(tmp_path):
    vars = _inputs(tmp_path) | {"as_of": "2006-12-01"}
    with pytest.raises(InputFileError) as err:
        prepare.prepare(PrepareContext(task_dir=TASK_DIR, vars=vars, out_dir=tmp_path / "out"))
    _assert_error(err.value, vars["holdings"], 3, "opened_on", "after as_of")  # AMZN opened 2007-01-01
    assert not (tmp_path / "out").exists()


def test_stale_price_is_rejected(tmp_path):
    vars = _inputs(tmp_path) | {"as_of": "2010-06-01"}
    with pytest.raises(InputFileError) as err:
        prepare.prepare(PrepareContext(task_dir=TASK_DIR, vars=vars, out_dir=tmp_path / "out"))
    _assert_error(err.value, vars["prices"], None, "date", "92 days before as_of")


def test_too_few_closes_for_volatility(tmp_path):
    prices = "symbol,date,close\n" + "".join(
        f"{line}\n" for line in P.splitlines()[1:] if not line.startswith("IBM,") or line >= "IBM,2010-02")
    vars = _inputs(tmp_path, prices=prices)
    with pytest.raises(InputFileError) as err:
        prepare.build(TASK_DIR, vars)
    _assert_error(err.value, vars["prices"], None, "close", "at least 3 monthly closes")
