"""Pieces of the worker path that need no Redis: input files of an order, paths from a worker,
broker URLs in messages."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from autogen_pse.errors import UserError
from autogen_pse.remote.broker import check_broker, safe_url
from autogen_pse.remote.order import read_inputs, safe_relpath


def test_input_files_are_read_capped_and_other_vars_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.csv"
    notes.write_bytes(b"a,b\n1,2\n")
    found = read_inputs({"notes": str(notes), "as_of": "latest", "holder": "Alex"}, cap=100)
    assert [(f.var, f.name, base64.b64decode(f.data)) for f in found] == [("notes", "notes.csv", b"a,b\n1,2\n")]
    with pytest.raises(UserError, match=r"--var notes=.*total 8 bytes, over PSE_REMOTE_INPUT_CAP \(4\)"):
        read_inputs({"notes": str(notes)}, cap=4)


def test_paths_from_a_worker_stay_inside_the_run() -> None:
    assert safe_relpath("workspace/src/a.py") == "workspace/src/a.py"
    assert safe_relpath("checkpoint.json") == "checkpoint.json"
    for bad in ("../x", "/etc/passwd", "workspace/../../x", ""):
        assert safe_relpath(bad) is None


def test_broker_messages_hide_the_password_and_name_the_fix() -> None:
    assert safe_url("redis://:s3cret@redis.example:6380/1") == "redis://:***@redis.example:6380/1"
    assert safe_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    with pytest.raises(UserError, match="not a Redis URL"):
        check_broker("http://127.0.0.1:6379")
