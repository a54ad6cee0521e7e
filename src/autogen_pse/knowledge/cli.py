"""``pse kb …``: ingest, search and count a task's knowledge base.

``kb_app`` is mounted by the main CLI (``app.add_typer(kb_app, name="kb")``). Errors are raised as
:class:`~autogen_pse.errors.UserError` and turned into one red line + exit code 2 by the main CLI.
Heavy imports (chromadb, onnxruntime) happen inside the commands so ``pse --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

kb_app = typer.Typer(
    name="kb",
    help="Knowledge base: ingest a task's knowledge/ folder, search it, show counts.",
    no_args_is_help=True,
    add_completion=False,
)


def _settings(ctx: typer.Context) -> Any:
    """The parent CLI's Settings when it put one in ``ctx.obj``, else :func:`load_settings`."""
    from ..config import Settings, load_settings

    obj = ctx.obj
    candidates = [obj, getattr(obj, "settings", None), obj.get("settings") if isinstance(obj, dict) else None]
    for candidate in candidates:
        if isinstance(candidate, Settings):
            return candidate
    return load_settings()


def _console() -> Any:
    from rich.console import Console

    return Console()


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@kb_app.command("ingest")
def ingest_cmd(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="Task name (see `pse list`).")],
    path: Annotated[
        Path | None,
        typer.Argument(help="File or folder to ingest (default: the task's whole knowledge/ folder)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Add new, update changed and remove deleted documents (unchanged files are skipped)."""
    from rich.markup import escape

    from ..registry import load_task
    from .ingest import ingest

    settings = _settings(ctx)
    spec = load_task(settings.tasks_dir, task)
    console = _console()
    if as_json:
        report = ingest(settings, spec.name, spec.dir, path)
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    with console.status(f"Ingesting knowledge of {spec.name}…"):
        report = ingest(settings, spec.name, spec.dir, path)
    if report.reembedded:
        old, new, n = (escape(str(report.reembedded[key])) for key in ("previous", "current", "chunks"))
        console.print(f"[yellow]embedding changed ({old} → {new}): re-embedded {n} chunks[/yellow]")
    console.print(
        f"[bold]{escape(report.collection)}[/bold]: {len(report.added_files)} added, "
        f"{len(report.updated_files)} updated, {len(report.skipped_files)} unchanged, "
        f"{len(report.removed_files)} removed files; +{report.chunks_added}/-{report.chunks_removed} "
        f"chunks in {report.seconds:.1f} s ({escape(report.embedding)})"
    )
    for label, files in (
        ("added", report.added_files),
        ("updated", report.updated_files),
        ("removed", report.removed_files),
        ("ignored (no text)", report.ignored_files),
    ):
        for source in files:
            console.print(f"  {label}: {source}", markup=False, highlight=False)


@kb_app.command("search")
def search_cmd(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="Task name.")],
    query: Annotated[str, typer.Argument(help="What to look for.")],
    k: Annotated[int, typer.Option("-k", "--k", help="Number of chunks.", min=1, max=50)] = 4,
    partition: Annotated[
        list[str] | None, typer.Option("--partition", "-p", help="Restrict to a partition (repeatable).")
    ] = None,
    lexical: Annotated[bool, typer.Option("--lexical", help="Rerank by word overlap.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as a JSON list.")] = False,
) -> None:
    """Show the chunks closest to QUERY (score = 1 - cosine distance). The task's knowledge folder
    is ingested first when it changed (as a run does; unchanged files are skipped by hash)."""
    from ..registry import load_task
    from .ingest import ingest
    from .retrieve import lexical_rerank, search

    settings = _settings(ctx)
    spec = load_task(settings.tasks_dir, task)
    if (spec.dir / "knowledge").is_dir():
        ingest(settings, spec.name, spec.dir)
    hits = search(
        settings,
        spec.name,
        query,
        k=k,
        partition=partition or None,
        rerank=lexical_rerank if lexical else None,
    )
    if as_json:
        typer.echo(json.dumps([h.to_dict() for h in hits], indent=2, ensure_ascii=False))
        return
    from rich.table import Table
    from rich.text import Text

    console = _console()
    if not hits:
        console.print(f"No chunks matched {query!r}.", markup=False)
        return
    table = Table(title=Text(f"{spec.name}: {query}"), show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("score", justify="right")
    table.add_column("source", no_wrap=True)
    table.add_column("heading", max_width=32)
    table.add_column("text", ratio=1, min_width=20)
    for number, hit in enumerate(hits, start=1):
        score = f"{hit.score:.3f}" + (f"\n({hit.rerank_score:.3f})" if hit.rerank_score is not None else "")
        table.add_row(str(number), score, Text(hit.source), Text(hit.heading), Text(_one_line(hit.text, 160)))
    console.print(table)


@kb_app.command("stats")
def stats_cmd(
    ctx: typer.Context,
    task: Annotated[str | None, typer.Argument(help="Task name (default: every task in the store).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Chunks and files per partition, and the embedding model of each collection."""
    from rich.markup import escape
    from rich.text import Text

    from .retrieve import stats

    settings = _settings(ctx)
    name = None
    if task is not None:
        from ..registry import load_task

        name = load_task(settings.tasks_dir, task).name
    data = stats(settings, name)
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    from rich.table import Table

    console = _console()
    console.print(f"store: {data['store']}", markup=False)
    entries = data["tasks"] if name is None else [data]
    if not entries:
        console.print("No knowledge bases yet; run `pse kb ingest TASK`.", markup=False)
    for entry in entries:
        if not entry["exists"]:
            console.print(f"{entry['task']}: not ingested yet (`pse kb ingest {entry['task']}`)", markup=False)
            continue
        stale = " [yellow](stale: next ingest/search re-embeds)[/yellow]" if entry["stale"] else ""
        table = Table(title=f"{entry['task']} — {entry['chunks']} chunks, {entry['files']} files")
        table.add_column("partition")
        table.add_column("files", justify="right")
        table.add_column("chunks", justify="right")
        for part, counts in entry["partitions"].items():
            table.add_row(Text(part), str(counts["files"]), str(counts["chunks"]))
        console.print(table)
        console.print(f"embedding: {escape(str(entry['embedding']))}{stale}")
