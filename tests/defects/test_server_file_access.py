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


# --- every provider spec a web client can send ---------------------------------------------------------

PLUGINS = '''
from pathlib import Path

from autogen_pse import ProviderPlugin
from autogen_pse.models.scripted import ScriptedProvider

OPENED = Path(__file__).with_name("opened.txt")


def _open(argument, settings):
    with OPENED.open("a") as fh:  # what the server was made to open
        fh.write(argument + "\\n")
    return ScriptedProvider(Path(argument), max_retries=0, base_delay=0, max_delay=0)


def _validate(argument, settings):
    with OPENED.open("a") as fh:
        fh.write(argument + "\\n")


# says nothing about its argument: it may read any file or address (the default: refused from the web)
READS = ProviderPlugin(prefix="reads", open=_open, remote=False, priced=False, validate=_validate)
# its argument is a file: from the web only inside PSE_WEB_SCRIPTED_DIR
FILEMODEL = ProviderPlugin(prefix="filemodel", open=_open, remote=False, priced=False, argument_kind="file")
'''


@pytest.fixture
def file_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two installed providers whose argument is a path; returns the file listing what they opened."""
    from autogen_pse import plugins
    from tests.plugin_support import install_plugin

    install_plugin(tmp_path / "site", monkeypatch, {"autogen_pse.providers": {
        "reads": "pse_file_plugins:READS", "filemodel": "pse_file_plugins:FILEMODEL"}},
        {"pse_file_plugins.py": PLUGINS}, name="pse-file-plugins")
    yield tmp_path / "site" / "opened.txt"
    plugins.clear_cache()


def test_what_a_provider_argument_may_name_from_the_web_is_asked_of_its_registration(tmp_path: Path) -> None:
    from autogen_pse.errors import UserError
    from autogen_pse.web.policy import confine_model

    folder = tmp_path / "scripts"
    folder.mkdir()
    # no argument (the operator's settings) and model ids pass unchanged
    for spec in ("local", " LOCAL ", "openai:gpt-4o-mini", "OpenAI:gpt-4o-mini"):
        assert confine_model(spec, folder) == spec
    # a file is taken inside the folder, whatever the spelling of the prefix
    assert confine_model(" Scripted: a.json", folder) == f"scripted:{folder.resolve() / 'a.json'}"
    # local names its model file in the operator's settings only; an argument is no spec at all
    for spec in ("local:/etc/passwd", "local:../models/x.gguf", "nosuch:/etc/passwd"):
        with pytest.raises(UserError, match="unknown model spec"):
            confine_model(spec, folder)


@pytest.mark.timeout(120)
async def test_provider_specs_that_name_server_files_are_confined_or_refused(
        tmp_path: Path, secret_json: Path, file_plugins: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "pass.json").write_bytes((SCRIPTED / "demo_pass.json").read_bytes())
    settings = make_settings(tmp_path, web_scripted_dir=folder)
    other = [f"reads:{secret_json}", "reads:/etc/passwd", "READS: pass.json", "reads:http://127.0.0.1:9/x",
             "reads:~/.ssh/id_rsa"]
    outside = [f"filemodel:{secret_json}", "filemodel:../private/secrets.json", "FileModel:/etc/passwd",
               "local:/etc/passwd"]
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30) as c:
            refused_other = [await c.post("/api/runs", json={"task": "demo", "model": s}) for s in other]
            refused_outside = [await c.post("/api/runs", json={"task": "demo", "model": s}) for s in outside]
            ok = await c.post("/api/runs", json={"task": "demo", "model": "filemodel:pass.json"})
            assert ok.status_code == 202, ok.text
            run_id = ok.json()["run_id"]
            for _ in range(200):
                doc = (await c.get(f"/api/runs/{run_id}")).json()
                if doc["status"] not in ("queued", "running"):
                    break
                await asyncio.sleep(0.1)
    assert doc["status"] == "finished" and doc["verdict"] == "PASS", doc
    for r in refused_other:
        assert r.status_code == 422 and "not accepted from the web" in r.json()["detail"], r.text
    for r in refused_outside:
        assert r.status_code == 422, r.text
        assert "private" not in r.json()["detail"] and "aws_secret" not in r.json()["detail"]
    assert "PSE_WEB_SCRIPTED_DIR" in refused_outside[0].json()["detail"]
    # the server opened (and validated) nothing but the confined file
    assert file_plugins.read_text().splitlines() == [str(folder.resolve() / "pass.json")]


@pytest.mark.timeout(120)
async def test_file_vars_from_the_web_name_the_tasks_own_files_never_the_servers_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task resolves a relative input file against the current directory first (the CLI's way).
    From the web that was the server's directory: ``vars: {"cv": "notes.md"}`` read the server's file
    into a run (and its trace). File vars from the web now name files inside the task's folder."""
    cwd = tmp_path / "server-cwd"
    cwd.mkdir()
    (cwd / "private.md").write_text("# SERVER-ONLY NOTES\n\n## Experience\n\n### Admin — Server\n- root password\n")
    (cwd / "holdings.csv").write_text("symbol,name\nSECRET,server file\n")
    monkeypatch.chdir(cwd)
    settings = make_settings(tmp_path, web_scripted_dir=SCRIPTED)
    with ServerThread(create_app(settings)) as srv:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=60) as c:
            answers = [
                await c.post("/api/runs", json={"task": "resume-tailor", "model": "scripted:demo_pass.json",
                                                "vars": {"cv": "private.md"}}),
                await c.post("/api/runs", json={"task": "portfolio-review", "model": "scripted:demo_pass.json",
                                                "vars": {"holdings": "holdings.csv"}}),
                await c.post("/api/check", json={"task": "portfolio-review", "text": "# Review\n\nFine.\n",
                                                 "vars": {"holdings": "holdings.csv"}}),
            ]
            # the task's own file, relative to its folder, is accepted as before
            ok = await c.post("/api/check", json={"task": "portfolio-review", "text": "# Review\n\nFine.\n",
                                                  "vars": {"holdings": "data/holdings.csv"}})
    for r in answers:
        assert r.status_code == 422, r.text
        detail = str(r.json()["detail"])  # a message, or per-field ({loc, msg}) for a run's vars
        assert str(cwd) not in detail and "SECRET" not in detail and "SERVER-ONLY" not in detail, detail
        assert "file not found" in detail, detail
    assert ok.status_code == 200, ok.text


def test_a_file_var_that_leaves_the_task_folder_is_refused_alike_whether_or_not_it_exists(tmp_path: Path) -> None:
    from autogen_pse.errors import UserError
    from autogen_pse.registry import builtin_tasks
    from autogen_pse.web.policy import confine_vars

    tasks = builtin_tasks()
    answers = []
    for value in ("data/../../resume-tailor/data/cv.md", "data/../../nope.csv"):
        with pytest.raises(UserError) as info:
            confine_vars(tasks, "portfolio-review", {"holdings": value})
        answers.append(str(info.value))
    assert len(set(answers)) == 1 and "task's own files" in answers[0]
    done = confine_vars(tasks, "portfolio-review", {"holdings": "data/holdings.csv", "as_of": "latest"})
    assert done == {"holdings": str((tasks / "portfolio-review" / "data" / "holdings.csv").resolve()),
                    "as_of": "latest"}
