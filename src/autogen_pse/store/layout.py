"""Names of the files in ``traces/<run_id>/`` and loading a trace document from them.

A trace folder holds ``trace.json`` (the reduced document), ``events.jsonl`` (the raw events),
``artifact.md`` / ``artifact.raw.md`` and ``workspace/``. ``trace.json`` is derived data: when it
is missing or unreadable, the document is rebuilt from ``events.jsonl``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from autogen_pse.store.files import EventLog
from autogen_pse.store.trace import TRACE_SCHEMA_VERSION, TraceBuilder

__all__ = [
    "ARTIFACT_FILE",
    "EVENTS_FILE",
    "INDEX_FILE",
    "RAW_ARTIFACT_FILE",
    "TRACE_FILE",
    "WORKSPACE_DIR",
    "load_trace_doc",
    "read_trace_file",
]

TRACE_FILE = "trace.json"
EVENTS_FILE = "events.jsonl"
ARTIFACT_FILE = "artifact.md"
RAW_ARTIFACT_FILE = "artifact.raw.md"
WORKSPACE_DIR = "workspace"
INDEX_FILE = "index.sqlite"

TraceSource = Literal["trace", "events", "none"]


def read_trace_file(run_dir: Path) -> dict[str, Any] | None:
    """``run_dir/trace.json`` if it is a complete schema-1 document of this run, else None.

    None covers: missing file, unreadable file, invalid JSON, another schema version, a document
    of another run id.
    """
    try:
        doc = json.loads((run_dir / TRACE_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if (
        not isinstance(doc, dict)
        or doc.get("schema_version") != TRACE_SCHEMA_VERSION
        or doc.get("run_id") != run_dir.name
        or not isinstance(doc.get("cycles"), list)
        or not isinstance(doc.get("status"), str)
    ):
        return None
    return doc


def load_trace_doc(
    run_dir: Path, *, prefer_events: bool = False
) -> tuple[dict[str, Any] | None, TraceSource]:
    """The trace document of ``run_dir`` and where it came from.

    Returns ``(doc, "trace")`` from ``trace.json`` when the log's last event is not newer than its
    ``last_seq`` (read from the end of ``events.jsonl``), else ``(doc, "events")`` rebuilt from
    ``events.jsonl`` (events of other run ids are skipped), else ``(None, "none")``. With
    ``prefer_events`` the whole log is read even when its tail looks current.

    Raises:
        StoreError: ``events.jsonl`` is damaged or unreadable and ``trace.json`` is unusable (or
            ``prefer_events`` is set).
    """
    doc = read_trace_file(run_dir)
    log = EventLog(run_dir / EVENTS_FILE)
    if doc is not None and not prefer_events:
        # trace.json is written without fsync (derived data): after a power loss it may be an
        # older checkpoint, so it is used only when the durable log has nothing newer
        tail = log.last_seq()
        if tail is not None and tail <= int(doc.get("last_seq") or 0):
            return doc, "trace"
    events = [e for e in log.read() if e.run_id == run_dir.name]
    if doc is not None and (not events or events[-1].seq <= int(doc.get("last_seq") or 0)):
        return doc, "trace"
    if not events:
        return None, "none"
    return TraceBuilder.from_events(events).document(), "events"
