"""Server mode: a real ``chroma run`` on loopback, used through ``PSE_CHROMA_URL``.

Starts the ``chroma`` CLI installed next to the interpreter, waits for its heartbeat, ingests the
labelled corpus and searches it through :class:`chromadb.HttpClient`, then stops the server.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from autogen_pse.config import Settings
from autogen_pse.knowledge import ingest, search, stats

pytestmark = pytest.mark.chroma_server

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kb_corpus"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _chroma_cli() -> str:
    here = Path(sys.executable).parent / "chroma"
    found = str(here) if here.is_file() else shutil.which("chroma")
    if not found:
        pytest.fail("the `chroma` CLI (installed with chromadb) was not found next to the interpreter")
    return found


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    log = (data / "server.log").open("wb")
    proc = subprocess.Popen(
        [_chroma_cli(), "run", "--host", "127.0.0.1", "--port", str(port), "--path", str(data / "db")],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"chroma run exited with {proc.returncode}: {(data / 'server.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/api/v2/heartbeat", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("chroma run did not answer its heartbeat within 60 s")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def test_ingest_and_search_through_the_server(chroma_url: str, tmp_path: Path) -> None:
    task_dir = tmp_path / "task"
    shutil.copytree(FIXTURE / "knowledge", task_dir / "knowledge")
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, state_dir=tmp_path / "state", chroma_url=chroma_url, embedding="onnx-minilm"
    )
    report = ingest(settings, "served", task_dir)
    assert len(report.added_files) == 11
    assert not (tmp_path / "state" / "chroma").exists(), "server mode must not create an embedded store"

    again = ingest(settings, "served", task_dir)
    assert len(again.skipped_files) == 11 and again.chunks_added == 0

    queries = json.loads((FIXTURE / "queries.json").read_text(encoding="utf-8"))
    for case in queries:
        hits = search(settings, "served", case["query"], k=3)
        assert case["source"] in [h.source for h in hits], case["query"]
        assert all(0.0 < h.score <= 1.0 for h in hits[:1])

    only = search(settings, "served", "price per seat", k=3, partition="market")
    assert {h.partition for h in only} == {"market"}
    data = stats(settings, "served")
    assert data["store"] == f"server {chroma_url}"
    assert data["files"] == 11 and data["chunks"] == report.chunks_added

    (task_dir / "knowledge" / "handbook.md").unlink()
    removed = ingest(settings, "served", task_dir)
    assert removed.removed_files == ["handbook.md"]
    assert stats(settings, "served")["files"] == 10


def test_scores_match_embedded_mode(chroma_url: str, tmp_path: Path) -> None:
    task_dir = tmp_path / "task"
    shutil.copytree(FIXTURE / "knowledge", task_dir / "knowledge")
    served = Settings(_env_file=None, state_dir=tmp_path / "a", chroma_url=chroma_url, embedding="onnx-minilm")  # type: ignore[call-arg]
    embedded = Settings(_env_file=None, state_dir=tmp_path / "b", chroma_url=None, embedding="onnx-minilm")  # type: ignore[call-arg]
    ingest(served, "same", task_dir)
    ingest(embedded, "same", task_dir)
    query = "Which message broker do the services use to exchange events?"
    a = search(served, "same", query, k=3)
    b = search(embedded, "same", query, k=3)
    assert [h.id for h in a] == [h.id for h in b]
    assert [round(h.score, 3) for h in a] == [round(h.score, 3) for h in b]
