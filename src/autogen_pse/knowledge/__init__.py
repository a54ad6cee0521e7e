"""Knowledge base: documents under ``tasks/<task>/knowledge/<partition>/`` in one Chroma collection
per task, embedded offline by default (see ``docs/knowledge.md``).

Public API (imported lazily, so ``import autogen_pse.knowledge`` does not load chromadb)::

    ingest(settings, task_name, task_dir, path=None) -> IngestReport
    search(settings, task_name, query, *, k=4, partition=None, rerank=None) -> list[Hit]
    stats(settings, task_name=None) -> dict
    make_kb_search(settings, task_name, partitions, *, on_hits=None, rerank=None) -> async tool
    lexical_rerank(query, hits) -> list[Hit]
    open_client(settings) -> chromadb client
    make_embedding(settings) -> MiniLMOnnxEmbedding | OpenAIEmbedding | OllamaEmbedding
    kb_app  (Typer app for ``pse kb``)
"""

from __future__ import annotations

import importlib
from typing import Any

# ingest.py and retrieve.py import chromadb only inside their functions, so these are cheap. They
# are bound eagerly because the submodule ``ingest`` would otherwise shadow the function ``ingest``.
from .ingest import IngestReport, ingest
from .retrieve import Hit, format_hits, lexical_rerank, make_kb_search, search, stats

_EXPORTS = {
    "open_client": "store",
    "get_collection": "store",
    "collection_name": "store",
    "Reembedded": "store",
    "make_embedding": "embedding",
    "MiniLMOnnxEmbedding": "embedding",
    "OpenAIEmbedding": "embedding",
    "OllamaEmbedding": "embedding",
    "Chunk": "chunking",
    "load_chunks": "loaders",
    "kb_app": "cli",
}

__all__ = [
    "Chunk",
    "Hit",
    "IngestReport",
    "MiniLMOnnxEmbedding",
    "OllamaEmbedding",
    "OpenAIEmbedding",
    "Reembedded",
    "collection_name",
    "format_hits",
    "get_collection",
    "ingest",
    "kb_app",
    "lexical_rerank",
    "load_chunks",
    "make_embedding",
    "make_kb_search",
    "open_client",
    "search",
    "stats",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
