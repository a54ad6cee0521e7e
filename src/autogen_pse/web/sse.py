"""Pure Server-Sent Events encoding: a RunEvent (or any value) → the bytes of one SSE frame.

Nothing here does I/O, so every rule of the wire format is unit-tested in isolation:

* a frame is ``field: value`` lines ended by a blank line; ``data`` spanning several lines is
  sent as several ``data:`` lines (the browser joins them with ``\\n``);
* ``event`` and ``id`` must be single-line and ``id`` must not contain NUL (the browser would
  otherwise ignore it), so they are validated rather than escaped;
* a RunEvent becomes ``event: <kind>``, ``id: <seq>`` and its JSON as ``data`` — the id is the
  sequence number, which is what ``Last-Event-ID`` sends back on reconnect;
* JSON ``data`` is always one line (control characters inside strings are escaped), so no payload
  can end a frame early or add a field; text that UTF-8 cannot carry (lone surrogates) is sent as
  JSON escapes, or replaced in plain ``data``, rather than breaking the stream.
(Property-tested in ``tests/fuzz/test_sse_encoder_props.py``.)
"""

from __future__ import annotations

import json
import re
from typing import Any

from autogen_pse.events import RunEvent

__all__ = [
    "DEFAULT_RETRY_MS",
    "STREAM_END",
    "comment_frame",
    "encode_frame",
    "end_frame",
    "event_frame",
    "parse_last_event_id",
    "retry_frame",
    "run_level_frame",
]

#: Reconnection delay suggested to the browser (``retry:`` field), in milliseconds.
DEFAULT_RETRY_MS = 2000
#: Name of the last frame of a stream (no id): tells the client the stream is over for good.
STREAM_END = "stream_end"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BAD_FIELD = re.compile(r"[\r\n\x00]")


def encode_frame(
    *,
    data: str | None = None,
    event: str | None = None,
    id: str | int | None = None,
    retry: int | None = None,
    comment: str | None = None,
) -> bytes:
    """One SSE frame as UTF-8 bytes (ends with a blank line).

    ``data`` may hold line breaks (each line becomes a ``data:`` line); ``comment`` likewise
    (``:`` lines). Raises ValueError for an ``event``/``id`` with a line break or NUL, a negative
    ``retry``, or a frame with no field at all.
    """
    lines: list[str] = []
    if comment is not None:
        lines += [f": {part}" if part else ":" for part in _LINE_BREAK.split(comment)]
    if event is not None:
        if not event or _BAD_FIELD.search(event):
            raise ValueError(f"SSE event name must be one non-empty line, got {event!r}")
        lines.append(f"event: {event}")
    if id is not None:
        text = str(id)
        if _BAD_FIELD.search(text):
            raise ValueError(f"SSE id must be one line without NUL, got {text!r}")
        lines.append(f"id: {text}")
    if retry is not None:
        if isinstance(retry, bool) or not isinstance(retry, int) or retry < 0:
            raise ValueError(f"SSE retry must be a non-negative integer of milliseconds, got {retry!r}")
        lines.append(f"retry: {retry}")
    if data is not None:
        lines += [f"data: {part}" for part in _LINE_BREAK.split(data)]
    if not lines:
        raise ValueError("an SSE frame needs at least one field")
    return ("\n".join(lines) + "\n\n").encode("utf-8", "replace")


def _json(value: Any) -> str:
    # Compact and single-line: json.dumps escapes control characters inside strings.
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: send it as a \uXXXX escape (valid JSON)
        text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text


def event_frame(event: RunEvent) -> bytes:
    """The frame of a run's event: ``event: <kind>``, ``id: <seq>``, ``data: <RunEvent JSON>``."""
    try:
        data = event.model_dump_json()
    except ValueError:  # PydanticSerializationError: text UTF-8 cannot carry
        data = _json(event.model_dump(mode="json"))
    return encode_frame(event=event.kind.value, id=event.seq, data=data)


def run_level_frame(event: RunEvent, run: dict[str, Any] | None) -> bytes:
    """A frame of the global run-level feed (``GET /api/events``).

    ``data`` is ``{run_id, seq, cycle, ts, kind, payload, run}`` where ``run`` is the run's index
    row as of this event (None if not indexed yet). No ``id``: the feed has no replay.
    """
    body = event.model_dump(mode="json")
    body["run"] = run
    return encode_frame(event=event.kind.value, data=_json(body))


def retry_frame(retry_ms: int = DEFAULT_RETRY_MS) -> bytes:
    """The first frame of every stream: the reconnection delay hint."""
    return encode_frame(retry=retry_ms, comment="autogen-pse event stream")


def comment_frame(text: str) -> bytes:
    """A comment frame (ignored by EventSource; used for keep-alive pings)."""
    return encode_frame(comment=text)


def end_frame(reason: str, status: str | None = None) -> bytes:
    """The closing frame (``event: stream_end``, no id) with ``{reason, status}``."""
    return encode_frame(event=STREAM_END, data=_json({"reason": reason, "status": status}))


MAX_SEQ = 10**12  # beyond any run's last event


def parse_last_event_id(value: str | None) -> int:
    """``Last-Event-ID`` → the last seq the client has: 0 when absent or empty; a number beyond
    any seq is capped at :data:`MAX_SEQ` (nothing is replayed, only later events would be sent).

    Raises:
        ValueError: not a decimal number — never silently read as "replay from the start".
    """
    if value is None or not value.strip():
        return 0
    text = value.strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError(f"invalid Last-Event-ID {text[:40]!r}: send the id (seq) of the last event received")
    return min(int(text[:13]), MAX_SEQ)

