"""Incremental ingestion of a task's ``knowledge/`` folder into its Chroma collection.

* Partition = the first folder under the ingested root (``knowledge/market/x.md`` → ``market``;
  files directly in ``knowledge/`` → ``default``).
* Every chunk carries ``source`` (path relative to the root, ``/``-separated), ``heading``,
  ``chunk_index``, ``content_hash`` (sha256 of the file's bytes), ``partition`` and ``root``
  (``"knowledge"`` for the task's folder, else the absolute path of an outside root). Chunk ids
  are ``f"{source}#{chunk_index}"``.
* A file whose hash is unchanged is skipped; a changed file's old chunks are deleted before the
  new ones are added; chunks of files that disappeared (under the ingested path) are removed.

An explicit ``path`` inside ``knowledge/`` ingests just that file or folder. A path outside it is
ingested with its parent folder as root, so ``/data/market`` becomes partition ``market``.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UserError
from .loaders import is_supported, load_chunks

DEFAULT_PARTITION = "default"
KNOWLEDGE_ROOT = "knowledge"


@dataclass
class IngestReport:
    """What one :func:`ingest` call did.

    File lists hold ``source`` paths; ``seconds`` is wall time, ``embed_seconds`` the part spent
    embedding new chunks; ``reembedded`` is ``{previous, current, chunks}`` after a model change.
    """

    task: str
    collection: str
    embedding: str
    added_files: list[str] = field(default_factory=list)
    updated_files: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)
    removed_files: list[str] = field(default_factory=list)
    ignored_files: list[str] = field(default_factory=list)
    chunks_added: int = 0
    chunks_removed: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    reembedded: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Stored:
    content_hash: str
    root: str
    ids: list[str] = field(default_factory=list)


def partition_of(source: str) -> str:
    """``"market/x.md"`` → ``"market"``; ``"x.md"`` → ``"default"``."""
    head, sep, _ = source.partition("/")
    return head if sep else DEFAULT_PARTITION


def ingest(settings: Any, task_name: str, task_dir: Path, path: Path | None = None) -> IngestReport:
    """Bring the task's collection up to date with ``task_dir/knowledge`` (or just ``path``).

    Args:
        settings: :class:`autogen_pse.config.Settings`.
        task_name: collection key (``pse_<task>``).
        task_dir: the task folder holding ``knowledge/``.
        path: a file or folder to ingest; relative paths are tried from the working directory,
            then from ``task_dir/knowledge``. ``None`` ingests the whole ``knowledge/`` folder.

    Raises:
        UserError: missing folder/file, unsupported single file, non-UTF-8 text, bad JSON/PDF,
            unreachable Chroma server or embedding server.
    """
    from .embedding import embed_texts, make_embedding
    from .store import add_chunks, collection_name, embedding_input, find_collection, get_collection, open_client

    started = time.perf_counter()
    root, root_key, scope, files = _resolve(task_dir, path)
    ef = make_embedding(settings)
    client = open_client(settings)
    if files and find_collection(client, task_name) is None:
        # A first ingest must not leave an empty collection behind when the embedding model is
        # missing or unreachable (a later `kb search` would then report "no matches").
        embed_texts(ef, ["probe"])
    coll, reembedded = get_collection(settings, task_name, create=True, client=client, ef=ef)
    assert coll is not None
    report = IngestReport(task_name, collection_name(task_name), ef.model_id)
    if reembedded is not None:
        report.reembedded = reembedded.to_dict()
    stored = _stored_files(coll)

    new_ids: list[str] = []
    new_docs: list[str] = []
    new_metas: list[dict[str, Any]] = []
    stale_ids: list[str] = []
    seen: set[str] = set()
    for file in files:
        source = file.relative_to(root).as_posix()
        seen.add(source)
        data = _read(file)
        digest = hashlib.sha256(data).hexdigest()
        old = stored.get(source)
        if old is not None and old.root != root_key:
            raise UserError(f"{file}: source {source!r} was already ingested from {old.root!r}; rename one of them")
        if old is not None and old.content_hash == digest:
            report.skipped_files.append(source)
            continue
        chunks = load_chunks(file, data)
        if not chunks:
            report.ignored_files.append(source)
            if old is not None:
                stale_ids.extend(old.ids)
                report.removed_files.append(source)
            continue
        (report.updated_files if old is not None else report.added_files).append(source)
        if old is not None:
            stale_ids.extend(old.ids)
        for index, chunk in enumerate(chunks):
            new_ids.append(f"{source}#{index}")
            new_docs.append(chunk.text)
            new_metas.append(
                {
                    "source": source,
                    "heading": chunk.heading,
                    "chunk_index": index,
                    "content_hash": digest,
                    "partition": partition_of(source),
                    "root": root_key,
                }
            )
    for source, old in sorted(stored.items()):
        if old.root == root_key and _in_scope(source, scope) and source not in seen:
            report.removed_files.append(source)
            stale_ids.extend(old.ids)

    embed_started = time.perf_counter()
    vectors = embed_texts(ef, [embedding_input(d, m) for d, m in zip(new_docs, new_metas, strict=True)])
    report.embed_seconds = round(time.perf_counter() - embed_started, 3)
    for start in range(0, len(stale_ids), 1000):
        coll.delete(ids=stale_ids[start : start + 1000])
    add_chunks(coll, new_ids, new_docs, new_metas, vectors)
    report.chunks_added = len(new_ids)
    report.chunks_removed = len(stale_ids)
    report.seconds = round(time.perf_counter() - started, 3)
    return report


def _resolve(task_dir: Path, path: Path | None) -> tuple[Path, str, str, list[Path]]:
    """``(root, root_key, scope, files)``: scope is the source prefix that deletions may touch."""
    kdir = (task_dir / KNOWLEDGE_ROOT).resolve()
    if path is None:
        if not kdir.is_dir():
            raise UserError(f"{kdir}: no knowledge folder; put documents under knowledge/<partition>/")
        return kdir, KNOWLEDGE_ROOT, "", _list_files(kdir)
    target = Path(path).expanduser()
    if not target.exists() and not target.is_absolute() and (kdir / target).exists():
        target = kdir / target
    if not target.exists():
        raise UserError(f"{path}: no such file or folder (also looked in {kdir})")
    target = target.resolve()
    inside = target == kdir or target.is_relative_to(kdir)
    root = kdir if inside else target.parent
    root_key = KNOWLEDGE_ROOT if inside else str(root)
    scope = "" if target == root else target.relative_to(root).as_posix()
    if target.is_file():
        if not is_supported(target):
            load_chunks(target, b"")  # raises the UserError that lists supported types
        return root, root_key, scope, [target]
    return root, root_key, scope, _list_files(target)


def _list_files(folder: Path) -> list[Path]:
    """Supported files under ``folder``, sorted; hidden files and folders are left out."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
        for name in sorted(filenames):
            file = Path(dirpath) / name
            if not name.startswith(".") and is_supported(file) and file.is_file():
                found.append(file)
    return found


def _in_scope(source: str, scope: str) -> bool:
    return not scope or source == scope or source.startswith(scope.rstrip("/") + "/")


def _read(file: Path) -> bytes:
    try:
        return file.read_bytes()
    except OSError as exc:
        raise UserError(f"{file}: cannot be read ({exc.strerror or exc})") from None


def _stored_files(coll: Any) -> dict[str, _Stored]:
    """``source → (content_hash, root, ids)`` of everything in the collection."""
    stored: dict[str, _Stored] = {}
    total = coll.count()
    page = 5000
    for offset in range(0, total, page):
        data = coll.get(include=["metadatas"], limit=page, offset=offset)
        for chunk_id, meta in zip(data["ids"], data["metadatas"] or [], strict=True):
            meta = meta or {}
            source = str(meta.get("source", chunk_id.rsplit("#", 1)[0]))
            entry = stored.setdefault(
                source, _Stored(str(meta.get("content_hash", "")), str(meta.get("root", KNOWLEDGE_ROOT)))
            )
            entry.ids.append(chunk_id)
    return stored
