"""portfolio-review checks: planted fabrications of every kind are caught, faithful reviews pass."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from autogen_pse.facts import render, unknown_fact_check
from autogen_pse.hooks import CheckContext
from autogen_pse.verdict import Outcome, Reason, Verdict, merge_checks

TASK_DIR = Path(__file__).resolve().parents[2] / "tasks" / "portfolio-review"
NAMES = ["structure", "numbers", "symbols", "coverage", "rules"]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"test_portfolio_checks_{name}", TASK_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


prepare = _load("prepare")
checks_mod = _load("checks")
review = prepare.sibling("review")
example = prepare.sibling("example_review")
PREPARED = prepare.build(TASK_DIR, {})
FACTS, DATA = PREPARED.facts, PREPARED.data
REFS = example.example_review(FACTS, DATA)
FAITHFUL, _ = render(REFS, FACTS)


def run(text: str, data: dict | None = None) -> dict:
    ctx = CheckContext(artifact=text, facts=FACTS, data=DATA if data is None else data,
                       workspace=TASK_DIR, task_dir=TASK_DIR)
    results = checks_mod.checks(ctx)
    assert [r.name for r in results] == NAMES
    return {r.name: r for r in results}


def failing(text: str) -> list[str]:
    return [name for name, r in run(text).items() if not r.ok]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# --------------------------------------------------------------------------- faithful


def test_faithful_review_passes_every_check():
    results = run(FAITHFUL)
    assert all(r.ok for r in results.values()), {n: r.detail for n, r in results.items() if not r.ok}
    numbers = results["numbers"]
    assert numbers.claims_checked >= 50
    assert numbers.claims_supported == numbers.claims_checked
    assert numbers.unsupported == []
    assert all(r.severity == "error" for r in results.values())


def test_fact_references_render_then_check():
    text, unknown = render(REFS, FACTS)
    assert unknown == [] and "{{fact:" not in text
    assert failing(text) == []
    # an unknown reference stays verbatim: numbers ignores it, the fact_references check fails
    text, unknown = render(REFS + "\nSee {{fact:AAPL.weight_pct2}}.\n", FACTS)
    assert unknown == ["AAPL.weight_pct2"]
    assert not unknown_fact_check(unknown).ok
    assert failing(text) == []


def test_figures_rounded_within_tolerance_pass():
    text = FAITHFUL.replace("127,157.10 USD", "$127.2k")
    text = text.replace("43.85% of the portfolio", "43.9% of the portfolio")
    text = text.replace("loss -6,606.00 USD", "loss of 6,606 USD")
    text = text.replace("(-27.66%) over", "(a 27.66% loss) over")
    assert failing(text) == []


def test_ignored_numbers_dates_years_priorities_list_markers_top_n():
    extra = ("\n1. Valued on 2010-03-01 (Mar 1, 2010; 1 March 2010; 2010-03; 3/1/2010), held since 2000.\n"
             "2. The top 3 holdings and the top-5 list; the 3rd review, 2x leverage, AAPL2.\n")
    base = run(FAITHFUL)["numbers"].claims_checked
    result = run(FAITHFUL + extra)["numbers"]
    assert result.ok, result.detail
    assert result.claims_checked == base
    # a number outside the ignored forms is checked
    bad = run(FAITHFUL + "\nIt fell 7 times.\n")["numbers"]
    assert not bad.ok and any("7" in u for u in bad.unsupported)


# --------------------------------------------------------------------------- planted: numbers


def test_wrong_number_is_an_unsupported_claim():
    text = FAITHFUL.replace("worth 22,407.60 USD", "worth 22,907.60 USD")
    result = run(text)["numbers"]
    assert not result.ok
    assert result.claims_checked - result.claims_supported == 1
    (entry,) = result.unsupported
    assert entry.startswith(f"line {line_of(text, '22,907.60')}: 22,907.60 matches no number fact "
                            "(nearest: GOOG.market_value = 22,407.60 USD, ")
    assert "22,907.60" in result.detail and "{{fact:<id>}}" in result.detail
    assert failing(text) == ["numbers"]


@pytest.mark.parametrize(("before", "after"), [
    ("43.85% of the portfolio", "45.10% of the portfolio"),  # wrong percentage
    ("| 79 units", "| 90 units"),  # wrong amount in the Actions table
    ("about 3.65 effective", "about 4.65 effective"),
    ("(-19.16%)", "(-21.16%)"),
    ("(480.03%)", "(-480.03%)"),  # an explicit sign must match
    ("(241.97%)", "(600%)"),  # 600 is MSFT.quantity, but a percentage only matches percentage facts
    ("the 30.00% cap", "the 25% cap"),
])
def test_each_wrong_number_is_caught(before, after):
    assert before in FAITHFUL
    result = run(FAITHFUL.replace(before, after, 1))["numbers"]
    assert not result.ok
    assert len(result.unsupported) == 1


def test_tolerance_boundary():
    assert review.within(100.5, 100.0) and not review.within(100.51, 100.0)  # relative 0.5%
    assert review.within(1.01, 1.0) and not review.within(1.02, 1.0)  # absolute 0.01 for small values
    assert review.within(-27.7, -27.66) and not review.within(27.66, -27.66)


def test_number_parsing():
    found = review.numbers("Worth $1,234.5, a -3.2% move, +4 pp, 2.5k units, 1.2 million; 3rd; v2.\n")
    assert [(n.value, n.signed, n.pct) for n in found] == [
        (1234.5, False, False), (-3.2, True, True), (4.0, True, True), (2500.0, False, False),
        (1_200_000.0, False, False)]


# --------------------------------------------------------------------------- planted: symbols


def test_unknown_symbol_in_prose_is_caught():
    text = FAITHFUL.replace("## Next steps\n", "## Next steps\n\n- Consider adding NVDA for growth.\n")
    result = run(text)["symbols"]
    assert not result.ok
    assert f"NVDA (line {line_of(text, 'NVDA')})" in result.detail
    assert "AAPL, AMZN, GOOG, IBM, MSFT" in result.detail
    assert failing(text) == ["symbols"]


def test_unknown_symbol_in_table_is_caught():
    text = FAITHFUL.replace("| HOLD | AMZN |", "| HOLD | ORCL |")
    assert "symbols" in failing(text)
    assert "ORCL" in run(text)["symbols"].detail


def test_common_abbreviations_are_not_symbols():
    text = FAITHFUL + "\nNote: the HHI, an ETF, USD, P/L, YTD and the CAGR are not tickers; neither is OK.\n"
    assert run(text)["symbols"].ok


# --------------------------------------------------------------------------- planted: rules


def test_rule_breaking_sell_is_caught_with_a_fixable_detail():
    text = FAITHFUL.replace("| HOLD | IBM | — |", "| SELL | IBM | 150 units |")
    result = run(text)["rules"]
    assert not result.ok
    assert result.detail == ("row 5: SELL IBM is not allowed: no stop-loss or long-held-loss trigger for IBM "
                             "(allowed for IBM: BUY, HOLD, REVIEW)")
    assert failing(text) == ["rules"]
    passed = Verdict(outcome=Outcome.PASS, reason=Reason.OK)
    merged = merge_checks(passed, [("rules", "error", result.detail)])
    assert (merged.outcome, merged.reason) == (Outcome.PARTIAL, Reason.RULE_VIOLATION)


@pytest.mark.parametrize(("row", "fragment"), [
    ("| 1 | BUY | MSFT | — |",
     "BUY MSFT is not allowed: the stop-loss and long-held-loss triggers forbid BUY"),
    ("| 1 | TRIM | MSFT | — |", "TRIM MSFT is not allowed: no overweight trigger for MSFT"),
    ("| 1 | BUY | — | — |", "row 1: BUY needs a held symbol"),
])
def test_other_rule_breaks(row, fragment):
    assert "| 1 | SELL | MSFT | 600 units |" in FAITHFUL
    text = FAITHFUL.replace("| 1 | SELL | MSFT | 600 units |", row)
    result = run(text)["rules"]
    assert not result.ok
    assert fragment in result.detail


def test_triggered_holding_without_a_row_is_caught():
    text = "\n".join(line for line in FAITHFUL.splitlines() if "| REVIEW | GOOG |" not in line)
    result = run(text)["rules"]
    assert not result.ok
    assert "GOOG has the long-held-loss trigger but no row in the Actions table" in result.detail


# --------------------------------------------------------------------------- planted: coverage


def test_missing_holding_is_caught():
    text = "\n".join(line for line in FAITHFUL.splitlines() if "AMZN" not in line)
    result = run(text)["coverage"]
    assert not result.ok
    assert "AMZN (Amazon.com, Inc.)" in result.detail
    assert failing(text) == ["coverage"]


def test_holding_named_by_full_name_is_covered():
    text = "\n".join(line for line in FAITHFUL.splitlines() if "| HOLD | AMZN" not in line)
    text = text.replace("- **AMZN** (Amazon.com, Inc.)", "- Amazon.com, Inc.")
    assert run(text)["coverage"].ok


# --------------------------------------------------------------------------- planted: structure


def _drop_section(text: str, title: str) -> str:
    out, skipping = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            skipping = line == f"## {title}"
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("title", ["Summary", "Findings", "Actions", "Next steps"])
def test_missing_section_is_caught(title):
    result = run(_drop_section(FAITHFUL, title))["structure"]
    assert not result.ok
    assert f"missing section(s) ## {title}" in result.detail


@pytest.mark.parametrize(("before", "after", "fragment"), [
    ("| Priority | Action | Symbol | Amount | Reason |", "| Priority | Action | Ticker | Amount | Reason |",
     "header must be"),
    ("| 4 | HOLD | AMZN |", "| 4 | KEEP | AMZN |", "row 4: action 'KEEP' is not one of"),
    ("| 4 | HOLD | AMZN |", "| high | HOLD | AMZN |", "row 4: priority 'high'"),
    ("## Summary\n\nThe", "## Summary\n\n## Findings\n\nThe", "is empty"),
])
def test_structure_problems(before, after, fragment):
    assert before in FAITHFUL
    result = run(FAITHFUL.replace(before, after, 1))["structure"]
    assert not result.ok
    assert fragment in result.detail


def test_numbered_and_emphasised_headings_are_accepted():
    text = FAITHFUL.replace("## Summary", "## 1. Summary").replace("## Findings", "## 2. **Findings:**")
    assert failing(text) == []


def test_review_wrapped_in_a_markdown_fence_is_read():
    assert failing("```markdown\n" + FAITHFUL + "```\n") == []
    # a plain code fence hides its headings
    assert "missing section(s)" in run("```\n" + FAITHFUL + "```\n")["structure"].detail


def test_sections_out_of_order_and_table_missing():
    swapped = FAITHFUL.replace("## Summary", "## TMP").replace("## Next steps", "## Summary")
    swapped = swapped.replace("## TMP", "## Next steps")
    assert "out of order" in run(swapped)["structure"].detail
    no_table = "\n".join(line for line in FAITHFUL.splitlines() if not line.startswith("|"))
    assert "## Actions has no table" in run(no_table)["structure"].detail


def test_checks_recompute_data_when_context_has_none():
    assert all(r.ok for r in run(FAITHFUL, data={}).values())
    ctx = CheckContext(artifact=FAITHFUL, facts={}, data={}, workspace=TASK_DIR, task_dir=TASK_DIR)
    assert all(r.ok for r in checks_mod.checks(ctx))
    bad = FAITHFUL.replace("| HOLD | IBM | — |", "| SELL | IBM | — |")
    assert not run(bad, data={})["rules"].ok
