"""Hypothesis properties of the SSE encoder (``autogen_pse.web.sse``), checked with an independent
parser written from the WHATWG EventSource algorithm: any payload becomes frames that parse back
to the same id / event / data — multi-line data, unicode, CR, LF and CRLF inside strings,
``\\n\\ndata: x`` or ``\\r\\nid: 9`` injection attempts — and never to an extra field or frame."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.web.sse import (
    STREAM_END,
    comment_frame,
    encode_frame,
    end_frame,
    event_frame,
    parse_last_event_id,
    retry_frame,
    run_level_frame,
)

PROFILE = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=120, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- an independent EventSource parser (https://html.spec.whatwg.org/#event-stream-interpretation) --
@dataclass
class Dispatched:
    event: str
    data: str
    last_event_id: str
    fields: list[str] = field(default_factory=list)  # every field name seen in this frame, in order


@dataclass
class Parsed:
    events: list[Dispatched]
    retry: int | None
    comments: list[str]
    blocks: int  # blank-line-terminated blocks (frames), dispatched or not
    fields: list[list[str]]  # field names per block


def parse_stream(raw: bytes) -> Parsed:
    text = raw.decode("utf-8")  # the spec decodes UTF-8 (with replacement); ours must be valid
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.split(r"\r\n|\r|\n", text)
    assert lines[-1] == "", "the stream must end with a line break"
    lines = lines[:-1]
    events: list[Dispatched] = []
    comments: list[str] = []
    all_fields: list[list[str]] = []
    event_type, data, last_id, retry = "", "", "", None
    names: list[str] = []
    blocks = 0
    for line in lines:
        if line == "":
            blocks += 1
            all_fields.append(names)
            if data:
                events.append(Dispatched(event_type or "message", data[:-1] if data.endswith("\n") else data,
                                         last_id, names))
            event_type, data, names = "", "", []
            continue
        if line.startswith(":"):
            comments.append(line[1:])
            continue
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        names.append(name)
        if name == "event":
            event_type = value
        elif name == "data":
            data += value + "\n"
        elif name == "id":
            if "\x00" not in value:
                last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            retry = int(value)
    return Parsed(events, retry, comments, blocks, all_fields)


def normalize_breaks(text: str) -> str:
    return re.sub(r"\r\n|\r", "\n", text)


# --- strategies --------------------------------------------------------------------------------------
BREAKS = st.sampled_from(["\n", "\r", "\r\n", "\n\n", "\r\r", "\r\n\r\n"])
INJECTIONS = st.sampled_from([
    "\n\ndata: injected", "\r\nid: 999", "\revent: evil", "\n\nevent: run_finished\ndata: {}\n\n",
    "\nretry: 1", ": comment", "\u2028data: x", "\u0085id: 7", "\x00", "data:", "id:", "\n:", "\ufeff",
])
TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=80)
RICH_TEXT = st.lists(st.one_of(TEXT, BREAKS, INJECTIONS), max_size=8).map("".join)
FIELD_TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\x00"),
                     min_size=1, max_size=40)
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53),
                         st.floats(allow_nan=False, allow_infinity=False), RICH_TEXT,
                         st.text(max_size=20))  # the last may hold lone surrogates
JSON_VALUES = st.recursive(JSON_SCALARS, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(RICH_TEXT, kids, max_size=4)), max_leaves=8)
RUN_IDS = st.from_regex(r"\A[0-9A-HJKMNP-TV-Z]{26}\Z")


@st.composite
def run_events(draw: Any) -> RunEvent:
    return RunEvent(run_id=draw(RUN_IDS), seq=draw(st.integers(1, 10**9)), cycle=draw(st.integers(0, 50)),
                    kind=draw(st.sampled_from(list(EventKind))),
                    payload=draw(st.dictionaries(RICH_TEXT, JSON_VALUES, max_size=4)))


# --- properties -------------------------------------------------------------------------------------
@PROFILE
@given(data=RICH_TEXT, event=FIELD_TEXT, id_=st.one_of(st.integers(0, 10**15), FIELD_TEXT))
@example(data="a\r\n\r\nevent: x\r\nid: 2\r\n\r\ndata: b", event="message", id_=1)
@example(data="", event=" leading space", id_=" 5")
@example(data="\n", event="e", id_="x:y")
def test_frame_round_trips_exactly(data: str, event: str, id_: int | str) -> None:
    parsed = parse_stream(encode_frame(data=data, event=event, id=id_))
    assert parsed.blocks == 1
    assert parsed.fields[0] == ["event", "id"] + ["data"] * len(re.split(r"\r\n|\r|\n", data))
    assert parsed.retry is None and parsed.comments == []
    (got,) = parsed.events  # also for "": one empty data line is still an event, with data ""
    assert got.event == event and got.last_event_id == str(id_)
    assert got.data == normalize_breaks(data)


@PROFILE
@given(bad=st.text(max_size=10).flatmap(lambda s: st.sampled_from([s + "\n", "\r" + s, s + "\x00" + s, "a\r\nb"])))
def test_event_and_id_with_line_breaks_or_nul_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        encode_frame(data="x", event=bad)
    with pytest.raises(ValueError):
        encode_frame(data="x", id=bad)


@PROFILE
@given(comment=RICH_TEXT)
def test_comments_never_become_fields(comment: str) -> None:
    parsed = parse_stream(comment_frame(comment))
    assert parsed.events == [] and parsed.fields == [[]] and parsed.blocks == 1
    assert "\n".join(c[1:] if c.startswith(" ") else c for c in parsed.comments) == normalize_breaks(comment)


@HEAVY
@given(event=run_events())
def test_run_event_frame_parses_back_to_the_event(event: RunEvent) -> None:
    raw = event_frame(event)
    parsed = parse_stream(raw)
    assert parsed.blocks == 1 and parsed.fields == [["event", "id", "data"]]  # one line of data, always
    (got,) = parsed.events
    assert got.event == event.kind.value and got.last_event_id == str(event.seq)
    assert json.loads(got.data) == event.model_dump(mode="json")


@HEAVY
@given(event=run_events(), row=st.one_of(st.none(), st.dictionaries(RICH_TEXT, JSON_VALUES, max_size=5)))
def test_run_level_frame_parses_back(event: RunEvent, row: dict[str, Any] | None) -> None:
    parsed = parse_stream(run_level_frame(event, row))
    assert parsed.fields == [["event", "data"]]  # no id: the global feed has no replay
    (got,) = parsed.events
    assert got.event == event.kind.value
    assert json.loads(got.data) == {**event.model_dump(mode="json"), "run": row}


@HEAVY
@given(events=st.lists(run_events(), min_size=1, max_size=4), retry=st.integers(0, 10**7), reason=RICH_TEXT)
def test_a_whole_stream_keeps_frames_apart(events: list[RunEvent], retry: int, reason: str) -> None:
    raw = retry_frame(retry) + b"".join(event_frame(e) + comment_frame("ping") for e in events)
    raw += end_frame(reason, "finished")
    parsed = parse_stream(raw)
    assert parsed.retry == retry
    assert [(d.event, d.last_event_id) for d in parsed.events] == \
        [(e.kind.value, str(e.seq)) for e in events] + [(STREAM_END, str(events[-1].seq))]
    assert [json.loads(d.data) for d in parsed.events[:-1]] == [e.model_dump(mode="json") for e in events]
    assert json.loads(parsed.events[-1].data) == {"reason": reason, "status": "finished"}
    assert parsed.blocks == 1 + 2 * len(events) + 1


@PROFILE
@given(text=st.text(max_size=30))  # lone surrogates included: UTF-8 cannot carry them
def test_text_utf8_cannot_carry_never_breaks_the_stream(text: str) -> None:
    raw = encode_frame(data=text, event="e", id=1)
    raw.decode("utf-8")  # always valid UTF-8 on the wire
    event = RunEvent(run_id="01JAAAAAAAAAAAAAAAAAAAAAAA", seq=1, kind=EventKind.MESSAGE, payload={"content": text})
    (got,) = parse_stream(event_frame(event)).events
    assert json.loads(got.data)["payload"]["content"] == text  # exact, via \\uXXXX escapes


@PROFILE
@given(value=st.one_of(st.none(), st.text(max_size=30), st.integers(-5, 10**20).map(str)))
@example(value="٣")  # a non-ASCII digit
@example(value="  12 ")
def test_last_event_id_is_a_seq_or_a_clear_error(value: str | None) -> None:
    try:
        seq = parse_last_event_id(value)
    except ValueError as exc:  # never read as "replay from the start" (issue 10)
        assert value is not None and value.strip() and not (value.strip().isascii() and value.strip().isdigit())
        assert "Last-Event-ID" in str(exc)
        return
    assert isinstance(seq, int) and 0 <= seq <= 10**12
    if value is not None and value.strip().isascii() and value.strip().isdigit():
        assert seq == min(int(value.strip()), 10**12)


@PROFILE
@given(n=st.integers(0, 10**12 - 1))
def test_ids_round_trip_through_last_event_id(n: int) -> None:
    (got,) = parse_stream(encode_frame(data="x", id=n)).events
    assert parse_last_event_id(got.last_event_id) == n
