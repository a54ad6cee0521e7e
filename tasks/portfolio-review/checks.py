"""portfolio-review checks: structure, numbers, symbols, coverage, rules.

``checks(ctx)`` runs on the rendered artifact (fact references already replaced). Every failing
check names the line or table row and what to change. Numbers tolerance: a written number is
supported when some fact is within max(0.5% of the fact, 0.01); see README.md "Checks".
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from autogen_pse.hooks import CheckContext, CheckResult, Fact, task_module


def sibling(name: str) -> ModuleType:
    """Import ``<name>.py`` from this task folder (task folders are not packages)."""
    return task_module(__file__, name)


review = sibling("review")
MAX_LISTED = 12


def _rebuilt(ctx: CheckContext) -> Any:
    return sibling("prepare").build(ctx.task_dir, dict(ctx.vars))


def task_data(ctx: CheckContext) -> dict[str, Any]:
    """``ctx.data`` when it holds the prepared portfolio data, else recomputed from the inputs."""
    needed = ("symbols", "triggers", "allowed_actions", "rules", "actions")
    if all(k in ctx.data for k in needed):
        return ctx.data
    return _rebuilt(ctx).data


def checks(ctx: CheckContext) -> list[CheckResult]:
    """The five checks, in a fixed order: structure, numbers, symbols, coverage, rules."""
    data = task_data(ctx)
    facts = ctx.facts or _rebuilt(ctx).facts
    text = ctx.artifact
    return [
        check_structure(text, data),
        check_numbers(text, facts),
        check_symbols(text, data),
        check_coverage(text, data),
        check_rules(text, data),
    ]


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
        return CheckResult(name="structure", ok=False, detail=_listed(problems))
    n_rows = len(table.rows) if table else 0
    return CheckResult(name="structure", ok=True,
                       detail=f"4 sections in order; Actions table with {n_rows} row(s)")


def _numeric(facts: dict[str, Fact]) -> list[tuple[Fact, float, bool]]:
    out = []
    for f in facts.values():
        if isinstance(f.value, bool) or not isinstance(f.value, int | float):
            continue
        out.append((f, float(f.value), f.unit == "%" or f.id.endswith("_pct")))
    return out


def _nearest(x: float, signed: bool, candidates: list[tuple[Fact, float]], line: str) -> str:
    """The two facts closest to ``x`` (relative distance), preferring facts of symbols on the line."""
    on_line = {tok for tok, _n in review.ticker_tokens(line)}
    symbols = {f.id.split(".")[0] for f, _v in candidates if "." in f.id and f.id.split(".")[0].isupper()}
    pool = candidates
    if on_line & symbols:
        pool = [(f, v) for f, v in candidates
                if f.id.split(".")[0] in on_line or f.id.split(".")[0] not in symbols]

    def distance(c: tuple[Fact, float]) -> tuple[float, str]:
        target = c[1] if signed else abs(c[1])
        return abs(x - target) / max(abs(c[1]), 1), c[0].id

    ranked = sorted(pool, key=distance)
    return ", ".join(f"{f.id} = {f.render()}" for f, _v in ranked[:2])


def check_numbers(text: str, facts: dict[str, Fact]) -> CheckResult:
    """Every number in the artifact matches a fact (percentages only ``%`` facts); see README."""
    numeric = _numeric(facts)
    lines = text.splitlines()
    found = review.numbers(text)
    unsupported: list[str] = []
    for n in found:
        if n.value == 0 or (n.pct and abs(n.value) == 100):
            continue  # constants: 0 and 100% need no fact
        candidates = [(f, v) for f, v, is_pct in numeric if is_pct or not n.pct]
        x = n.value if n.signed else abs(n.value)
        if any(review.within(x, v if n.signed else abs(v)) for _f, v in candidates):
            continue
        line = lines[n.line - 1] if n.line <= len(lines) else ""
        hint = f" (nearest: {_nearest(x, n.signed, candidates, line)})" if candidates else ""
        kind = "percentage" if n.pct else "number"
        unsupported.append(f"line {n.line}: {n.text} matches no {kind} fact{hint}")
    checked, supported = len(found), len(found) - len(unsupported)
    if unsupported:
        detail = (f"{len(unsupported)} of {checked} number(s) match no fact within 0.5% / 0.01: "
                  f"{_listed(unsupported)}. Write {{{{fact:<id>}}}} instead of typing figures")
        return CheckResult(name="numbers", ok=False, detail=detail, claims_checked=checked,
                           claims_supported=supported, unsupported=unsupported)
    return CheckResult(name="numbers", ok=True, claims_checked=checked, claims_supported=supported,
                       detail=f"all {checked} number(s) match a fact within 0.5% / 0.01")


def check_symbols(text: str, data: dict[str, Any]) -> CheckResult:
    """Every ticker-like word and every Symbol cell of the Actions table is a holding."""
    held = set(data["symbols"])
    name_words = {w for name in data.get("names", {}).values() for w in re.findall(r"[A-Z][A-Z0-9]+", name)}
    unknown: dict[str, int] = {}
    for token, line in review.ticker_tokens(text):
        if token not in held and token not in name_words:
            unknown.setdefault(token, line)
    table = review.actions_table(text)
    for row in table.rows if table is not None else []:
        symbol = review.row_symbol(row)
        if symbol not in held and symbol not in review.NO_SYMBOL:
            unknown.setdefault(symbol, row.line)
    if unknown:
        listed = ", ".join(f"{s} (line {n})" for s, n in sorted(unknown.items(), key=lambda kv: kv[1]))
        return CheckResult(
            name="symbols", ok=False, unsupported=[f"{s} (line {n})" for s, n in unknown.items()],
            detail=f"unknown symbol(s) {listed}: the holdings are {', '.join(data['symbols'])}; "
                   "remove them or use a held symbol")
    return CheckResult(name="symbols", ok=True, detail="every symbol mentioned is a holding")


def check_coverage(text: str, data: dict[str, Any]) -> CheckResult:
    """Every holding is named (symbol or full name) in ## Findings or ## Actions."""
    secs = review.section_map(text)
    scope = "\n".join(secs[k].body for k in ("findings", "actions") if k in secs)
    if not scope.strip():
        detail = "no ## Findings or ## Actions content to cover the holdings; add both sections"
        return CheckResult(name="coverage", ok=False, detail=detail)
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
        return CheckResult(name="coverage", ok=False,
                           detail=f"holding(s) not covered in ## Findings or ## Actions: {listed}; "
                                  "add a finding or an action row for each")
    return CheckResult(name="coverage", ok=True, detail=f"all {len(data['symbols'])} holdings covered")


def check_rules(text: str, data: dict[str, Any]) -> CheckResult:
    """Every action row obeys rules.json, and every holding with a trigger has a row."""
    table = review.actions_table(text)
    rows = table.rows if table is not None and table.ok_header else []
    problems = [v for v in (review.row_violation(r, data) for r in rows) if v]
    with_row = {review.row_symbol(r) for r in rows}
    labels = data.get("trigger_labels", {})
    for symbol in data["symbols"]:
        active = data["triggers"].get(symbol, [])
        if active and symbol not in with_row:
            names = " and ".join(labels.get(t, t) for t in active)
            problems.append(f"{symbol} has the {names} trigger but no row in the Actions table; add one "
                            f"(allowed: {', '.join(data['allowed_actions'][symbol])})")
    if problems:
        return CheckResult(name="rules", ok=False, detail=_listed(problems))
    return CheckResult(name="rules", ok=True,
                       detail=f"{len(rows)} action row(s) obey the rules; every triggered holding has a row")
