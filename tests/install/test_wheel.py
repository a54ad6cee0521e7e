"""The built wheel, installed into a fresh venv outside the checkout, is a working product.

Builds the wheel with uv (offline: hatchling and every dependency come from uv's cache, filled by
``make install``), installs the locked dependencies and the wheel into a new venv in a temp dir, and
from another folder runs ``pse --version``, ``pse list``, ``pse tasks show``, a scripted run, ``pse
trace`` and ``pse serve`` (health and the dashboard's index answer over real HTTP on loopback).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from autogen_pse import __version__
from tests.web.web_helpers import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
STATIC_INDEX = ROOT / "src" / "autogen_pse" / "web" / "static" / "index.html"


def _uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        pytest.fail("uv not found (make install puts it in .venv/bin)")
    return found


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)} → {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str], Path]]:
    """``(venv bin folder, environment, working folder)`` of a fresh install of the built wheel."""
    if not STATIC_INDEX.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"{STATIC_INDEX} missing: `make frontend` builds the dashboard the wheel ships")
        pytest.skip("the dashboard is not built (make frontend)")
    base = tmp_path_factory.mktemp("wheel")
    uv = _uv()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PSE_", "UV_", "VIRTUAL_ENV", "PYTHON", "XDG_")) and k not in ("OPENAI_API_KEY",)}
    env.update(UV_PYTHON_DOWNLOADS="never", UV_COMPILE_BYTECODE="0", UV_NO_PROGRESS="1")
    dist, venv = base / "dist", base / "venv"
    _run([uv, "build", "--wheel", "--offline", "-o", str(dist), str(ROOT)], cwd=base, env=env)
    wheel = next(dist.glob("autogen_pse-*.whl"))
    _run([uv, "export", "--frozen", "--offline", "--format", "pylock.toml", "--no-emit-project", "--quiet",
          "--project", str(ROOT), "-o", str(base / "pylock.toml")], cwd=base, env=env)
    _run([uv, "venv", "--offline", "--quiet", "--python", sys.executable, str(venv)], cwd=base, env=env)
    py = str(venv / "bin" / "python")
    _run([uv, "pip", "install", "--offline", "--quiet", "--python", py, "-r", str(base / "pylock.toml")],
         cwd=base, env=env, timeout=600)
    _run([uv, "pip", "install", "--offline", "--quiet", "--no-deps", "--python", py, str(wheel)], cwd=base, env=env)
    work = base / "elsewhere"
    work.mkdir()
    env.update(HOME=str(base / "home"), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               ANONYMIZED_TELEMETRY="False", HF_HUB_OFFLINE="1")
    yield venv / "bin", env, work


def test_installed_package_is_not_the_checkout(installed: tuple[Path, dict[str, str], Path]) -> None:
    bin_dir, env, work = installed
    code = "import autogen_pse.config as c; print(c.__file__); print(c.CHECKOUT_ROOT); print(c.BUILTIN_TASKS_DIR)"
    lines = _run([str(bin_dir / "python"), "-c", code], cwd=work, env=env).stdout.splitlines()
    assert "site-packages" in lines[0] and not lines[0].startswith(str(ROOT))
    assert lines[1] == "None"
    assert lines[2].endswith("autogen_pse/builtin_tasks")
    assert _run([str(bin_dir / "pse"), "--version"], cwd=work, env=env).stdout.strip() == f"autogen-pse {__version__}"
    assert __version__ in _run([str(bin_dir / "python"), "-m", "autogen_pse", "--version"], cwd=work, env=env).stdout


def test_list_show_run_and_trace_from_another_folder(installed: tuple[Path, dict[str, str], Path]) -> None:
    bin_dir, env, work = installed
    pse = str(bin_dir / "pse")
    listed = json.loads(_run([pse, "list", "--json"], cwd=work, env=env).stdout)
    assert {t["name"] for t in listed["data"]} >= {"demo", "portfolio-review", "resume-tailor"}
    shown = json.loads(_run([pse, "tasks", "show", "portfolio-review", "--json"], cwd=work, env=env).stdout)
    assert "holdings" in shown["vars"] and "site-packages" in shown["folder"]

    run = _run([pse, "run", "demo", "-m", f"scripted:{SCRIPTED / 'demo_pass.json'}", "--json"],
               cwd=work, env=env, timeout=300)
    result = json.loads(run.stdout)
    assert (result["status"], result["verdict"]) == ("finished", "PASS")
    home = Path(env["HOME"]) / ".local" / "share" / "autogen-pse"  # the user data folder
    assert (home / "traces" / result["run_id"] / "trace.json").is_file()
    assert list(work.iterdir()) == [], "nothing may be written to the working folder"

    page = json.loads(_run([pse, "trace", "-n", "5", "--status", "finished", "--json"], cwd=work, env=env).stdout)
    assert [r["run_id"] for r in page["data"]] == [result["run_id"]] and page["next_cursor"] is None

    custom = {**env, "PSE_HOME": str(work.parent / "custom-home")}
    assert json.loads(_run([pse, "trace", "--json"], cwd=work, env=custom).stdout)["count"] == 0


def test_a_package_registers_a_provider_and_a_task_through_entry_points(
        installed: tuple[Path, dict[str, str], Path], tmp_path: Path) -> None:
    bin_dir, env, work = installed
    package = tmp_path / "pse-wheel-plugin"
    shutil.copytree(EXAMPLES / "hello-task", package / "pse_hello_tasks", ignore=shutil.ignore_patterns("__pycache__"))
    (package / "pse_hello_tasks" / "__init__.py").write_text('"""The hello task folder."""\n')
    shutil.copy(EXAMPLES / "pse-replay-provider" / "pse_replay.py", package / "pse_replay.py")
    (package / "pyproject.toml").write_text(
        '[project]\nname = "pse-wheel-plugin"\nversion = "0.1.0"\n'
        '[project.entry-points."autogen_pse.providers"]\nreplay = "pse_replay:PLUGIN"\n'
        '[project.entry-points."autogen_pse.tasks"]\nhello = "pse_hello_tasks"\n'
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
        '[tool.setuptools]\npy-modules = ["pse_replay"]\npackages = ["pse_hello_tasks"]\n'
        '[tool.setuptools.package-data]\npse_hello_tasks = ["**/*"]\n')
    # built offline with the test venv's setuptools (a locked dependency), installed like any wheel
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
          "-w", str(tmp_path / "dist"), str(package)], cwd=tmp_path, env=env)
    wheel = next((tmp_path / "dist").glob("pse_wheel_plugin-*.whl"))
    _run([_uv(), "pip", "install", "--offline", "--quiet", "--no-deps", "--python", str(bin_dir / "python"),
          str(wheel)], cwd=work, env=env)
    pse = str(bin_dir / "pse")
    listed = json.loads(_run([pse, "list", "--json"], cwd=work, env=env).stdout)
    assert [t["name"] for t in listed["data"]][-1] == "hello"  # after the built-in tasks
    run = _run([pse, "run", "hello", "--var", "name=Ada", "-m", f"REPLAY:{EXAMPLES / 'hello-task' / 'hello_pass.json'}",
                "--json"], cwd=work, env=env, timeout=300)
    result = json.loads(run.stdout)
    assert (result["verdict"], result["verified"]) == ("PASS", True)
    assert list(work.iterdir()) == [], "nothing may be written to the working folder"


def test_serve_answers_health_and_the_dashboard(installed: tuple[Path, dict[str, str], Path]) -> None:
    bin_dir, env, work = installed
    port = free_port()
    proc = subprocess.Popen([str(bin_dir / "pse"), "serve", "--port", str(port), "--log-level", "warning"],
                            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"{base}/api/health", timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    output = proc.stdout.read() if proc.stdout else ""
                    raise AssertionError(f"pse serve did not answer: {output}") from None
                time.sleep(0.3)
        assert health.status_code == 200
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200 and '<div id="root">' in page.text
        asset = page.text.split('src="', 1)[1].split('"', 1)[0]
        assert httpx.get(f"{base}{asset}", timeout=5).status_code == 200
        tasks = httpx.get(f"{base}/api/tasks", timeout=10).json()
        assert tasks["count"] >= 3
    finally:
        proc.terminate()
        proc.wait(timeout=15)
