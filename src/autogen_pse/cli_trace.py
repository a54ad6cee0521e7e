"""``pse trace``: list runs from the SQLite index, show one trace, rebuild the index, prune old runs,
export a run to one archive and import it back."""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .config import load_settings
from .console import OUTCOME_STYLE, clip

trace_app = typer.Typer(help="Audit runs: list (default), show RUN_ID, reindex, prune, export RUN_ID, import FILE.",
                        invoke_without_command=True)
# a terminal's (or $COLUMNS') width; 160 when piped
out = Console(highlight=False, width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 160)
NARROW = 120  # below this width the listing drops model, status, cycles and cost


def _store() -> Any:
    """The trace store, after marking runs whose process died as ``interrupted``."""
    from .cli import recover_interrupted
    from .store import TraceStore

    store = TraceStore(load_settings())
    if store.traces_dir.is_dir():  # no folder: no runs to recover (and nothing to create)
        recover_interrupted(store)
    return store


@trace_app.callback()
def trace_list(
    ctx: typer.Context,
    n: Annotated[int, typer.Option("-n", min=1, max=1000, help="How many runs, newest first")] = 5,
    task: Annotated[str | None, typer.Option("--task", help="Only this task")] = None,
    verdict: Annotated[str | None, typer.Option("--verdict", help="PASS | PARTIAL | FAIL | BLOCKED")] = None,
    status: Annotated[str | None, typer.Option(
        "--status", help="running | finished | error | cancelled | interrupted")] = None,
    since: Annotated[str | None, typer.Option("--since", help="ISO date/time, e.g. 2026-11-30 (inclusive)")] = None,
    until: Annotated[str | None, typer.Option("--until", help="ISO date/time (exclusive)")] = None,
    cursor: Annotated[str | None, typer.Option("--cursor", help="next_cursor of a previous page (--json)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON: {data, count, next_cursor}")] = False,
) -> None:
    """List the newest runs (a query on traces/index.sqlite); page on with --cursor."""
    if ctx.invoked_subcommand is not None:
        return
    from .filters import parse_filters

    filters = parse_filters(task=task, verdict=verdict, status=status, since=since, until=until)
    store = _store()
    page = store.index.list(limit=n, cursor=cursor, **filters)
    if json_out:
        out.print_json(json.dumps({"data": [r.model_dump() for r in page.data], "count": page.count,
                                   "next_cursor": page.next_cursor}))
        return
    if out.width < NARROW:  # 80 columns: the run id whole, then what fits (details: trace show)
        table = Table("run_id", "started (UTC)", "task", "result", "tokens", box=None, pad_edge=False)
        for column in table.columns:
            column.no_wrap = True
        table.columns[2].overflow = "ellipsis"
        for r in page.data:
            result = _styled(r.verdict, OUTCOME_STYLE.get(r.verdict or "", "")) if r.verdict else escape(r.status)
            table.add_row(r.run_id, r.started_at[5:16].replace("T", " "), escape(r.task), result,
                          f"{r.prompt_tokens + r.completion_tokens:,}")
        out.print(table)
        out.print(_footer(page))
        return
    table = Table("run_id", "started (UTC)", "task", "model", "status", "verdict", "cycles", "tokens", "cost")
    for column in table.columns[:2]:
        column.no_wrap = True
    for r in page.data:
        style = OUTCOME_STYLE.get(r.verdict or "", "")
        cost = "—" if r.cost is None else f"{r.cost:.4f} {r.currency or ''}"
        table.add_row(r.run_id, r.started_at[:19].replace("T", " "), r.task, escape(r.model), r.status,
                      _styled(r.verdict, style), str(r.cycles),
                      f"{r.prompt_tokens + r.completion_tokens:,}", cost)
    out.print(table)
    out.print(_footer(page))


def _footer(page: Any) -> str:
    more = f"; next page: --cursor {page.next_cursor}" if page.next_cursor else ""
    return f"[dim]{len(page.data)} of {page.count} runs{escape(more)}[/]"


@trace_app.command("show")
def trace_show(
    run_id: Annotated[str, typer.Argument(help="Run id (see `pse trace`)")],
    json_out: Annotated[bool, typer.Option("--json", help="Print trace.json")] = False,
    full: Annotated[bool, typer.Option("--full", help="Whole messages, check details and issues (no cut)")] = False,
) -> None:
    """Show one run: cycles, verdicts, checks, usage (long texts cut at a word with "…"; --full: whole)."""
    from .store.ids import validate_run_id

    doc = _store().load_trace(validate_run_id(run_id))

    def cut(text: str, limit: int) -> str:
        return text if full else clip(text, limit)

    if json_out:
        out.print_json(json.dumps(doc))
        return
    style = OUTCOME_STYLE.get(doc.get("verdict") or "", "")
    out.print(f"[bold]{doc['run_id']}[/] {escape(str(doc.get('task')))} · {escape(str(doc.get('model')))} · "
              f"{doc.get('status')} · {_styled(doc.get('verdict'), style)} {doc.get('reason') or ''}")
    prov = doc.get("provenance") or {}
    if prov:
        out.print(f"[dim]autogen-pse {prov.get('product_version')} · task {prov.get('task_sha')} · prompts "
                  f"{prov.get('prompts_sha')} · system prompts sent {doc.get('prompt_sha')} · "
                  f"{doc.get('retries') or 0} retries[/]")
    for cycle in doc.get("cycles", []):
        v = cycle.get("verdict") or {}
        out.rule(f"cycle {cycle['index']} · {cycle['kind']} · {v.get('outcome', '—')} {v.get('reason', '')}")
        for role, prompt in (cycle.get("prompts") or {}).items():
            out.print(f"[dim]{role} system prompt: {prompt.get('chars')} chars, sha {prompt.get('sha256')}[/]")
        for m in cycle.get("messages", []):
            out.print(f"[bold]{m['source']}[/] [dim]{m['type']}[/] {escape(cut(_message_text(m), 300))}")
        for r in cycle.get("retries") or []:
            out.print(f"  [yellow]↻ {r.get('role')} attempt {r.get('attempt')}: {escape(str(r.get('error_kind')))}, "
                      f"waited {r.get('wait')} s[/]")
        for c in cycle.get("checks", []):
            out.print(f"  {'✓' if c['ok'] else '✗'} {c['name']}: {escape(cut(c['detail'], 200))}")
        for issue in v.get("issues", []):
            out.print(f"  - {escape(cut(issue, 300))}")
    u = doc.get("usage") or {}
    out.print(f"usage: {u.get('prompt_tokens', 0):,} prompt + {u.get('completion_tokens', 0):,} completion, "
              f"cost {u.get('cost')}")
    art = doc.get("artifact") or {}
    if art:
        out.print(f"artifact: {art.get('path')} ({'verified' if art.get('verified') else 'unverified'})")


def _styled(verdict: str | None, style: str) -> str:
    """The verdict in its colour; ``—`` (unstyled: ``[]`` is not valid markup) when there is none."""
    return f"[{style}]{escape(verdict)}[/]" if verdict and style else escape(verdict or "—")


def _message_text(m: dict[str, Any]) -> str:
    if m.get("tool_calls"):
        return ", ".join(f"{c['name']}({json.dumps(c['arguments'])[:80]})" for c in m["tool_calls"])
    if m.get("tool_results"):
        return " | ".join(f"{r['name']}: {(r['content'].splitlines() or [''])[0]}" for r in m["tool_results"])
    return str(m.get("content") or "")


@trace_app.command("reindex")
def trace_reindex(
    json_out: Annotated[bool, typer.Option("--json", help="Print {reindexed, interrupted} as JSON")] = False,
) -> None:
    """Rebuild traces/index.sqlite from the trace files."""
    from .cli import recover_interrupted
    from .store import TraceStore

    store = TraceStore(load_settings())
    count = store.reindex()
    interrupted = recover_interrupted(store)
    if json_out:
        out.print_json(json.dumps({"reindexed": count, "interrupted": interrupted}))
        return
    note = f" ({len(interrupted)} marked interrupted)" if interrupted else ""
    out.print(f"reindexed {count} runs{note}")


@trace_app.command("prune")
def trace_prune(
    older_than: Annotated[str, typer.Option("--older-than", help="Age: 30d, 12h, 2w, 90m")],
    keep_verified: Annotated[bool, typer.Option("--keep-verified", help="Keep runs with a verified artifact")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List what would be removed; remove nothing")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """Remove runs started before now − AGE with their folders and index rows (never a running run)."""
    from .store.retention import parse_age, prune

    age = parse_age(older_than)  # a bad value: one line, exit 2, before anything is read
    report = prune(_store(), age, keep_verified=keep_verified, dry_run=dry_run)
    if json_out:
        out.print_json(json.dumps({"cutoff": report.cutoff, "dry_run": dry_run,
                                   "removed": [r.run_id for r in report.removed],
                                   "kept_running": report.kept_running, "kept_verified": report.kept_verified,
                                   "bytes_freed": report.bytes_freed}))
        return
    verb = "would remove" if dry_run else "removed"
    for r in report.removed:
        out.print(f"  {verb} {r.run_id} {escape(str(r.task))} {r.started_at[:19].replace('T', ' ')} "
                  f"{r.verdict or r.status}")
    kept = []
    if report.kept_running:
        kept.append(f"{len(report.kept_running)} running")
    if report.kept_verified:
        kept.append(f"{len(report.kept_verified)} verified")
    note = f"; kept {', '.join(kept)}" if kept else ""
    out.print(f"{verb} {len(report.removed)} run(s) started before {report.cutoff} "
              f"({report.bytes_freed / 1e6:.1f} MB){note}")


@trace_app.command("export")
def trace_export(
    run_id: Annotated[str, typer.Argument(help="Run id (see `pse trace`)")],
    output: Annotated[str | None, typer.Option(
        "--output", "-o", help="File or folder (default: ./RUN_ID.pse.tar.gz)")] = None,
) -> None:
    """Write one self-contained archive of a run: trace, events, artifact and workspace."""
    from pathlib import Path

    from .store.archive import export_archive
    from .store.ids import validate_run_id

    path = export_archive(_store(), validate_run_id(run_id), Path(output) if output else None)
    out.print(f"exported {run_id} → {path} ({path.stat().st_size / 1e6:.2f} MB)")


@trace_app.command("import")
def trace_import(
    file: Annotated[str, typer.Argument(help="An archive written by `pse trace export`")],
) -> None:
    """Bring an exported run back; it is listed like any run."""
    from pathlib import Path

    from .store.archive import import_archive

    row = import_archive(_store(), Path(file))
    out.print(f"imported {row.run_id} ({escape(str(row.task))}, {row.verdict or row.status}) → {row.trace_dir}")
