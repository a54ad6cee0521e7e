"""The pure SSE encoder: frame layout, multi-line data, field validation, Last-Event-ID parsing."""

from __future__ import annotations

import json

import pytest

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.web.sse import (
    comment_frame,
    encode_frame,
    end_frame,
    event_frame,
    parse_last_event_id,
    retry_frame,
    run_level_frame,
)

RUN = "01JABCDEFGHJKMNPQRSTVWXYZ0"


def test_frame_fields_in_order_and_blank_line_terminated() -> None:
    frame = encode_frame(event="message", id=7, data="hello")
    assert frame == b"event: message\nid: 7\ndata: hello\n\n"


def test_multiline_data_becomes_several_data_lines() -> None:
    assert encode_frame(data="a\nb\r\nc\rd") == b"data: a\ndata: b\ndata: c\ndata: d\n\n"


def test_empty_data_is_one_empty_data_line() -> None:
    assert encode_frame(data="") == b"data: \n\n"


def test_comment_and_retry() -> None:
    assert comment_frame("ping") == b": ping\n\n"
    assert retry_frame(2500) == b": autogen-pse event stream\nretry: 2500\n\n"
    assert encode_frame(comment="a\n\nb") == b": a\n:\n: b\n\n"


@pytest.mark.parametrize("bad", ["two\nlines", "cr\r", "nul\x00", ""])
def test_event_name_must_be_one_line(bad: str) -> None:
    with pytest.raises(ValueError):
        encode_frame(event=bad, data="x")


@pytest.mark.parametrize("bad", ["1\n2", "a\x00"])
def test_id_must_be_one_line_without_nul(bad: str) -> None:
    with pytest.raises(ValueError):
        encode_frame(id=bad, data="x")


@pytest.mark.parametrize("bad", [-1, True, 1.5])
def test_retry_must_be_non_negative_int(bad: object) -> None:
    with pytest.raises(ValueError):
        encode_frame(retry=bad)  # type: ignore[arg-type]


def test_frame_needs_a_field() -> None:
    with pytest.raises(ValueError):
        encode_frame()


def test_unicode_is_utf8() -> None:
    assert encode_frame(data="é✓") == "data: é✓\n\n".encode()


def test_event_frame_uses_kind_and_seq() -> None:
    content = "line one\nline two with ```code```\n\n<script>alert(1)</script>"
    event = RunEvent(run_id=RUN, seq=12, cycle=2, kind=EventKind.MESSAGE,
                     payload={"source": "specialist", "content": content})
    frame = event_frame(event).decode()
    lines = frame.split("\n")
    assert lines[0] == "event: message"
    assert lines[1] == "id: 12"
    assert lines[2].startswith("data: ")
    assert frame.endswith("\n\n") and frame.count("\n\n") == 1  # JSON keeps the payload on one line
    decoded = json.loads(lines[2][len("data: "):])
    assert decoded["payload"]["content"] == content
    assert decoded["seq"] == 12 and decoded["kind"] == "message" and decoded["cycle"] == 2


def test_run_level_frame_has_no_id_and_carries_row() -> None:
    event = RunEvent(run_id=RUN, seq=1, kind=EventKind.RUN_STARTED, payload={"task": "demo"})
    frame = run_level_frame(event, {"run_id": RUN, "status": "running"}).decode()
    assert "\nid:" not in frame and frame.startswith("event: run_started\n")
    body = json.loads(frame.split("data: ", 1)[1])
    assert body["run"]["status"] == "running" and body["payload"]["task"] == "demo"


def test_end_frame() -> None:
    frame = end_frame("finished", "cancelled").decode()
    assert frame.startswith("event: stream_end\n")
    assert json.loads(frame.split("data: ", 1)[1]) == {"reason": "finished", "status": "cancelled"}


@pytest.mark.parametrize(("raw", "expected"), [
    (None, 0), ("", 0), ("17", 17), (" 5 ", 5), ("9" * 13, 10**12), ("9" * 40, 10**12),
])
def test_parse_last_event_id(raw: str | None, expected: int) -> None:
    assert parse_last_event_id(raw) == expected  # a huge id replays nothing (issue 10)


@pytest.mark.parametrize("raw", ["-3", "abc", "1e3", "٣", "5;"])
def test_an_invalid_last_event_id_is_an_error_not_a_full_replay(raw: str) -> None:
    with pytest.raises(ValueError, match="invalid Last-Event-ID"):
        parse_last_event_id(raw)
