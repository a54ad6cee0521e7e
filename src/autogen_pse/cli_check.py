"""``pse check TASK FILE… [--var KEY=VALUE]… [--json] [--judge MODEL]``: verify Markdown documents.

Exit codes: 0 no document has a failing claim · 1 at least one has (a contradicted claim, or an
unverifiable one where the task's policy makes it an error) · 2 bad input (unknown task, missing or
unreadable file, bad --var).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from .errors import UserError

out = Console(highlight=False)
_MARK = {"contradicted": "[red]✗ contradicted[/]", "unverifiable": "[yellow]? unverifiable[/]"}


def _read(path: Path) -> str:
    """The UTF-8 text of a regular file of at most ``verification.MAX_DOCUMENT_CHARS`` characters.

    Raises:
        UserError: missing, not a regular file (a directory, FIFO, socket, device), unreadable,
            not UTF-8, or too large — one line naming the file.
    """
    from .verification import MAX_DOCUMENT_CHARS  # lazily: it loads the claim ledger (~0.1 s)

    if not path.exists():
        raise UserError(f"{path}: no such file; pass the path of a Markdown document")
    if not path.is_file():
        raise UserError(f"{path}: not a regular file; pass the path of a Markdown document")
    try:
        with path.open("rb") as handle:
            data = handle.read(4 * MAX_DOCUMENT_CHARS + 1)  # never more than a document may hold
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    if len(data) > 4 * MAX_DOCUMENT_CHARS:
        raise UserError(f"{path}: larger than {MAX_DOCUMENT_CHARS:,} characters; split the document")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path}: cannot be read as UTF-8 text") from None


def check(
    task: Annotated[str, typer.Argument(help="Task whose evidence the documents are checked against")],
    files: Annotated[list[Path], typer.Argument(help="Markdown documents (an artifact.md, a hand-written review…)")],
    var: Annotated[list[str] | None, typer.Option("--var", help="KEY=VALUE for the task's inputs (repeatable)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per file, one per line")] = False,
    judge: Annotated[
        str | None,
        typer.Option("--judge", help="Model that reviews unverifiable claims (default: PSE_JUDGE_MODEL; none offline)"),
    ] = None,
) -> None:
    """Verify each FILE claim by claim against TASK's evidence and print its ledger."""
    from .cli import _parse_vars, _settings
    from .registry import load_task
    from .verification import check_document, document_checker

    settings = _settings()
    load_task(settings.tasks_dir, task).check_vars(_parse_vars(var or []))  # unknown task or --var: first
    texts = [(str(f), _read(f)) for f in files]  # every file readable before any work
    checker = document_checker(task, _parse_vars(var or []), settings)
    reviewer = None
    model = judge or settings.judge_model
    if model:
        from .claims.judge import Judge

        reviewer = Judge.open(model, settings)
    failing = 0
    for name, text in texts:
        report = check_document(checker, name, text, judge=reviewer)
        failing += report.fails
        if json_out:
            out.print(json.dumps(report.model_dump(mode="json"), ensure_ascii=False), soft_wrap=True)
            continue
        out.rule(escape(name))
        for claim in report.claims:
            if claim["status"] in _MARK:
                why = "; ".join(f["note"] or f["text"] for f in claim["findings"] if f["status"] == claim["status"])
                out.print(f"{_MARK[claim['status']]} line {claim['line']}: {escape(claim['text'])}")
                out.print(f"    [dim]{escape(why)}[/]")
        score = "—" if report.grounding is None else f"{report.grounding:.2f}"
        out.print(
            f"{report.supported} supported · {report.contradicted} contradicted · {report.unverifiable} "
            f"unverifiable of {report.factual} factual claims · grounding {score}"
            + (" · [red]fails[/]" if report.fails else "")
        )
    raise typer.Exit(1 if failing else 0)
