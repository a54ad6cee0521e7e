"""The runnable examples of docs/write-a-task.md and docs/add-a-provider.md: the code the pages show
is the code in docs/examples/, and it runs — the task from a folder and from an entry point, the
provider from a package pip-installed into a temporary virtual environment."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

import autogen_pse
from autogen_pse.config import Settings
from autogen_pse.plugins import entry_points
from autogen_pse.registry import load_registry
from tests.plugin_support import install_plugin

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
HELLO = DOCS / "examples" / "hello-task"
PROVIDER = DOCS / "examples" / "pse-replay-provider"
SCRIPT = HELLO / "hello_pass.json"
_FILE_BLOCK = re.compile(r"<!-- file: (?P<path>[^ ]+) -->\n```\w*\n(?P<body>.*?)\n```", re.S)


def _cli(tmp: Path, *args: str, python: str = sys.executable, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "COLUMNS": "120", "PSE_TRACES_DIR": str(tmp / "traces"),
            "PSE_STATE_DIR": str(tmp / "state"), "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([python, "-c", "from autogen_pse.cli import entry; entry()", *args], capture_output=True,
                          text=True, env={**base, **env}, timeout=300, cwd=tmp)


@pytest.mark.parametrize("page", ["write-a-task.md", "add-a-provider.md"])
def test_the_pages_show_the_example_files_as_they_are(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = list(_FILE_BLOCK.finditer(text))
    assert len(blocks) >= 2
    for block in blocks:
        assert (ROOT / block["path"]).read_text(encoding="utf-8").rstrip() == block["body"], block["path"]


def test_write_a_task_example_runs_from_its_folder(tmp_path: Path) -> None:
    listed = _cli(tmp_path, "list", "--json", PSE_TASKS_DIR=str(HELLO))
    assert [t["name"] for t in json.loads(listed.stdout)["data"]] == ["hello"]
    proc = _cli(tmp_path, "run", "hello", "--var", "name=Ada", "--model", f"scripted:{SCRIPT}", "--json",
                PSE_TASKS_DIR=str(HELLO))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["verdict"], summary["verified"]) == ("PASS", True)
    assert {c["name"]: c["ok"] for c in summary["checks"]} == {
        "fact_references": True, "greets_by_name": True, "letter_count": True}
    assert Path(summary["artifact_path"]).read_text() == "Hello, Ada! Your name has 3 letters."
    empty = _cli(tmp_path, "run", "hello", "--var", "name=", "--model", f"scripted:{SCRIPT}", PSE_TASKS_DIR=str(HELLO))
    assert empty.returncode == 2 and "--var name= is empty" in empty.stderr


async def test_write_a_task_python_example(settings: Settings) -> None:
    settings = settings.model_copy(update={"tasks_dir": HELLO})
    stream = autogen_pse.run("hello", vars={"name": "Ada"}, model=f"scripted:{SCRIPT}", settings=settings)
    checks = [(e.payload.name, e.payload.ok) async for e in stream if e.kind == "check"]
    assert ("letter_count", True) in checks
    assert stream.result is not None and stream.result.verified


def test_a_task_folder_registered_by_a_package_is_listed_and_runs(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    install_plugin(tmp_path / "site", monkeypatch, {"autogen_pse.tasks": {"hello-tasks": "pse_hello_tasks:folder"}},
                   {"pse_hello_tasks.py": f"def folder():\n    return {str(HELLO)!r}\n"})
    names = [t.name for t in load_registry(ROOT / "tasks").tasks]
    assert names[-1] == "hello" and {"demo", "portfolio-review"} <= set(names)  # after the built-ins
    assert entry_points("tasks")["builtin"].value == "autogen_pse.registry:builtin_tasks"
    env = {"PYTHONPATH": f"{ROOT / 'src'}:{tmp_path / 'site'}"}
    proc = _cli(tmp_path, "run", "hello", "--model", f"scripted:{SCRIPT}", "--json", **env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verified"] is True


def _venv_with_shared_packages(tmp_path: Path) -> Path:
    """A new virtual environment that sees this checkout's autogen_pse and the test venv's
    packages (a path file), so installing the example needs no network and no build of autogen-pse."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    shared = sysconfig.get_paths()["purelib"]
    Path(purelib, "_pse_shared.pth").write_text(f"{ROOT / 'src'}\n{shared}\n", encoding="utf-8")
    return python


def test_add_a_provider_example_installs_with_pip_and_runs(tmp_path: Path) -> None:
    python = _venv_with_shared_packages(tmp_path)
    package = shutil.copytree(PROVIDER, tmp_path / "pse-replay-provider")
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                              "--no-index", str(package)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr
    probe = textwrap.dedent("""
        from autogen_pse.models import registered
        p = registered()["replay"]
        print(p.form, p.remote, p.priced)
    """)
    shown = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert shown.stdout.split() == ["replay:<file.json>", "False", "False"]
    proc = _cli(tmp_path, "run", "hello", "--model", f"replay:{SCRIPT}", "--json", python=str(python),
                PSE_TASKS_DIR=str(HELLO), PYTHONPATH="")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["verdict"], summary["verified"]) == ("PASS", True)
    trace = json.loads((Path(summary["trace_dir"]) / "events.jsonl").read_text().splitlines()[0])
    assert trace["payload"]["model"] == "replay:hello_pass.json"
    unknown = _cli(tmp_path, "run", "hello", "--model", "replai:x.json", python=str(python), PYTHONPATH="",
                   PSE_TASKS_DIR=str(HELLO))
    assert unknown.returncode == 2 and "replay:<file.json>" in unknown.stderr and "openai:<model>" in unknown.stderr
    # without the package the prefix is unknown: the registry, not a string match, decides
    bare = _cli(tmp_path, "run", "hello", "--model", f"replay:{SCRIPT}", PSE_TASKS_DIR=str(HELLO))
    assert bare.returncode == 2 and "unknown model spec" in bare.stderr
