"""``pse tasks``: list the registry's tasks or show one (its vars, tools, knowledge, hooks, folder)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from .config import load_settings

tasks_app = typer.Typer(help="Tasks: list (default), show NAME.", invoke_without_command=True)
out = Console(highlight=False)

HOOKS = ("prepare", "checks", "sanitize", "evidence")


def describe_task(name: str) -> dict[str, Any]:
    """What ``pse tasks show NAME`` prints: the registry entry, the task's folder, hooks and vars.

    Raises:
        UserError: unknown or invalid task (names the known ones).
    """
    from .preparation import needs_prepare
    from .registry import load_task

    settings = load_settings()
    spec = load_task(settings.tasks_dir, name)
    entry = spec.entry
    return {
        "name": entry.name, "title": entry.title, "description": entry.description,
        "folder": str(spec.dir), "artifact": entry.artifact, "vars": spec.known_vars(),
        "defaults": dict(entry.vars), "tools": dict(entry.tools), "knowledge": dict(entry.knowledge),
        "hooks": [h for h in HOOKS if (spec.dir / f"{h}.py").is_file()],
        "redact_pii": entry.redact_pii, "needs_prepare": needs_prepare(spec, settings.state_dir, {}),
    }


@tasks_app.callback()
def tasks_list(
    ctx: typer.Context,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """List the tasks (same as `pse list`)."""
    if ctx.invoked_subcommand is not None:
        return
    from .cli import list_tasks

    list_tasks(json_out=json_out)


@tasks_app.command("show")
def tasks_show(
    name: Annotated[str, typer.Argument(help="Task name (see `pse list`)")],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """Show one task: its vars (with defaults), tools and knowledge per role, hooks and folder."""
    info = describe_task(name)
    if json_out:
        out.print_json(json.dumps(info))
        return
    out.print(f"[bold]{escape(info['name'])}[/] — {escape(info['title'])}")
    if info["description"]:
        out.print(escape(info["description"]))
    out.print(f"folder: {escape(info['folder'])}")
    out.print(f"artifact: {info['artifact']}" + ("  (PII redacted for remote models)" if info["redact_pii"] else ""))
    if info["vars"]:
        out.print("vars:")
        for var in info["vars"]:
            default = info["defaults"].get(var)
            out.print(f"  --var {var}=…" + (f"  (default: {escape(default)})" if default is not None else ""))
    else:
        out.print("vars: none")
    for label in ("tools", "knowledge"):
        for role, names in info[label].items():
            out.print(f"{label} ({role}): {escape(', '.join(names))}")
    out.print(f"hooks: {', '.join(info['hooks']) or 'none'}")
    if info["needs_prepare"]:
        out.print(f"[yellow]inputs changed: a run prepares first (or `pse prepare {info['name']}`)[/]")
