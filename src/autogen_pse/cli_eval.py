"""``pse eval TASK --inputs FILE|DIR [--model A --model B …] [--repeat N] [--concurrency K]``:
run a dataset of cases through the normal engine and compare the models.

Exit codes: 0 the eval completed and every case's ``expect`` was met (verdicts alone never fail
an eval) · 1 it completed but a case missed its ``expect`` · 2 user error (bad dataset, option,
model; nothing written) · 3 a case run ended in a runtime or model error, or the report could not
be written · 130 cancelled (Ctrl-C): the report is written, marked incomplete.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .cli_trace import NARROW
from .errors import EXIT_NOT_PASS, EXIT_PASS, EXIT_RUN_ERROR, UserError

if TYPE_CHECKING:
    from .evals import EvalReport, EvalRow

out = Console(highlight=False)
EXIT_CANCELLED = 130


def eval_command(
    task: Annotated[str | None, typer.Argument(help="Task name (see `pse list`)")] = None,
    inputs: Annotated[Path | None, typer.Option(
        "--inputs", "-i", help="Dataset: a .jsonl file of cases or a folder with one sub-folder per case")] = None,
    model: Annotated[list[str] | None, typer.Option(
        "--model", "-m", help="Model spec (repeatable; default PSE_MODEL); scripted-facts[:FLAW] builds "
                              "each case's replies from its facts")] = None,
    repeat: Annotated[int, typer.Option("--repeat", "-n", help="Runs per case and model (1-100)")] = 1,
    concurrency: Annotated[int, typer.Option("--concurrency", "-k", help="Runs at once (1-32)")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar")] = False,
    list_evals: Annotated[bool, typer.Option("--list", help="List past evals (newest first) and exit")] = False,
) -> None:
    """Run every case of a dataset on every model; print a comparison table and write report.json + report.html."""
    from .cli import _settings
    from .evals import EvalStore, plan_eval

    settings = _settings()
    store = EvalStore(settings)
    if list_evals:
        rows, count = store.list(limit=50, task=task)
        _print_list(rows, count, json_out)
        return
    if task is None or inputs is None:
        raise UserError("usage: pse eval TASK --inputs FILE|DIR [--model SPEC]… (or pse eval --list)")
    plan = plan_eval(settings, task, inputs, list(model or []), repeat=repeat, concurrency=concurrency)
    report = _run(settings, plan, store, quiet=quiet or json_out)
    if json_out:
        out.print_json(report.model_dump_json())
    else:
        print_report(out, report, store)
    raise typer.Exit(exit_code(report))


def exit_code(report: EvalReport) -> int:
    if report.status == "cancelled":
        return EXIT_CANCELLED
    if any(r.status == "error" for r in report.runs) or report.status != "completed":
        return EXIT_RUN_ERROR
    return EXIT_NOT_PASS if any(r.expected is False for r in report.runs) else EXIT_PASS


def _run(settings: object, plan: object, store: object, *, quiet: bool) -> EvalReport:
    import asyncio
    import signal
    import threading

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from .evals import CaseRun, run_eval

    progress = Progress(TextColumn("[bold]eval[/] {task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True), disable=quiet, transient=False)
    bar: list[TaskID] = []

    def on_progress(report: EvalReport, row: CaseRun | None) -> None:
        if row is None:
            bar.append(progress.add_task(report.eval_id, total=len(report.runs)))
            return
        passed = sum(1 for r in report.runs if r.verdict == "PASS")
        last = f"{row.case} ({row.verdict or row.status})"
        progress.update(bar[0], completed=report.done, description=f"{report.eval_id} · {passed} PASS · last: {last}")

    async def main() -> EvalReport:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
        return await run_eval(settings, plan, store=store, stop=stop, on_progress=on_progress)  # type: ignore[arg-type]

    try:
        with progress:
            return asyncio.run(main())
    finally:
        from .telemetry import close_active

        close_active()


def print_report(console: Console, report: EvalReport, store: object) -> None:
    """The comparison table (one line per model) and the report paths."""
    from .evals import EvalStore

    assert isinstance(store, EvalStore)
    if not console.is_terminal and console.width < 180:  # piped or captured: never cut the table
        console = Console(highlight=False, width=180)
    table = Table("model", "runs", "pass rate", "verified", "mean cycles", "grounding", "contradicted",
                  "unverifiable", "tokens", "cost", "p50 s", "p95 s", "expected",
                  title=f"eval {report.eval_id} · {report.task} · {len(report.cases)} cases")

    def num(value: float | None, digits: int = 2) -> str:
        return "—" if value is None else f"{value:,.{digits}f}"

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{value * 100:.0f}%"

    for s in report.summary:
        table.add_row(escape(s.model), f"{s.done}/{s.runs}", pct(s.pass_rate), pct(s.verified_rate),
                      num(s.mean_cycles), num(s.mean_grounding, 3), str(s.contradicted), str(s.unverifiable),
                      f"{s.tokens:,}", num(s.cost, 4), num(s.p50_seconds), num(s.p95_seconds),
                      f"{s.expected_met}/{s.expected_total}" if s.expected_total else "—")
    console.print(table)
    for r in report.runs:
        if r.expected is False or r.status == "error":
            why = (f"error: {r.error}" if r.status == "error"
                   else f"expectation missed ({r.verdict}, verified {r.verified})")
            console.print(f"[yellow]{escape(r.case)}[/] on {escape(r.model)} #{r.repeat}: {escape(why)} "
                          f"(run {r.run_id or '—'})")
    if not report.complete:
        console.print(f"[bold yellow]incomplete:[/] {report.status}, {report.done} of {len(report.runs)} runs ended")
    console.print(f"report  {store.report_path(report.eval_id)}", soft_wrap=True)
    console.print(f"html    {store.html_path(report.eval_id)}", soft_wrap=True)


def _print_list(rows: list[EvalRow], count: int, json_out: bool) -> None:
    if json_out:
        out.print_json(json.dumps({"data": [r.model_dump() for r in rows], "count": count}))
        return
    if out.width < NARROW:  # 80 columns: the eval id whole, then what fits (details: --json)
        table = Table("eval id", "started (UTC)", "task", "runs", "PASS", box=None, pad_edge=False)
        for column in table.columns:
            column.no_wrap = True
        table.columns[2].overflow = "ellipsis"
        for r in rows:
            table.add_row(r.eval_id, r.started_at[5:16].replace("T", " "), escape(r.task), f"{r.done}/{r.runs}",
                          str(r.passed))
        out.print(table)
        if count > len(rows):
            out.print(f"{len(rows)} of {count} evals")
        return
    table = Table("eval id", "task", "models", "status", "runs", "PASS", "verified", "started")
    for r in rows:
        table.add_row(r.eval_id, escape(r.task), escape(", ".join(r.models)), r.status, f"{r.done}/{r.runs}",
                      str(r.passed), str(r.verified), r.started_at)
    out.print(table)
    if count > len(rows):
        out.print(f"{len(rows)} of {count} evals")
