"""Executors from entry points: the CLI's `pse run` and the dashboard go through the one named by
PSE_EXECUTOR, with the same console output and exit codes as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.executor import LocalExecutor, RunExecutor, open_executor
from autogen_pse.web import create_app
from tests.plugin_support import install_plugin

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"

RECORDING = '''
import os
from pathlib import Path

from autogen_pse.executor import LocalExecutor


class Recording(LocalExecutor):
    """The built-in executor, noting every submit and wait in PSE_TEST_EXECUTOR_LOG."""

    def _note(self, line):
        with Path(os.environ["PSE_TEST_EXECUTOR_LOG"]).open("a") as f:
            f.write(line + "\\n")

    async def submit(self, request):
        run_id = await super().submit(request)
        self._note(f"submit {request.task} {run_id} concurrency={self.concurrency}")
        return run_id

    async def wait(self, run_id):
        result = await super().wait(run_id)
        self._note(f"wait {run_id} {result.verdict if result else None}")
        return result
'''


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "site"
    install_plugin(root, monkeypatch, {"autogen_pse.executors": {"recording": "pse_test_executor:Recording"}},
                   {"pse_test_executor.py": RECORDING})
    return root


def _cli(tmp: Path, site: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "PSE_TRACES_DIR": str(tmp / "traces"), "PSE_STATE_DIR": str(tmp / "state"),
            "HOME": str(tmp), "COLUMNS": "200", "PYTHONPATH": str(site), "PSE_TOOL_ISOLATION": "none",
            "PSE_TEST_EXECUTOR_LOG": str(tmp / "executor.log")}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env={**base, **env}, timeout=300, cwd=tmp)


def test_the_builtin_local_executor_is_registered_and_opened_by_name(settings: Settings) -> None:
    executor: RunExecutor = open_executor(settings, sinks=[], concurrency=3)
    assert isinstance(executor, LocalExecutor) and executor.concurrency == 3


def test_pse_run_goes_through_the_registered_executor(tmp_path: Path, site: Path) -> None:
    proc = _cli(tmp_path, site, "run", "demo", "--model", f"scripted:{SCRIPTED / 'demo_fix_then_pass.json'}",
                PSE_EXECUTOR="recording")
    assert proc.returncode == 0, proc.stderr
    for expected in ("cycle 1 · initial", "cycle 2 · fix", "verdict PASS", "summary", "trace"):
        assert expected in proc.stdout, expected
    log = (tmp_path / "executor.log").read_text().splitlines()
    assert log[0].startswith("submit demo ") and log[0].endswith("concurrency=1")
    assert log[1].endswith(" PASS") and log[1].split()[1] == log[0].split()[2]


def test_exit_codes_are_unchanged_through_the_executor(tmp_path: Path, site: Path) -> None:
    blocked = _cli(tmp_path, site, "run", "demo", "--model", f"scripted:{SCRIPTED / 'web_demo_blocked.json'}",
                   "--json", PSE_EXECUTOR="recording")
    assert blocked.returncode == 1 and json.loads(blocked.stdout)["verdict"] != "PASS"
    bad_var = _cli(tmp_path, site, "run", "demo", "--var", "x=1", "--model",
                   f"scripted:{SCRIPTED / 'demo_pass.json'}", PSE_EXECUTOR="recording")
    assert bad_var.returncode == 2 and bad_var.stderr.count("\n") == 1 and "unknown --var" in bad_var.stderr
    missing = _cli(tmp_path, site, "run", "demo", "--model", "scripted:/nope.json", PSE_EXECUTOR="recording")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_an_unknown_executor_is_a_one_line_user_error(tmp_path: Path, site: Path) -> None:
    proc = _cli(tmp_path, site, "run", "demo", "--model", f"scripted:{SCRIPTED / 'demo_pass.json'}",
                PSE_EXECUTOR="dramatiq")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "no executor named 'dramatiq' is registered" in proc.stderr and "local" in proc.stderr
    assert "celery" in proc.stderr
    assert "recording" in proc.stderr
    assert not (tmp_path / "traces").exists() or not list((tmp_path / "traces").glob("0*"))


async def test_the_dashboard_opens_the_same_registered_executor(tmp_path: Path, site: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    monkeypatch.setenv("PSE_TEST_EXECUTOR_LOG", str(tmp_path / "executor.log"))
    settings = Settings(_env_file=None, traces_dir=tmp_path / "traces", state_dir=tmp_path / "state",
                        executor="recording", tool_isolation="none")
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            reply = await client.post("/api/runs", json={"task": "demo", "model": "scripted:demo_pass.json"},
                                      headers={"Origin": "http://127.0.0.1"})
            assert reply.status_code in (200, 201, 202), reply.text
            run_id = reply.json()["run_id"]
            result = await app.state.pse.executor.wait(run_id)
            assert result.verdict == "PASS"
    assert (tmp_path / "executor.log").read_text().startswith(f"submit demo {run_id}")
