"""Search a task's knowledge base; the agents' ``kb_search`` tool; store statistics.

Scores are ``1 - cosine distance`` (1.0 = same direction; MiniLM scores of related text are
typically 0.3–0.8). A reranker may reorder the candidates (``rerank(query, hits) → hits``);
:func:`lexical_rerank` is a simple one based on word overlap.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..errors import RunError, UserError

Rerank = Callable[[str, list["Hit"]], list["Hit"]]
OnHits = Callable[[str, list["Hit"]], Any]
MAX_K = 50
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    _WORD.findall(
        "a an and are as at be by can did do does for from how in is it of on or that the this to was "
        "what when where which who why with"
    )
)


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk. ``score`` = 1 - cosine distance; ``rerank_score`` set by a reranker."""

    id: str
    source: str
    heading: str
    partition: str
    score: float
    text: str
    rerank_score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_event(self) -> dict[str, Any]:
        """The ``retrieval`` event's chunk shape: ``{id, source, heading, score}``."""
        return {"id": self.id, "source": self.source, "heading": self.heading, "score": round(self.score, 4)}


def _partitions(partition: str | list[str] | tuple[str, ...] | None) -> list[str]:
    if partition is None:
        return []
    items = [partition] if isinstance(partition, str) else list(partition)
    return sorted({p.strip() for p in items if p and p.strip()})


def search(
    settings: Any,
    task_name: str,
    query: str,
    *,
    k: int = 4,
    partition: str | list[str] | None = None,
    rerank: Rerank | None = None,
) -> list[Hit]:
    """The ``k`` chunks closest to ``query``, best first.

    Args:
        partition: one partition or a list; ``None``/empty searches all.
        rerank: optional reorderer; when given, ``4 * k`` candidates are fetched and it picks ``k``.

    Raises:
        UserError: empty query, ``k`` out of 1..50, no knowledge base for the task, unreachable
            Chroma server.
    """
    from .store import get_collection, open_client

    if not query or not query.strip():
        raise UserError("empty search query; pass some words to search for")
    if not 1 <= k <= MAX_K:
        raise UserError(f"k={k} is out of range; use 1..{MAX_K}")
    client = open_client(settings)
    coll, _ = get_collection(settings, task_name, create=False, client=client)
    if coll is None:
        raise UserError(f"no knowledge base for task {task_name!r}; run `pse kb ingest {task_name}` first")
    total = coll.count()
    if total == 0:
        return []
    parts = _partitions(partition)
    where: dict[str, Any] | None = None
    if len(parts) == 1:
        where = {"partition": parts[0]}
    elif parts:
        where = {"partition": {"$in": parts}}
    wanted = min(total, k * 4 if rerank else k)
    res = coll.query(
        query_texts=[query.strip()],
        n_results=wanted,
        where=where,
        include=["documents", "metadatas", "distances"],
    )
    ids = res["ids"][0]
    docs = (res["documents"] or [[]])[0]
    metas = (res["metadatas"] or [[]])[0]
    dists = (res["distances"] or [[]])[0]
    hits = [
        Hit(
            id=chunk_id,
            source=str((meta or {}).get("source", "")),
            heading=str((meta or {}).get("heading", "")),
            partition=str((meta or {}).get("partition", "")),
            score=1.0 - float(dist),
            text=doc or "",
        )
        for chunk_id, doc, meta, dist in zip(ids, docs, metas, dists, strict=True)
    ]
    if rerank is not None:
        hits = list(rerank(query, hits))
    return hits[:k]


def lexical_rerank(query: str, hits: list[Hit], *, weight: float = 0.3) -> list[Hit]:
    """Reorder by ``(1 - weight) * score + weight * overlap``.

    ``overlap`` = share of the query's content words (lower-cased, stop words dropped) found in the
    chunk's heading or text. Useful for exact names and codes that embeddings blur.
    """
    terms = {w for w in _WORD.findall(query.lower()) if w not in _STOP}
    if not terms:
        return hits
    scored = []
    for hit in hits:
        words = set(_WORD.findall(f"{hit.heading} {hit.text}".lower()))
        overlap = len(terms & words) / len(terms)
        scored.append(replace(hit, rerank_score=(1 - weight) * hit.score + weight * overlap))
    return sorted(scored, key=lambda h: h.rerank_score or 0.0, reverse=True)


def stats(settings: Any, task_name: str | None = None) -> dict[str, Any]:
    """Counts without loading any model.

    Returns:
        For a task: ``{store, task, collection, exists, embedding, configured_embedding, stale,
        chunks, files, partitions: {name: {chunks, files}}}``; ``stale`` is true when the next
        ingest/search will re-embed. Without a task: ``{store, configured_embedding, tasks: [...]}``.

    Raises:
        UserError: unreachable Chroma server, unknown ``PSE_EMBEDDING``.
    """
    from .embedding import make_embedding
    from .store import collection_name, describe_store, find_collection, open_client, task_collections

    client = open_client(settings)
    configured = make_embedding(settings).model_id
    if task_name is None:
        tasks = [_collection_stats(task, coll, configured) for task, coll in task_collections(client)]
        return {"store": describe_store(settings), "configured_embedding": configured, "tasks": tasks}
    coll = find_collection(client, task_name)
    if coll is None:
        return {
            "store": describe_store(settings),
            "task": task_name,
            "collection": collection_name(task_name),
            "exists": False,
            "embedding": None,
            "configured_embedding": configured,
            "stale": False,
            "chunks": 0,
            "files": 0,
            "partitions": {},
        }
    return {"store": describe_store(settings), **_collection_stats(task_name, coll, configured)}


def _collection_stats(task: str, coll: Any, configured: str) -> dict[str, Any]:
    from .store import META_EMBEDDING

    partitions: dict[str, dict[str, Any]] = {}
    files: set[str] = set()
    total = coll.count()
    for offset in range(0, total, 5000):
        data = coll.get(include=["metadatas"], limit=5000, offset=offset)
        for meta in data["metadatas"] or []:
            meta = meta or {}
            name = str(meta.get("partition", ""))
            source = str(meta.get("source", ""))
            entry = partitions.setdefault(name, {"chunks": 0, "files": set()})
            entry["chunks"] += 1
            entry["files"].add(source)
            files.add(source)
    stored = (coll.metadata or {}).get(META_EMBEDDING)
    return {
        "task": task,
        "collection": coll.name,
        "exists": True,
        "embedding": stored,
        "configured_embedding": configured,
        "stale": stored != configured,
        "chunks": total,
        "files": len(files),
        "partitions": {
            name: {"chunks": p["chunks"], "files": len(p["files"])} for name, p in sorted(partitions.items())
        },
    }


def format_hits(query: str, hits: list[Hit], *, max_chars: int = 1200) -> str:
    """Numbered chunks for a model: ``[n] source › heading (score 0.812)`` then the text."""
    if not hits:
        return f"No knowledge-base chunks matched {query!r}."
    lines = [f"{len(hits)} knowledge-base chunk(s) for {query!r}:"]
    for number, hit in enumerate(hits, start=1):
        where = f"{hit.source} › {hit.heading}" if hit.heading else hit.source
        text = hit.text if len(hit.text) <= max_chars else hit.text[:max_chars].rstrip() + " …"
        lines.append(f"\n[{number}] {where} (score {hit.score:.3f}, id {hit.id})\n{text}")
    return "\n".join(lines)


def make_kb_search(
    settings: Any,
    task_name: str,
    partitions: list[str] | None,
    *,
    on_hits: OnHits | None = None,
    rerank: Rerank | None = None,
    on_error: Callable[[str, str], None] | None = None,
) -> Callable[..., Awaitable[str]]:
    """The agents' ``kb_search`` tool: ``async kb_search(query: str, k: int = settings.retrieval_k) -> str``.

    The search runs in a worker thread. ``on_hits(query, hits)`` (sync or async) is called with
    the returned :class:`Hit` list after every successful search so the caller can record a
    ``retrieval`` event (``[h.to_event() for h in hits]``). A search that fails (no knowledge base,
    the Chroma or embedding server gone mid-run) is reported as such, never as "no matches":
    ``on_error(query, message)`` is called (the run records a warning) and the tool raises, so the
    model gets an error result and the console marks the call failed.

    Raises:
        RunError: "knowledge base unavailable: …" (from the tool, when the search fails).
    """
    default_k = max(1, min(int(getattr(settings, "retrieval_k", 4) or 4), MAX_K))
    scope = _partitions(partitions)

    async def kb_search(query: str, k: int = 4) -> str:
        """Search the task's knowledge base. Returns numbered chunks with source, heading and score."""
        k = max(1, min(int(k), MAX_K))
        try:
            hits = await asyncio.to_thread(
                search, settings, task_name, query, k=k, partition=scope or None, rerank=rerank
            )
        except Exception as exc:  # Chroma down mid-run, no knowledge base, an embedding server gone
            message = f"knowledge base unavailable: {str(exc).strip() or type(exc).__name__}"[:500]
            if on_error is not None:
                on_error(query, message)
            raise RunError(message) from None
        if on_hits is not None:
            result = on_hits(query, hits)
            if inspect.isawaitable(result):
                await result
        return format_hits(query, hits)

    kb_search.__defaults__ = (default_k,)
    return kb_search
