"""portfolio-review checks: structure, coverage, rule triggers.

``checks(ctx)`` runs on the rendered artifact (fact references already replaced). Every failing
check names the line or table row and what to change. Figures, symbols, rankings, counts and
actions — in prose and in the Actions table — are verified claim by claim by the engine's claim
ledger from this task's ``evidence.py`` (checks ``claims`` and ``unverifiable``); see README.md.
"""

from __future__ import annotations

import re
from typing import Any

from autogen_pse.hooks import CheckContext, CheckResult, Reason, task_module

review = task_module(__file__, "review")
MAX_LISTED = 12


def _rebuilt(ctx: CheckContext) -> Any:
    return task_module(__file__, "prepare").build(ctx.task_dir, dict(ctx.vars))


def task_data(ctx: CheckContext) -> dict[str, Any]:
    """``ctx.data`` when it holds the prepared portfolio data, else recomputed from the inputs."""
    needed = ("symbols", "triggers", "allowed_actions", "rules", "actions")
    if all(k in ctx.data for k in needed):
        return ctx.data
    return _rebuilt(ctx).data


def checks(ctx: CheckContext) -> list[CheckResult]:
    """The three checks, in a fixed order: structure, coverage, rules."""
    data = task_data(ctx)
    text = ctx.artifact
    return [check_structure(text, data), check_coverage(text, data), check_rules(text, data)]


def _listed(items: list[str]) -> str:
    more = len(items) - MAX_LISTED
    return "; ".join(items[:MAX_LISTED]) + (f"; … and {more} more" if more > 0 else "")


def check_structure(text: str, data: dict[str, Any]) -> CheckResult:
    """The four sections in order, each non-empty, and a valid Actions table."""
    problems: list[str] = []
    secs = review.section_map(text)
    wanted = [t.lower() for t in review.REQUIRED_SECTIONS]
    missing = [t for t in review.REQUIRED_SECTIONS if t.lower() not in secs]
    if missing:
        problems.append("missing section(s) " + ", ".join(f"## {t}" for t in missing))
    present = [k for k in wanted if k in secs]
    if [secs[k].line for k in present] != sorted(secs[k].line for k in present):
        problems.append("sections out of order: use ## Summary, ## Findings, ## Actions, ## Next steps")
    for key in present:
        body = secs[key].body
        if not body.strip():
            problems.append(f"## {secs[key].title} (line {secs[key].line}) is empty")
    header = " | ".join(review.TABLE_HEADER)
    table = review.actions_table(text)
    if "actions" in secs:
        if table is None:
            problems.append(f"## Actions has no table; add one with the header | {header} |")
        elif not table.ok_header:
            problems.append(f"line {table.header_line}: the Actions table header must be | {header} |")
        elif not table.rows:
            problems.append("the Actions table has no rows")
    if table is not None and table.ok_header:
        for row in table.rows:
            if len(row.cells) != len(review.TABLE_HEADER):
                problems.append(f"row {row.index} (line {row.line}) has {len(row.cells)} cells, expected 5")
                continue
            action = review.row_action(row)
            if action not in data["actions"]:
                problems.append(f"row {row.index}: action {review.clean_cell(row.cells[1])!r} is not one of "
                                + ", ".join(data["actions"]))
            priority = review.clean_cell(row.cells[0])
            if not re.fullmatch(r"\d+", priority) or int(priority) < 1:
                problems.append(f"row {row.index}: priority {row.cells[0]!r} must be a whole number "
                                "1, 2, 3 …")
    if problems:
        return CheckResult(name="structure", ok=False, reason=Reason.FORMAT_ISSUE, detail=_listed(problems))
    n_rows = len(table.rows) if table else 0
    return CheckResult(name="structure", ok=True,
                       detail=f"4 sections in order; Actions table with {n_rows} row(s)")


def check_coverage(text: str, data: dict[str, Any]) -> CheckResult:
    """Every holding is named (symbol or full name) in ## Findings or ## Actions."""
    secs = review.section_map(text)
    scope = "\n".join(secs[k].body for k in ("findings", "actions") if k in secs)
    if not scope.strip():
        detail = "no ## Findings or ## Actions content to cover the holdings; add both sections"
        return CheckResult(name="coverage", ok=False, reason=Reason.INCOMPLETE, detail=detail)
    names = data.get("names", {})
    missing = []
    for symbol in data["symbols"]:
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(symbol)}(?![A-Za-z0-9])", scope):
            continue
        name = names.get(symbol, "")
        if name and name.lower() in scope.lower():
            continue
        missing.append(symbol)
    if missing:
        listed = ", ".join(f"{s} ({names.get(s, s)})" for s in missing)
        return CheckResult(name="coverage", ok=False, reason=Reason.INCOMPLETE,
                           detail=f"holding(s) not covered in ## Findings or ## Actions: {listed}; "
                                  "add a finding or an action row for each")
    return CheckResult(name="coverage", ok=True, detail=f"all {len(data['symbols'])} holdings covered")


def check_rules(text: str, data: dict[str, Any]) -> CheckResult:
    """Every holding with a rule trigger has a row in the Actions table (whether each action is
    allowed is checked claim by claim by the ledger, in the table and in prose)."""
    table = review.actions_table(text)
    rows = table.rows if table is not None and table.ok_header else []
    problems: list[str] = []
    with_row = {review.row_symbol(r) for r in rows}
    labels = data.get("trigger_labels", {})
    for symbol in data["symbols"]:
        active = data["triggers"].get(symbol, [])
        if active and symbol not in with_row:
            names = " and ".join(labels.get(t, t) for t in active)
            problems.append(f"{symbol} has the {names} trigger but no row in the Actions table; add one "
                            f"(allowed: {', '.join(data['allowed_actions'][symbol])})")
    if problems:
        return CheckResult(name="rules", ok=False, reason=Reason.RULE_VIOLATION, detail=_listed(problems))
    return CheckResult(name="rules", ok=True, detail="every holding with a rule trigger has a row")
