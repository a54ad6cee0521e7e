"""portfolio-review checks: planted fabrications of every kind are caught, faithful reviews pass.

Reviews are checked the way a run checks them (:class:`autogen_pse.checking.Checker`): the task's
checks.py (structure, coverage, rules — every triggered holding has a row) and then the claim
ledger from its evidence.py — ``claims`` (contradicted figures, symbols, actions, dates: an error)
and ``unverifiable`` (a warning for this task).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from autogen_pse.checking import Checker, grounding
from autogen_pse.claims.quantities import find_quantities
from autogen_pse.facts import render
from autogen_pse.hooks import CheckContext, task_module
from autogen_pse.registry import load_task
from autogen_pse.verdict import Outcome, Reason, Verdict, merge_checks

ROOT = Path(__file__).resolve().parents[2]
TASK_DIR = ROOT / "tasks" / "portfolio-review"
TASK_CHECKS = ["structure", "coverage", "rules"]
NAMES = [*TASK_CHECKS, "claims", "unverifiable"]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"test_portfolio_checks_{name}", TASK_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


prepare = _load("prepare")
checks_mod = _load("checks")
review = task_module(str(prepare.__file__), "review")
example = task_module(str(prepare.__file__), "example_review")
PREPARED = prepare.build(TASK_DIR, {})
FACTS, DATA = PREPARED.facts, PREPARED.data
REFS = example.example_review(FACTS, DATA)
FAITHFUL, _ = render(REFS, FACTS)
TASK = load_task(ROOT / "tasks", "portfolio-review")
CHECKER = Checker(TASK, facts=FACTS, data=DATA, workspace=TASK_DIR, vars={})


def run(text: str, data: dict | None = None) -> dict:
    """Every check result of the rendered ``text``: checks.py's, then the claim ledger's."""
    checker = CHECKER if data is None else Checker(TASK, facts=FACTS, data=data, workspace=TASK_DIR, vars={})
    results = checker.check(text)
    assert [r.name for r in results] == NAMES
    return {r.name: r for r in results}


def failing(text: str) -> list[str]:
    """Names of the failing checks (errors and the ``unverifiable`` warning)."""
    return [name for name, r in run(text).items() if not r.ok]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# --------------------------------------------------------------------------- faithful


def test_faithful_review_passes_every_check():
    results = run(FAITHFUL)
    assert all(r.ok for r in results.values()), {n: r.detail for n, r in results.items() if not r.ok}
    claims = results["claims"]
    assert claims.claims_checked >= 20  # factual sentences and table rows
    assert claims.claims_supported == claims.claims_checked
    assert claims.unsupported == []
    # every figure was read and matched to a fact, not skipped
    ledger = CHECKER.ledger
    assert ledger is not None and ledger.grounding == 1.0
    figures = [f for c in ledger.claims for f in c.findings if f.kind == "figure"]
    assert len(figures) >= 50 and all(f.status == "supported" and f.evidence for f in figures)
    assert grounding(list(results.values()), ledger)["score"] == 1.0
    assert [r.severity for r in results.values()] == ["error"] * 4 + ["warning"]


def test_profit_loss_label_is_not_a_direction():
    text = FAITHFUL.replace("; P/L ", "; profit/loss ")
    assert text.count("; profit/loss ") == 5
    assert failing(text) == []


def test_fact_references_render_then_check():
    text, unknown = render(REFS, FACTS)
    assert unknown == [] and "{{fact:" not in text
    assert failing(text) == []
    # an unknown reference stays verbatim: the ledger ignores it, the fact_references check fails
    rendered, results = CHECKER.run(REFS + "\nSee {{fact:AAPL.weight_pct2}}.\n")
    assert "{{fact:AAPL.weight_pct2}}" in rendered
    assert [r.name for r in results if not r.ok] == ["fact_references"]
    assert "AAPL.weight_pct2" in results[0].detail


def test_figures_rounded_within_tolerance_pass():
    text = FAITHFUL.replace("127,157.10 USD", "$127.2k")
    text = text.replace("43.85% of the portfolio", "43.9% of the portfolio")
    text = text.replace("P/L -6,606.00 USD", "a loss of 6,606 USD")
    text = text.replace("(-27.66%) over", "(a 27.66% loss) over")
    assert text.count("$127.2k") == 1 and "a loss of 6,606 USD" in text and "(a 27.66% loss)" in text
    assert failing(text) == []


def test_priorities_list_markers_top_n_ordinals_are_not_figures():
    extra = "\n1. The top 3 holdings and the top-5 list; the 3rd review, AAPL2.\n"
    base = run(FAITHFUL)["claims"].claims_checked
    result = run(FAITHFUL + extra)["claims"]
    assert result.ok, result.detail
    assert result.claims_checked == base  # nothing factual in that line
    # the Priority column of the Actions table is not a claim
    rows = [c for c in CHECKER.ledger.claims if c.kind == "row"]
    assert len(rows) == 5 and all(f.text not in {"1", "2", "3", "4", "5"} for c in rows for f in c.findings)
    # a number outside those forms is checked
    bad = run(FAITHFUL + "\nIt fell 7 times.\n")["claims"]
    assert not bad.ok and any("It fell 7 times." in u for u in bad.unsupported)


@pytest.mark.parametrize("written", ["2010-03-01", "Mar 1, 2010", "1 March 2010", "2010-03"])
def test_dates_of_the_sources_are_supported_in_every_form(written):
    assert failing(FAITHFUL + f"\nValued on {written}.\n") == []


def test_a_date_or_year_no_source_gives_is_contradicted():
    # dates are claims now (the old numbers check skipped every date and year)
    result = run(FAITHFUL + "\nThe portfolio has been held since 1998.\n")["claims"]
    assert not result.ok and "1998 is not a date of the sources" in result.detail


def test_us_numeric_date_of_the_sources_is_supported():
    assert failing(FAITHFUL + "\nValued on 3/1/2010.\n") == []


# --------------------------------------------------------------------------- planted: numbers


def test_wrong_number_is_a_contradicted_claim():
    text = FAITHFUL.replace("worth 22,407.60 USD", "worth 22,907.60 USD")
    result = run(text)["claims"]
    assert not result.ok
    assert result.claims_checked - result.claims_supported == 1
    (entry,) = result.unsupported
    assert entry.startswith(f"line {line_of(text, '22,907.60')}: **GOOG**")
    assert ("22,907.60 USD does not match GOOG market_value (GOOG.market_value = 22,407.60 USD)"
            in result.detail)
    assert "{{fact:<id>}}" in result.detail
    assert failing(text) == ["claims"]
    assert grounding(list(run(text).values()), CHECKER.ledger)["contradicted"] == 1


@pytest.mark.parametrize(("before", "after"), [
    ("43.85% of the portfolio", "45.10% of the portfolio"),  # wrong percentage
    # a wrong amount in the Actions table: the Amount is a proposal, bounded by the units held (AAPL
    # holds 250), so 90 units would pass; 300 units cannot be trimmed
    ("| 79 units", "| 300 units"),
    ("about 3.65 effective", "about 4.65 effective"),
    ("(-19.16%)", "(-21.16%)"),
    ("(480.03%)", "(-480.03%)"),  # an explicit sign must match
    ("(241.97%)", "(600%)"),  # 600 is MSFT.quantity, but a percentage only matches percentage facts
    ("the 30.00% cap", "the 25% cap"),
])
def test_each_wrong_number_is_caught(before, after):
    assert before in FAITHFUL
    text = FAITHFUL.replace(before, after, 1)
    result = run(text)["claims"]
    assert not result.ok
    assert len(result.unsupported) == 1
    assert result.unsupported[0].startswith(f"line {line_of(text, after)}: ")
    assert failing(text) == ["claims"]


@pytest.mark.parametrize(("written", "ok"), [
    # AAPL.weight_pct = 43.85%: a figure is true at the precision it is written at
    ("43.85%", True), ("43.86%", False), ("43.9%", True), ("43.8%", True), ("44%", True), ("45%", False),
    ("about 44%", True), ("nearly 45%", True),
])
def test_tolerance_boundary(written, ok):
    result = run(FAITHFUL.replace("43.85% of the portfolio", f"{written} of the portfolio", 1))["claims"]
    assert result.ok is ok, result.detail


@pytest.mark.parametrize(("written", "ok"), [("(-19.16%)", True), ("(19.16%)", True), ("(+19.16%)", False)])
def test_an_explicit_sign_must_match(written, ok):
    # GOOG.pnl_pct = -19.16%: without a sign the magnitude is compared, a written sign must match
    assert run(FAITHFUL.replace("(-19.16%)", written, 1))["claims"].ok is ok


def test_number_parsing():
    found = find_quantities("Worth $1,234.5, a -3.2% move, +4 pp, 2.5k units, 1.2 million; 3rd; v2.\n")
    assert [(q.value, q.sign, q.unit) for q in found] == [
        (1234.5, 0, "money"), (-3.2, -1, "pct"), (4.0, 1, "pct"), (2500.0, 0, "count"),
        (1_200_000.0, 0, "count")]


# --------------------------------------------------------------------------- planted: symbols


@pytest.mark.parametrize("sentence", [
    "- Consider adding a position in NVDA for growth.",
    "- The NVDA position has grown strongly.",
    "- Add to $NVDA for growth.",
    "- We hold NVDA shares as well.",
])
def test_unknown_symbol_in_prose_is_caught(sentence):
    # an unknown ticker in a ticker context ($NVDA, NVDA shares, a position in NVDA …)
    text = FAITHFUL.replace("## Next steps\n", f"## Next steps\n\n{sentence}\n")
    result = run(text)["claims"]
    assert not result.ok
    assert result.unsupported == [f"line {line_of(text, 'NVDA')}: {sentence[2:]}"]
    assert "NVDA is in no source" in result.detail
    assert failing(text) == ["claims"]


def test_unknown_symbol_in_table_is_caught():
    text = FAITHFUL.replace("| HOLD | AMZN |", "| HOLD | ORCL |")
    assert "claims" in failing(text)
    assert "ORCL" in run(text)["claims"].detail


def test_common_abbreviations_are_not_symbols():
    text = FAITHFUL + "\nNote: the HHI, an ETF, USD, P/L, YTD and the CAGR are not tickers; neither is OK.\n"
    assert failing(text) == []


# --------------------------------------------------------------------------- planted: rules


def test_rule_breaking_sell_is_caught_with_a_fixable_detail():
    text = FAITHFUL.replace("| HOLD | IBM | — |", "| SELL | IBM | 150 units |")
    result = run(text)["claims"]
    assert not result.ok
    assert result.unsupported == [f"line {line_of(text, '| SELL | IBM |')}: 5 | SELL | IBM | 150 units | "
                                  "no rule trigger; within the limits"]
    assert "SELL is not allowed for IBM (allowed: BUY, HOLD, REVIEW)" in result.detail
    assert failing(text) == ["claims"]
    # the task's explanation of why (used by sanitize) is still there
    assert review.why_not_allowed("SELL", "IBM", DATA) == "no stop-loss or long-held-loss trigger for IBM"
    passed = Verdict(outcome=Outcome.PASS, reason=Reason.OK)
    merged = merge_checks(passed, [result])
    # a rule break is now reported by the claims check: merge_checks maps it to DATA_MISMATCH
    assert (merged.outcome, merged.reason) == (Outcome.PARTIAL, Reason.DATA_MISMATCH)


@pytest.mark.parametrize(("row", "fragment"), [
    ("| 1 | BUY | MSFT | — |", "BUY is not allowed for MSFT (allowed: SELL, HOLD, REVIEW)"),
    ("| 1 | TRIM | MSFT | — |", "TRIM is not allowed for MSFT (allowed: SELL, HOLD, REVIEW)"),
])
def test_other_rule_breaks(row, fragment):
    assert "| 1 | SELL | MSFT | 600 units |" in FAITHFUL
    text = FAITHFUL.replace("| 1 | SELL | MSFT | 600 units |", row)
    result = run(text)["claims"]
    assert not result.ok
    assert fragment in result.detail


def test_buy_without_a_symbol_is_caught():
    text = FAITHFUL.replace("| 5 | HOLD | IBM | — | no rule trigger; within the limits |\n",
                            "| 5 | HOLD | IBM | — | no rule trigger; within the limits |\n"
                            "| 6 | BUY | — | — | diversify |\n")
    assert "| 6 | BUY | — |" in text
    assert failing(text) != []


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
    results = checks_mod.checks(ctx)
    assert [r.name for r in results] == TASK_CHECKS and all(r.ok for r in results)
    # the evidence is rebuilt from the inputs too
    bare = Checker(TASK, facts={}, data={}, workspace=TASK_DIR, vars={})
    assert all(r.ok for r in bare.check(FAITHFUL))
    bad = FAITHFUL.replace("| HOLD | IBM | — |", "| SELL | IBM | — |")
    assert not {r.name: r for r in bare.check(bad)}["claims"].ok
    missing = "\n".join(line for line in FAITHFUL.splitlines() if "| REVIEW | GOOG |" not in line)
    assert not run(missing, data={})["rules"].ok
