"""A program's log pasted into a document (a rebalancing job's run, an agent's trace), read as the
claims its lines make: ``2010-03-01T22:00:06Z level=info msg="position evaluated" symbol=AAPL
weight_pct=43.85`` reads ``- position evaluated; symbol: AAPL; weight pct: 43.85``.

A log line is logfmt (three ``key=value`` pairs or more) or a JSON object on one line. Timestamps,
levels and the producer's fields (``ts``, ``level``, ``run_id``, ``job``, ``caller``…) are dropped;
the message comes first, then the entity a ``symbol``/``name`` field names, then the other fields as
words (``weight_pct`` → "weight pct"; a bare ``value=`` or ``est_value_usd=`` as the figure alone), a
flag's true or false as the flag or its absence ("stop loss", "no stop loss"). Each line becomes a
list item of its own, mapped back to its line (:class:`~.formats.Reading`); the rest of the document
is kept as written.
"""

from __future__ import annotations

import json
import re

from .formats import Builder, Reading
from .xmldoc import NAMING_KEYS, key_value, key_words

_PAIR = re.compile(r"""(?<![\w.])([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']*)""")
_TAG = re.compile(r"<[A-Za-z][\w-]*\s[^<>]*>")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")
_LEVEL = re.compile(r"\b(?:TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|FATAL|CRITICAL)\b")
_PRODUCER = re.compile(
    r"^(?:ts|time|timestamp|@timestamp|t|level|lvl|severity|comp|component|logger|caller|src|job|job_id|run|run_id|"
    r"trace_id|span_id|request_id|req_id|pid|host|hostname|version|v|dry_run|env|app|service|thread|module|"
    r"duration_ms|took_ms|elapsed_ms|elapsed|latency_ms)$",
    re.IGNORECASE,
)
_MESSAGE = ("msg", "message", "event", "text")
_BARE = re.compile(r"(?:est(?:imated)?_)?(?:value|val|amount|result)(?:_(?:usd|eur|gbp))?", re.IGNORECASE)


Field = tuple[str, str, int]  # key, value, where the field starts in its line


def _fields(line: str) -> list[Field] | None:
    """The ``(key, value, offset)`` fields of a log line, else ``None``."""
    stripped = line.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        try:
            data = json.loads(stripped, parse_float=str, parse_int=str)  # "72.70" as written
        except ValueError:
            return None
        if isinstance(data, dict) and len(data) >= 3 and all(not isinstance(v, dict | list) for v in data.values()):
            return [(str(k), _shown(v), max(0, line.find(f'"{k}"'))) for k, v in data.items()]
        return None
    tags = [(t.start(), t.end()) for t in _TAG.finditer(line)]  # '<td width="25%" valign="top">': HTML
    pairs = [(m.group(1), m.group(2).strip("\"'"), m.start()) for m in _PAIR.finditer(line)
             if not any(a < m.start() < b for a, b in tags)]
    return pairs if len(pairs) >= 3 else None


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def is_log(text: str) -> bool:
    return sum(_fields(line) is not None for line in text.splitlines()) >= 3


def read_logs(text: str) -> Reading:
    """``text`` with each of its log lines read as a list item (see the module docstring)."""
    out, pos = Builder(), 0
    for line in text.split("\n"):
        fields = _fields(line)
        if fields is None:
            out.emit(line + "\n", pos)
        else:
            out.emit("- ", pos + len(line) - len(line.lstrip()))
            for k, (piece, at) in enumerate(_item(line, fields)):
                out.emit("; " if k else "", pos + at)
                out.emit(piece, pos + at)
            out.emit("\n", pos + len(line))
        pos += len(line) + 1
    reading = out.reading()
    return Reading(reading.text[:-1] if not text.endswith("\n") else reading.text, reading.pieces)


def _item(line: str, fields: list[Field]) -> list[tuple[str, int]]:
    """The pieces of a log line's item, each with where in the line it comes from."""
    lead = len(line) - len(line.lstrip())
    message = next(((v, at) for k, v, at in fields if k.lower() in _MESSAGE), None)
    if message is None and not line.lstrip().startswith("{"):
        # the words outside the fields: "WARN rebalance: position above cap symbol=…"
        free = _LEVEL.sub(" ", _TIMESTAMP.sub(" ", _PAIR.sub(lambda m: " " * len(m.group(0)), line)))
        words = free.strip(" []|:-")
        message = (" ".join(words.split()), free.find(words)) if words else None
    kept = [(k, v, at) for k, v, at in fields
            if k.lower() not in _MESSAGE and not _PRODUCER.match(k) and v.strip() and not _TIMESTAMP.fullmatch(v)]
    named = next(((k, v, at) for k, v, at in kept if key_words(k) in NAMING_KEYS), None)
    rest = [field for field in kept if field != named]
    # "value=43.85" beside "rule=max_position": a figure whose field does not say what it measures
    pieces = [(v if _BARE.fullmatch(k) else key_value(k, v), at) for k, v, at in ([named] if named else []) + rest]
    return ([message] if message else []) + pieces if pieces or message else [("", lead)]
