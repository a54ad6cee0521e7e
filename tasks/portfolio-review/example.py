"""The ``example`` hook: a plan and a review built only from one case's prepared facts.

``pse eval portfolio-review --model scripted-facts`` answers every case with it, so a dataset of
portfolios runs deterministically without a language model. The review is
:func:`example_review.example_review` (every figure a fact reference). The flaw ``wrong-figure``
types the first holding's weight a few percentage points off (a value no percentage fact has), so
the claim check contradicts it.
"""

from __future__ import annotations

from typing import Any

from autogen_pse.hooks import Example, ExampleContext, Fact, UserError, task_module

FLAWS = ("wrong-figure",)
_WEIGHT_DELTAS = (4.0, 5.0, 6.0, 7.0, 8.0)  # percentage points tried until no fact has the value


def example(ctx: ExampleContext) -> Example:
    """The plan and the review for ``ctx``'s facts (with ``ctx.flaw`` made, if any)."""
    module = task_module(__file__, "example_review")
    facts, data = ctx.facts, ctx.data
    review = module.example_review(facts, data)
    if ctx.flaw == "wrong-figure":
        review = _wrong_weight(review, facts, data)
    elif ctx.flaw is not None:
        raise UserError(f"portfolio-review has no flaw {ctx.flaw!r}; use one of {', '.join(FLAWS)}")
    return Example(plan=_plan(data, module), artifact=review)


def _plan(data: dict[str, Any], module: Any) -> str:
    rows = [f"{a} {s}" for a, s, _amount, _why in module.action_rows(data)]
    return "\n".join([
        "Plan for the portfolio review:",
        "1. Summary: total value, profit/loss, top-3 weight and HHI.",
        "2. Findings: one bullet per holding (" + ", ".join(data["symbols"]) + ").",
        "3. Actions table: " + "; ".join(rows) + ".",
        "4. Next steps: orders to place and when to review again.",
        "5. Write every figure as {{fact:<id>}}.",
    ])


def _wrong_weight(review: str, facts: dict[str, Fact], data: dict[str, Any]) -> str:
    symbol = data["symbols"][0]
    ref = "{{fact:" + symbol + ".weight_pct}}"
    weight = float(facts[f"{symbol}.weight_pct"].value)
    taken = [abs(float(f.value)) for f in facts.values() if f.unit == "%" and isinstance(f.value, int | float)]
    wrong = next(weight + d for d in _WEIGHT_DELTAS if all(abs(weight + d - v) > 0.05 for v in taken))
    return review.replace(ref, f"{wrong:.2f}%", 1)
