"""Offline token counting with a real tokenizer kept in the repo.

``tiktoken`` downloads its BPE tables on first use and fails offline, so the scripted provider,
the OpenAI fallback and anything else that needs a count uses the WordPiece ``tokenizer.json`` of
sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0, see ``data/NOTICE.md``) through the
``tokenizers`` library. Counts are real tokenizer counts, close to (not equal to) what a GPT-style
BPE tokenizer reports for English text.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tokenizers import Tokenizer

TOKENIZER_PATH = Path(__file__).resolve().parent.parent / "data" / "tokenizer.json"
_lock = threading.Lock()
_tokenizer: Tokenizer | None = None


def _load() -> Tokenizer:
    """The shared tokenizer, loaded once; truncation and padding are switched off.

    The shipped file truncates/pads to 128 tokens (it is an embedding model's tokenizer): left
    on, every count above 128 would be capped and every short text padded to 128.
    """
    global _tokenizer
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(TOKENIZER_PATH))
                tok.no_truncation()
                tok.no_padding()
                _tokenizer = tok
    return _tokenizer


@lru_cache(maxsize=1024)
def count_tokens(text: str) -> int:
    """Number of tokens in ``text`` (no special tokens added). Empty text → 0. Cached per string."""
    if not text:
        return 0
    try:
        return len(_load().encode(text, add_special_tokens=False).ids)
    except TypeError:  # lone surrogates (a model may send "\\ud800"): count them as replacement chars
        from ..messages import clean

        return len(_load().encode(clean(text), add_special_tokens=False).ids)


def count_many(texts: Iterable[str]) -> int:
    """Sum of :func:`count_tokens` over ``texts``."""
    return sum(count_tokens(t) for t in texts)


def tool_schema_text(tools: Sequence[Any]) -> str:
    """The JSON text of tool schemas (``autogen_core.tools.Tool`` objects or ``ToolSchema`` dicts),
    as it would be sent to a model; used to count the prompt tokens that tools cost."""
    schemas = []
    for tool in tools:
        schema = getattr(tool, "schema", tool)
        schemas.append(schema)
    return json.dumps(schemas, ensure_ascii=False, sort_keys=True, default=str) if schemas else ""


def count_prompt_tokens(messages: Sequence[Any], tools: Sequence[Any] = ()) -> int:
    """Tokens of every message sent (system + history, rendered as plain text) plus tool schemas."""
    from .messages import message_text

    return count_many(message_text(m) for m in messages) + count_tokens(tool_schema_text(tools))
