"""Run an eval: every case of a dataset, on every model, ``repeat`` times, ``concurrency`` at once.

Each case run is a normal run submitted to the executor (``PSE_EXECUTOR``, as ``pse run`` does):
its own trace, listed in History. :func:`plan_eval` validates everything first (dataset, models,
every case's inputs through the task's prepare step) so a bad input stops the eval before anything
is written; :func:`run_eval` then writes ``report.json`` after every finished run (the dashboard
polls it) and the HTML report at the start and the end. A stop (Ctrl-C) cancels the running cases,
marks the ones never started ``not_run`` and writes the report marked incomplete.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Settings
from ..errors import PseError, UserError
from ..events import EventKind, RunEvent, utc_now
from ..preparation import ensure_prepared
from ..registry import TaskSpec, load_task
from ..runner import RunRequest, RunResult
from ..store.ids import new_run_id
from .dataset import Case, Dataset, load_dataset
from .facts_model import case_script, check_task, flaw_of, is_facts_model, write_script
from .html import render_html
from .report import CaseRun, EvalReport, summarise
from .store import EvalStore

__all__ = ["EvalPlan", "plan_eval", "run_eval"]

MAX_REPEAT, MAX_CONCURRENCY = 100, 32


@dataclass
class EvalPlan:
    task: TaskSpec
    dataset: Dataset
    models: list[str]
    repeat: int
    concurrency: int
    scripts: dict[tuple[int, str], dict[str, list[str]]] = field(default_factory=dict)  # (case, model) → script


def plan_eval(settings: Settings, task_name: str, inputs: Path, models: list[str], *, repeat: int = 1,
              concurrency: int = 1) -> EvalPlan:
    """Validate an eval before anything runs or is written.

    Raises:
        UserError: unknown task, bad dataset (``file:line``), bad model spec, a repeated model,
            a case whose inputs the task's prepare step refuses (named by ``file:line``).
    """
    from ..models import validate_spec

    if not 1 <= repeat <= MAX_REPEAT:
        raise UserError(f"--repeat {repeat}: use 1 to {MAX_REPEAT}")
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise UserError(f"--concurrency {concurrency}: use 1 to {MAX_CONCURRENCY}")
    task = load_task(settings.tasks_dir, task_name)
    models = models or [settings.model]
    for model in models:
        if models.count(model) > 1:
            raise UserError(f"--model {model} is given twice; name every model once")
        if is_facts_model(model):
            check_task(task)
        else:
            validate_spec(model, settings)
    dataset = load_dataset(inputs, task)
    plan = EvalPlan(task=task, dataset=dataset, models=models, repeat=repeat, concurrency=concurrency)
    for index, case in enumerate(dataset.cases):
        try:
            prep = ensure_prepared(task, settings.state_dir, case.vars, settings=settings)
            for model in models:
                if is_facts_model(model):
                    cycles = case.max_cycles or settings.max_cycles
                    plan.scripts[(index, model)] = case_script(task, prep, case.vars, case.flaw or flaw_of(model),
                                                               cycles)
        except UserError as exc:
            raise UserError(f"{case.source}: case {case.name!r}: {exc}") from None
    return plan


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "case"


class _Capture:
    """An event sink noting, per run, its wall time (run_started → run_finished) and its ledger counts."""

    def __init__(self) -> None:
        self.started: dict[str, float] = {}
        self.seconds: dict[str, float] = {}
        self.grounding: dict[str, dict[str, Any]] = {}

    def __call__(self, event: RunEvent) -> None:
        if event.kind == EventKind.RUN_STARTED:
            self.started[event.run_id] = time.monotonic()
        elif event.kind == EventKind.ARTIFACT:
            grounding = event.payload.get("grounding")
            if isinstance(grounding, dict):
                self.grounding[event.run_id] = grounding
        elif event.kind == EventKind.RUN_FINISHED and event.run_id in self.started:
            self.seconds[event.run_id] = round(time.monotonic() - self.started[event.run_id], 3)


def _fill(row: CaseRun, result: RunResult, capture: _Capture, case: Case) -> None:
    usage = result.usage
    grounding = capture.grounding.get(result.run_id) or {}
    row.status = result.status if result.status in ("finished", "cancelled", "error") else "finished"
    row.verdict, row.verified, row.cycles = result.verdict, result.verified, result.cycles
    row.grounding = grounding.get("score")
    row.contradicted = int(grounding.get("contradicted") or 0)
    row.unverifiable = int(grounding.get("unverifiable") or 0)
    row.prompt_tokens = int(usage.get("prompt_tokens") or 0)
    row.completion_tokens = int(usage.get("completion_tokens") or 0)
    row.cost = usage.get("cost")
    row.seconds = capture.seconds.get(result.run_id)
    row.error = result.error
    if case.expect is not None and row.status == "finished":
        row.expected = case.expect.met(row.verdict, row.verified)


def new_report(settings: Settings, plan: EvalPlan, eval_id: str) -> EvalReport:
    runs = [CaseRun(case=case.name, model=model, repeat=r)
            for r in range(1, plan.repeat + 1) for case in plan.dataset.cases for model in plan.models]
    return EvalReport(eval_id=eval_id, task=plan.task.name, inputs=str(plan.dataset.path), layout=plan.dataset.layout,
                      models=plan.models, repeat=plan.repeat, concurrency=plan.concurrency, status="running",
                      started_at=utc_now(), cases=[c.name for c in plan.dataset.cases], runs=runs,
                      summary=summarise(plan.models, runs))


async def run_eval(settings: Settings, plan: EvalPlan, *, store: EvalStore | None = None,
                   stop: asyncio.Event | None = None,
                   on_progress: Callable[[EvalReport, CaseRun | None], None] | None = None) -> EvalReport:
    """Run ``plan`` and return its report (also written under ``<home>/evals/<eval_id>/``).

    ``on_progress`` is called once the report exists (with ``None``) and after every finished run.
    Setting ``stop`` cancels the running cases and starts no more; the report is then ``cancelled``
    and ``complete`` is false.

    Raises:
        StoreError: the eval folder or the traces folder cannot be written.
    """
    from ..executor import open_executor

    store = store or EvalStore(settings)
    stop = stop or asyncio.Event()
    eval_id = new_run_id()
    report = new_report(settings, plan, eval_id)
    started = time.monotonic()
    scripts: dict[tuple[int, str], str] = {}
    for (index, model), script in plan.scripts.items():
        name = f"{index + 1:03d}-{_slug(plan.dataset.cases[index].name)}-{_slug(model)}.json"
        dest = store.scripts_dir(eval_id) / name
        scripts[(index, model)] = "scripted:" + str(write_script(script, dest))
    store.save(report, html=render_html(report))
    if on_progress is not None:
        on_progress(report, None)
    case_index = {case.name: i for i, case in enumerate(plan.dataset.cases)}
    capture = _Capture()
    executor = open_executor(settings, sinks=[capture], concurrency=plan.concurrency, log_failures=False)
    queue: asyncio.Queue[CaseRun] = asyncio.Queue()
    for row in report.runs:
        queue.put_nowait(row)
    active: set[str] = set()

    async def worker() -> None:
        while not stop.is_set():
            try:
                row = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            index = case_index[row.case]
            case = plan.dataset.cases[index]
            model = scripts.get((index, row.model), row.model)
            try:
                row.run_id = await executor.submit(RunRequest(task=plan.task.name, model=model,
                                                              max_cycles=case.max_cycles, vars=case.vars))
                row.status = "running"
                active.add(row.run_id)
                result = await executor.wait(row.run_id)
                if result is None:
                    row.status = "cancelled"
                else:
                    _fill(row, result, capture, case)
            except PseError as exc:
                row.status, row.error = "error", str(exc).splitlines()[0][:500]
            except Exception as exc:  # one case's crash is that case's error; the eval goes on
                row.status, row.error = "error", f"{type(exc).__name__}: {exc}"[:500]
            finally:
                if row.run_id:
                    active.discard(row.run_id)
            report.summary = summarise(plan.models, report.runs)
            store.save(report)
            if on_progress is not None:
                on_progress(report, row)

    async def canceller() -> None:
        await stop.wait()
        for run_id in list(active):
            await executor.cancel(run_id)

    watch = asyncio.create_task(canceller())
    try:
        await asyncio.gather(*(worker() for _ in range(plan.concurrency)))
    finally:
        watch.cancel()
        await executor.shutdown()
        for row in report.runs:
            if row.status == "pending":
                row.status = "not_run"
            elif row.status == "running":  # stopped between submit and wait
                row.status = "cancelled"
        report.complete = not stop.is_set() and all(r.status in ("finished", "error") for r in report.runs)
        report.status = "completed" if report.complete else ("cancelled" if stop.is_set() else "error")
        report.ended_at = utc_now()
        report.seconds = round(time.monotonic() - started, 3)
        report.summary = summarise(plan.models, report.runs)
        store.save(report, html=render_html(report))
    return report
