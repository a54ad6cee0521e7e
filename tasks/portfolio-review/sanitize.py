"""portfolio-review sanitize: deterministic fixes of the Actions table.

* A row whose action breaks the rules (``rules.json``) becomes HOLD; its Amount becomes "—" and its
  Reason gets a visible note, e.g. "[sanitized: SELL not allowed by rules — no stop-loss or
  long-held-loss trigger for IBM]".
* A row whose action is not one of BUY, SELL, TRIM, HOLD, REVIEW becomes HOLD the same way.
* A holding with a rule trigger but no row gets a REVIEW row at the end of the table.

Each change is logged as ``SanitizeChange(rule, before, after)`` with the whole table line.
Running it again on its output changes nothing.
"""

from __future__ import annotations

from autogen_pse.hooks import CheckContext, SanitizeChange, Sanitized, task_module

review = task_module(__file__, "review")
NO_AMOUNT = "—"


def _held(cells: list[str], note: str) -> list[str]:
    reason = cells[4].rstrip()
    return [cells[0], "HOLD", cells[2], NO_AMOUNT, f"{reason} {note}".strip()]


def sanitize(ctx: CheckContext) -> Sanitized:
    """Apply the rules above to ``ctx.artifact`` (the rendered artifact)."""
    data = task_module(__file__, "checks").task_data(ctx)
    text = ctx.artifact
    table = review.actions_table(text)
    if table is None or not table.ok_header:
        return Sanitized(artifact=text)
    lines = text.split("\n")
    changes: list[SanitizeChange] = []
    for row in table.rows:
        if len(row.cells) != len(review.TABLE_HEADER):
            continue
        action, symbol = review.row_action(row), review.row_symbol(row)
        if action not in data["actions"]:
            note = f"[sanitized: {review.clean_cell(row.cells[1])} is not a valid action]"
            rule = "invalid_action"
        elif review.row_violation(row, data):
            if symbol in review.NO_SYMBOL:
                note = f"[sanitized: {action} not allowed by rules — no held symbol]"
            else:
                why = review.why_not_allowed(action, symbol, data)
                note = f"[sanitized: {action} not allowed by rules — {why}]"
            rule = "action_not_allowed"
        else:
            continue
        before = lines[row.line - 1]
        after = review.render_row(_held(row.cells, note))
        lines[row.line - 1] = after
        changes.append(SanitizeChange(rule=rule, before=before, after=after))

    with_row = {review.row_symbol(r) for r in table.rows}
    labels = data.get("trigger_labels", {})
    priorities = [int(c) for r in table.rows if (c := review.clean_cell(r.cells[0])).isdigit()]
    next_priority = max(priorities, default=0) + 1
    insert_at = table.rows[-1].line if table.rows else table.header_line + 1
    for symbol in data["symbols"]:
        active = data["triggers"].get(symbol, [])
        if not active or symbol in with_row:
            continue
        names = " and ".join(labels.get(t, t) for t in active)
        after = review.render_row([str(next_priority), "REVIEW", symbol, NO_AMOUNT,
                                   f"[sanitized: added — the {names} trigger needs an action row]"])
        lines.insert(insert_at, after)
        insert_at += 1
        next_priority += 1
        changes.append(SanitizeChange(rule="missing_trigger_row", before="", after=after))
    return Sanitized(artifact="\n".join(lines), changes=changes)
