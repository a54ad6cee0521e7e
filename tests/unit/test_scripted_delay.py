"""A scripted reply's ``delay``: the call waits before answering; a bad value is a one-line error."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from autogen_pse.errors import InputFileError
from autogen_pse.models.scripted import ScriptedChatClient, load_script


def test_delay_waits_and_bad_delay_is_refused(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "s.json"
    path.write_text(json.dumps({"planner": [{"content": "slow", "delay": 0.2}, "fast"]}), encoding="utf-8")
    client = ScriptedChatClient(load_script(path), "planner")
    started = time.monotonic()
    assert asyncio.run(client.create([])).content == "slow"
    assert time.monotonic() - started >= 0.2
    started = time.monotonic()
    assert asyncio.run(client.create([])).content == "fast"
    assert time.monotonic() - started < 0.2
    for bad in (-1, "1", True, 601):
        path.write_text(json.dumps({"planner": [{"content": "x", "delay": bad}]}), encoding="utf-8")
        with pytest.raises(InputFileError, match=r"field 'planner\[0\]\.delay': must be a number of seconds"):
            load_script(path)
    path.write_text(json.dumps({"planner": [{"error": "server", "delay": 1}]}), encoding="utf-8")
    with pytest.raises(InputFileError, match="unknown key"):
        load_script(path)
