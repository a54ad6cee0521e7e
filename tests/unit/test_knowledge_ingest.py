"""Incremental ingestion and embedding changes, against a real PersistentClient.

The embedding-change tests run a small real HTTP server on loopback that speaks the OpenAI
``/v1/embeddings`` and Ollama ``/api/embed`` protocols (hashed bag-of-words vectors), so the HTTP
embedding functions are exercised end to end without any outside network.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.knowledge import ingest, search, stats
from autogen_pse.knowledge.embedding import OllamaEmbedding
from autogen_pse.knowledge.store import find_collection, open_client

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kb_corpus" / "knowledge"
DIM = 256


def make_settings(state: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {"state_dir": state, "chroma_url": None, "embedding": "onnx-minilm"}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


@pytest.fixture
def task_dir(tmp_path: Path) -> Path:
    target = tmp_path / "task"
    shutil.copytree(FIXTURE, target / "knowledge")
    return target


def _ids(settings: Settings, task: str) -> dict[str, dict[str, object]]:
    coll = find_collection(open_client(settings), task)
    assert coll is not None
    data = coll.get(include=["metadatas"])
    return dict(zip(data["ids"], data["metadatas"] or [], strict=True))


def test_incremental_skip_update_remove(tmp_path: Path, task_dir: Path) -> None:
    settings = make_settings(tmp_path / "state")
    first = ingest(settings, "inc", task_dir)
    assert len(first.added_files) == 11 and not first.skipped_files
    assert first.chunks_removed == 0 and first.seconds > 0
    before = _ids(settings, "inc")
    assert len(before) == first.chunks_added
    meta = before["market/pricing.md#0"]
    assert meta["partition"] == "market" and meta["chunk_index"] == 0
    assert meta["content_hash"] == hashlib.sha256((task_dir / "knowledge/market/pricing.md").read_bytes()).hexdigest()
    assert before["handbook.md#0"]["partition"] == "default"

    second = ingest(settings, "inc", task_dir)
    assert len(second.skipped_files) == 11
    assert second.added_files == second.updated_files == second.removed_files == []
    assert second.chunks_added == second.chunks_removed == 0

    handbook = task_dir / "knowledge" / "handbook.md"
    handbook.write_text("# Employee handbook\n\n## Parking\n\nBicycle parking is in the basement.\n", encoding="utf-8")
    (task_dir / "knowledge" / "support" / "refund_policy.md").unlink()
    new = task_dir / "knowledge" / "support" / "shipping.md"
    new.write_text("# Shipping\n\nParcels leave our warehouse in Lyon every weekday.\n", encoding="utf-8")
    third = ingest(settings, "inc", task_dir)
    assert third.updated_files == ["handbook.md"]
    assert third.removed_files == ["support/refund_policy.md"]
    assert third.added_files == ["support/shipping.md"]
    assert len(third.skipped_files) == 9
    old_handbook = [i for i in before if i.startswith("handbook.md#")]
    old_refund = [i for i in before if i.startswith("support/refund_policy.md#")]
    assert third.chunks_removed == len(old_handbook) + len(old_refund)
    assert third.chunks_added == 2
    after = _ids(settings, "inc")
    assert [i for i in after if i.startswith("handbook.md#")] == ["handbook.md#0"]
    assert after["handbook.md#0"]["heading"] == "Employee handbook > Parking"
    assert not any(i.startswith("support/refund_policy.md#") for i in after)
    hits = search(settings, "inc", "where can I park my bike", k=1)
    assert hits[0].id == "handbook.md#0"
    assert not any(h.source == "support/refund_policy.md" for h in search(settings, "inc", "refund", k=10))


def test_ingest_a_sub_path_only_touches_that_path(tmp_path: Path, task_dir: Path) -> None:
    settings = make_settings(tmp_path / "state")
    ingest(settings, "sub", task_dir)
    (task_dir / "knowledge" / "handbook.md").unlink()
    (task_dir / "knowledge" / "market" / "competitors.md").unlink()
    report = ingest(settings, "sub", task_dir, Path("market"))  # resolved inside knowledge/
    assert report.removed_files == ["market/competitors.md"]
    assert sorted(report.skipped_files) == ["market/customers.csv", "market/pricing.md"]
    assert any(i.startswith("handbook.md#") for i in _ids(settings, "sub")), "outside the path: kept"
    single = ingest(settings, "sub", task_dir, task_dir / "knowledge" / "market" / "pricing.md")
    assert single.skipped_files == ["market/pricing.md"] and not single.removed_files
    full = ingest(settings, "sub", task_dir)
    assert full.removed_files == ["handbook.md"]


def test_outside_path_uses_its_folder_name_as_partition(tmp_path: Path, task_dir: Path) -> None:
    settings = make_settings(tmp_path / "state")
    outside = tmp_path / "elsewhere" / "legal"
    outside.mkdir(parents=True)
    (outside / "terms.md").write_text("# Terms\n\nThe contract is governed by Swiss law.\n", encoding="utf-8")
    report = ingest(settings, "ext", task_dir, outside)
    assert report.added_files == ["legal/terms.md"]
    hit = search(settings, "ext", "which law governs the contract", k=1)[0]
    assert (hit.source, hit.partition) == ("legal/terms.md", "legal")
    full = ingest(settings, "ext", task_dir)  # the task folder's ingest leaves outside roots alone
    assert "legal/terms.md" not in full.removed_files
    assert search(settings, "ext", "which law governs the contract", k=1)[0].source == "legal/terms.md"


def test_ingest_errors(tmp_path: Path, task_dir: Path) -> None:
    settings = make_settings(tmp_path / "state")
    with pytest.raises(UserError, match="no knowledge folder"):
        ingest(settings, "err", tmp_path / "empty-task")
    with pytest.raises(UserError, match="no such file or folder"):
        ingest(settings, "err", task_dir, Path("nope.md"))
    (task_dir / "knowledge" / "notes.png").write_bytes(b"\x89PNG")
    with pytest.raises(UserError, match="unsupported file type"):
        ingest(settings, "err", task_dir, task_dir / "knowledge" / "notes.png")
    bad = task_dir / "knowledge" / "support" / "legacy.txt"
    bad.write_bytes("na\u00efve caf\u00e9".encode("cp1252"))
    with pytest.raises(UserError, match=r"support/legacy.txt: not UTF-8 text"):
        ingest(settings, "err", task_dir)
    bad.unlink()
    report = ingest(settings, "err", task_dir)  # the unsupported .png is simply not listed
    assert len(report.added_files) == 11
    (task_dir / "knowledge" / "empty.md").write_text("   \n", encoding="utf-8")
    assert ingest(settings, "err", task_dir).ignored_files == ["empty.md"]


class _FakeEmbeddingServer(BaseHTTPRequestHandler):
    """OpenAI ``POST /v1/embeddings`` and Ollama ``POST /api/embed`` with hashed bag-of-words."""

    calls: ClassVar[list[tuple[str, str, int]]] = []

    @staticmethod
    def vector(text: str) -> list[float]:
        vec = np.zeros(DIM, dtype=np.float64)
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
        norm = np.linalg.norm(vec)
        return (vec / norm if norm else vec + 1.0 / np.sqrt(DIM)).tolist()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        type(self).calls.append((self.path, body["model"], len(texts)))
        if self.path == "/v1/embeddings":
            if self.headers.get("Authorization") != "Bearer test-key":
                self._send(401, {"error": "bad key"})
                return
            data = [{"object": "embedding", "index": i, "embedding": self.vector(t)} for i, t in enumerate(texts)]
            self._send(200, {"object": "list", "data": list(reversed(data)), "model": body["model"]})
        elif self.path == "/api/embed":
            self._send(200, {"model": body["model"], "embeddings": [self.vector(t) for t in texts]})
        else:
            self._send(404, {"error": "not found"})

    def _send(self, status: int, payload: object) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def embed_server() -> Iterator[str]:
    _FakeEmbeddingServer.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeEmbeddingServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _dims(settings: Settings, task: str) -> set[int]:
    coll = find_collection(open_client(settings), task)
    assert coll is not None
    data = coll.get(include=["embeddings"])
    return {len(v) for v in data["embeddings"]}


def test_embedding_change_reembeds_everything(tmp_path: Path, task_dir: Path, embed_server: str) -> None:
    state = tmp_path / "state"
    onnx = make_settings(state)
    first = ingest(onnx, "emb", task_dir)
    total = first.chunks_added
    assert _dims(onnx, "emb") == {384}

    openai = make_settings(
        state, embedding="openai:fake-embed", openai_base_url=f"{embed_server}/v1", openai_api_key="test-key"
    )
    assert stats(openai, "emb")["stale"] is True
    report = ingest(openai, "emb", task_dir)
    assert report.reembedded == {"previous": first.embedding, "current": "openai:fake-embed", "chunks": total}
    assert len(report.skipped_files) == 11 and report.chunks_added == 0
    assert _dims(openai, "emb") == {DIM}, "never mixed vectors"
    assert stats(openai, "emb")["embedding"] == "openai:fake-embed"
    assert sum(n for path, model, n in _FakeEmbeddingServer.calls if path == "/v1/embeddings") == total
    hit = search(openai, "emb", "unused vacation days carried over until March", k=1)[0]
    assert hit.source == "handbook.md"

    again = ingest(openai, "emb", task_dir)
    assert again.reembedded is None and len(again.skipped_files) == 11

    # search() alone also re-embeds when the configured embedding changed (here: Ollama)
    ollama = make_settings(state, embedding="ollama:fake-ollama", ollama_url=embed_server)
    hits = search(ollama, "emb", "unused vacation days carried over until March", k=1)
    assert hits[0].source == "handbook.md"
    assert stats(ollama, "emb")["embedding"] == "ollama:fake-ollama"
    assert any(path == "/api/embed" for path, _, _ in _FakeEmbeddingServer.calls)

    back = ingest(onnx, "emb", task_dir)
    assert back.reembedded is not None and back.reembedded["previous"] == "ollama:fake-ollama"
    assert _dims(onnx, "emb") == {384}
    assert search(onnx, "emb", "Am I allowed to work from abroad?", k=1)[0].heading.endswith("Remote work")


def test_failed_reembedding_keeps_the_old_collection(tmp_path: Path, task_dir: Path, monkeypatch) -> None:
    state = tmp_path / "state"
    onnx = make_settings(state)
    total = ingest(onnx, "keep", task_dir).chunks_added
    monkeypatch.setattr(OllamaEmbedding, "retries", 0)
    dead = make_settings(state, embedding="ollama:nothing", ollama_url="http://127.0.0.1:9")
    with pytest.raises(UserError, match=r"Ollama at http://127.0.0.1:9/api/embed is unreachable"):
        ingest(dead, "keep", task_dir)
    data = stats(onnx, "keep")
    assert data["chunks"] == total and not data["stale"]


def test_openai_errors_are_reported(tmp_path: Path, task_dir: Path, embed_server: str) -> None:
    from autogen_pse.errors import ModelError

    wrong_key = make_settings(
        tmp_path / "state",
        embedding="openai:fake",
        openai_base_url=f"{embed_server}/v1",
        openai_api_key="nope",
    )
    with pytest.raises(ModelError, match="HTTP 401"):
        ingest(wrong_key, "oa", task_dir)
    no_key = make_settings(tmp_path / "state", embedding="openai:text-embedding-3-small", openai_api_key=None)
    no_key.openai_base_url = None
    with pytest.raises(UserError, match="OPENAI_API_KEY is not set"):
        ingest(no_key, "oa2", task_dir)
    with pytest.raises(UserError, match="PSE_EMBEDDING='word2vec' is not supported"):
        ingest(make_settings(tmp_path / "state", embedding="word2vec"), "oa3", task_dir)


def test_collection_names_are_valid_and_distinct() -> None:
    from autogen_pse.knowledge.store import collection_name

    assert collection_name("demo") == "pse_demo"
    assert collection_name("portfolio-review") == "pse_portfolio-review"
    names = {collection_name(t) for t in ("x-", "x_", "x", "a" * 64)}
    assert len(names) == 4
    valid = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]$")
    assert all(valid.match(n) for n in names)
