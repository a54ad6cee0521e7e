"""Issue 10, defect 6: a web client cannot make the server open files of its choosing.

``POST /api/runs`` with ``model: "scripted:<path>"`` only reads scripted files from the configured
folder (``PSE_WEB_SCRIPTED_DIR``); the answer for anything else says neither whether the file exists
nor what it holds. ``run_pytest`` refuses ``@file`` arguments (pytest would read options from it)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from autogen_pse.tools.agent_tools import build_tools
from autogen_pse.tools.argcheck import validate_pytest_args, validate_ruff_args
from autogen_pse.tools.paths import ToolError
from autogen_pse.web import create_app
from tests.web.web_helpers import ROOT, ServerThread, make_settings

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


@pytest.fixture
def secret_json(tmp_path: Path) -> Path:
    outside = tmp_path / "private" / "secrets.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps({"aws_secret_key_field": 1, "planner": []}))
    return outside


@pytest.mark.timeout(120)
async def test_scripted_files_from_the_web_come_from_the_configured_folder(tmp_path: Path, secret_json: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "pass.json").write_bytes((SCRIPTED / "demo_pass.json").read_bytes())
    (folder / "link.json").symlink_to(secret_json)
    settings = make_settings(tmp_path, web_scripted_dir=folder)
    refused_specs = [f"scripted:{secret_json}", "scripted:/etc/passwd", "scripted:/no/such/file.json",
                     "scripted:../private/secrets.json", "SCRIPTED: ../private/secrets.json", "scripted:link.json",
                     f"scripted:{folder}/../private/secrets.json"]
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            refused = [await c.post("/api/runs", json={"task": "demo", "model": spec}) for spec in refused_specs]
            ok_relative = await c.post("/api/runs", json={"task": "demo", "model": "scripted:pass.json"})
            ok_absolute = await c.post("/api/runs", json={"task": "demo", "model": f"scripted:{folder / 'pass.json'}"})
            missing = await c.post("/api/runs", json={"task": "demo", "model": "scripted:nope.json"})
            for r in (ok_relative, ok_absolute):
                run_id = r.json()["run_id"]
                for _ in range(200):
                    doc = (await c.get(f"/api/runs/{run_id}")).json()
                    if doc["status"] not in ("queued", "running"):
                        break
                    await asyncio.sleep(0.1)
                assert doc["status"] == "finished" and doc["verdict"] == "PASS", doc
    details = [r.json()["detail"] for r in refused]
    assert [r.status_code for r in refused] == [422] * len(refused_specs), details
    assert len(set(details)) == 1, details  # the same answer whether the file exists or not
    assert "PSE_WEB_SCRIPTED_DIR" in details[0] and "aws_secret" not in details[0] and "private" not in details[0]
    assert ok_relative.status_code == ok_absolute.status_code == 202
    assert missing.status_code == 422 and "nope.json" in missing.json()["detail"]  # inside the folder: named


async def test_the_server_default_model_is_the_operators_choice(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, model=f"scripted:{SCRIPTED / 'demo_pass.json'}",
                             web_scripted_dir=tmp_path / "empty")
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            r = await c.post("/api/runs", json={"task": "demo"})
    assert r.status_code == 202, r.text


@pytest.mark.parametrize("args", [["@opts.txt"], ["-q", "@opts.txt"], ["-k", "@opts.txt"], ["--", "@opts.txt"],
                                  ["--deselect", "@opts.txt"]])
def test_pytest_argument_files_are_refused(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "opts.txt").write_text("-p\nsome_plugin\n--rootdir=/\n")
    with pytest.raises(ToolError, match="argument files"):
        validate_pytest_args(args, tmp_path)
    with pytest.raises(ToolError, match="argument files"):
        validate_ruff_args(["check", *args], tmp_path)


async def test_run_pytest_tool_answers_an_argument_file_with_an_error(tmp_path: Path) -> None:
    (tmp_path / "opts.txt").write_text("-p\nsome_plugin\n")
    tools = {t.name: t for t in build_tools(["run_pytest"], tmp_path, timeout=30, output_cap=4000,
                                            isolation="none")}
    from autogen_core import CancellationToken

    out = await tools["run_pytest"].run_json({"args": "@opts.txt"}, CancellationToken())
    assert str(out).startswith("ERROR:") and "argument files" in str(out)
