"""A faithful example review built only from the prepared facts (every figure a fact reference).

Used as the reference artifact by the tests, the scripted fixtures and the checks benchmark, and as
a worked example of the artifact format. ``example_review(facts, data)`` returns Markdown with
``{{fact:<id>}}`` references; render it with :func:`autogen_pse.facts.render`.

Action policy (one row per holding, most urgent first): stop-loss → SELL the whole position;
overweight → TRIM back to the cap; long-held loss → REVIEW; no trigger → HOLD.
"""

from __future__ import annotations

from typing import Any

from autogen_pse.hooks import Fact

URGENCY = {"SELL": 0, "TRIM": 1, "REVIEW": 2, "HOLD": 3, "BUY": 4}


def ref(fid: str) -> str:
    return "{{fact:" + fid + "}}"


def planned_action(symbol: str, data: dict[str, Any]) -> tuple[str, str, str]:
    """``(action, amount, reason)`` for one holding, as the policy above; amounts and reasons use
    fact references."""
    active = data["triggers"].get(symbol, [])
    allowed = data["allowed_actions"][symbol]
    if "stop_loss_hit" in active and "SELL" in allowed:
        return ("SELL", f"{ref(symbol + '.quantity')} units",
                f"stop-loss hit: {ref(symbol + '.pnl_pct')} vs the {ref('rules.stop_loss_pct')} stop")
    if "overweight" in active and "TRIM" in allowed:
        cap = ref("rules.max_position_weight_pct")
        return ("TRIM", f"{ref(symbol + '.trim_units')} units ({ref(symbol + '.excess_value')})",
                f"overweight: {ref(symbol + '.weight_pct')} vs the {cap} cap")
    if "long_held_loss" in active:
        return ("REVIEW", "—",
                f"long-held loss: {ref(symbol + '.pnl_pct')} after {ref(symbol + '.holding_days')} days")
    return ("HOLD", "—", "no rule trigger; within the limits")


def finding(symbol: str, data: dict[str, Any]) -> str:
    """One Findings bullet for ``symbol``."""
    labels = data.get("trigger_labels", {})
    active = data["triggers"].get(symbol, [])
    trig = ", ".join(labels.get(t, t) for t in active) or "none"
    s = symbol
    return (f"- **{s}** ({data['names'][s]}): {ref(s + '.weight_pct')} of the portfolio, worth "
            f"{ref(s + '.market_value')}; P/L {ref(s + '.pnl')} ({ref(s + '.pnl_pct')}) over "
            f"{ref(s + '.holding_days')} days, annualised {ref(s + '.annualised_return_pct')}; volatility "
            f"{ref(s + '.volatility_pct')}, max drawdown {ref(s + '.max_drawdown_pct')}. Triggers: {trig}.")


def action_rows(data: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """``(action, symbol, amount, reason)`` per holding, most urgent first (ties by symbol)."""
    rows = [(*planned_action(s, data)[:1], s, *planned_action(s, data)[1:]) for s in data["symbols"]]
    return sorted(rows, key=lambda r: (URGENCY[r[0]], r[1]))


def example_review(facts: dict[str, Fact], data: dict[str, Any]) -> str:
    """The whole review (Markdown with fact references)."""
    lines = [
        f"# Portfolio review — {data.get('holder', 'the holder')}, as of {ref('as_of')}",
        "",
        "## Summary",
        "",
        f"The portfolio is worth {ref('total_value')} against a cost of {ref('total_cost')}, an unrealised "
        f"profit of {ref('total_pnl')} ({ref('total_pnl_pct')}). The top three holdings "
        f"({ref('top3_symbols')}) make up {ref('top3_weight_pct')} of the value and the HHI is "
        f"{ref('hhi')}, about {ref('effective_holdings')} effective holdings. Rule triggers: "
        f"{ref('triggers_summary')}.",
        "",
        "## Findings",
        "",
        *[finding(s, data) for s in data["symbols"]],
        "",
        "## Actions",
        "",
        "| Priority | Action | Symbol | Amount | Reason |",
        "|---|---|---|---|---|",
        *[f"| {i} | {a} | {s} | {amt} | {why} |" for i, (a, s, amt, why) in enumerate(action_rows(data), 1)],
        "",
        "## Next steps",
        "",
        "- Place the SELL and TRIM orders and keep the proceeds as cash until the next review.",
        "- Re-run this review after the next monthly close.",
    ]
    return "\n".join(lines) + "\n"
