"""Chroma clients and the one-collection-per-task layout.

* Embedded (default): ``chromadb.PersistentClient(path=<state_dir>/chroma)``.
* Server: ``chromadb.HttpClient`` when ``PSE_CHROMA_URL`` is set (e.g. ``http://127.0.0.1:8000``
  for ``chroma run --path .pse/chroma-server --port 8000``).

Each task has one collection, ``pse_<task>`` (sanitised), in cosine space. Its metadata records
the embedding model id (``pse_embedding``); when the configured embedding differs, every stored
chunk is re-embedded with the new function into a fresh collection (vectors are never mixed) and
the change is reported as :class:`Reembedded`. The embedding function is passed explicitly on
every get/create, so Chroma's downloading default is never used.

Imports chromadb: import this module lazily.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from ..errors import ServiceError, StoreError, UserError
from .embedding import PseEmbedding, embed_texts, make_embedding

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

log = logging.getLogger(__name__)

COLLECTION_PREFIX = "pse_"
META_EMBEDDING = "pse_embedding"
META_TASK = "pse_task"
ADD_BATCH = 256
_VALID = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]$")


@dataclass(frozen=True)
class Reembedded:
    """The stored vectors were made by another embedding and have been replaced."""

    previous: str | None
    current: str
    chunks: int

    def to_dict(self) -> dict[str, Any]:
        return {"previous": self.previous, "current": self.current, "chunks": self.chunks}


def collection_name(task: str) -> str:
    """``pse_<task>`` made valid for Chroma (3–512 chars of ``[A-Za-z0-9._-]``, alnum at both ends).

    A name that had to be changed gets an 8-hex suffix from the original so two tasks never collide.
    """
    raw = f"{COLLECTION_PREFIX}{task}"
    clean = re.sub(r"[^a-zA-Z0-9._-]", "_", raw).replace("..", "_.")[:500].rstrip("._-")
    if clean != raw or not _VALID.match(clean):
        clean = f"{clean}_{hashlib.sha256(task.encode()).hexdigest()[:8]}"
    return clean


def chroma_settings() -> Any:
    """Chroma client settings used everywhere (telemetry off; identical settings → shared system)."""
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False)


def describe_store(settings: Any) -> str:
    """``"server <url>"`` or ``"embedded <path>"`` for messages and ``kb stats``."""
    if settings.chroma_url:
        return f"server {settings.chroma_url}"
    return f"embedded {settings.state_dir / 'chroma'}"


def open_client(settings: Any) -> ClientAPI:
    """A Chroma client for ``settings`` (server when ``chroma_url`` is set, embedded otherwise).

    Raises:
        UserError: the URL is malformed.
        ServiceError: the server at ``chroma_url`` is unreachable (a runtime error, exit 3).
        StoreError: the embedded store folder cannot be created or opened.
    """
    import chromadb

    if settings.chroma_url:
        url = settings.chroma_url.rstrip("/")
        parsed = urlparse(url if "://" in url else f"http://{url}")
        fix = "start `chroma run` or unset PSE_CHROMA_URL"
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise UserError(f"PSE_CHROMA_URL={settings.chroma_url!r} is not an http(s) URL; {fix}")
        ssl = parsed.scheme == "https"
        try:
            client = chromadb.HttpClient(
                host=parsed.hostname,
                port=parsed.port or (443 if ssl else 8000),
                ssl=ssl,
                settings=chroma_settings(),
            )
            client.heartbeat()
        except Exception as exc:
            log.debug("chroma server %s: %r", url, exc)
            raise ServiceError(f"Chroma server at {url} is unreachable; {fix}") from None
        return client
    path = settings.state_dir / "chroma"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings())
    except OSError as exc:
        raise StoreError(f"{path}: cannot open the knowledge store ({exc.strerror or exc})") from None
    except ValueError as exc:  # e.g. the same path already opened with other Chroma settings
        raise StoreError(f"{path}: cannot open the knowledge store ({exc}); use open_client()") from None


def find_collection(client: ClientAPI, task: str) -> Collection | None:
    """The task's collection opened *without* an embedding function (metadata, get, count only)."""
    from chromadb.errors import NotFoundError

    try:
        return client.get_collection(collection_name(task), embedding_function=None)
    except (NotFoundError, ValueError):
        return None


def task_collections(client: ClientAPI) -> list[tuple[str, Collection]]:
    """``[(task, collection)]`` for every pse collection in the store, sorted by task."""
    found = []
    for coll in client.list_collections():
        meta = coll.metadata or {}
        if coll.name.startswith(COLLECTION_PREFIX) and META_TASK in meta:
            found.append((str(meta[META_TASK]), coll))
    return sorted(found, key=lambda item: item[0])


def embedding_input(document: str, metadata: dict[str, Any]) -> str:
    """The text that is embedded for a chunk: its heading path, a blank line, its text."""
    heading = str(metadata.get("heading") or "")
    return f"{heading}\n\n{document}" if heading else document


def get_collection(
    settings: Any,
    task: str,
    *,
    create: bool,
    client: ClientAPI | None = None,
    ef: PseEmbedding | None = None,
) -> tuple[Collection | None, Reembedded | None]:
    """Open the task's collection with the configured embedding function.

    Args:
        create: make the collection when it does not exist (else return ``(None, None)``).
        client, ef: reuse an open client / embedding function.

    Returns:
        ``(collection, reembedded)``; ``reembedded`` is set when the stored vectors came from
        another embedding and were replaced.

    Raises:
        UserError / ModelError: from the embedding function while re-embedding (the old
            collection is only replaced once every new vector has been computed).
    """
    client = client or open_client(settings)
    ef = ef or make_embedding(settings)
    name = collection_name(task)
    existing = find_collection(client, task)
    if existing is None:
        if not create:
            return None, None
        return _create(client, name, task, ef), None
    stored = (existing.metadata or {}).get(META_EMBEDDING)
    if stored == ef.model_id:
        return client.get_collection(name, embedding_function=ef), None  # type: ignore[arg-type]
    return _reembed(client, existing, task, ef, stored)


def _create(client: ClientAPI, name: str, task: str, ef: PseEmbedding) -> Collection:
    return client.create_collection(
        name,
        configuration={"hnsw": {"space": "cosine"}},
        metadata={META_TASK: task, META_EMBEDDING: ef.model_id},
        embedding_function=ef,  # type: ignore[arg-type]
    )


def _reembed(
    client: ClientAPI, old: Collection, task: str, ef: PseEmbedding, previous: Any
) -> tuple[Collection, Reembedded]:
    data = old.get(include=["documents", "metadatas"])
    ids = list(data["ids"])
    documents = [d or "" for d in data["documents"] or []]
    metadatas = [dict(m or {}) for m in data["metadatas"] or []]
    log.warning(
        "knowledge base of task %r: embedding changed (%s → %s); re-embedding %d chunks",
        task,
        previous,
        ef.model_id,
        len(ids),
    )
    vectors = embed_texts(ef, [embedding_input(d, m) for d, m in zip(documents, metadatas, strict=True)])
    name = old.name
    client.delete_collection(name)
    coll = _create(client, name, task, ef)
    add_chunks(coll, ids, documents, metadatas, vectors)
    return coll, Reembedded(str(previous) if previous is not None else None, ef.model_id, len(ids))


def add_chunks(
    coll: Collection,
    ids: list[str],
    documents: list[str],
    metadatas: list[dict[str, Any]],
    embeddings: list[Any],
) -> None:
    """Add chunks in batches (vectors already computed)."""
    for start in range(0, len(ids), ADD_BATCH):
        end = start + ADD_BATCH
        coll.add(
            ids=ids[start:end],
            documents=documents[start:end],
            metadatas=metadatas[start:end],  # type: ignore[arg-type]
            embeddings=embeddings[start:end],
        )
