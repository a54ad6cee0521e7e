"""Reopening a persistent collection in a NEW process, with the network cut off.

The child process blocks every outgoing connection (``socket.create_connection`` and
``socket.socket.connect`` raise) and makes Chroma's default embedding function raise if it is
ever called, then searches the store written by this process. It must return the same hits, both
through :func:`search` and through a plain ``client.get_collection(name)`` that lets Chroma
rebuild the embedding function from the stored configuration.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from autogen_pse.config import Settings
from autogen_pse.knowledge import ingest, search

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kb_corpus"
QUERIES = [q["query"] for q in json.loads((FIXTURE / "queries.json").read_text(encoding="utf-8"))]

CHILD = textwrap.dedent(
    """
    import json, socket, sys
    from pathlib import Path

    attempts = []

    def no_network(*args, **kwargs):
        attempts.append(repr(args[:2]))
        raise OSError("network disabled in this test")

    socket.create_connection = no_network
    socket.socket.connect = no_network
    socket.socket.connect_ex = no_network

    import chromadb.api.types as chroma_types
    import chromadb.utils.embedding_functions as chroma_efs

    def forbidden(self, input):
        raise RuntimeError("Chroma's default embedding function was used")

    chroma_types.DefaultEmbeddingFunction.__call__ = forbidden
    chroma_efs.ONNXMiniLM_L6_V2.__call__ = forbidden

    from autogen_pse.config import Settings
    from autogen_pse.knowledge import search
    from autogen_pse.knowledge.store import collection_name, open_client

    state, task, queries = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    settings = Settings(_env_file=None, state_dir=Path(state), chroma_url=None, embedding="onnx-minilm")
    ours = [[(h.id, round(h.score, 4)) for h in search(settings, task, q, k=3)] for q in queries]

    # Chroma's own path: no embedding function passed -> rebuilt from the stored config by name.
    coll = open_client(settings).get_collection(collection_name(task))
    ef_name = coll.configuration["embedding_function"].name()
    res = coll.query(query_texts=queries, n_results=3)
    native = [
        [(i, round(1 - d, 4)) for i, d in zip(ids, ds)] for ids, ds in zip(res["ids"], res["distances"])
    ]
    print(json.dumps({"ours": ours, "native": native, "ef_name": ef_name, "attempts": attempts}))
    """
)


def test_reopen_in_new_process_offline(tmp_path: Path) -> None:
    task_dir = tmp_path / "task"
    shutil.copytree(FIXTURE / "knowledge", task_dir / "knowledge")
    settings = Settings(_env_file=None, state_dir=tmp_path / "state", chroma_url=None, embedding="onnx-minilm")  # type: ignore[call-arg]
    ingest(settings, "persist", task_dir)
    expected = [[(h.id, round(h.score, 4)) for h in search(settings, "persist", q, k=3)] for q in QUERIES]

    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "HOME": str(tmp_path / "home"),  # no cached default model to fall back on
    }
    env.pop("PSE_CHROMA_URL", None)
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "state"), "persist", json.dumps(QUERIES)],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["attempts"] == [], "the child tried to open a network connection"
    assert out["ef_name"] == "pse-minilm-onnx"

    def ids(rows: list[list[list[object]]]) -> list[list[object]]:
        return [[hit[0] for hit in row] for row in rows]

    assert ids(out["ours"]) == ids([[list(h) for h in row] for row in expected])
    for got_row, want_row in zip(out["ours"], expected, strict=True):
        for (_, got), (_, want) in zip(got_row, want_row, strict=True):
            assert abs(got - want) < 1e-3
    # through Chroma's own rebuilt embedding function: identical neighbours
    assert ids(out["native"]) == ids(out["ours"])
