"""portfolio-review prepare hook: deterministic facts, rule triggers and the task text.

``prepare(ctx)`` reads ``--var holdings/prices/rules/as_of/holder`` (defaults: the example files in
``data/``, the last date in the prices, "Alex Example"), validates them (``inputs.py``), computes the
facts documented in the task README and writes ``facts.json``, ``data.json`` and ``task.md`` to
``ctx.out_dir`` — only after every input validated, so a bad input leaves ``out_dir`` untouched.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import statistics
from datetime import date
from pathlib import Path
from typing import Any

from autogen_pse.hooks import Fact, InputFileError, PrepareContext, Prepared, UserError, save_facts, task_module

DEFAULT_VARS = {
    "holdings": "data/holdings.csv",
    "prices": "data/prices.csv",
    "rules": "data/rules.json",
    "as_of": "latest",
    "holder": "Alex Example",
}
VOLATILITY_MONTHS = 36
TRIGGER_LABELS = {
    "stop_loss_hit": "stop-loss",
    "long_held_loss": "long-held-loss",
    "overweight": "overweight",
}
HOLDING_COLUMNS = ("quantity", "cost_per_unit", "cost_basis", "close", "market_value", "weight_pct", "pnl",
                   "pnl_pct", "holding_days", "annualised_return_pct", "volatility_pct", "max_drawdown_pct")
OVERWEIGHT_COLUMNS = ("excess_weight_pct", "excess_value", "trim_units")
_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


inputs = task_module(__file__, "inputs")


# ---------------------------------------------------------------------------------------------
# Formulas (documented in README.md, "Facts and formulas")
# ---------------------------------------------------------------------------------------------

def month_end_series(closes: list[tuple[date, float]], as_of: date) -> list[tuple[date, float]]:
    """The last close of each calendar month, for dates on or before ``as_of``, oldest first."""
    by_month: dict[tuple[int, int], tuple[date, float]] = {}
    for day, close in closes:
        if day <= as_of:
            by_month[(day.year, day.month)] = (day, close)  # closes are sorted: the last one wins
    return [by_month[k] for k in sorted(by_month)]


def annualised_volatility_pct(monthly: list[tuple[date, float]], months: int = VOLATILITY_MONTHS) -> float:
    """Sample standard deviation (n-1) of the last ``months`` monthly log returns × √12 × 100."""
    window = [c for _d, c in monthly[-(months + 1):]]
    returns = [math.log(b / a) for a, b in itertools.pairwise(window)]
    return statistics.stdev(returns) * math.sqrt(12) * 100


def max_drawdown_pct(cost_per_unit: float, monthly: list[tuple[date, float]], opened_on: date) -> float:
    """Largest peak-to-trough fall, in % (≤ 0), of the series "purchase price, then each month-end
    close dated on or after ``opened_on``"."""
    peak, worst = cost_per_unit, 0.0
    for value in [cost_per_unit] + [c for d, c in monthly if d >= opened_on]:
        peak = max(peak, value)
        worst = min(worst, value / peak - 1)
    return worst * 100


def annualised_return_pct(market_value: float, cost_basis: float, holding_days: int) -> float:
    """CAGR ``((market_value / cost_basis) ** (365.25 / holding_days) - 1) × 100`` when held at least
    365 days; otherwise the plain (not annualised) return in %."""
    if holding_days < 365:
        return (market_value / cost_basis - 1) * 100
    return ((market_value / cost_basis) ** (365.25 / holding_days) - 1) * 100


# ---------------------------------------------------------------------------------------------
# Fact constructors (rounding of stored values and display strings)
# ---------------------------------------------------------------------------------------------

def _money(fid: str, value: float, currency: str, label: str) -> Fact:
    value = round(value, 2)
    return Fact(id=fid, value=value, unit=currency, label=label, display=f"{value:,.2f} {currency}")


def _pct(fid: str, value: float, label: str) -> Fact:
    value = round(value, 4)
    return Fact(id=fid, value=value, unit="%", label=label, display=f"{value:.2f}%")


def _count(fid: str, value: float, unit: str, label: str) -> Fact:
    if float(value).is_integer():
        return Fact(id=fid, value=int(value), unit=unit, label=label, display=f"{int(value):,}")
    value = round(value, 4)
    return Fact(id=fid, value=value, unit=unit, label=label, display=f"{value:,.4f}".rstrip("0"))


def _ratio(fid: str, value: float, label: str, digits: int) -> Fact:
    value = round(value, 6)
    return Fact(id=fid, value=value, label=label, display=f"{value:.{digits}f}")


def _text(fid: str, value: str, label: str) -> Fact:
    return Fact(id=fid, value=value, label=label, display=value)


def _yes(value: bool) -> str:
    return "yes" if value else "no"


# ---------------------------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------------------------

def build(task_dir: Path, vars: dict[str, str]) -> Prepared:
    """Validate the inputs and compute facts, task text and data; writes nothing.

    Raises:
        InputFileError: an input file is invalid (names file, row, field).
        UserError: a bad ``--var`` (as_of not a date).
    """
    values = {**DEFAULT_VARS, **{k: v for k, v in vars.items() if v is not None}}
    holdings_path = inputs.resolve_path(values["holdings"], task_dir)
    prices_path = inputs.resolve_path(values["prices"], task_dir)
    rules_path = inputs.resolve_path(values["rules"], task_dir)

    holdings = inputs.read_holdings(holdings_path)
    rules = inputs.read_rules(rules_path)
    prices = inputs.read_prices(prices_path, {h["symbol"]: h["row"] for h in holdings}, holdings_path)
    as_of = inputs.parse_as_of(values.get("as_of")) or max(s[-1][0] for s in prices.values())
    warnings = inputs.price_gaps(prices, as_of)
    currency = holdings[0]["currency"]

    positions = [_position(h, prices, as_of, holdings_path, prices_path) for h in holdings]
    total_value = sum(p["market_value"] for p in positions)
    total_cost = sum(p["cost_basis"] for p in positions)
    for p in positions:
        p["weight"] = p["market_value"] / total_value
        p["triggers"] = [name for name, hit in (
            ("stop_loss_hit", p["pnl_pct"] / 100 <= rules["stop_loss_pct"]),
            ("long_held_loss", p["holding_days"] >= rules["long_held_loss_days"]
             and p["pnl_pct"] / 100 <= rules["long_held_loss_pct"]),
            ("overweight", p["weight"] > rules["max_position_weight"]),
        ) if hit]
        p["allowed"] = inputs.allowed_actions(rules, p["triggers"])

    facts: dict[str, Fact] = {}

    def add(fact: Fact) -> None:
        facts[fact.id] = fact

    ranked = sorted(positions, key=lambda p: (-p["weight"], p["symbol"]))
    hhi = sum(p["weight"] ** 2 for p in positions)
    summary = "; ".join(f"{p['symbol']}: {', '.join(TRIGGER_LABELS[t] for t in p['triggers'])}"
                        for p in positions if p["triggers"]) or "none"
    add(_text("as_of", as_of.isoformat(), "valuation date (last close on or before it is used)"))
    add(_text("currency", currency, "currency of every amount"))
    add(_count("n_holdings", len(positions), "holdings", "number of holdings"))
    add(_money("total_value", total_value, currency, "total market value"))
    add(_money("total_cost", total_cost, currency, "total cost basis"))
    add(_money("total_pnl", total_value - total_cost, currency, "total unrealised profit/loss"))
    add(_pct("total_pnl_pct", (total_value / total_cost - 1) * 100, "total unrealised profit/loss vs cost"))
    add(_pct("top3_weight_pct", sum(p["weight"] for p in ranked[:3]) * 100,
             "combined weight of the three largest holdings"))
    add(_text("top3_symbols", ", ".join(p["symbol"] for p in ranked[:3]), "the three largest holdings"))
    add(_ratio("hhi", hhi, "Herfindahl-Hirschman index: sum of squared weights (fractions)", 4))
    add(_ratio("effective_holdings", 1 / hhi, "effective number of holdings (inverse of hhi)", 2))
    add(_text("largest_position", ranked[0]["symbol"], "largest holding by weight"))
    add(_count("n_triggered", sum(1 for p in positions if p["triggers"]), "holdings",
               "holdings with a rule trigger"))
    add(_text("triggers_summary", summary, "rule triggers per holding"))
    add(_count("volatility_months", VOLATILITY_MONTHS, "months",
               "monthly returns used for volatility (at most)"))
    add(_pct("rules.max_position_weight_pct", rules["max_position_weight"] * 100, "position cap (weight)"))
    add(_pct("rules.stop_loss_pct", rules["stop_loss_pct"] * 100, "stop-loss level (loss vs cost)"))
    add(_count("rules.long_held_loss_days", rules["long_held_loss_days"], "days", "long-held threshold"))
    add(_count("rules.long_held_loss_years", round(rules["long_held_loss_days"] / 365, 2), "years",
               "long-held threshold in years"))
    add(_pct("rules.long_held_loss_pct", rules["long_held_loss_pct"] * 100, "long-held loss level (vs cost)"))
    for p in positions:
        _add_position_facts(add, p, currency, rules, total_value)

    data = {
        "holder": values["holder"],
        "as_of": as_of.isoformat(),
        "currency": currency,
        "symbols": [p["symbol"] for p in positions],
        "names": {p["symbol"]: p["name"] for p in positions},
        "holdings": [{**{k: v for k, v in h.items() if k != "row"}, "opened_on": h["opened_on"].isoformat()}
                     for h in holdings],
        "rules": rules,
        "actions": list(inputs.ACTIONS),
        "triggers": {p["symbol"]: p["triggers"] for p in positions},
        "allowed_actions": {p["symbol"]: p["allowed"] for p in positions},
        "trigger_labels": TRIGGER_LABELS,
        "retrieval_queries": _retrieval_queries(positions),
        "inputs": {"holdings": str(holdings_path), "prices": str(prices_path), "rules": str(rules_path)},
        "warnings": warnings,
    }
    text = _task_text(task_dir, values, as_of, currency, positions, facts)
    return Prepared(task_text=text, facts=facts, data=data)


def _position(h: dict[str, Any], prices: dict[str, list[tuple[date, float]]], as_of: date,
              holdings_path: Path, prices_path: Path) -> dict[str, Any]:
    symbol, row = h["symbol"], h["row"]
    closes = [(d, c) for d, c in prices.get(symbol, []) if d <= as_of]
    if not closes:
        raise InputFileError(holdings_path, f"{symbol} has no close on or before {as_of} in "
                             f"{prices_path.name}", row=row, field="symbol")
    if h["opened_on"] > as_of:
        raise InputFileError(holdings_path, f"{h['opened_on']} is after as_of {as_of}", row=row,
                             field="opened_on")
    price_date, close = closes[-1]
    age = (as_of - price_date).days
    if age > inputs.MAX_PRICE_AGE_DAYS:
        raise InputFileError(prices_path, f"the last close of {symbol} is {price_date}, {age} days "
                             f"before as_of {as_of} (limit {inputs.MAX_PRICE_AGE_DAYS}); add a recent close "
                             "or pass an earlier --var as_of", field="date")
    monthly = month_end_series(closes, as_of)
    if len(monthly) < 3:
        raise InputFileError(prices_path, f"{symbol} needs at least 3 monthly closes up to {as_of} for the "
                             f"volatility; found {len(monthly)}", field="close")
    cost_basis = h["quantity"] * h["cost_per_unit"]
    market_value = h["quantity"] * close
    holding_days = (as_of - h["opened_on"]).days
    return {
        **h,
        "close": close,
        "price_date": price_date,
        "cost_basis": cost_basis,
        "market_value": market_value,
        "pnl": market_value - cost_basis,
        "pnl_pct": (market_value / cost_basis - 1) * 100,
        "holding_days": holding_days,
        "annualised_return_pct": annualised_return_pct(market_value, cost_basis, holding_days),
        "volatility_pct": annualised_volatility_pct(monthly),
        "max_drawdown_pct": max_drawdown_pct(h["cost_per_unit"], monthly, h["opened_on"]),
    }


def _add_position_facts(add: Any, p: dict[str, Any], currency: str, rules: dict[str, Any],
                        total_value: float) -> None:
    s = p["symbol"]
    add(_count(f"{s}.quantity", p["quantity"], "units", f"{s} units held"))
    add(_money(f"{s}.cost_per_unit", p["cost_per_unit"], currency, f"{s} cost per unit"))
    add(_money(f"{s}.cost_basis", p["cost_basis"], currency, f"{s} cost basis (quantity × cost per unit)"))
    add(_money(f"{s}.close", p["close"], currency, f"{s} last close on or before as_of"))
    add(_text(f"{s}.price_date", p["price_date"].isoformat(), f"{s} date of that close"))
    add(_money(f"{s}.market_value", p["market_value"], currency, f"{s} market value (quantity × close)"))
    add(_pct(f"{s}.weight_pct", p["weight"] * 100, f"{s} share of total market value"))
    add(_money(f"{s}.pnl", p["pnl"], currency, f"{s} unrealised profit/loss"))
    add(_pct(f"{s}.pnl_pct", p["pnl_pct"], f"{s} profit/loss vs cost"))
    add(_text(f"{s}.opened_on", p["opened_on"].isoformat(), f"{s} date the position was opened"))
    add(_count(f"{s}.holding_days", p["holding_days"], "days", f"{s} days held up to as_of"))
    annualised = ("annualised return (CAGR)" if p["holding_days"] >= 365
                  else "return (held under a year: not annualised)")
    add(_pct(f"{s}.annualised_return_pct", p["annualised_return_pct"], f"{s} {annualised}"))
    add(_pct(f"{s}.volatility_pct", p["volatility_pct"],
             f"{s} annualised volatility of monthly log returns (see volatility_months)"))
    add(_pct(f"{s}.max_drawdown_pct", p["max_drawdown_pct"], f"{s} max drawdown since opened"))
    for name in ("stop_loss_hit", "long_held_loss", "overweight"):
        add(_text(f"{s}.{name}", _yes(name in p["triggers"]), f"{s} {TRIGGER_LABELS[name]} trigger"))
    add(_text(f"{s}.allowed_actions", ", ".join(p["allowed"]), f"{s} actions the rules allow"))
    if "overweight" in p["triggers"]:
        cap = rules["max_position_weight"]
        excess_value = p["market_value"] - cap * total_value
        units = min(p["quantity"], math.ceil(excess_value / p["close"] - 1e-9))
        add(_pct(f"{s}.excess_weight_pct", (p["weight"] - cap) * 100, f"{s} weight above the cap"))
        add(_money(f"{s}.excess_value", excess_value, currency, f"{s} value to sell to get back to the cap"))
        add(_count(f"{s}.trim_units", units, "units", f"{s} whole units to sell to get back to the cap"))


def _retrieval_queries(positions: list[dict[str, Any]]) -> list[str]:
    """Knowledge-base queries from what this portfolio triggers (at most 6, the runner's cap)."""
    queries = ["portfolio concentration: top-3 weight, HHI and diversification"]
    wording = {
        "stop_loss_hit": "stop-loss hit: loss from cost beyond the stop level, sell or review",
        "long_held_loss": "long-held loss: position under water for years, sell or review",
        "overweight": "overweight position above the cap: trim back to the position limit",
    }
    for name in TRIGGER_LABELS:
        if any(name in p["triggers"] for p in positions):
            queries.append(wording[name])
    queries.append("meaning of the holdings, prices and rules files")
    return queries[:6]


def _task_text(task_dir: Path, values: dict[str, str], as_of: date, currency: str,
               positions: list[dict[str, Any]], facts: dict[str, Fact]) -> str:
    path = task_dir / "task.md"
    template = path.read_text(encoding="utf-8") if path.is_file() else "# Portfolio review as of {as_of}\n"
    fields = {**values, "as_of": as_of.isoformat(), "currency": currency, "n_holdings": str(len(positions))}
    missing = sorted({m for m in _FIELD.findall(template) if m not in fields})
    if missing:
        raise UserError(f"{path}: unknown field(s) {', '.join(missing)}; known: {', '.join(sorted(fields))}")
    lines = [_FIELD.sub(lambda m: fields[m.group(1)], template).rstrip(), "",
             "## Holdings, triggers and allowed actions", "",
             "| Symbol | Name | Triggers | Allowed actions |", "|---|---|---|---|"]
    for p in positions:
        trig = ", ".join(TRIGGER_LABELS[t] for t in p["triggers"]) or "none"
        lines.append(f"| {p['symbol']} | {p['name']} | {trig} | {', '.join(p['allowed'])} |")
    symbols = {p["symbol"] for p in positions}
    lines += ["", "## Facts (write {{fact:<id>}} instead of typing a figure)", "",
              "| id | value | meaning |", "|---|---|---|"]
    lines += [f"| `{f.id}` | {f.render()} | {f.label} |" for f in facts.values()
              if f.id.split(".")[0] not in symbols or f.id.split(".", 1)[1] in OVERWEIGHT_COLUMNS]
    lines += ["", "Per-holding facts: the id is `<Symbol>.<column>`, e.g. `{{fact:"
              f"{positions[0]['symbol']}.weight_pct}}}}`. Also `<Symbol>.opened_on`, `.price_date`, "
              "`.stop_loss_hit`, `.long_held_loss`, `.overweight` and `.allowed_actions`.", "",
              "| Symbol | " + " | ".join(HOLDING_COLUMNS) + " |", "|---" * (len(HOLDING_COLUMNS) + 1) + "|"]
    for p in positions:
        cells = [facts[f"{p['symbol']}.{c}"].render() for c in HOLDING_COLUMNS]
        lines.append(f"| {p['symbol']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def prepare(ctx: PrepareContext) -> Prepared:
    """Compute the facts and write ``facts.json``, ``data.json`` (= ``Prepared.data``) and ``task.md``
    (the prepared task text) to ``ctx.out_dir`` — the names and contents the runner's cache uses.

    Raises:
        InputFileError: an input file is invalid; nothing is written.
        UserError: a bad ``--var``; nothing is written.
    """
    prepared = build(ctx.task_dir, dict(ctx.vars))
    ctx.out_dir.mkdir(parents=True, exist_ok=True)
    save_facts(ctx.out_dir / "facts.json", prepared.facts)
    for name, text in (("data.json", json.dumps(prepared.data, indent=2)), ("task.md", prepared.task_text)):
        tmp = ctx.out_dir / f".{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(ctx.out_dir / name)
    return prepared
