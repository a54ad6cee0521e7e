"""``pse replay RUN_ID``: run a recorded run again, deterministically, from its trace.

:func:`script_from_events` turns a run's events into a scripted-model file
(docs/scripted-model.md): every model call's reply — a ``message`` or ``tool_call`` event with
usage — in order per role, and every retry as the same fault (``retry`` events; rate limits with
``retry_after: 0``). Calls of a cycle that a ``resumed`` event superseded are left out. The
replayed run uses the current task code and checks with the recorded replies, task, vars, limits
and artifact mode, so its messages are the recorded ones and its verdicts and checks show what
the current checks make of them.

:func:`recheck` runs only the current checks (and sanitize rules) on the recorded artifact, the
way the final checks run, and compares them with the recorded final checks.

What a replay cannot reproduce is reported as notes: a message cut in the trace (longer than the
event cap), a model call that left no message (an artifact re-ask), tool arguments that were not
a JSON object.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import Settings
from .errors import UserError
from .events import EventKind, RunEvent
from .registry import ROLES

_FAULTS: dict[str, dict[str, Any]] = {
    "rate limit": {"error": "rate_limit", "retry_after": 0}, "server error": {"error": "server"},
    "timeout": {"error": "timeout"}, "connection error": {"error": "connection"}}
TRUNCATED = "…[truncated "
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:s|ms|sec|seconds)\b")
_TMP = re.compile(r"/tmp/[^\s'\"]+")


@dataclass
class ReplayScript:
    """A scripted-model document and what it could not reproduce."""

    doc: dict[str, list[Any]] = field(default_factory=lambda: {r: [] for r in ROLES})
    notes: list[str] = field(default_factory=list)

    @property
    def calls(self) -> int:
        """Model calls the script answers (replies and faults)."""
        return sum(len(v) for v in self.doc.values())

    @property
    def replies(self) -> int:
        """Recorded replies (faults not counted)."""
        return sum(1 for v in self.doc.values() for r in v if not (isinstance(r, dict) and "error" in r))


def _superseded(events: list[RunEvent]) -> set[int]:
    """Seqs of events in cycles that a later ``resumed`` event ran again."""
    out: set[int] = set()
    for r in (e for e in events if e.kind == EventKind.RESUMED):
        start = int(r.payload.get("from_cycle") or 1)
        out |= {e.seq for e in events if e.seq < r.seq and e.cycle >= start}
    return out


def _fault(kind: str) -> dict[str, Any]:
    for prefix, fault in _FAULTS.items():
        if kind.startswith(prefix):
            return dict(fault)
    return {"error": "server"}


def script_from_events(events: Iterable[RunEvent]) -> ReplayScript:
    """The scripted-model document that replays ``events`` (see the module docstring)."""
    events = list(events)
    skip = _superseded(events)
    out = ReplayScript()
    calls: Counter[str] = Counter()
    replies: Counter[str] = Counter()
    for e in events:
        if e.seq in skip:
            continue
        p = e.payload
        if e.kind == EventKind.MODEL_CALL:
            calls[str(p.get("role"))] += 1
            continue
        role = str(p.get("source") or p.get("role") or "")
        if role not in out.doc:
            continue
        if e.kind == EventKind.RETRY:
            out.doc[role].append(_fault(str(p.get("error_kind") or "")))
        elif e.kind == EventKind.TOOL_CALL and p.get("usage") is not None:
            tool_calls = []
            for c in p.get("calls") or []:
                args = c.get("arguments")
                if not isinstance(args, dict):
                    out.notes.append(f"seq {e.seq}: {role}'s call of {c.get('name')} had arguments that are not "
                                     "a JSON object; replayed with {}")
                    args = {}
                tool_calls.append({"name": c.get("name"), "arguments": args})
            out.doc[role].append({"tool_calls": tool_calls})
            replies[role] += 1
        elif e.kind == EventKind.MESSAGE and p.get("usage") is not None and p.get("type") != "ThoughtEvent":
            content = str(p.get("content") or "")
            if TRUNCATED in content:
                out.notes.append(f"seq {e.seq}: {role}'s message was cut in the trace; the replay sends the cut text")
            out.doc[role].append(content)
            replies[role] += 1
    for role in ROLES:
        if calls[role] > replies[role]:
            out.notes.append(f"{calls[role] - replies[role]} model call(s) of the {role} left no message "
                             "(e.g. an artifact re-ask); the replay may differ from there on")
    return out


def _started(events: list[RunEvent], run_id: str) -> dict[str, Any]:
    started = next((e.payload for e in events if e.kind == EventKind.RUN_STARTED), None)
    if started is None:
        raise UserError(f"run {run_id} has no run_started event; it cannot be replayed")
    return started


def plan_replay(run_id: str, settings: Settings, store: Any) -> tuple[Any, ReplayScript, Path, Settings]:
    """Write ``<state_dir>/replays/<run_id>.json`` and a plan that runs it: ``(plan, script, path, settings)``.

    Raises:
        UserError: invalid or unknown id, a run still running, a run without model calls, a task
            that no longer exists or whose vars no longer validate.
    """
    from .cycle import Limits
    from .runner import RunRequest, plan_run
    from .store.files import atomic_write_json

    row = store.get(run_id)
    if row.status == "running":
        raise UserError(f"run {run_id} is still running; replay it after it ends")
    events = store.read_events(run_id)
    started = _started(events, run_id)
    script = script_from_events(events)
    if script.replies == 0:
        raise UserError(f"run {run_id} recorded no model replies; there is nothing to replay")
    path = Path(settings.state_dir) / "replays" / f"{run_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, {r: v for r, v in script.doc.items() if v})
    mode = (started.get("artifact") or {}).get("mode")
    # the recorded faults come back at once: retry waits are times, and a replay keeps no times
    update: dict[str, Any] = {"retry_base_delay": min(settings.retry_base_delay, 0.01),
                              "retry_max_delay": min(settings.retry_max_delay, 0.01)}
    if mode in ("structured", "prose"):
        update["artifact_mode"] = mode
    settings = settings.model_copy(update=update)
    request = RunRequest(task=str(started.get("task")), model=f"scripted:{path}", vars=dict(started.get("vars") or {}))
    plan = plan_run(request, settings)
    limits = {k: v for k, v in (started.get("limits") or {}).items() if k in Limits.__dataclass_fields__}
    if limits:
        plan.limits = Limits(**limits)
    plan.replay_of = run_id
    return plan, script, path, settings


@dataclass
class CheckDiff:
    name: str
    recorded: bool | None  # None: the recorded run had no such check
    now: bool | None  # None: the current checks no longer have it
    severity: str
    detail: str


def compare_checks(recorded: list[dict[str, Any]], now: list[dict[str, Any]]) -> list[CheckDiff]:
    """One row per check name of either list (recorded order first)."""
    before = {c["name"]: c for c in recorded}
    after = {c["name"]: c for c in now}
    names = list(before) + [n for n in after if n not in before]
    return [CheckDiff(name=n, recorded=before[n]["ok"] if n in before else None,
                      now=after[n]["ok"] if n in after else None,
                      severity=str((after.get(n) or before[n]).get("severity")),
                      detail=str((after.get(n) or before[n]).get("detail") or "")) for n in names]


async def recheck(run_id: str, settings: Settings, store: Any) -> tuple[list[CheckDiff], Any]:
    """Run the current checks on ``run_id``'s recorded artifact; ``(diffs, current results)``.

    Raises:
        UserError: invalid or unknown id, a run without a recorded artifact, a task that no longer
            exists or whose vars no longer validate.
    """
    from .checking import Checker
    from .preparation import ensure_prepared
    from .registry import load_task

    doc = store.load_trace(run_id)
    run_dir = store.run_dir(run_id)
    raw_path = run_dir / "artifact.raw.md"
    if not raw_path.is_file():
        raise UserError(f"run {run_id} has no recorded artifact (it ended {doc.get('status')} before one); "
                        "nothing to re-check")
    raw = raw_path.read_text(encoding="utf-8")
    task = load_task(settings.tasks_dir, str(doc.get("task")))
    vars = dict(doc.get("vars") or {})
    prep = ensure_prepared(task, settings.state_dir, vars)
    with tempfile.TemporaryDirectory(prefix="pse-recheck-") as tmp:  # the recorded workspace stays untouched
        workspace = Path(tmp) / "workspace"
        if (run_dir / "workspace").is_dir():
            shutil.copytree(run_dir / "workspace", workspace, symlinks=True)
        else:
            workspace.mkdir()
        checker = Checker(task, facts=prep.prepared.facts, data=prep.prepared.data, workspace=workspace,
                          vars=vars, settings=settings)
        rendered, unknown = checker.render(raw)
        sanitized = await asyncio.to_thread(checker.sanitize, rendered)
        results = await asyncio.to_thread(checker.check, sanitized.artifact, raw=raw, unknown=unknown)
    now = [r.model_dump() for r in results]
    return compare_checks(list(doc.get("final_checks") or []), now), results


def comparable(events: Iterable[RunEvent]) -> list[tuple[str, int, Any]]:
    """Events as ``(kind, cycle, payload)`` without what differs between two runs of the same
    replies: ids, times, paths, durations, the model's name, the knowledge base's state."""
    volatile = {"trace_dir", "workspace", "path", "raw_path", "artifact_path", "facts_path", "seconds",
                "tokens_per_s", "ttft", "latency", "wait", "model", "model_spec", "elapsed", "provenance",
                "reprepared", "replay_of"}
    skip = {EventKind.MODEL_WAIT, EventKind.INGESTED}

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if k not in volatile}
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, str):  # durations inside texts ("5 passed in 0.01s") and temp folder names
            return _TMP.sub("<tmp>", _DURATION.sub("<t>", value))
        return value

    return [(e.kind.value, e.cycle, json.loads(json.dumps(clean(e.payload)))) for e in events if e.kind not in skip]
