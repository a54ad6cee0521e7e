"""``pse run --resume RUN_ID``: continue an interrupted, cancelled or error run after its last completed cycle.

After every cycle that does not end the run, the cycle loop's state is saved atomically to
``traces/<run_id>/checkpoint.json``: the cycle index, the artifact, the verdict (with its issues),
the PARTIAL/FAIL counters, the next cycle's kind and task text, the model spec and — for a
scripted model — its reply cursors. A resumed run builds fresh agents, restores that state, and
appends to the same trace (``seq`` goes on) after a ``resumed`` event; its usage totals (and the
token budget) start from the recorded calls, those of the interrupted cycle included. Without a checkpoint (the
run died in its first cycle) it starts again at cycle 1. A files task's ``workspace/`` is the
run's own folder: files written by the interrupted cycle stay in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import Settings
from .errors import UserError
from .store.files import atomic_write_json, is_locked
from .store.layout import EVENTS_FILE

CHECKPOINT_FILE = "checkpoint.json"
RESUMABLE = ("interrupted", "error", "cancelled")


@dataclass(frozen=True)
class ResumePoint:
    """Where a resumed run continues: the loop state after its last completed cycle (``cycle``),
    as :attr:`CycleInputs.on_checkpoint` saved it."""

    cycle: int
    artifact: str
    verdict: dict[str, Any]
    partial: int
    fail: int
    next_kind: str
    next_text: str

    def checkpoint(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Resumption:
    """What :func:`plan_resume` found: the point to continue from (None: start at cycle 1)."""

    point: ResumePoint | None
    previous_status: str
    previous_error: str | None
    last_seq: int
    cursors: dict[str, int] | None
    model_spec: str | None
    usage: tuple[tuple[str, int, int], ...] = ()  # (role, prompt, completion) of every recorded model call


def save_checkpoint(run_dir: Path, point: ResumePoint, provider: Any, model_spec: str) -> None:
    """Write ``checkpoint.json`` (atomic) for ``point``; raises StoreError when it cannot be written.

    Atomic but not fsync'ed, like ``trace.json``: ``events.jsonl`` is the run's durable record. After a
    power loss the checkpoint may be a cycle behind the log; a resume then runs that cycle again (the
    ``resumed`` event supersedes the recorded cycles from ``from_cycle`` on)."""
    cursors = getattr(provider, "cursors", None)
    atomic_write_json(run_dir / CHECKPOINT_FILE, {**point.checkpoint(), "model_spec": model_spec,
                                                  "cursors": dict(cursors) if isinstance(cursors, dict) else None},
                      durable=False)


def _load_checkpoint(run_dir: Path) -> tuple[ResumePoint | None, dict[str, Any]]:
    import json

    path = run_dir / CHECKPOINT_FILE
    if not path.is_file():
        return None, {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        fields = {k: raw[k] for k in ResumePoint.__dataclass_fields__}
        return ResumePoint(**fields), raw
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: unreadable checkpoint ({exc}); the run cannot be resumed, start a new one") from None


def plan_resume(run_id: str, settings: Settings, *, model: str | None = None, store: Any = None) -> Any:
    """A :class:`~autogen_pse.runner.PreparedRun` that continues ``run_id`` (same task, vars and
    limits; the recorded model unless ``model`` is given).

    Raises:
        UserError: invalid or unknown id, a run still running or one that ended normally, a
            task or model that no longer validates, an unreadable checkpoint.
    """
    from .cycle import Limits
    from .runner import RunRequest, plan_run
    from .store import TraceStore

    store = store or TraceStore(settings)
    run_dir = store.run_dir(run_id)
    if is_locked(run_dir / EVENTS_FILE):
        raise UserError(f"run {run_id} is still running; stop it first (Ctrl-C, or Cancel on the dashboard)")
    store.recover_interrupted()
    doc = store.load_trace(run_id, fresh=True)
    status = str(doc.get("status"))
    if status == "running":  # no writer, not yet marked: the process died
        status = "interrupted"
    if status not in RESUMABLE:
        raise UserError(f"run {run_id} ended {doc.get('verdict') or status}; only an interrupted, cancelled or error "
                        f"run can be resumed (start a new run with `pse run {doc.get('task')}`)")
    point, raw = _load_checkpoint(run_dir)
    events = store.read_events(run_id)
    started = next((e.payload for e in events if e.kind == "run_started"), None)
    if started is None:
        raise UserError(f"run {run_id} has no run_started event; it cannot be resumed, start a new run")
    spec = model or raw.get("model_spec") or started.get("model_spec") or started.get("model")
    request = RunRequest(task=str(doc.get("task")), model=spec, vars=dict(doc.get("vars") or {}))
    plan = plan_run(request, settings)
    limits = {k: v for k, v in (doc.get("limits") or {}).items() if k in Limits.__dataclass_fields__}
    if limits:
        plan.limits = Limits(**limits)
    plan.run_id = run_id
    plan.resume = Resumption(point=point, previous_status=status, previous_error=doc.get("error"),
                             last_seq=events[-1].seq if events else 0, cursors=raw.get("cursors"),
                             model_spec=raw.get("model_spec"), usage=tuple(
                                 (str(e.payload.get("source")), int(e.payload["usage"].get("prompt_tokens") or 0),
                                  int(e.payload["usage"].get("completion_tokens") or 0))
                                 for e in events if e.kind in ("message", "tool_call")
                                 and isinstance(e.payload.get("usage"), dict)))
    return plan
