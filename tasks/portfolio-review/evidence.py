"""portfolio-review evidence for the claim ledger: holdings, their facts, the rules and the sources.

``evidence(ctx)`` describes, from the prepared facts and data, what a review may claim: each holding
(ticker, company name and common aliases), its figures by metric (weight, profit/loss, value, cost,
price, volatility, drawdown, annualised return, holding period, units, the overweight excess),
derived figures people compute from them (multiples of cost, distance to the stop-loss and to the
cap, share of the total gain), rankings, counts ("two positions are losing"), rule flags, allowed
actions, dates, and the source documents (rules in prose, knowledge files) with the review
vocabulary in ``claims_vocabulary.txt``. The metric words are in ``claims_lexicon.json``.
"""

from __future__ import annotations

import itertools
import json
from datetime import date
from pathlib import Path
from typing import Any

from autogen_pse.claims import Count, DateFact, Duration, Entity, Evidence, FactValue, Flag, Metric, Source
from autogen_pse.hooks import CheckContext, Fact, task_module

_HERE = Path(__file__).resolve().parent
_UNITS = {"%": "pct", "units": "units", "days": "days", "holdings": "count", "months": "count", "years": "years"}
_ALIASES = {  # names and the nicknames people use ("the Cupertino crew", "Redmond")
    "GOOG": ["Alphabet", "Google", "Mountain View"],
    "IBM": ["Big Blue", "International Business Machines"],
    "MSFT": ["Microsoft", "Redmond", "Mister Softy", "Mr. Softy"],
    "AAPL": ["Apple", "Cupertino"],
    "AMZN": ["Amazon", "Amazon.com"],
}


def _lexicon() -> dict[str, Any]:
    return json.loads((_HERE / "claims_lexicon.json").read_text(encoding="utf-8"))


def _data(ctx: CheckContext) -> tuple[dict[str, Fact], dict[str, Any]]:
    needed = ("symbols", "triggers", "allowed_actions", "rules", "names")
    if ctx.facts and all(k in ctx.data for k in needed):
        return ctx.facts, ctx.data
    prepared = task_module(__file__, "prepare").build(ctx.task_dir, dict(ctx.vars))
    return prepared.facts, prepared.data


def _names(symbol: str, name: str) -> list[str]:
    short = name.replace(", Inc.", "").replace(" Inc.", "").replace(" Corp.", "").replace(" Corp", "").strip()
    names = {name, short, short.split()[0] if short.split()[0] not in ("International",) else short}
    names.update(_ALIASES.get(symbol, []))
    return sorted(n for n in names if n and n != symbol)


def evidence(ctx: CheckContext) -> Evidence:
    facts, data = _data(ctx)
    lex = _lexicon()
    symbols: list[str] = data["symbols"]
    ev = Evidence(
        entities=[Entity(id=s, kind="holding", symbols=[s], names=_names(s, data["names"].get(s, s))) for s in symbols],
        metrics=[Metric(**m) for m in lex["metrics"]],
        actions=lex["actions"],
        allowed={s: list(data["allowed_actions"][s]) for s in symbols},
        vocabulary=[(_HERE / "claims_vocabulary.txt").read_text(encoding="utf-8")],
        claim_words=lex["claim_words"],
        action_objects=lex["action_objects"],
        entityless_actions=["HOLD", "REVIEW"],
        proposal_columns=["amount", "est value", "est. value", "notional", "order value", "trade value"],
        proposal_bounds={"units": "quantity", "money": "market_value"},
        proposal_amounts={"TRIM": "trim_units"},  # investment rule 2: trim back to the cap
        subject_words=lex["subject_words"],
        relative_metric="weight",
        price_metric="close",
        unverifiable="warning",
    )
    metric_of = lex["fact_metrics"]  # fact id suffix → metric name
    for f in facts.values():
        if not isinstance(f.value, int | float) or isinstance(f.value, bool):
            continue
        entity, _dot, key = f.id.rpartition(".")
        if entity == "rules":
            entity, key = "", f.id
        metric = metric_of.get(key)
        if metric is None:
            continue
        unit = "money" if f.unit == data.get("currency") else _UNITS.get(f.unit, "ratio" if not f.unit else "count")
        ev.facts.append(
            FactValue(
                id=f.id, entity=entity or None, metric=metric, value=float(f.value), unit=unit, display=f.render()
            )
        )
    _derived(ev, facts, data)
    _scenarios(ev, facts, data)
    _dates_and_durations(ev, facts, data)
    _flags_and_counts(ev, data, lex)
    ev.sources = _sources(ctx.task_dir, data)
    return ev


def _value(facts: dict[str, Fact], fid: str) -> float:
    return float(facts[fid].value)  # type: ignore[arg-type]


def _derived(ev: Evidence, facts: dict[str, Fact], data: dict[str, Any]) -> None:
    """Figures people compute from the facts: multiples, distances to the rule levels, gain shares."""
    stop = _value(facts, "rules.stop_loss_pct")
    long_held = _value(facts, "rules.long_held_loss_pct")
    cap = _value(facts, "rules.max_position_weight_pct")
    total_pnl = _value(facts, "total_pnl")
    total_cost = _value(facts, "total_cost")
    add = ev.facts.append
    for s in data["symbols"]:

        def derive(key: str, metric: str, value: float, unit: str, shown: str, s: str = s) -> None:
            add(FactValue(id=f"{s}.{key}", entity=s, metric=metric, value=value, unit=unit, display=shown))

        cost, pnl = _value(facts, f"{s}.cost_basis"), _value(facts, f"{s}.pnl")
        per_risk = _value(facts, f"{s}.annualised_return_pct") / _value(facts, f"{s}.volatility_pct")
        # "return per unit of volatility: AMZN 0.99, AAPL 0.86": a Sharpe-like ratio without the risk-free rate
        add(FactValue(id=f"{s}.return_per_risk", entity=s, metric="return_per_risk", value=abs(per_risk), unit="ratio",
                      direction=1 if per_risk >= 0 else -1, display=f"{per_risk:.2f} return per unit of volatility"))
        square = (_value(facts, f"{s}.weight_pct") / 100) ** 2  # "0.4385² = 0.1923", "about 70 % of the HHI"
        derive("weight_squared", "weight_squared", square, "ratio", f"{square:.4f} (its part of the HHI)")
        in_hhi = square / _value(facts, "hhi") * 100
        derive("hhi_share_pct", "hhi_share", in_hhi, "pct", f"{in_hhi:.1f}% of the HHI")
        cost_weight = cost / total_cost * 100  # "Google is the largest position by cost (36.5 % of the money put in)"
        derive("cost_weight_pct", "cost_weight", cost_weight, "pct", f"{cost_weight:.2f}% of the total cost")
        multiple = _value(facts, f"{s}.market_value") / cost
        derive("multiple", "multiple", multiple, "multiple", f"{multiple:.2f}x")
        # "returned almost five times its cost": the gain as a multiple of cost
        derive("gain_multiple", "multiple", pnl / cost, "multiple", f"{pnl / cost:.2f}x gain")
        close, paid = _value(facts, f"{s}.close"), _value(facts, f"{s}.cost_per_unit")
        # "a gain of $184.57 per share"; "the -20 % stop corresponds to $554.40 a share"
        derive("pnl_per_unit", "pnl_per_unit", close - paid, "money", f"{close - paid:,.2f} per unit")
        stop_price = paid * (1 + stop / 100)
        derive("stop_price", "stop_price", stop_price, "money", f"{stop_price:,.2f} per unit")
        derive("stop_price_gap", "stop_distance", close - stop_price, "money",
               f"{close - stop_price:,.2f} per unit to the stop price")  # fmt: skip
        cushion = (close - stop_price) / close * 100  # "Apple would have to fall 86 % to reach its stop"
        derive("stop_cushion_pct", "stop_distance", cushion, "pct", f"{cushion:.1f}% fall from the close to the stop")
        above = (close / stop_price - 1) * 100  # "Cushion vs stop = C/F-1": the same distance, on the stop price
        derive("stop_rise_pct", "stop_distance", above, "pct", f"{above:.2f}% above the stop price")
        long_price = paid * (1 + long_held / 100)  # "the long-held-loss line sits at $623.70"
        derive("long_held_price", "long_held_price", long_price, "money",
               f"{long_price:,.2f} per unit (long-held-loss level)")  # fmt: skip
        if close > paid:  # "like 80%+ of whatever you trim is gain": the share of a sale's proceeds that is gain
            in_value = (1 - paid / close) * 100
            derive("gain_in_value_pct", "gain_in_value", in_value, "pct", f"{in_value:.1f}% of its value is gain")
        if close < paid:  # "the shares would need to rise about 38 % to get back to cost"
            rise = (paid / close - 1) * 100
            derive("recovery_pct", "recovery", rise, "pct", f"{rise:.1f}% rise to cost")
        # "851 d is 121 d past the 730 d threshold; loss ~9pp beyond the −10% line" (only where so named)
        past = _value(facts, f"{s}.holding_days") - _value(facts, "rules.long_held_loss_days")
        under = _value(facts, f"{s}.pnl_pct") - long_held
        for key, v, unit, shown in (("long_held_days_past", past, "days", f"{past:,.0f} days past the long-held line"),
                                    ("long_held_loss_gap_pct", under, "pct", f"{under:.2f} points")):
            if unit == "pct" and pnl >= 0:  # (a loss beyond the line is a loser's; the days are everyone's)
                continue
            add(FactValue(id=f"{s}.{key}", entity=s, metric="long_held_distance", value=v, unit=unit,
                          named_only=True, display=shown))
        gap = _value(facts, f"{s}.pnl_pct") - stop
        derive("stop_distance_pct", "stop_distance", gap, "pct", f"{gap:.2f} points")
        room = cap - _value(facts, f"{s}.weight_pct")
        # the same distance both ways round ("12.38 points of room", "−1,238 bps vs cap")
        derive("weight_vs_cap_pct", "cap_distance", -room, "pct", f"{-room:.2f} points")
        derive("cap_distance_pct", "cap_distance", room, "pct", f"{room:.2f} points")
        if total_pnl:
            share = pnl / total_pnl * 100
            derive("gain_share_pct", "gain_share", share, "pct", f"{share:.1f}%")
        # "ex-AAPL the book is up ~$5.1k", "strip it out and the other four are up $5,124.10 on $66,278"
        rest_pnl, rest_cost = total_pnl - pnl, total_cost - cost
        rest_value = _value(facts, "total_value") - _value(facts, f"{s}.market_value")
        for key, v, unit in (("pnl", rest_pnl, "money"), ("cost", rest_cost, "money"), ("value", rest_value, "money"),
                             ("pnl_pct", rest_pnl / rest_cost * 100, "pct")):
            add(FactValue(id=f"ex_{s}.{key}", metric="remainder", value=abs(v), unit=unit, named_only=True,
                          direction=1 if v >= 0 else -1, display=f"{v:,.2f}{'%' if unit == 'pct' else ''} without {s}"))
    running = 0.0  # "CUM WT 61.47": the weights summed down the holdings by weight, largest first
    for s in sorted(data["symbols"], key=lambda s: -_value(facts, f"{s}.weight_pct")):
        running += _value(facts, f"{s}.weight_pct")
        add(FactValue(id=f"{s}.cum_weight_pct", entity=s, metric="cum_weight", value=running, unit="pct",
                      named_only=True, display=f"{running:.2f}% with the larger holdings"))
    n = len(data["symbols"])
    add(FactValue(id="hhi_equal_weights", metric="hhi", value=1 / n, unit="ratio", display=f"{1 / n:.4f}"))
    # "the mean weight is 20% by construction": each holding's weight were they equal
    add(FactValue(id="mean_weight_pct", metric="mean_weight", value=100 / n, unit="pct", display=f"{100 / n:.2f}%"))
    total = _value(facts, "total_value")  # "the 30 % cap in dollars: ~$38,147"
    cap_value = cap / 100 * total
    add(FactValue(id="cap_value", metric="cap", value=cap_value, unit="money", display=f"{cap_value:,.2f}"))
    top3 = str(facts["top3_symbols"].value).split(", ")  # "Top 3 | 96,995.10 ← =SUM(B2:B4)"
    top3_value = sum(_value(facts, f"{s}.market_value") for s in top3)
    add(FactValue(id="top3_value", metric="top3_value", value=top3_value, unit="money", display=f"{top3_value:,.2f}"))
    rest = 100 - _value(facts, "top3_weight_pct")  # "… 76.28 %, leaving 23.72 % in the other two"
    add(FactValue(id="rest_weight_pct", metric="remainder", value=rest, unit="pct", display=f"{rest:.2f}%"))
    multiple = _value(facts, "total_value") / _value(facts, "total_cost")
    add(FactValue(id="total_multiple", metric="multiple", value=multiple, unit="multiple", display=f"{multiple:.2f}x"))


def _scenarios(ev: Evidence, facts: dict[str, Fact], data: dict[str, Any]) -> None:
    """What the allowed disposals would do: the proceeds of each set of them (in money and as a share
    of the portfolio), what a trim leaves, and the gains and losses of the winners and the losers."""
    total = _value(facts, "total_value")
    add = ev.facts.append
    sales = {}
    for s in data["symbols"]:
        allowed = data["allowed_actions"][s]
        if "TRIM" in allowed:
            sales[s] = _value(facts, f"{s}.excess_value")
            trimmed = _value(facts, f"{s}.trim_units") * _value(facts, f"{s}.close")  # whole units sold
            add(FactValue(id=f"{s}.trim_value", entity=s, metric="excess_value", value=trimmed, unit="money",
                          display=f"{trimmed:,.2f} (the trimmed units at the close)"))
            exact = _value(facts, f"{s}.excess_value") / _value(facts, f"{s}.close")  # "78.95 units, so 79"
            add(FactValue(id=f"{s}.trim_units_exact", entity=s, metric="trim_units", value=exact, unit="units",
                          display=f"{exact:,.2f} units (the excess value at the close, before rounding up)"))
            units = _value(facts, f"{s}.quantity") - _value(facts, f"{s}.trim_units")
            value = units * _value(facts, f"{s}.close")
            for key, v, unit, shown in (
                ("units", units, "units", f"{units:,.0f} units"),
                ("value", value, "money", f"{value:,.2f}"),
                ("weight_pct", value / total * 100, "pct", f"{value / total * 100:.2f}%"),
            ):
                add(FactValue(id=f"{s}.after_trim_{key}", entity=s, metric="after_trim", value=v, unit=unit,
                              display=shown))
        elif "SELL" in allowed:
            sales[s] = _value(facts, f"{s}.market_value")
    whole = {s: _value(facts, f"{s}.trim_units") * _value(facts, f"{s}.close") for s in sales
             if "TRIM" in data["allowed_actions"][s]}  # a trim of whole units raises a little more
    for n in range(1, len(sales) + 1):
        for group in itertools.combinations(sorted(sales), n):
            name = "+".join(group)
            variants = [("", sum(sales[s] for s in group))]
            if whole.keys() & set(group):
                variants.append((".whole_units", sum(whole.get(s, sales[s]) for s in group)))
            for suffix, cash in variants:
                add(FactValue(id=f"proceeds.{name}{suffix}", metric="proceeds", value=cash, unit="money",
                              display=f"{cash:,.2f}", named_only=True))
                if n > 1:  # (one sale's share of the portfolio is its weight)
                    add(FactValue(id=f"proceeds_pct.{name}{suffix}", metric="proceeds", value=cash / total * 100,
                                  unit="pct", display=f"{cash / total * 100:.1f}%", named_only=True))
    pnl = {s: _value(facts, f"{s}.pnl") for s in data["symbols"]}
    for side, members in (("winners", [s for s in pnl if pnl[s] > 0]), ("losers", [s for s in pnl if pnl[s] < 0])):
        if len(members) > 1:
            v = sum(pnl[s] for s in members)
            add(FactValue(id=f"pnl.{side}", metric="pnl", value=v, unit="money", display=f"{v:,.2f} ({side})"))


def _dates_and_durations(ev: Evidence, facts: dict[str, Fact], data: dict[str, Any]) -> None:
    ev.dates.append(DateFact(id="as_of", metric="as_of", value=str(facts["as_of"].value)))
    for s in data["symbols"]:
        ev.dates.append(
            DateFact(id=f"{s}.opened_on", entity=s, metric="opened", value=str(facts[f"{s}.opened_on"].value))
        )
        ev.dates.append(
            DateFact(id=f"{s}.price_date", entity=s, metric="price", value=str(facts[f"{s}.price_date"].value))
        )
        days = _value(facts, f"{s}.holding_days")
        ev.durations.append(
            Duration(
                id=f"{s}.holding_days",
                entity=s,
                years=days / 365.25,
                display=f"{int(days):,} days ({days / 365.25:.1f} years)",
            )
        )
    opened = sorted(str(facts[f"{s}.opened_on"].value) for s in data["symbols"])
    span = (date.fromisoformat(opened[-1]) - date.fromisoformat(opened[0])).days / 365.25
    ev.durations.append(
        Duration(
            id="purchase_span",
            years=span,
            display=f"{opened[0]} to {opened[-1]}",
            words=["span", "between", "spread over", "over a period"],
        )
    )
    long_days = _value(facts, "rules.long_held_loss_days")
    ev.durations.append(
        Duration(
            id="rules.long_held_loss_days",
            years=long_days / 365,
            display=f"{int(long_days)} days",
            words=["long-held", "long held", "threshold", "rule", "at least"],
        )
    )
    ev.durations.append(
        Duration(
            id="volatility_months",
            years=_value(facts, "volatility_months") / 12,
            display="36 months",
            words=["volatility", "vol", "monthly returns", "window", "trailing"],
        )
    )


def _flags_and_counts(ev: Evidence, data: dict[str, Any], lex: dict[str, Any]) -> None:
    triggers: dict[str, list[str]] = data["triggers"]
    symbols: list[str] = data["symbols"]
    for name, words in lex["flags"].items():
        for s in symbols:  # "any_trigger": "No rule applies", "no trigger" of a holding with one is false
            value = bool(triggers.get(s)) if name == "any_trigger" else name in triggers.get(s, [])
            ev.flags.append(Flag(id=f"{s}.{name}", entity=s, words=words, value=value))
    pnl = {f.entity: f.value for f in ev.facts if f.metric == "pnl_pct" and f.entity}
    sets = {
        "losing": [s for s in symbols if pnl.get(s, 0) < 0],
        "gaining": [s for s in symbols if pnl.get(s, 0) > 0],
        "untriggered": [s for s in symbols if not triggers.get(s)],
        "triggered": [s for s in symbols if triggers.get(s)],
        "loss_triggered": [s for s in symbols if {"stop_loss_hit", "long_held_loss"} & set(triggers.get(s, []))],
        **{name: [s for s in symbols if name in triggers.get(s, [])] for name in lex["flags"]},
        "all": list(symbols),
    }
    for name, words in lex["counts"].items():
        ev.counts.append(
            Count(id=f"count.{name}", kind="holding", words=words, entities=sets[name], nouns=lex["count_nouns"])
        )


def _sources(task_dir: Path, data: dict[str, Any]) -> list[Source]:
    """The rules in prose and the knowledge files, plus the holdings' names and asset classes."""
    out = []
    for path in sorted([*(task_dir / "data").glob("*.md"), *(task_dir / "knowledge").rglob("*.md")]):
        out.append(Source(id=path.relative_to(task_dir).as_posix(), text=path.read_text(encoding="utf-8")))
    rows = [f"{h['symbol']} {h['name']} {h['asset_class']} {h['currency']}" for h in data.get("holdings", [])]
    out.append(Source(id="holdings", text="\n".join([*rows, f"holder {data.get('holder', '')}"])))
    return out
