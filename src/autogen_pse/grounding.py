"""Grounding of a run before generation: ingest changed knowledge, retrieve per role, redact.

Queries come from the task's salient fields (``Prepared.data["retrieval_queries"]`` set by the
prepare hook, else the registry's ``retrieval_fields`` values), never from prompt boilerplate.
Role → partitions comes from the registry's ``knowledge`` map (default: every partition).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .config import Settings
from .events import EventEmitter, EventKind
from .hooks import Prepared
from .registry import ROLES, TaskSpec

MAX_QUERIES = 6


@dataclass
class Grounding:
    """Per-role context text, the retrieval records for the trace, and optional PII redaction."""

    context: dict[str, str] = field(default_factory=dict)
    retrievals: list[dict[str, Any]] = field(default_factory=list)
    settings: Settings | None = None
    task: TaskSpec | None = None
    redactor: Any = None  # autogen_pse.redact.Redactor when the task redacts PII for remote models
    ingest: dict[str, Any] | None = None  # the ``ingested`` event payload (tasks with a knowledge folder)

    def redact(self, text: str) -> str:
        return self.redactor.redact(text) if self.redactor is not None else text

    def restore(self, text: str) -> str:
        return self.redactor.restore(text) if self.redactor is not None else text

    def kb_search_for(self, role: str, emitter: EventEmitter) -> Callable[..., Awaitable[str]] | None:
        """The ``kb_search`` tool body for ``role``; each call's hits become a retrieval event."""
        if self.settings is None or self.task is None or not (self.task.dir / "knowledge").is_dir():
            return None
        from .knowledge.retrieve import make_kb_search

        partitions = _partitions(self.task, role)

        def record(query: str, hits: list[Any]) -> None:
            emitter.emit(EventKind.RETRIEVAL, _record(role, query, partitions, hits, via="kb_search"),
                         cycle=emitter.current_cycle)

        def failed(query: str, message: str) -> None:  # recorded, never mistaken for "no matches"
            emitter.emit(EventKind.WARNING, {"message": f"kb_search by {role} failed: {message}"},
                         cycle=emitter.current_cycle)

        search = make_kb_search(self.settings, self.task.name, partitions, on_hits=record, on_error=failed)
        if self.redactor is None:
            return search

        @functools.wraps(search)  # same name, docstring and signature: the tool schema is unchanged
        async def kb_search(*args: Any, **kwargs: Any) -> str:
            # knowledge files may hold contact details too: they reach the remote model redacted
            return self.redact(await search(*args, **kwargs))

        return kb_search


def prepare_grounding(task: TaskSpec, prepared: Prepared, settings: Settings, *, remote: bool) -> Grounding:
    """Ingest the task's changed knowledge and retrieve context for each role. ``remote`` is the
    opened provider's answer to "do prompts leave this machine?" (it turns PII redaction on).

    Raises:
        ServiceError: the Chroma server is unreachable (exit 3).
        UserError: embedding model missing (one line naming the fix).
    """
    ground = Grounding(settings=settings, task=task)
    if task.entry.redact_pii and remote:
        from .redact import Redactor

        ground.redactor = Redactor()
    if not (task.dir / "knowledge").is_dir():
        return ground
    from .knowledge.ingest import ingest
    from .knowledge.retrieve import search

    report = ingest(settings, task.name, task.dir)
    started = time.monotonic()
    queries = _queries(task, prepared)
    for role in ROLES:
        partitions = _partitions(task, role)
        seen: dict[str, Any] = {}
        for query in queries:
            hits = search(settings, task.name, query, k=settings.retrieval_k, partition=partitions)
            ground.retrievals.append(_record(role, query, partitions, hits, via="pre-generation"))
            for hit in hits:
                if hit.id not in seen or hit.score > seen[hit.id].score:
                    seen[hit.id] = hit
        best = sorted(seen.values(), key=lambda h: h.score, reverse=True)[: settings.retrieval_k * 2]
        ground.context[role] = "\n\n".join(
            f"[{n}] ({h.source}{' › ' + h.heading if h.heading else ''}; score {h.score:.2f})\n{h.text.strip()}"
            for n, h in enumerate(best, 1)
        )
    ground.ingest = {
        "collection": report.collection, "embedding": report.embedding,
        "added_files": len(report.added_files), "updated_files": len(report.updated_files),
        "removed_files": len(report.removed_files), "skipped_files": len(report.skipped_files),
        "chunks_added": report.chunks_added, "chunks_removed": report.chunks_removed,
        "seconds": round(report.seconds, 3), "embed_seconds": round(report.embed_seconds, 3),
        "retrieval_seconds": round(time.monotonic() - started, 3), "queries": len(queries) * len(ROLES),
    }
    return ground


def _partitions(task: TaskSpec, role: str) -> list[str] | None:
    parts = task.entry.knowledge.get(role)
    return list(parts) if parts else None


def _queries(task: TaskSpec, prepared: Prepared) -> list[str]:
    queries = prepared.data.get("retrieval_queries")
    if isinstance(queries, list) and queries:
        return [str(q) for q in queries][:MAX_QUERIES]
    values = [str(task.entry.vars.get(f, "")) for f in task.entry.retrieval_fields]
    values = [v for v in values if v]
    return (values or [task.entry.title])[:MAX_QUERIES]


def _record(role: str, query: str, partitions: list[str] | None, hits: list[Any], *, via: str) -> dict[str, Any]:
    """A ``retrieval`` payload; ``partition`` is a string as the trace format says (``"market"``,
    ``"market,source"``) or None for every partition."""
    return {
        "role": role, "query": query, "partition": ",".join(partitions) if partitions else None, "via": via,
        "chunks": [{"id": h.id, "source": h.source, "heading": h.heading, "score": round(h.score, 4)} for h in hits],
    }
