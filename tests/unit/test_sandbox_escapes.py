"""Escape attempts against the sandboxed tools: each must be refused or contained.

File-level attempts are cheap; process-level ones run real ``python -m pytest`` children with
small timeouts (3 s) and then check that every process they started is gone.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from autogen_pse.tools import files as files_mod
from autogen_pse.tools.agent_tools import build_tools
from autogen_pse.tools.commands import ResourceLimits, Toolchain, run_command, run_command_async
from autogen_pse.tools.files import read_file, write_file
from autogen_pse.tools.paths import ToolError, resolve_in_workspace

KILL_TIMEOUT = 3.0
SPAWN_TIMEOUT = 5.0  # kill tests: leaves time for the child pytest to start on a loaded machine
SLACK = 3.0  # allowed wall-clock beyond the timeout (grace drain + a loaded machine)
SENTINEL = "sentinel-4f1d9c0e-do-not-leak"


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def _alive(pid: int) -> bool:
    """True if ``pid`` runs (zombies count as dead: they are only waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _wait_gone(pids: list[int], within: float = 2.0) -> list[int]:
    end = time.monotonic() + within
    while True:
        alive = [p for p in pids if _alive(p)]
        if not alive or time.monotonic() > end:
            return alive
        time.sleep(0.05)


def _pytest(ws: Path, *args: str, timeout: float = 30.0, cap: int = 20_000, **kw):
    return run_command(["python", "-m", "pytest", "-q", *args], workspace=ws, timeout=timeout,
                       output_cap=cap, **kw)  # fmt: skip


# --- path escapes through the file tools ------------------------------------------------------


@pytest.mark.parametrize("rel", ["../outside.txt", "a/../../outside.txt", "./../../../../etc/passwd"])
def test_dotdot_traversal_read_refused(ws: Path, rel: str) -> None:
    (ws.parent / "outside.txt").write_text("outside secret")
    with pytest.raises(ToolError, match="outside the workspace"):
        read_file(ws, rel)


def test_dotdot_traversal_write_refused_and_nothing_written(ws: Path) -> None:
    with pytest.raises(ToolError, match="outside the workspace"):
        write_file(ws, "../escaped.txt", "pwned")
    assert not (ws.parent / "escaped.txt").exists()


@pytest.mark.parametrize(
    "rel", ["/etc/passwd", "/proc/self/root/etc/passwd", "//etc/passwd", "\\etc\\passwd"]
)
def test_absolute_paths_refused(ws: Path, rel: str) -> None:
    with pytest.raises(ToolError, match="absolute path"):
        read_file(ws, rel)
    with pytest.raises(ToolError, match="absolute path"):
        write_file(ws, rel, "x")


def test_write_absolute_path_outside_leaves_target_untouched(ws: Path, tmp_path: Path) -> None:
    target = tmp_path / "victim.txt"
    target.write_text("original")
    with pytest.raises(ToolError):
        write_file(ws, str(target), "pwned")
    assert target.read_text() == "original"


def test_symlink_to_outside_file_read_refused(ws: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    (ws / "innocent.txt").symlink_to(secret)
    with pytest.raises(ToolError, match="outside the workspace") as err:
        read_file(ws, "innocent.txt")
    assert "TOP SECRET" not in str(err.value)


def test_symlink_to_outside_file_write_refused(ws: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("original")
    (ws / "notes.txt").symlink_to(victim)
    with pytest.raises(ToolError):
        write_file(ws, "notes.txt", "pwned")
    assert victim.read_text() == "original"
    assert (ws / "notes.txt").is_symlink()


def test_symlinked_dir_to_outside_write_refused(ws: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside_dir"
    outside.mkdir()
    (ws / "sub").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ToolError, match="outside the workspace"):
        write_file(ws, "sub/planted.py", "pwned")
    assert list(outside.iterdir()) == []


def test_write_through_symlink_inside_workspace_refused(ws: Path) -> None:
    (ws / "real.txt").write_text("real")
    (ws / "alias.txt").symlink_to(ws / "real.txt")
    with pytest.raises(ToolError, match="symlink"):
        write_file(ws, "alias.txt", "changed")
    assert (ws / "real.txt").read_text() == "real"


def test_symlink_to_proc_self_root_refused(ws: Path) -> None:
    (ws / "root").symlink_to("/proc/self/root", target_is_directory=True)
    with pytest.raises(ToolError, match="outside the workspace"):
        read_file(ws, "root/etc/passwd")
    with pytest.raises(ToolError):
        read_file(ws, "proc/self/root/etc/passwd")  # relative: simply does not exist inside


def test_symlink_loop_refused(ws: Path) -> None:
    (ws / "a").symlink_to(ws / "b")
    (ws / "b").symlink_to(ws / "a")
    with pytest.raises(ToolError):
        read_file(ws, "a")
    with pytest.raises(ToolError):
        write_file(ws, "a", "x")


def test_home_ssh_key_refused_by_tilde_and_by_climbing(ws: Path) -> None:
    with pytest.raises(ToolError, match="home-relative"):
        read_file(ws, "~/.ssh/id_rsa")
    climb = os.path.relpath(Path.home() / ".ssh" / "id_rsa", ws)
    assert climb.startswith("..")
    with pytest.raises(ToolError, match="outside the workspace"):
        read_file(ws, climb)


def test_project_dotenv_via_relative_climbing_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    ws = project / "traces" / "01J0000000000000000000000" / "workspace"
    ws.mkdir(parents=True)
    (project / ".env").write_text(f"OPENAI_API_KEY={SENTINEL}\n")
    for rel in ("../../../.env", "../../.././.env", "sub/../../../../.env"):
        with pytest.raises(ToolError) as err:
            read_file(ws, rel)
        assert SENTINEL not in str(err.value)


def test_sibling_dir_extending_workspace_name_refused(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    evil = tmp_path / "ws-evil"
    ws.mkdir()
    evil.mkdir()
    (evil / "secret.txt").write_text("evil")
    naive = (ws / "../ws-evil/secret.txt").resolve()
    assert str(naive).startswith(str(ws.resolve()))  # a string-prefix check would accept it
    with pytest.raises(ToolError, match="outside the workspace"):
        resolve_in_workspace(ws, "../ws-evil/secret.txt")
    with pytest.raises(ToolError):
        read_file(ws, "../ws-evil/secret.txt")
    with pytest.raises(ToolError):
        write_file(ws, "../ws-evil/new.txt", "x")
    assert not (evil / "new.txt").exists()


def test_nul_byte_in_path_and_content_refused(ws: Path) -> None:
    with pytest.raises(ToolError, match="NUL"):
        read_file(ws, "a.txt\x00../../etc/passwd")
    with pytest.raises(ToolError, match="NUL"):
        write_file(ws, "a\x00.txt", "x")
    with pytest.raises(ToolError, match="NUL"):
        write_file(ws, "a.txt", "text\x00more")
    assert list(ws.iterdir()) == []


def test_huge_write_refused(ws: Path) -> None:
    with pytest.raises(ToolError, match="write limit"):
        write_file(ws, "big.txt", "x" * (256 * 1024 + 1))
    assert list(ws.iterdir()) == []


def test_huge_and_binary_reads_refused(ws: Path) -> None:
    (ws / "big.txt").write_text("y" * (256 * 1024 + 1))
    (ws / "nul.bin").write_bytes(b"abc\x00def")
    (ws / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(ToolError, match="read limit"):
        read_file(ws, "big.txt")
    with pytest.raises(ToolError, match="binary"):
        read_file(ws, "nul.bin")
    with pytest.raises(ToolError, match="binary"):
        read_file(ws, "latin1.txt")


def test_fifo_read_refused_without_blocking(ws: Path) -> None:
    os.mkfifo(ws / "pipe")
    start = time.monotonic()
    with pytest.raises(ToolError, match="not a regular file"):
        read_file(ws, "pipe")
    assert time.monotonic() - start < 1.0


def test_dir_swapped_for_symlink_after_check_is_caught(ws: Path, tmp_path: Path, monkeypatch) -> None:
    """Simulate the race: the path check passed, then ``sub`` became a symlink to outside."""
    outside = tmp_path / "outside_dir"
    outside.mkdir()
    (ws / "sub").symlink_to(outside, target_is_directory=True)
    monkeypatch.setattr(files_mod, "resolve_in_workspace", lambda w, rel: Path(w).resolve() / rel)
    with pytest.raises(ToolError, match="symlink"):
        write_file(ws, "sub/planted.py", "pwned")
    with pytest.raises(ToolError, match="symlink"):
        read_file(ws, "sub/anything.txt")
    assert list(outside.iterdir()) == []


# --- command allowlist and argument validation ------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["python", "-c", "import os; os.system('id')"],
        ["python3", "-c", "print(1)"],
        ["python", "evil.py"],
        ["python", "-m", "pip", "install", "x"],
        ["bash", "-c", "id"],
        ["/bin/sh", "-c", "id"],
        ["/usr/bin/pytest"],
        ["/usr/bin/python3", "-m", "pytest"],
        ["ruff", "format", "."],
        ["rm", "-rf", "/"],
    ],
)
def test_non_allowlisted_commands_refused(ws: Path, argv: list[str]) -> None:
    with pytest.raises(ToolError):
        run_command(argv, workspace=ws, timeout=KILL_TIMEOUT, output_cap=1000)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-p", "evil_plugin"], "-p"),
        (["-pevil_plugin"], "-p"),
        (["-qp", "evil"], "-p"),
        (["--rootdir=/"], "--rootdir"),
        (["--rootdir", "/"], "--rootdir"),
        (["--root=/"], "--root"),  # argparse-style abbreviation
        (["-c", "/etc/pytest.ini"], "-c"),
        (["-o", "addopts=-p evil"], "-o"),
        (["--confcutdir=/"], "--confcutdir"),
        (["--basetemp=/tmp"], "--basetemp"),
        (["--pyargs", "os"], "--pyargs"),
        (["../other/test_x.py"], "outside"),
        (["/etc"], "absolute"),
        (["../x.py::test_a"], "outside"),
        (["--deselect", "../x.py::t"], "outside"),
    ],
)
def test_pytest_dangerous_args_refused(ws: Path, args: list[str], needle: str) -> None:
    with pytest.raises(ToolError, match=needle):
        _pytest(ws, *args)


@pytest.mark.parametrize(
    "args", [["--config", "/etc/ruff.toml"], ["--isolated"], ["--exit-zero"], ["--cache-dir=/tmp/x"], ["/"]]
)
def test_ruff_dangerous_args_refused(ws: Path, args: list[str]) -> None:
    with pytest.raises(ToolError):
        run_command(["ruff", "check", *args], workspace=ws, timeout=KILL_TIMEOUT, output_cap=1000)


async def test_agent_tool_refusals_are_returned_not_raised(ws: Path) -> None:
    from autogen_core import CancellationToken

    tools = {t.name: t for t in build_tools(["read_file", "run_pytest"], ws, timeout=KILL_TIMEOUT,
                                            output_cap=2000)}  # fmt: skip
    token = CancellationToken()
    out = await tools["read_file"].run_json({"path": "../../../../etc/passwd"}, token)
    assert out.startswith("ERROR:") and "root:" not in out
    out = await tools["run_pytest"].run_json({"args": "-p evil --rootdir=/"}, token)
    assert out.startswith("ERROR:") and "-p" in out


# --- process containment ------------------------------------------------------------------------


def test_environment_secrets_do_not_reach_tests(ws: Path, monkeypatch) -> None:
    monkeypatch.setenv("FOO_API_KEY", SENTINEL)
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    monkeypatch.setenv("PSE_WEB_TOKEN", SENTINEL)
    monkeypatch.setenv("PYTHONPATH", "/should/not/leak")
    (ws / "test_env.py").write_text(
        "import os\n\ndef test_env():\n    print('ENV=' + repr(dict(os.environ)))\n"
    )
    res = _pytest(ws, "-s")
    assert res.exit_code == 0, res.stdout + res.stderr
    assert "ENV=" in res.stdout and "PYTHONDONTWRITEBYTECODE" in res.stdout  # the dump did run
    assert SENTINEL not in res.stdout + res.stderr
    assert "/should/not/leak" not in res.stdout
    assert f"'HOME': '{ws.resolve()}'" in res.stdout


def test_fork_bomb_is_contained(ws: Path) -> None:
    # 2**8 = 256 processes: above RLIMIT_NPROC=64 (refused for non-root users; as root the
    # kernel ignores NPROC and the timeout + process-group kill must contain it). Bounded so a
    # shared test machine survives; each process records its pid and then hangs.
    (ws / "test_bomb.py").write_text(
        "import os, time\n\n"
        "def test_bomb():\n"
        "    for _ in range(8):\n"
        "        try:\n"
        "            os.fork()\n"
        "        except OSError:\n"
        "            pass\n"
        "    with open('pids.txt', 'a') as fh:\n"
        "        fh.write(f'{os.getpid()}\\n')\n"
        "    time.sleep(600)\n"
    )
    start = time.monotonic()
    res = _pytest(ws, timeout=SPAWN_TIMEOUT)
    assert time.monotonic() - start < SPAWN_TIMEOUT + SLACK
    assert res.timed_out and not res.ok
    pids = [int(x) for x in (ws / "pids.txt").read_text().split()]
    assert len(pids) > 1
    assert _wait_gone(pids) == []


def test_sleeper_past_timeout_killed_with_grandchild(ws: Path) -> None:
    (ws / "test_sleep.py").write_text(
        "import os, subprocess, time\n\n"
        "def test_sleep():\n"
        "    child = subprocess.Popen(['sleep', '600'])\n"
        "    with open('pids.txt', 'w') as fh:\n"
        "        fh.write(f'{os.getpid()} {child.pid}')\n"
        "    time.sleep(600)\n"
    )
    start = time.monotonic()
    res = _pytest(ws, timeout=SPAWN_TIMEOUT)
    assert time.monotonic() - start < SPAWN_TIMEOUT + SLACK
    assert res.timed_out and res.exit_code is not None and res.exit_code < 0
    assert "timed out" in (res.error or "")
    pytest_pid, grandchild = (int(x) for x in (ws / "pids.txt").read_text().split())
    assert _wait_gone([pytest_pid, grandchild]) == []


def test_setsid_escapee_is_swept(ws: Path) -> None:
    """A child that left the process group (new session) is still killed after the run."""
    (ws / "test_daemon.py").write_text(
        "import subprocess\n\n"
        "def test_daemon():\n"
        "    p = subprocess.Popen(['sleep', '600'], start_new_session=True,\n"
        "                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "    open('pid.txt', 'w').write(str(p.pid))\n"
    )
    res = _pytest(ws)
    assert res.exit_code == 0, res.stdout
    assert _wait_gone([int((ws / "pid.txt").read_text())]) == []


def test_gigabyte_printer_capped_bounded_and_stopped(ws: Path) -> None:
    (ws / "test_flood.py").write_text(
        "import sys\n\n"
        "def test_flood():\n"
        "    block = 'x' * (1 << 20)\n"
        "    for _ in range(4096):  # 4 GiB\n"
        "        sys.stdout.write(block)\n"
    )
    tracemalloc.start()
    try:
        start = time.monotonic()
        res = _pytest(ws, "-s", timeout=30, cap=10_000)
        elapsed = time.monotonic() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res.truncated
    assert "…[truncated " in res.stdout
    assert len(res.stdout) < 10_000 + 100
    assert peak < 8 * 1024 * 1024, f"parent memory peak {peak} bytes"
    assert elapsed < 15
    assert "output exceeded" in (res.error or "")
    assert not res.ok


def test_file_size_limit_applies(ws: Path) -> None:
    (ws / "test_big.py").write_text(
        "def test_big():\n"
        "    with open('big.bin', 'wb') as fh:\n"
        "        fh.write(b'x' * (4 * 1024 * 1024))\n"
    )
    res = _pytest(ws, limits=ResourceLimits(file_size_bytes=1024 * 1024))
    assert res.exit_code == 1
    assert "File too large" in res.stdout
    assert (ws / "big.bin").stat().st_size <= 1024 * 1024


def test_memory_limit_applies(ws: Path) -> None:
    (ws / "test_mem.py").write_text("def test_mem():\n    b = bytearray(3 * 1024**3)\n    assert b\n")
    res = _pytest(ws)
    assert res.exit_code == 1
    assert "MemoryError" in res.stdout


def test_cpu_limit_applies(ws: Path) -> None:
    (ws / "test_spin.py").write_text("def test_spin():\n    while True:\n        pass\n")
    res = _pytest(ws, timeout=20, limits=ResourceLimits(cpu_seconds=1))
    assert not res.timed_out
    assert res.exit_code is not None and res.exit_code < 0  # SIGXCPU / SIGKILL
    assert res.duration_s < 10


async def test_cancellation_kills_process_group(ws: Path) -> None:
    (ws / "test_sleep.py").write_text(
        "import os, time\n\ndef test_sleep():\n    open('pid.txt', 'w').write(str(os.getpid()))\n"
        "    time.sleep(600)\n"
    )
    task = asyncio.create_task(
        run_command_async(["pytest", "-q"], workspace=ws, timeout=60, output_cap=1000)
    )
    for _ in range(200):
        if (ws / "pid.txt").exists():
            break
        await asyncio.sleep(0.05)
    pid = int((ws / "pid.txt").read_text())
    start = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - start < 5
    assert _wait_gone([pid]) == []


def test_parent_project_config_and_conftest_not_loaded(tmp_path: Path) -> None:
    project = tmp_path / "project"
    ws = project / "traces" / "run" / "workspace"
    ws.mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-p no_such_plugin"\n')
    (project / "traces" / "conftest.py").write_text("raise SystemExit('PARENT CONFTEST LOADED')\n")
    (ws / "conftest.py").write_text("import pytest\n\n@pytest.fixture\ndef answer():\n    return 42\n")
    (ws / "test_ok.py").write_text("def test_ok(answer):\n    assert answer == 42\n")
    res = _pytest(ws)
    assert "PARENT CONFTEST LOADED" not in res.stdout + res.stderr
    assert res.exit_code == 0, res.stdout + res.stderr


def test_missing_ruff_reported_as_error_not_pass(ws: Path) -> None:
    (ws / "ok.py").write_text("x = 1\n")
    for chain in (
        Toolchain(python=Path(sys.executable), ruff=None),
        Toolchain(python=Path(sys.executable), ruff=ws / "no" / "such" / "ruff"),
    ):
        res = run_command(["ruff", "check", "."], workspace=ws, timeout=KILL_TIMEOUT, output_cap=1000,
                          toolchain=chain)  # fmt: skip
        assert not res.ok and res.exit_code is None
        assert "ruff is not installed" in (res.error or "")
        assert res.stderr.startswith("ERROR: ruff is not installed")


async def test_missing_ruff_tool_text_says_error(ws: Path) -> None:
    from autogen_core import CancellationToken

    (tool,) = build_tools(["run_ruff"], ws, timeout=KILL_TIMEOUT, output_cap=2000,
                          toolchain=Toolchain(python=Path(sys.executable), ruff=None))  # fmt: skip
    out = await tool.run_json({}, CancellationToken())
    assert out.startswith("ERROR: ruff is not installed")
    assert "PASS" not in out
