"""TraceBuilder: a pure reducer from RunEvents to the ``trace.json`` document.

The builder does no I/O. Feed it events in ``seq`` order with :meth:`TraceBuilder.apply` and read
the document with :meth:`TraceBuilder.document`; :func:`TraceBuilder.from_events` does both. The
document shape is described in ``docs/trace-format.md`` (``schema_version`` 1).

Usage is *summed from events*, never copied from reported totals: every ``message`` and
``tool_call`` event whose ``usage`` is not null counts as one model call. A cost of ``null`` in any
counted part makes the sum ``null`` (unknown, not zero).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.names import RUN_STATUSES
from autogen_pse.provenance import combined_sha
from autogen_pse.store.rows import RunRow

__all__ = ["RUN_STATUSES", "TRACE_SCHEMA_VERSION", "TraceBuilder", "empty_usage"]

TRACE_SCHEMA_VERSION = 1
_FINAL_STATUSES = frozenset({"finished", "error", "cancelled"})


def empty_usage(*, per_agent: bool = True) -> dict[str, Any]:
    """A zero USAGE dict: ``{model_calls, prompt_tokens, completion_tokens, cost, currency, per_agent}``."""
    usage: dict[str, Any] = {
        "model_calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cost": 0.0,
        "currency": None,
    }
    if per_agent:
        usage["per_agent"] = {}
    return usage


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _add_usage(total: dict[str, Any], part: dict[str, Any]) -> None:
    """Add one call's ``{prompt_tokens, completion_tokens, cost}`` to ``total`` (in place)."""
    total["model_calls"] += 1
    total["prompt_tokens"] += _int(part.get("prompt_tokens"))
    total["completion_tokens"] += _int(part.get("completion_tokens"))
    cost = part.get("cost")
    if total["cost"] is None or not isinstance(cost, int | float) or isinstance(cost, bool):
        total["cost"] = None
    else:
        total["cost"] = round(total["cost"] + float(cost), 10)


def _verdict(raw: Any) -> dict[str, Any] | None:
    """Normalise a verdict payload to ``{outcome, reason, issues, summary}`` (None stays None)."""
    if raw is None:
        return None
    if isinstance(raw, str):
        return {"outcome": raw, "reason": None, "issues": [], "summary": None}
    if not isinstance(raw, dict):
        return None
    issues = raw.get("issues")
    return {
        "outcome": raw.get("outcome"),
        "reason": raw.get("reason"),
        "issues": list(issues) if isinstance(issues, list | tuple) else [],
        "summary": raw.get("summary"),
    }


class TraceBuilder:
    """Reduce a run's events to the trace document.

    Events with a ``seq`` not above the last applied one are ignored (replays are idempotent).
    Events of a cycle that never sent ``cycle_started`` create that cycle with ``kind`` null.
    """

    def __init__(self) -> None:
        self._doc: dict[str, Any] = {
            "schema_version": TRACE_SCHEMA_VERSION,
            "run_id": None,
            "task": None,
            "model": None,
            "status": "running",
            "verdict": None,
            "reason": None,
            "limit": None,
            "started_at": None,
            "ended_at": None,
            "vars": {},
            "limits": {},
            "error": None,
            "prepared": None,
            "retrievals": [],
            "cycles": [],
            "usage": empty_usage(),
            "final_checks": [],
            "sanitize_changes": [],
            "artifact": None,
            "grounding": None,
            "ledger": None,
            "warnings": [],
            "provenance": None,
            "prompt_sha": None,
            "ingest": None,
            "retries": 0,
            "resumed": [],
            "last_seq": 0,
        }
        self._cycles: dict[int, dict[str, Any]] = {}

    # --- public ----------------------------------------------------------------------------
    @classmethod
    def from_events(cls, events: Iterable[RunEvent]) -> TraceBuilder:
        """A builder with every event of ``events`` applied in order."""
        builder = cls()
        for event in events:
            builder.apply(event)
        return builder

    @property
    def last_seq(self) -> int:
        """``seq`` of the last applied event (0 before any)."""
        return int(self._doc["last_seq"])

    def document(self) -> dict[str, Any]:
        """A deep copy of the current trace document (safe to mutate or serialise)."""
        return copy.deepcopy(self._doc)

    def json_text(self) -> str:
        """The current document as ``trace.json``'s text (compact UTF-8 JSON, one line; no copy
        made). Compact on purpose: ``indent`` switches json to its pure-Python encoder, ~10x slower
        on a long run's document; ``pse trace show --json`` prints it indented."""
        return json.dumps(self._doc, ensure_ascii=False, separators=(",", ":")) + "\n"

    def row(self, trace_dir: Path) -> RunRow:
        """The run index row of the current document (no copy made)."""
        return RunRow.from_trace(self._doc, trace_dir=trace_dir)

    def apply(self, event: RunEvent) -> None:
        """Fold one event into the document. Unknown payload fields are ignored, missing ones are null."""
        doc = self._doc
        if event.seq <= doc["last_seq"]:
            return
        if doc["run_id"] is None:
            doc["run_id"] = event.run_id
        doc["last_seq"] = event.seq
        if doc["started_at"] is None:
            doc["started_at"] = event.ts
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event, event.payload or {})

    # --- helpers ---------------------------------------------------------------------------
    def _cycle(self, index: int) -> dict[str, Any] | None:
        """The cycle with 1-based ``index``, created on first use; None for run-level (0)."""
        if index < 1:
            return None
        cycle = self._cycles.get(index)
        if cycle is None:
            cycle = {
                "index": index,
                "kind": None,
                "task_text": None,
                "started_at": None,
                "ended_at": None,
                "messages": [],
                "verdict": None,
                "verdict_origin": None,
                "checks": [],
                "ledger": None,
                "retrievals": [],
                "prompts": {},
                "retries": [],
                "usage": empty_usage(),
            }
            self._cycles[index] = cycle
            self._doc["cycles"].append(cycle)
            self._doc["cycles"].sort(key=lambda c: c["index"])
        return cycle

    def _count_usage(self, cycle: dict[str, Any] | None, source: str, usage: Any) -> None:
        if not isinstance(usage, dict):
            return
        role = source or "unknown"
        targets = [self._doc["usage"]]
        if cycle is not None:
            targets.append(cycle["usage"])
        for total in targets:
            _add_usage(total, usage)
            agent = total["per_agent"].setdefault(
                role, {"model_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0}
            )
            _add_usage(agent, usage)

    def _set_currency(self, usage: Any) -> None:
        if isinstance(usage, dict) and isinstance(usage.get("currency"), str):
            self._doc["usage"]["currency"] = usage["currency"]
            for cycle in self._doc["cycles"]:
                cycle["usage"]["currency"] = usage["currency"]

    # --- handlers (one per kind) -----------------------------------------------------------
    def _run_started(self, event: RunEvent, p: dict[str, Any]) -> None:
        doc = self._doc
        doc.update(
            task=p.get("task"),
            model=p.get("model"),
            started_at=event.ts,
            status="running",
            vars=dict(p.get("vars") or {}),
            limits=dict(p.get("limits") or {}),
            provenance=dict(p["provenance"]) if isinstance(p.get("provenance"), dict) else None,
        )

    def _prepared(self, event: RunEvent, p: dict[str, Any]) -> None:
        self._doc["prepared"] = {
            "facts": p.get("facts"),
            "reprepared": p.get("reprepared"),
            "facts_path": p.get("facts_path"),
            "seconds": p.get("seconds"),
        }

    def _prompt(self, event: RunEvent, p: dict[str, Any]) -> None:
        cycle = self._cycle(event.cycle)
        if cycle is None:
            return
        cycle["prompts"][str(p.get("role"))] = {"sha256": p.get("sha256"), "chars": p.get("chars"),
                                                "text": p.get("text")}
        if self._doc["prompt_sha"] is None or cycle["index"] == self._doc["cycles"][0]["index"]:
            self._doc["prompt_sha"] = combined_sha({r: str(v["sha256"]) for r, v in cycle["prompts"].items()})

    def _retry(self, event: RunEvent, p: dict[str, Any]) -> None:
        self._doc["retries"] += 1
        cycle = self._cycle(event.cycle)
        if cycle is not None:
            cycle["retries"].append({"seq": event.seq, "ts": event.ts, "role": p.get("role"),
                                     "attempt": p.get("attempt"), "error_kind": p.get("error_kind"),
                                     "wait": p.get("wait")})

    def _ingested(self, event: RunEvent, p: dict[str, Any]) -> None:
        self._doc["ingest"] = dict(p)

    def _resumed(self, event: RunEvent, p: dict[str, Any]) -> None:
        doc = self._doc
        doc["resumed"].append({"seq": event.seq, "ts": event.ts, **p})
        doc.update(status="running", ended_at=None, error=None, verdict=None, reason=None, limit=None)
        keep = _int(p.get("from_cycle")) - 1  # cycles after the last completed one are run again
        for index in [i for i in self._cycles if i > keep]:
            doc["cycles"].remove(self._cycles.pop(index))

    def _retrieval(self, event: RunEvent, p: dict[str, Any]) -> None:
        entry = {
            "seq": event.seq,
            "ts": event.ts,
            "role": p.get("role"),
            "query": p.get("query"),
            "partition": _partition(p.get("partition")),
            "via": p.get("via"),
            "chunks": list(p.get("chunks") or []),
        }
        cycle = self._cycle(event.cycle)
        (cycle["retrievals"] if cycle is not None else self._doc["retrievals"]).append(entry)

    def _cycle_started(self, event: RunEvent, p: dict[str, Any]) -> None:
        cycle = self._cycle(_int(p.get("index")) or event.cycle)
        if cycle is None:
            return
        cycle.update(kind=p.get("kind"), task_text=p.get("task_text"), started_at=event.ts)
        cycle["usage"]["currency"] = self._doc["usage"]["currency"]

    def _message(self, event: RunEvent, p: dict[str, Any]) -> None:
        message: dict[str, Any] = {
            "seq": event.seq,
            "ts": event.ts,
            "source": p.get("source"),
            "type": p.get("type"),
            "content": p.get("content"),
        }
        if event.kind == EventKind.TOOL_CALL:
            message["type"] = "tool_call"
            message["content"] = None
            message["tool_calls"] = list(p.get("calls") or [])
        elif event.kind == EventKind.TOOL_RESULT:
            message["type"] = "tool_result"
            message["content"] = None
            message["tool_results"] = list(p.get("results") or [])
        usage = p.get("usage") if event.kind != EventKind.TOOL_RESULT else None
        message["usage"] = dict(usage) if isinstance(usage, dict) else None
        cycle = self._cycle(event.cycle)
        if cycle is None:
            cycle = self._cycle(len(self._doc["cycles"]) or 1)
        assert cycle is not None
        cycle["messages"].append(message)
        self._count_usage(cycle, str(p.get("source") or ""), usage)

    def _verdict_event(self, event: RunEvent, p: dict[str, Any]) -> None:
        cycle = self._cycle(event.cycle) or (self._doc["cycles"][-1] if self._doc["cycles"] else None)
        if cycle is None:
            return
        cycle["verdict"] = _verdict(p)
        cycle["verdict_origin"] = p.get("origin")

    def _check(self, event: RunEvent, p: dict[str, Any]) -> None:
        check = {"seq": event.seq, **p}
        cycle = self._cycle(event.cycle)
        if p.get("phase") == "final" or cycle is None:
            self._doc["final_checks"].append(check)
        else:
            cycle["checks"].append(check)

    def _ledger(self, event: RunEvent, p: dict[str, Any]) -> None:
        ledger = {"seq": event.seq, **p}
        cycle = self._cycle(event.cycle)
        if p.get("phase") == "final" or cycle is None:
            self._doc["ledger"] = ledger
        else:
            cycle["ledger"] = ledger

    def _usage(self, event: RunEvent, p: dict[str, Any]) -> None:
        # Reported totals are not added (they would double count); only the currency is taken.
        self._set_currency(p.get("usage"))

    def _cycle_finished(self, event: RunEvent, p: dict[str, Any]) -> None:
        cycle = self._cycle(_int(p.get("index")) or event.cycle)
        if cycle is None:
            return
        cycle["ended_at"] = event.ts
        verdict = _verdict(p.get("verdict"))
        if verdict is not None:
            cycle["verdict"] = verdict
        self._set_currency(p.get("usage"))

    def _sanitized(self, event: RunEvent, p: dict[str, Any]) -> None:
        self._doc["sanitize_changes"].extend(list(p.get("changes") or []))

    def _artifact(self, event: RunEvent, p: dict[str, Any]) -> None:
        self._doc["artifact"] = {
            "path": p.get("path"),
            "raw_path": p.get("raw_path"),
            "verified": p.get("verified"),
            "issues": list(p.get("issues") or []),
        }
        self._doc["grounding"] = p.get("grounding")

    def _warning(self, event: RunEvent, p: dict[str, Any]) -> None:
        self._doc["warnings"].append(
            {"seq": event.seq, "ts": event.ts, "cycle": event.cycle, "message": p.get("message")}
        )

    def _run_finished(self, event: RunEvent, p: dict[str, Any]) -> None:
        doc = self._doc
        status = p.get("status")
        doc["status"] = status if status in _FINAL_STATUSES else "error"
        verdict = p.get("verdict")
        doc["verdict"] = verdict.get("outcome") if isinstance(verdict, dict) else verdict
        doc["reason"] = p.get("reason")
        doc["limit"] = p.get("limit")
        doc["error"] = p.get("error")
        doc["ended_at"] = event.ts
        self._set_currency(p.get("usage"))
        if doc["artifact"] is None and p.get("artifact_path"):
            doc["artifact"] = {
                "path": p.get("artifact_path"),
                "raw_path": None,
                "verified": p.get("verified"),
                "issues": [],
            }
        elif doc["artifact"] is not None and p.get("verified") is not None:
            doc["artifact"]["verified"] = p.get("verified")


_HANDLERS = {
    EventKind.RUN_STARTED: TraceBuilder._run_started,
    EventKind.PREPARED: TraceBuilder._prepared,
    EventKind.RETRIEVAL: TraceBuilder._retrieval,
    EventKind.CYCLE_STARTED: TraceBuilder._cycle_started,
    EventKind.MESSAGE: TraceBuilder._message,
    EventKind.TOOL_CALL: TraceBuilder._message,
    EventKind.TOOL_RESULT: TraceBuilder._message,
    EventKind.VERDICT: TraceBuilder._verdict_event,
    EventKind.CHECK: TraceBuilder._check,
    EventKind.LEDGER: TraceBuilder._ledger,
    EventKind.USAGE: TraceBuilder._usage,
    EventKind.CYCLE_FINISHED: TraceBuilder._cycle_finished,
    EventKind.SANITIZED: TraceBuilder._sanitized,
    EventKind.ARTIFACT: TraceBuilder._artifact,
    EventKind.WARNING: TraceBuilder._warning,
    EventKind.RUN_FINISHED: TraceBuilder._run_finished,
    EventKind.PROMPT: TraceBuilder._prompt,
    EventKind.RETRY: TraceBuilder._retry,
    EventKind.INGESTED: TraceBuilder._ingested,
    EventKind.RESUMED: TraceBuilder._resumed,
}


def _partition(value: Any) -> str | None:
    """A retrieval's ``partition`` as the trace format has it: a string (event logs written before
    the grounding step joined them hold a list of partitions) or None."""
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or None
    return value if value is None or isinstance(value, str) else str(value)
