"""``pse replay RUN_ID [--recheck] [--json] [--quiet]``: run a recorded run again from its trace.

Exit codes: a replay exits like ``pse run`` (0 PASS, 1 not PASS, 3 error); ``--recheck`` exits 0
when every current check passes on the recorded artifact, 1 when one fails; 2 bad input (unknown
or running run, nothing recorded to replay or re-check).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .errors import EXIT_NOT_PASS, EXIT_PASS

out = Console(highlight=False)


def _mark(ok: bool | None, severity: str) -> str:
    if ok is None:
        return "[dim]—[/]"
    if ok:
        return "[green]✓ passed[/]"
    return "[red]✗ failed[/]" if severity == "error" else "[yellow]! warning[/]"


def replay(
    run_id: Annotated[str, typer.Argument(help="Run id (see `pse trace`)")],
    recheck_only: Annotated[bool, typer.Option(
        "--recheck", help="Only run the current checks on the recorded artifact (no model, no new run)")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No live output")] = False,
) -> None:
    """Replay RUN_ID deterministically with its recorded replies (current task code and checks)."""
    from .cli import _settings, recover_interrupted
    from .replay import compare_checks, plan_replay, recheck
    from .store import TraceStore
    from .store.ids import validate_run_id

    settings = _settings()
    store = TraceStore(settings)
    run_id = validate_run_id(run_id)
    store.run_dir(run_id)  # unknown run: one line, exit 2
    recover_interrupted(store)
    if recheck_only:
        diffs, results = asyncio.run(recheck(run_id, settings, store))
        failing = [r for r in results if not r.ok and r.severity == "error"]
        if json_out:
            out.print_json(json.dumps({"run_id": run_id, "checks": [d.__dict__ for d in diffs],
                                       "passed": not failing}))
        else:
            table = Table("check", "recorded", "now", "detail")
            for d in diffs:
                changed = " [bold](changed)[/]" if d.recorded is not None and d.recorded != d.now else ""
                table.add_row(escape(d.name), _mark(d.recorded, d.severity), _mark(d.now, d.severity) + changed,
                              escape(d.detail[:120]))
            out.print(table)
            out.print(f"{len(failing)} failing check(s) now on the recorded artifact of {run_id}")
        raise typer.Exit(EXIT_NOT_PASS if failing else EXIT_PASS)

    from .cli import run_through_executor
    from .console import ConsoleSink, print_summary
    from .runner import RunRequest

    plan, script, path, _ = plan_replay(run_id, settings, store)  # bad input: one line, exit 2, before a run
    live = Console(highlight=False, stderr=json_out)

    def announce() -> None:
        if not (quiet or json_out):
            live.print(f"[bold]Replaying {run_id}[/] ({escape(plan.task.name)}): {script.calls} recorded replies "
                       f"→ {escape(str(path))}")
        for note in script.notes:
            live.print(f"[yellow]note:[/] {escape(note)}")

    # through the executor like `pse run`: it plans the replay again from the same trace
    result: Any = run_through_executor(settings, RunRequest(task=plan.task.name, replay=run_id),
                                       [ConsoleSink(live, quiet=quiet or json_out)], announce)
    recorded = store.load_trace(run_id)
    replayed = store.load_trace(result.run_id)
    same_verdicts = [(c.get("verdict") or {}).get("outcome") for c in recorded.get("cycles", [])] == [
        (c.get("verdict") or {}).get("outcome") for c in replayed.get("cycles", [])]
    diffs = compare_checks(list(recorded.get("final_checks") or []), list(replayed.get("final_checks") or []))
    same_checks = all(d.recorded == d.now for d in diffs)
    if json_out:
        out.print_json(json.dumps({**result.model_dump(), "replay_of": run_id, "script": str(path),
                                   "notes": script.notes, "same_verdicts": same_verdicts,
                                   "same_checks": same_checks}))
    else:
        print_summary(out, result)
        out.print(f"replay of {run_id}: verdicts {'the same' if same_verdicts else '[bold]differ[/]'}, "
                  f"final checks {'the same' if same_checks else '[bold]differ[/]'}")
    raise typer.Exit(result.exit_code)
