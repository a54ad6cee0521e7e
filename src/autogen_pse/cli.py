"""Command line: ``python cli.py …`` or ``pse …``.

Exit codes: 0 PASS · 1 run ended without PASS · 2 user error · 3 runtime or model error.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .config import Settings, load_settings
from .errors import EXIT_USER_ERROR, PseError, UserError

if TYPE_CHECKING:
    from collections.abc import Callable

    from .events import EventSink
    from .runner import RunRequest, RunResult
    from .store import TraceStore

app = typer.Typer(
    name="pse",
    help="Planner–Specialist–Evaluator runs whose artifacts are checked against real data.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)


def _version(value: bool) -> None:
    if value:
        from . import __version__

        out.print(f"autogen-pse {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit")] = False,
) -> None:
    """Planner–Specialist–Evaluator runs whose artifacts are checked against real data.

    State lives under PSE_HOME (default: the checkout, or the user data folder of an installed
    package); tasks come from PSE_TASKS_DIR (default: the built-in ones).
    """


def _settings() -> Settings:
    return load_settings()


def _parse_vars(pairs: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--var {pair!r}: expected KEY=VALUE")
        values[key.strip()] = value
    return values


@app.command("list")
def list_tasks(json_out: Annotated[bool, typer.Option("--json", help="Print JSON")] = False) -> None:
    """List the tasks of the registry."""
    from .preparation import needs_prepare
    from .registry import load_registry, load_task

    settings = _settings()
    rows: list[dict[str, Any]] = []
    for entry in load_registry(settings.tasks_dir).tasks:
        stale = needs_prepare(load_task(settings.tasks_dir, entry.name), settings.state_dir, {})
        rows.append({"name": entry.name, "title": entry.title, "description": entry.description,
                     "needs_prepare": stale})
    if json_out:
        out.print_json(json.dumps({"data": rows, "count": len(rows)}))
        return
    table = Table("task", "title", "description", "prepare?")
    for r in rows:
        table.add_row(r["name"], r["title"], r["description"], "yes" if r["needs_prepare"] else "")
    out.print(table)


@app.command()
def run(
    task: Annotated[str | None, typer.Argument(help="Task name (see `pse list`); not with --resume")] = None,
    model: Annotated[str | None, typer.Option(
        "--model", "-m", help="local | openai:<model> | scripted:<file> | <prefix>:<arg> of a provider plugin")] = None,
    max_cycles: Annotated[int | None, typer.Option("--max-cycles", min=1, max=50)] = None,
    var: Annotated[list[str] | None, typer.Option("--var", help="KEY=VALUE for the task (repeatable)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No live output")] = False,
    artifact: Annotated[str | None, typer.Option(
        "--artifact", help="auto | structured | prose (default: PSE_ARTIFACT_MODE, auto)")] = None,
    resume: Annotated[str | None, typer.Option(
        "--resume", help="RUN_ID of an interrupted, cancelled or error run: continue after its last completed cycle",
    )] = None,
    executor: Annotated[str | None, typer.Option(
        "--executor", help="Where the run executes: local | celery (workers; see `pse worker`); "
                           "default PSE_EXECUTOR")] = None,
) -> None:
    """Run TASK; shows every turn live and ends with a summary and the trace path.

    With --resume RUN_ID: continue that run in the same trace (same task, vars and limits)."""
    from .console import ConsoleSink, forecast_lines, print_summary
    from .models import call_seconds_hint
    from .runner import RunRequest

    settings = _settings()
    if artifact is not None:
        if artifact not in ("auto", "structured", "prose"):
            raise UserError(f"--artifact {artifact!r}: use auto, structured or prose")
        settings = settings.model_copy(update={"artifact_mode": artifact})
    if executor is not None:
        settings = settings.model_copy(update={"executor": executor})
    if resume is not None:
        from .store.ids import validate_run_id

        if task is not None or var or max_cycles is not None:
            raise UserError("--resume RUN_ID takes the run's own task, --var values and limits; "
                            "pass only --resume (and optionally --model)")
        request = RunRequest(task="", model=model, resume=validate_run_id(resume))  # the run's own task
    elif task is None:
        raise UserError("missing TASK: `pse run TASK` (see `pse list`) or `pse run --resume RUN_ID`")
    else:
        request = RunRequest(task=task, model=model, max_cycles=max_cycles, vars=_parse_vars(var or []))
    live = Console(highlight=False, stderr=json_out)
    sink = ConsoleSink(live, quiet=quiet or json_out)

    def forecast() -> None:
        if not (quiet or json_out or request.resume):
            spec = request.model or settings.model
            hint = call_seconds_hint(spec)
            for line in forecast_lines(request.task, spec, request.max_cycles or settings.max_cycles, hint):
                live.print(f"[bold]{escape(line)}[/]")

    result = run_through_executor(settings, request, [sink], forecast)
    if json_out:
        out.print_json(result.model_dump_json())
    else:
        print_summary(out, result)
    raise typer.Exit(result.exit_code)


def run_through_executor(settings: Settings, request: RunRequest, sinks: list[EventSink],
                         on_accepted: Callable[[], None] | None = None) -> RunResult:
    """Submit ``request`` to the executor (``PSE_EXECUTOR``; the same protocol as the dashboard),
    call ``on_accepted`` once it is validated, stop it on SIGINT/SIGTERM and return its result;
    the last OpenTelemetry spans are exported before returning.

    Raises:
        UserError: a bad request (nothing written), or a run cancelled before it started.
    """
    import asyncio
    import signal
    import threading

    from .executor import open_executor
    from .store import TraceStore

    async def main() -> RunResult | None:
        executor = open_executor(settings, sinks=sinks, concurrency=1, log_failures=False)
        run_id = await executor.submit(request)  # bad inputs: exit 2, nothing written
        recover_interrupted(TraceStore(settings))  # nothing awaited since submit: this run has not started
        if on_accepted is not None:
            on_accepted()
        loop = asyncio.get_running_loop()
        if threading.current_thread() is threading.main_thread():  # signals reach the main thread only
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, lambda: loop.create_task(executor.cancel(run_id)))
        try:
            return await executor.wait(run_id)
        finally:
            await executor.shutdown()

    try:
        result = asyncio.run(main())
    finally:
        from .telemetry import close_active

        close_active()  # the last spans, waiting a few seconds at most
    if result is None:  # cancelled before it started (a remote executor's queue)
        raise UserError("the run was cancelled before it started")
    return result


@app.command()
def prepare(
    task: Annotated[str, typer.Argument(help="Task name")],
    var: Annotated[list[str] | None, typer.Option("--var", help="KEY=VALUE (repeatable)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the outcome as one JSON object")] = False,
) -> None:
    """Compute TASK's facts and prepared task text now (a run also does it when inputs are newer)."""
    from .preparation import ensure_prepared, input_warnings
    from .registry import load_task

    settings = _settings()
    spec = load_task(settings.tasks_dir, task)
    outcome = ensure_prepared(spec, settings.state_dir, _parse_vars(var or []), force=True, settings=settings)
    warnings = input_warnings(outcome.prepared)
    if json_out:
        out.print_json(json.dumps({"task": spec.name, "facts": len(outcome.prepared.facts),
                                   "out_dir": str(outcome.out_dir) if outcome.out_dir else None,
                                   "warnings": list(warnings)}))
        return
    where = outcome.out_dir or "(no prepare hook: the task text comes from task.md)"
    out.print(f"prepared {task}: {len(outcome.prepared.facts)} facts → {where}")
    for warning in warnings:
        out.print(f"[yellow]warning:[/] {escape(warning)}")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option("--host", help="Bind address (default PSE_WEB_HOST, 127.0.0.1)")] = None,
    port: Annotated[int | None, typer.Option("--port", min=1, max=65535,
                                             help="Port (default PSE_WEB_PORT, 8080)")] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="critical | error | warning | info | debug")] = "info",
    log_autogen: Annotated[bool, typer.Option("--log-autogen", help="Also show AutoGen's own logs")] = False,
) -> None:
    """Serve the dashboard and the HTTP API (a non-loopback address needs PSE_WEB_TOKEN)."""
    from .web.server import serve as serve_web

    if log_level not in ("critical", "error", "warning", "info", "debug"):
        raise UserError(f"--log-level {log_level!r}: use critical, error, warning, info or debug")
    serve_web(host=host, port=port, log_level=log_level, log_autogen=log_autogen)


def recover_interrupted(store: TraceStore) -> list[str]:
    """Mark runs whose process died (index status ``running``, writer lock gone) as ``interrupted``.

    Runs recorded by a live process hold their ``events.jsonl`` lock and are left alone. Best
    effort: a store that cannot be written is reported by the command itself.
    """
    from .errors import StoreError

    try:
        return store.recover_interrupted()
    except StoreError as exc:
        logging.getLogger(__name__).warning("could not check for interrupted runs: %s", exc)
        return []


class _OneLine(logging.Formatter):
    """Log records as one line each: no tracebacks on a user's terminal (the trace keeps details)."""

    def format(self, record: logging.LogRecord) -> str:
        record = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None, "stack_info": None})
        return super().format(record).splitlines()[0]


def _configure_logging() -> None:
    """Warnings and errors to stderr, one line each, unless the host configured logging already.

    autogen's runtime logs an agent's failure with a full traceback before it re-raises it; the
    run reports that error itself (summary, trace), so autogen's copy is dropped.
    """
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine("%(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("autogen_core").setLevel(logging.CRITICAL)


def _register_subcommands() -> None:
    from .cli_check import check
    from .cli_eval import eval_command
    from .cli_replay import replay
    from .cli_tasks import tasks_app
    from .cli_trace import trace_app
    from .cli_worker import worker
    from .knowledge.cli import kb_app

    app.command("check")(check)
    app.add_typer(tasks_app, name="tasks")
    app.command("replay")(replay)
    app.command("worker")(worker)
    app.command("eval")(eval_command)
    app.add_typer(trace_app, name="trace")
    app.add_typer(kb_app, name="kb")


_register_subcommands()


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the app and turns errors into one line and an exit code."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    _configure_logging()
    try:
        rv = app(args=argv, standalone_mode=False)
        return rv if isinstance(rv, int) else 0
    except PseError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}")
        return exc.exit_code
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        err.print("[bold red]aborted[/]")
        return 130
    except ValidationError as exc:  # a bad setting in the environment or .env
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        err.print(f"[bold red]error:[/] setting PSE_{field.upper()} (environment or .env): {escape(first['msg'])}")
        return EXIT_USER_ERROR
    except typer.TyperException as exc:  # usage errors: bad option, missing argument
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        err.print(f"[bold red]error:[/] {escape(message)} (see --help)")
        return EXIT_USER_ERROR


def entry() -> None:
    sys.exit(main())
