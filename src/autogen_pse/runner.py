"""Execute one run end to end: prepare → ground → cycle loop → sanitize → re-check → artifact.

Every step emits RunEvents through one :class:`~autogen_pse.events.EventEmitter` whose sinks are
the trace store plus whatever the caller adds (console, SSE hub).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .artifacts import ArtifactSchema, load_schema
from .artifacts.plan import PLAN_SCHEMA
from .checking import Checker, all_pass, grounding, ledger_payload, sanitize_repairs
from .config import Settings
from .cycle import CycleInputs, Limits, RunOutcome, run_cycles
from .errors import EXIT_NOT_PASS, EXIT_PASS, EXIT_RUN_ERROR, PseError, StoreError, UserError
from .events import EventEmitter, EventKind, EventSink
from .grounding import Grounding, prepare_grounding
from .preparation import PrepareOutcome, ensure_prepared, input_warnings
from .provenance import provenance
from .registry import ROLES, TaskSpec, load_task
from .resume import save_checkpoint
from .sinks import IsolatedSink, check_sinks, open_sinks
from .store import TraceStore
from .store.files import atomic_write_text, make_durable
from .store.ids import new_run_id
from .usage import PriceTable, UsageTotals
from .verdict import Outcome, Reason, Verdict

log = logging.getLogger(__name__)

COMPACT_TASK = "Do your part of the task described above."


class RunRequest(BaseModel):
    """What to run. ``model`` and ``max_cycles`` default to the settings."""

    task: str
    model: str | None = None
    max_cycles: int | None = Field(default=None, ge=1, le=50)
    vars: dict[str, str] = Field(default_factory=dict)
    resume: str | None = Field(default=None, description=(
        "RUN_ID of an interrupted, cancelled or error run to continue after its last completed cycle "
        "(its own task, vars and limits; `task` may be empty)"))
    replay: str | None = Field(default=None, description=(
        "RUN_ID of a finished run to run again with its recorded replies (its own task and vars)"))


class RunResult(BaseModel):
    run_id: str
    task: str
    status: str
    verdict: str | None
    reason: str | None
    limit: str | None = None
    cycles: int
    usage: dict[str, Any]
    trace_dir: str
    artifact_path: str | None
    verified: bool
    error: str | None = None
    checks: list[dict[str, Any]] = Field(default_factory=list, description="final checks: name, ok, severity, detail")
    artifact_mode: str = "prose"

    @property
    def exit_code(self) -> int:
        """0 PASS, 1 any other ending, 3 runtime/model error (see :mod:`autogen_pse.errors`)."""
        if self.status == "error":
            return EXIT_RUN_ERROR
        return EXIT_PASS if self.verdict == Outcome.PASS.value else EXIT_NOT_PASS


@dataclass
class PreparedRun:
    """A validated request, ready to execute (user errors surface before a run id exists)."""

    request: RunRequest
    task: TaskSpec
    model: str
    limits: Limits
    run_id: str = field(default_factory=new_run_id)
    prep: PrepareOutcome | None = None  # set by :func:`prepare_plan` so bad inputs surface early
    resume: Any = None  # autogen_pse.resume.Resumption: continue this run's trace (``pse run --resume``)
    replay_of: str | None = None  # the run whose recorded replies this run replays (``pse replay``)
    settings: Settings | None = None  # the run's own settings when they differ from the executor's (a replay)


def plan_request(request: RunRequest, settings: Settings, store: TraceStore | None = None) -> PreparedRun:
    """A new run (:func:`plan_run`), a resumed one (``request.resume``) or a replay (``request.replay``).

    Raises:
        UserError: as :func:`plan_run`; for a resume or replay also an unknown or still running
            run, one that cannot be resumed or replayed, or options the run takes from its trace.
    """
    if request.resume and request.replay:
        raise UserError("resume and replay name two different things; give one of them")
    if (request.resume or request.replay) and (request.vars or request.max_cycles is not None):
        raise UserError("a resumed or replayed run takes its own --var values and limits from its trace")
    if request.resume:
        from .resume import plan_resume

        plan = plan_resume(request.resume, settings, model=request.model, store=store)
    elif request.replay:
        from .replay import plan_replay

        plan, _script, _path, run_settings = plan_replay(request.replay, settings, store or TraceStore(settings))
        plan.settings = run_settings
    else:
        return plan_run(request, settings)
    if request.task and request.task != plan.task.name:
        raise UserError(f"run {request.resume or request.replay} is a run of task {plan.task.name!r}, not "
                        f"{request.task!r}")
    return plan


def plan_run(request: RunRequest, settings: Settings) -> PreparedRun:
    """Validate a request: task exists, model spec parses, template vars are complete.

    Raises:
        UserError: unknown task, bad model spec, unknown or missing ``--var``, bad pricing file (nothing is written).
    """
    from .models import validate_spec

    task = load_task(settings.tasks_dir, request.task)
    task.check_vars(request.vars)
    for module in ("prepare", "checks", "sanitize"):  # a hook with the wrong signature: a user error now
        task.hook(module, module)
    model = request.model or settings.model
    validate_spec(model, settings)
    PriceTable.from_settings(settings)  # a bad PSE_PRICING_FILE is a user error before anything runs
    check_sinks(settings)  # an unknown PSE_SINKS name likewise
    if not (task.dir / "prepare.py").is_file():
        task.render_task(request.vars)
    limits = Limits(
        max_cycles=request.max_cycles or settings.max_cycles,
        max_partial=settings.max_partial,
        max_fail=settings.max_fail,
        max_turns=settings.max_turns,
        run_timeout=settings.run_timeout,
        token_budget=settings.token_budget,
    )
    return PreparedRun(request=request, task=task, model=model, limits=limits)


def prepare_plan(plan: PreparedRun, settings: Settings) -> PreparedRun:
    """Run the task's prepare step now (when inputs are newer), so bad inputs raise UserError
    before a run is accepted. Returns ``plan`` with ``prep`` set."""
    plan.prep = ensure_prepared(plan.task, settings.state_dir, plan.request.vars, settings=settings)
    return plan


async def execute(
    plan: PreparedRun,
    settings: Settings,
    *,
    sinks: list[EventSink] | None = None,
    stop: asyncio.Event | None = None,
    store: TraceStore | None = None,
) -> RunResult:
    """Run ``plan`` to its end (``store`` defaults to a new :class:`TraceStore` on ``settings``).

    User errors found while preparing inputs are raised before the run's trace directory is
    created; everything after that ends in a trace.

    Raises:
        UserError: bad input files (from prepare), unreadable model file, Chroma unreachable.
        StoreError: the traces directory is not writable.
    """
    from .models import open_provider

    task, request = plan.task, plan.request
    store = store or TraceStore(settings)
    prep = plan.prep or ensure_prepared(task, settings.state_dir, request.vars, settings=settings)
    prices = PriceTable.from_settings(settings)
    provider = open_provider(plan.model, settings)
    try:  # redaction and pricing ask the opened provider, never the spelling of the spec
        ground: Grounding = prepare_grounding(task, prep.prepared, settings, remote=provider.remote)
        if not provider.priced:
            prices.mark_free(provider.name)
        if plan.resume is not None:  # the same trace goes on
            run_dir = store.run_dir(plan.run_id)
            trace_sink = store.sink(plan.run_id, reopen=True)
        else:
            run_dir = store.create_run(plan.run_id)
            trace_sink = store.sink(plan.run_id)
    except BaseException:
        await provider.close()
        raise
    workspace = run_dir / "workspace"
    emitter = EventEmitter(plan.run_id, [trace_sink.handle, *(sinks or [])], last_seq=trace_sink.last_seq)
    plugin_sinks: list[IsolatedSink] = []
    usage = UsageTotals(model_name=provider.name, prices=prices)
    if plan.resume is not None:  # the run's totals (and its token budget) include the recorded calls
        for role, prompt_tokens, completion_tokens in plan.resume.usage:
            usage.add(role, prompt_tokens, completion_tokens)
        usage.pop_warnings()
    try:
        plugin_sinks += open_sinks(settings, warn=lambda m: emitter.defer(EventKind.WARNING, {"message": m}))
        for plugin_sink in plugin_sinks:
            emitter.add_sink(plugin_sink)
        schema = artifact_schema_for(task, prep, settings.artifact_mode, provider, request.vars)
        compact = schema is not None and provider.compact_prompts and task.compact_prompts is not None
        provider.use_compact_prompts(compact)
        if plan.resume is not None:
            _emit_resumed(plan, provider, emitter)
        else:
            _emit_started(plan, provider, emitter, prep, ground, schema, compact, run_dir)
        stop = stop or asyncio.Event()
        cancel = threading.Event()  # the stop, for hooks running subprocesses in worker threads
        checker = Checker(task, facts=prep.prepared.facts, data=prep.prepared.data, workspace=workspace,
                          vars=request.vars, settings=settings, cancel=cancel)
        tools = _tools(task, workspace, settings, provider.supports_tools, ground, emitter)
        inputs = CycleInputs(
            task=task, task_text=ground.redact(COMPACT_TASK if compact else prep.prepared.task_text),
            provider=provider, emitter=emitter, checker=checker, workspace=workspace, limits=plan.limits,
            usage=usage, tools=tools, stop=stop, output_cap=settings.tool_output_cap,
            # compact runs keep each prompt in the local budget: the brief replaces retrieved context
            context={} if compact else {r: ground.redact(ground.context.get(r, "")) for r in ROLES},
            schema=schema, plan_schema=PLAN_SCHEMA if compact else None, compact=compact,
            system_prefix=ground.redact(schema.brief) if compact and schema is not None else "",
            redact=ground.redact if ground.redactor is not None else None,
            resume=plan.resume.point if plan.resume is not None else None,
            on_checkpoint=lambda point: save_checkpoint(run_dir, point, provider, plan.model),
        )
        bridge = asyncio.ensure_future(_when_set(stop, cancel))
        try:
            outcome = await run_cycles(inputs)
            return await _finish(outcome, plan, run_dir, checker, ground, emitter, usage,
                                 "structured" if schema is not None else "prose")
        finally:
            bridge.cancel()
    except Exception as exc:  # a hook or store failure after the run began: end the trace as error
        if not trace_sink.closed:
            try:
                emitter.emit(EventKind.RUN_FINISHED, {
                    "status": "error", "verdict": None, "reason": None, "limit": None, "cycles": 0,
                    "usage": usage.to_dict(), "error": str(exc)[:500], "artifact_path": None, "verified": False})
            except Exception as again:  # e.g. the disk is still full: the first error is the one to report
                log.error("run %s: could not record its end (%s)", plan.run_id, again)
        raise
    finally:
        await provider.close()
        for plugin_sink in plugin_sinks:
            plugin_sink.close()
        try:  # release the writer lock even when the trace could not be finished
            trace_sink.close()
        except StoreError as exc:
            log.error("run %s: %s", plan.run_id, exc)


def _emit_started(plan: PreparedRun, provider: Any, emitter: EventEmitter, prep: PrepareOutcome, ground: Grounding,
                  schema: ArtifactSchema | None, compact: bool, run_dir: Path) -> None:
    """The events of a new run before its first cycle: start, prepare, ingestion, input warnings, retrieval."""
    task, request, workspace = plan.task, plan.request, run_dir / "workspace"
    emitter.emit(EventKind.RUN_STARTED, {
        "task": task.name, "model": provider.name, "vars": request.vars, "limits": plan.limits.as_dict(),
        "trace_dir": str(run_dir), "workspace": str(workspace), "provenance": provenance(task.dir),
        "model_spec": plan.model,
        **({"replay_of": plan.replay_of} if plan.replay_of else {}),
        "artifact": {"mode": "structured" if schema is not None else "prose",
                     "schema": schema.name if schema else None,
                     "strategy": provider.output_strategy if schema is not None else None, "compact": compact},
    })
    if prep.out_dir is not None:
        emitter.emit(EventKind.PREPARED, {"facts": len(prep.prepared.facts), "reprepared": prep.reprepared,
                                          "facts_path": str(prep.facts_path),
                                          "seconds": round(prep.seconds, 3)})
    if ground.ingest is not None:
        emitter.emit(EventKind.INGESTED, ground.ingest)
    for warning in input_warnings(prep.prepared):
        emitter.emit(EventKind.WARNING, {"message": warning})
    for record in ground.retrievals:
        emitter.emit(EventKind.RETRIEVAL, record)


def _emit_resumed(plan: PreparedRun, provider: Any, emitter: EventEmitter) -> None:
    """A resumed run: the ``resumed`` event; a scripted model goes on where the saved cycle left it."""
    assert plan.resume is not None
    r = plan.resume
    if r.cursors and r.model_spec == plan.model and hasattr(provider, "restore_cursors"):
        provider.restore_cursors(r.cursors)
    emitter.emit(EventKind.RESUMED, {
        "from_cycle": (r.point.cycle if r.point else 0) + 1, "previous_status": r.previous_status,
        "previous_error": r.previous_error, "last_seq": r.last_seq, "task": plan.task.name, "model": provider.name,
        "model_spec": plan.model, "vars": plan.request.vars, "limits": plan.limits.as_dict()})


def _tools(task: TaskSpec, workspace: Path, settings: Settings, supports: bool, ground: Grounding,
           emitter: EventEmitter) -> dict[str, list[Any]]:
    if not supports:
        return {}
    from .tools.agent_tools import build_tools

    tools: dict[str, list[Any]] = {}
    for role in ROLES:
        names = list(task.entry.tools.get(role, []))
        kb = ground.kb_search_for(role, emitter) if "kb_search" in names else None
        tools[role] = build_tools(names, workspace, timeout=settings.tool_timeout,
                                  output_cap=settings.tool_output_cap, kb_search=kb,
                                  isolation=settings.tool_isolation)
    return tools


def artifact_schema_for(task: TaskSpec, prep: PrepareOutcome, mode: str, provider: Any,
                        vars: dict[str, str]) -> ArtifactSchema | None:
    """The run's artifact schema, or ``None`` for a prose run: ``prose`` → none; ``structured`` →
    the task's schema (if it declares one); ``auto`` → the same when the provider constrains its
    output (local grammar, OpenAI-compatible JSON), prose for providers that replay text (scripted)."""
    if mode == "prose" or (mode == "auto" and provider.output_strategy == "validate"):
        return None
    return load_schema(task, facts=prep.prepared.facts, data=prep.prepared.data, vars={**task.entry.vars, **vars})


async def _finish(outcome: RunOutcome, plan: PreparedRun, run_dir: Path, checker: Checker, ground: Grounding,
            emitter: EventEmitter, usage: UsageTotals, artifact_mode: str = "prose") -> RunResult:
    verdict, verified, artifact_path = outcome.verdict, False, None
    final_checks: list[Any] = []
    if outcome.status != "error" or outcome.raw_artifact:
        rendered, unknown = checker.render(outcome.raw_artifact)
        sanitized = await checker.off_loop(checker.sanitize, rendered)
        if sanitized.changes:
            emitter.emit(EventKind.SANITIZED, {"changes": [c.model_dump() for c in sanitized.changes]})
        if sanitized.changes or outcome.last_checks is None:
            final_checks = await checker.off_loop(checker.check, sanitized.artifact, raw=outcome.raw_artifact,
                                                  unknown=unknown)
        else:  # unchanged artifact: the last cycle's results (and ledger) are the final ones
            final_checks = outcome.last_checks
        for r in final_checks:
            emitter.emit(EventKind.CHECK, {**r.model_dump(), "phase": "final"})
        if checker.ledger is not None:
            emitter.emit(EventKind.LEDGER, ledger_payload(checker.ledger, "final"))
        checks_ok = all_pass(final_checks)
        if verdict is not None and verdict.outcome is not Outcome.PASS and outcome.limit is None \
                and sanitize_repairs(outcome.evaluator_pass, sanitized, final_checks):
            verdict = Verdict(outcome=Outcome.PASS, reason=Reason.OK,
                              summary="PASS after deterministic sanitizing")
        verified = verdict is not None and verdict.outcome is Outcome.PASS and checks_ok
        artifact_path, raw_path = run_dir / "artifact.md", run_dir / "artifact.raw.md"
        atomic_write_text(raw_path, outcome.raw_artifact, durable=False)
        final_text = ground.restore(sanitized.artifact)
        # no artifact at all (an invalid object is never one) leaves nothing to mark
        mark = "" if verified or not final_text.strip() else _unverified_mark(verdict, final_checks)
        atomic_write_text(artifact_path, mark + final_text, durable=False)
        # the run's result survives a power loss; the raw text need not: it is the specialist's last
        # message (or the workspace files), and events.jsonl holds that message durably
        make_durable(artifact_path)
        open_issues = [] if verified else [*outcome.artifact_issues,
                                            *(f"[final check {r.name}] {r.detail}" for r in final_checks if not r.ok)]
        emitter.emit(EventKind.ARTIFACT, {
            "path": str(artifact_path), "raw_path": str(run_dir / "artifact.raw.md"), "verified": verified,
            "issues": open_issues, "grounding": grounding(final_checks, checker.ledger),
        })
    result = RunResult(
        run_id=plan.run_id, task=plan.task.name, status=outcome.status,
        verdict=verdict.outcome.value if verdict else None, reason=verdict.reason.value if verdict else None,
        limit=outcome.limit, cycles=outcome.cycles, usage=usage.to_dict(), trace_dir=str(run_dir),
        artifact_path=str(artifact_path) if artifact_path else None, verified=verified, error=outcome.error,
        checks=[{"name": r.name, "ok": r.ok, "severity": r.severity, "detail": r.detail} for r in final_checks],
        artifact_mode=artifact_mode,
    )
    emitter.emit(EventKind.RUN_FINISHED, {
        "status": result.status, "verdict": result.verdict, "reason": result.reason, "limit": result.limit,
        "cycles": result.cycles, "usage": result.usage, "error": result.error,
        "artifact_path": result.artifact_path, "verified": result.verified,
    })
    return result


async def _when_set(stop: asyncio.Event, cancel: threading.Event) -> None:
    await stop.wait()
    cancel.set()


def _unverified_mark(verdict: Verdict | None, checks: list[Any]) -> str:
    """The first lines of an unverified ``artifact.md``: a reader of the file alone must see it."""
    why = (f"the run ended {verdict.outcome.value} / {verdict.reason.value}" if verdict
           else "the run ended without a verdict")
    failing = [r.name for r in checks if not r.ok and r.severity == "error"]
    if failing:
        why += f"; failing checks: {', '.join(failing)}"
    return f"> **UNVERIFIED** — this artifact did not pass verification ({why}). See the run's trace.\n\n"


async def run_task(request: RunRequest, settings: Settings, *, sinks: list[EventSink] | None = None,
                   stop: asyncio.Event | None = None) -> RunResult:
    """:func:`plan_run` then :func:`execute`."""
    return await execute(plan_run(request, settings), settings, sinks=sinks, stop=stop)


__all__ = ["PseError", "RunRequest", "RunResult", "UserError", "execute", "plan_run", "run_task"]
