"""portfolio-review artifact schema: the review as one JSON object, built per run from the prepared data.

``artifact_schema(ctx)`` returns an :class:`~autogen_pse.artifacts.ArtifactSchema` whose model holds

* ``summary`` — short text;
* ``findings`` — one short text per holding, keyed by symbol (every holding is required);
* ``actions`` — one row per holding, keyed by symbol: ``priority`` (1…n), ``action`` (only that
  symbol's allowed actions: a per-symbol union of per-action variants) and ``amount`` (a fact id
  of that action's amount facts: ``<S>.trim_units`` / ``<S>.excess_value`` for TRIM,
  ``<S>.quantity`` for SELL, ``none`` otherwise) and a short ``reason``;
* ``next_steps`` — one to three short items.

Free text may hold no digit, brace, pipe or newline: every figure of the rendered review is a fact
reference written by the renderer, so "every holding covered", "only allowed actions" and "every
amount is a fact" hold by construction; the checks still verify the rendered Markdown.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from autogen_pse.hooks import ArtifactSchema, SchemaContext, task_module

# No digits (figures come from facts), no Markdown structure, no quote or backslash; the length bound
# sits in the pattern too, since a grammar built from the schema follows the pattern, not maxLength.
FREE_CHARS = r"[^0-9{}|\n\r`#*$\"\\]"
NONE = "none"



def _text(min_len: int, max_len: int) -> Any:
    pattern = f"^[A-Za-z]{FREE_CHARS}{{{min_len - 1},{max_len - 1}}}$"  # starts with a letter
    return Annotated[str, Field(min_length=min_len, max_length=max_len, pattern=pattern)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def amount_facts(symbol: str, action: str, facts: dict[str, Any]) -> list[str]:
    """The fact ids an ``action`` row of ``symbol`` may give as its amount (``none`` when it has none)."""
    wanted = {"TRIM": ("trim_units", "excess_value"), "SELL": ("quantity",)}.get(action, ())
    ids = [f"{symbol}.{w}" for w in wanted if f"{symbol}.{w}" in facts]
    return ids or [NONE]


def _model_name(symbol: str, *parts: str) -> str:
    return "_".join(["".join(ch if ch.isalnum() else "_" for ch in symbol), *parts])


def _row_model(symbol: str, action: str, n: int, facts: dict[str, Any]) -> type[BaseModel]:
    priorities = tuple(range(1, n + 1))
    return create_model(  # type: ignore[call-overload, no-any-return]
        _model_name(symbol, action),
        __base__=_Strict,
        priority=(Literal[priorities], ...),  # type: ignore[valid-type]
        action=(Literal[action], ...),  # type: ignore[valid-type]
        amount=(Literal[tuple(amount_facts(symbol, action, facts))], ...),  # type: ignore[valid-type]
        reason=(_text(3, 80), ...),
    )


def build_model(facts: dict[str, Any], data: dict[str, Any]) -> type[BaseModel]:
    """The review model for this run's holdings, allowed actions and amount facts."""
    symbols: list[str] = list(data["symbols"])
    n = len(symbols)
    finding_fields: dict[str, Any] = {}
    action_fields: dict[str, Any] = {}
    for i, s in enumerate(symbols):
        variants = [_row_model(s, a, n, facts) for a in data["allowed_actions"][s]]
        row: Any = variants[0] if len(variants) == 1 else Union[tuple(variants)]  # noqa: UP007
        finding_fields[f"h{i}"] = (_text(10, 100), Field(..., alias=s))
        action_fields[f"h{i}"] = (row, Field(..., alias=s))
    strict = ConfigDict(extra="forbid", populate_by_name=False)
    findings = create_model("Findings", __config__=strict, **finding_fields)  # type: ignore[call-overload]
    actions = create_model("Actions", __config__=strict, **action_fields)  # type: ignore[call-overload]
    return create_model(  # type: ignore[call-overload, no-any-return]
        "PortfolioReview",
        __base__=_Strict,
        summary=(_text(20, 160), ...),
        findings=(findings, ...),
        actions=(actions, ...),
        next_steps=(Annotated[list[_text(5, 80)], Field(min_length=1, max_length=3)], ...),
    )


def render(obj: BaseModel, data: dict[str, Any]) -> str:
    """The review as Markdown (four sections, the Actions table), figures as fact references."""
    example = task_module(__file__, "example_review")
    ref = example.ref
    symbols: list[str] = list(data["symbols"])
    dumped = obj.model_dump(by_alias=True)
    lines = [f"# Portfolio review — {data.get('holder', 'the holder')}, as of {ref('as_of')}", "",
             "## Summary", "",
             f"The portfolio is worth {ref('total_value')}, an unrealised result of {ref('total_pnl')} "
             f"({ref('total_pnl_pct')}); the top three holdings make up {ref('top3_weight_pct')}. "
             f"{_sentence(dumped['summary'])}", "",
             "## Findings", ""]
    for s in symbols:
        lines.append(f"{example.finding(s, data)} {_sentence(dumped['findings'][s])}")
    lines += ["", "## Actions", "", "| Priority | Action | Symbol | Amount | Reason |", "|---|---|---|---|---|"]
    order = sorted(symbols, key=lambda s: (dumped["actions"][s]["priority"], symbols.index(s)))
    for s in order:
        row = dumped["actions"][s]
        amount = "—" if row["amount"] == NONE else f"{ref(row['amount'])}" + (
            " units" if row["amount"].endswith(("units", "quantity")) else "")
        why = _clean(row["reason"]).rstrip(".")
        reason = f"{_trigger_phrase(s, data, ref)}; {why[:1].lower() + why[1:]}"
        lines.append(f"| {row['priority']} | {row['action']} | {s} | {amount} | {reason} |")
    lines += ["", "## Next steps", "", *[f"- {_sentence(step)}" for step in dumped["next_steps"]]]
    return "\n".join(lines) + "\n"


def _trigger_phrase(symbol: str, data: dict[str, Any], ref: Any) -> str:
    active = data["triggers"].get(symbol, [])
    if "stop_loss_hit" in active:
        return f"stop-loss hit: {ref(symbol + '.pnl_pct')} vs the {ref('rules.stop_loss_pct')} stop"
    if "overweight" in active:
        return f"overweight: {ref(symbol + '.weight_pct')} vs the {ref('rules.max_position_weight_pct')} cap"
    if "long_held_loss" in active:
        return f"long-held loss: {ref(symbol + '.pnl_pct')} after {ref(symbol + '.holding_days')} days"
    return "no rule trigger"


def _clean(text: str) -> str:
    return " ".join(text.split()).strip()


def _sentence(text: str) -> str:
    text = _clean(text)
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def brief(facts: dict[str, Any], data: dict[str, Any]) -> str:
    """Compact task text: the holdings, their triggers and allowed actions (what a small model needs)."""
    labels = data.get("trigger_labels", {})
    lines = [f"Portfolio review for {data.get('holder', 'the holder')} as of {data.get('as_of', '')}.",
             "Holdings (symbol, name, weight, profit/loss, rule triggers, allowed actions):"]
    for s in data["symbols"]:
        trig = ", ".join(labels.get(t, t) for t in data["triggers"].get(s, [])) or "none"
        weight = facts[f"{s}.weight_pct"].render() if f"{s}.weight_pct" in facts else "?"
        pnl = facts[f"{s}.pnl_pct"].render() if f"{s}.pnl_pct" in facts else "?"
        lines.append(f"- {s} ({data['names'].get(s, s)}): weight {weight}, P/L {pnl}; triggers: {trig}; "
                     f"allowed: {', '.join(data['allowed_actions'][s])}")
    lines.append("Rules: stop-loss hit → SELL or REVIEW; overweight → TRIM; long-held loss → SELL or REVIEW; "
                 "no trigger → HOLD, REVIEW or BUY.")
    return "\n".join(lines)


INSTRUCTIONS = (
    "Reply with one JSON object: summary (two short sentences on value, risk and concentration), "
    "findings (one short note per holding symbol), actions (per symbol: priority 1 = most urgent, an "
    "allowed action, the amount id, a short reason naming the rule), next_steps (one to three short items). "
    "Write words only: no digits, the figures are added for you."
)


def artifact_schema(ctx: SchemaContext) -> ArtifactSchema:
    """The run's review schema (see the module docstring)."""
    model = build_model(ctx.facts, ctx.data)
    n = len(ctx.data["symbols"])
    return ArtifactSchema(
        model=model,
        render=lambda obj: render(obj, ctx.data),
        brief=brief(ctx.facts, ctx.data),
        # summary 160 + per holding finding 100 + reason 80 + keys and enums ~90, next steps 3 × 80,
        # scaffolding 60 characters; at least 2.5 characters per token under the grammar, rounded up.
        max_tokens=int((160 + n * (100 + 80 + 90) + 3 * 90 + 60) / 2.5) + 32,
        instructions=INSTRUCTIONS,
    )
