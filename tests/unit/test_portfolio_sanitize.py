"""portfolio-review sanitize: rule-breaking rows become HOLD with a visible note; checks pass after.

"Checks" are what a run checks: the task's checks.py and the claim ledger (``claims``,
``unverifiable``), through :class:`autogen_pse.checking.Checker`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from autogen_pse.checking import Checker
from autogen_pse.facts import render
from autogen_pse.hooks import CheckContext, task_module
from autogen_pse.registry import load_task

ROOT = Path(__file__).resolve().parents[2]
TASK_DIR = ROOT / "tasks" / "portfolio-review"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"test_portfolio_sanitize_{name}", TASK_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


prepare, checks_mod, sanitize_mod = _load("prepare"), _load("checks"), _load("sanitize")
PREPARED = prepare.build(TASK_DIR, {})
FAITHFUL, _ = render(task_module(str(prepare.__file__), "example_review").example_review(PREPARED.facts, PREPARED.data),
                     PREPARED.facts)
CHECKER = Checker(load_task(ROOT / "tasks", "portfolio-review"), facts=PREPARED.facts, data=PREPARED.data,
                  workspace=TASK_DIR, vars={})


def ctx(text: str) -> CheckContext:
    return CheckContext(artifact=text, facts=PREPARED.facts, data=PREPARED.data, workspace=TASK_DIR,
                        task_dir=TASK_DIR)


def failing(text: str) -> dict[str, str]:
    """``{name: detail}`` of the failing checks (checks.py's and the claim ledger's)."""
    assert [r.name for r in checks_mod.checks(ctx(text))] == ["structure", "coverage", "rules"]
    return {r.name: r.detail for r in CHECKER.check(text) if not r.ok}


def test_bad_sell_becomes_hold_with_a_visible_note_and_checks_pass():
    bad = FAITHFUL.replace("| 5 | HOLD | IBM | — | no rule trigger; within the limits |",
                           "| 5 | SELL | IBM | 150 units | take profits |")
    assert bad != FAITHFUL
    assert list(failing(bad)) == ["claims"]
    assert "SELL is not allowed for IBM" in failing(bad)["claims"]
    result = sanitize_mod.sanitize(ctx(bad))
    expected = ("| 5 | HOLD | IBM | — | take profits [sanitized: SELL not allowed by rules — "
                "no stop-loss or long-held-loss trigger for IBM] |")
    assert expected in result.artifact.splitlines()
    assert "| SELL | IBM |" not in result.artifact
    assert [(c.rule, c.before, c.after) for c in result.changes] == [
        ("action_not_allowed", "| 5 | SELL | IBM | 150 units | take profits |", expected)]
    assert failing(result.artifact) == {}
    # only that line changed
    assert [a for a, b in zip(bad.splitlines(), result.artifact.splitlines(), strict=True) if a != b] == [
        "| 5 | SELL | IBM | 150 units | take profits |"]


def test_sanitize_is_deterministic_and_idempotent():
    bad = FAITHFUL.replace("| 4 | HOLD | AMZN | — |", "| 4 | TRIM | AMZN | 10 units |")
    first = sanitize_mod.sanitize(ctx(bad))
    assert sanitize_mod.sanitize(ctx(bad)) == first
    again = sanitize_mod.sanitize(ctx(first.artifact))
    assert again.artifact == first.artifact and again.changes == []
    assert "[sanitized: TRIM not allowed by rules — no overweight trigger for AMZN]" in first.artifact


def test_buy_on_a_stop_loss_becomes_hold():
    bad = FAITHFUL.replace("| 1 | SELL | MSFT | 600 units |", "| 1 | BUY | MSFT | 100 units |")
    result = sanitize_mod.sanitize(ctx(bad))
    assert ("[sanitized: BUY not allowed by rules — the stop-loss and long-held-loss triggers forbid BUY "
            "for MSFT]") in result.artifact
    assert "| 1 | HOLD | MSFT | — |" in result.artifact
    assert failing(result.artifact) == {}


def test_invalid_action_becomes_hold():
    bad = FAITHFUL.replace("| 4 | HOLD | AMZN |", "| 4 | ACCUMULATE | AMZN |")
    assert "structure" in failing(bad)
    result = sanitize_mod.sanitize(ctx(bad))
    assert [c.rule for c in result.changes] == ["invalid_action"]
    assert "[sanitized: ACCUMULATE is not a valid action]" in result.artifact
    assert failing(result.artifact) == {}


def test_missing_row_for_a_triggered_holding_is_added_as_review():
    bad = "\n".join(line for line in FAITHFUL.splitlines() if "| REVIEW | GOOG |" not in line) + "\n"
    assert list(failing(bad)) == ["rules"]
    result = sanitize_mod.sanitize(ctx(bad))
    # priorities 1, 2, 4, 5 remain: the added row gets the next one
    added = "| 6 | REVIEW | GOOG | — | [sanitized: added — the long-held-loss trigger needs an action row] |"
    assert [(c.rule, c.before, c.after) for c in result.changes] == [("missing_trigger_row", "", added)]
    lines = result.artifact.splitlines()
    assert lines[lines.index(added) - 1].startswith("| 5 | HOLD | IBM |")
    assert failing(result.artifact) == {}


def test_faithful_review_is_unchanged():
    result = sanitize_mod.sanitize(ctx(FAITHFUL))
    assert result.artifact == FAITHFUL and result.changes == []


def test_no_actions_table_is_left_alone():
    text = "\n".join(line for line in FAITHFUL.splitlines() if not line.startswith("|"))
    result = sanitize_mod.sanitize(ctx(text))
    assert result.artifact == text and result.changes == []


def test_unfixable_problems_remain_for_the_final_checks():
    bad = FAITHFUL.replace("43.85% of the portfolio", "48.85% of the portfolio")
    result = sanitize_mod.sanitize(ctx(bad))
    assert result.changes == []
    assert list(failing(result.artifact)) == ["claims"]
    assert "48.85% does not match AAPL weight" in failing(result.artifact)["claims"]
