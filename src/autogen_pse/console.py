"""Rich rendering of RunEvents and run summaries (with the CLI, the only place that prints)."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .events import RunEvent

ROLE_STYLE = {"planner": "cyan", "specialist": "magenta", "evaluator": "yellow", "user": "white"}
OUTCOME_STYLE = {"PASS": "bold green", "PARTIAL": "bold yellow", "FAIL": "bold red", "BLOCKED": "bold red"}
PREVIEW = 600  # characters of a message shown live


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary, with "…" when cut (the
    whole text stays in the trace; ``pse trace show --full`` prints it)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = head.rstrip().rfind(" ")
    if cut >= limit // 2:  # a word boundary not too far back; else a hard cut
        head = head[:cut]
    return head.rstrip(" ,;:") + "…"


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


class ConsoleSink:
    """Prints each event of a run as it happens: cycles, turns, tool calls, verdicts, tokens."""

    def __init__(self, console: Console, *, quiet: bool = False) -> None:
        self.console = console
        self.quiet = quiet
        self.tokens = 0
        self._grounding: dict[str, list[Any]] = {}  # role → [queries, sources] before cycle 1

    def __call__(self, event: RunEvent) -> None:
        if self.quiet:
            return
        handler = getattr(self, f"_on_{event.kind.value}", None)
        if handler is not None:
            handler(event, event.payload)

    def _on_run_started(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"[bold]run {e.run_id}[/] task [bold]{escape(p['task'])}[/] model {escape(p['model'])}")
        self._artifact_mode(p.get("artifact") or {})

    def _on_prepared(self, e: RunEvent, p: dict[str, Any]) -> None:
        what = "re-prepared" if p.get("reprepared") else "prepared (cached)"
        took = f" in {p['seconds']:.1f} s" if isinstance(p.get("seconds"), int | float) else ""
        self.console.print(f"[dim]inputs {what}: {p.get('facts')} facts{took}[/]")

    def _on_ingested(self, e: RunEvent, p: dict[str, Any]) -> None:
        changed = p.get("added_files", 0) + p.get("updated_files", 0) + p.get("removed_files", 0)
        what = f"{changed} file(s) changed, {p.get('chunks_added', 0)} chunks embedded" if changed else "up to date"
        self.console.print(f"[dim]knowledge base {what} in {p.get('seconds', 0):.1f} s; "
                           f"retrieval {p.get('retrieval_seconds', 0):.1f} s[/]")

    def _on_prompt(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"  [dim]{p['role']} system prompt: {p['chars']:,} chars (sha {p['sha256']})[/]")

    def _on_retry(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"  [yellow]↻ {p['role']}: attempt {p['attempt']} failed ({escape(str(p['error_kind']))})"
                           f"; retrying in {p['wait']:.1f} s[/]")

    def _on_resumed(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"[bold]resumed[/] run {e.run_id} at cycle {p['from_cycle']} "
                           f"(it had ended {escape(str(p.get('previous_status')))})")

    def _on_retrieval(self, e: RunEvent, p: dict[str, Any]) -> None:
        chunks = p.get("chunks", [])
        if p.get("via") == "kb_search":
            self.console.print(f"  [dim]↳ kb_search {escape(repr(p.get('query', '')))}: {len(chunks)} chunks[/]")
            return
        role = self._grounding.setdefault(p.get("role", "?"), [0, set()])
        role[0] += 1
        role[1].update(c["source"] for c in chunks)

    def _flush_grounding(self) -> None:
        for role, (queries, sources) in self._grounding.items():
            names = escape(", ".join(sorted(sources)))
            self.console.print(f"[dim]grounding for {role}: {queries} queries → {names}[/]")
        self._grounding.clear()

    def _on_cycle_started(self, e: RunEvent, p: dict[str, Any]) -> None:
        self._flush_grounding()
        self.console.rule(f"cycle {p['index']} · {p['kind']}")

    def _on_message(self, e: RunEvent, p: dict[str, Any]) -> None:
        self._count(p)
        style = ROLE_STYLE.get(p["source"], "white")
        text = p["content"].strip()
        if len(text) > PREVIEW:
            text = text[:PREVIEW] + f" … [{len(p['content'])} chars]"
        self.console.print(f"[{style} bold]{p['source']}[/] {self._tok()}\n{escape(text)}")

    def _on_tool_call(self, e: RunEvent, p: dict[str, Any]) -> None:
        self._count(p)
        for call in p["calls"]:
            args = json.dumps(call["arguments"])[:160]
            self.console.print(f"  [dim]↳ {p['source']} calls[/] [bold]{escape(call['name'])}[/]({escape(args)})")

    def _on_tool_result(self, e: RunEvent, p: dict[str, Any]) -> None:
        for r in p["results"]:
            first = (r["content"].strip().splitlines() or [""])[0][:160]
            mark = "[red]✗[/]" if r["is_error"] else "[green]✓[/]"
            self.console.print(f"  {mark} [dim]{escape(r['name'])}: {escape(first)}[/]")

    def _on_check(self, e: RunEvent, p: dict[str, Any]) -> None:
        mark = "[green]✓[/]" if p["ok"] else ("[red]✗[/]" if p["severity"] == "error" else "[yellow]![/]")
        self.console.print(f"  {mark} check [bold]{p['name']}[/] ({p['phase']}): {escape(clip(p['detail'], 200))}")

    def _on_verdict(self, e: RunEvent, p: dict[str, Any]) -> None:
        style = OUTCOME_STYLE.get(p["outcome"], "bold")
        self.console.print(f"[{style}]verdict {p['outcome']}[/] / {p['reason']} [dim]({p['origin']})[/]")
        for n, issue in enumerate(p["issues"][:10], 1):
            self.console.print(f"   {n}. {escape(clip(issue, 300))}")

    def _on_sanitized(self, e: RunEvent, p: dict[str, Any]) -> None:
        for c in p["changes"]:
            before, after = escape(c["before"][:80]), escape(c["after"][:80])
            self.console.print(f"  [cyan]sanitized[/] {c['rule']}: {before} → {after}")

    def _on_ledger(self, e: RunEvent, p: dict[str, Any]) -> None:
        for claim in p.get("claims", []):
            if claim["status"] not in ("contradicted", "unverifiable"):
                continue
            mark = "[red]✗ contradicted[/]" if claim["status"] == "contradicted" else "[yellow]? unverifiable[/]"
            why = "; ".join(f["note"] or f["text"] for f in claim["findings"] if f["status"] == claim["status"])
            self.console.print(f"  {mark} line {claim['line']}: {escape(_short(claim['text'], 110))}"
                               f"\n      [dim]{escape(_short(why, 160))}[/]")
        self.console.print(f"  [dim]claims ({p['phase']}): {p['supported']} supported · {p['contradicted']} "
                           f"contradicted · {p['unverifiable']} unverifiable of {p['factual']} factual[/]")

    def _on_artifact(self, e: RunEvent, p: dict[str, Any]) -> None:
        g = p.get("grounding")
        if g:
            self.console.print(f"grounding score [bold]{g['score']:.2f}[/] ({g['supported']}/{g['checked']} claims)")

    def _artifact_mode(self, p: dict[str, Any]) -> None:
        if p.get("mode") == "structured":
            how = {"grammar": "a grammar compiled from its JSON schema", "json_schema": "response_format json_schema",
                   "json_object": "JSON mode + validation", "validate": "validation"}.get(str(p.get("strategy")), "")
            extra = "; compact prompts" if p.get("compact") else ""
            self.console.print(f"[dim]artifact: structured ({escape(str(p.get('schema')))}, {how}{extra})[/]")

    def _on_model_call(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"  [dim]⏱ {p['role']}: {p['prompt_tokens']:,} prompt + {p['completion_tokens']:,} "
                           f"completion tokens in {p['seconds']:.1f} s ({p['tokens_per_s']:.1f} tok/s)"
                           + (f", first token after {p['ttft']:.2f} s" if p.get("ttft") is not None else "") + "[/]")

    def _on_model_wait(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"  [dim]… {p['role']} still generating ({p['elapsed']:.0f} s)[/]")

    def _on_warning(self, e: RunEvent, p: dict[str, Any]) -> None:
        self.console.print(f"[yellow]warning:[/] {escape(p['message'])}")

    def _count(self, p: dict[str, Any]) -> None:
        u = p.get("usage")
        if u:
            self.tokens += u["prompt_tokens"] + u["completion_tokens"]

    def _tok(self) -> str:
        return f"[dim]· {self.tokens:,} tokens so far[/]"


def _short(text: str, limit: int) -> str:
    """``text`` on one line, cut at a word with "…" when longer than ``limit``."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def print_summary(console: Console, result: Any) -> None:
    """Final summary of a run: verdict, cycles, tokens, cost, trace and artifact paths."""
    u = result.usage
    style = OUTCOME_STYLE.get(result.verdict or "", "bold red")
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_row("verdict", f"[{style}]{result.verdict or '—'}[/] / {result.reason or '—'}"
                  + (f" (limit {result.limit})" if result.limit else ""))
    table.add_row("status", result.status + (f" — {escape(result.error)}" if result.error else ""))
    table.add_row("cycles", str(result.cycles))
    table.add_row("tokens", f"{u['prompt_tokens']:,} prompt + {u['completion_tokens']:,} completion "
                            f"in {u['model_calls']} calls")
    cost = "unknown (model not in the price table)" if u["cost"] is None else f"{u['cost']:.6f} {u['currency']}"
    table.add_row("cost", cost)
    table.add_row("artifact", f"{'verified' if result.verified else 'unverified'}, "
                              f"{getattr(result, 'artifact_mode', 'prose')}")
    for check in getattr(result, "checks", []):
        mark = "[green]✓ passed[/]" if check["ok"] else (
            "[red]✗ failed[/]" if check["severity"] == "error" else "[yellow]! warning[/]")
        table.add_row(f"check {escape(check['name'])}", f"{mark} [dim]{escape(_short(check['detail'], 110))}[/]")
    table.add_row("ended", escape(ending(result)))
    console.rule("summary")
    console.print(table)
    # paths whole on one line at any width (a terminal wraps them; copy and paste still works)
    console.print(f"artifact  {escape(result.artifact_path or '—')}", soft_wrap=True, highlight=False)
    console.print(f"trace     {escape(result.trace_dir)}", soft_wrap=True, highlight=False)


def ending(result: Any) -> str:
    """Why the run ended, in one sentence."""
    if result.status == "error":
        return f"a runtime error stopped it: {result.error}"
    if result.status == "cancelled":
        return "it was cancelled"
    if result.limit:
        return f"the {result.limit} limit was reached without a PASS ({result.cycles} cycle(s))"
    if result.verdict == "PASS":
        return "PASS: " + ("every final check passed" if result.verified else "the evaluator passed it")
    return f"the verdict was {result.verdict} / {result.reason}"


def forecast_lines(task: str, model: str, max_cycles: int, per_call_s: tuple[int, int] | None) -> list[str]:
    """What a run will do and roughly how long it takes (printed before the long step)."""
    lines = [f"Running {task} on {model}: up to {max_cycles} cycle(s) of planner → specialist → evaluator "
             "(3 model calls each), then the checks."]
    if per_call_s is not None:
        low, high = per_call_s
        lines.append(f"On this machine a model call takes about {low}–{high} s (more when the cores are busy): "
                     f"expect {3 * low * max_cycles // 60 or 1}–{-(-3 * high * max_cycles // 60)} min. "
                     "A line is printed after every call.")
    return lines
