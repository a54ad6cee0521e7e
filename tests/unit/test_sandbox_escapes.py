"""Escape attempts against the sandboxed tools: each must be refused or contained.

File-level attempts are cheap; process-level ones run real ``python -m pytest`` children (inside
the bubblewrap sandbox, the default) with small timeouts and then check that every process they
started is gone. Pids written by sandboxed code are pids of its own pid namespace, so leftover
processes are found on the host by their initial environment (``HOME=<workspace>``).

The namespace section runs model-style test files that try to read, write, connect and signal
outside the workspace; each attempt prints ``BLOCKED name`` or ``ESCAPED name``. A control run
with ``isolation="none"`` shows the same attempts succeed without the sandbox. bubblewrap is
required: without it these tests fail (never skip) with the install command.
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
from autogen_pse.tools.sandbox import find_tool, unavailable_reason

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


def _need_bwrap() -> None:
    reason = unavailable_reason(find_tool("bwrap"), find_tool("setpriv"))
    if reason:
        pytest.fail(f"{reason} — the sandbox tests need it (CI installs it); they are never skipped")


def _pytest(ws: Path, *args: str, timeout: float = 30.0, cap: int = 20_000, **kw):
    if kw.get("isolation", "bwrap") == "bwrap":
        _need_bwrap()
    return run_command(["python", "-m", "pytest", "-q", *args], workspace=ws, timeout=timeout,
                       output_cap=cap, **kw)  # fmt: skip


def _sandboxed(ws: Path) -> list[int]:
    """Host pids of live processes started with ``HOME=<ws>`` (every process of a run in ``ws``)."""
    needle = f"HOME={ws.resolve()}".encode() + b"\x00"
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            hit = needle in Path(f"/proc/{entry.name}/environ").read_bytes() + b"\x00"
        except OSError:
            continue
        if hit and _alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def _wait_no_sandboxed(ws: Path, within: float = 2.0) -> list[int]:
    end = time.monotonic() + within
    while (left := _sandboxed(ws)) and time.monotonic() < end:
        time.sleep(0.05)
    return left


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


def test_dotdot_after_a_symlink_loop_cannot_reach_a_symlink_outside(ws: Path, tmp_path: Path) -> None:
    # Path.resolve(strict=False) stops at a loop and collapses the rest lexically: "loop/../out"
    # came back as <ws>/out, a symlink to a folder outside the workspace, and was accepted.
    outside = tmp_path / "outside_dir"
    outside.mkdir()
    (outside / "key.txt").write_text("TOP SECRET")
    (ws / "out").symlink_to(outside, target_is_directory=True)
    (ws / "loop_a").symlink_to(ws / "loop_b")
    (ws / "loop_b").symlink_to(ws / "loop_a")
    for rel in ("loop_a/../out", "loop_a/../out/key.txt", "loop_b/../loop_a/../out", "loop_a/.."):
        with pytest.raises(ToolError, match="symlink loop"):
            resolve_in_workspace(ws, rel)
    with pytest.raises(ToolError) as err:
        read_file(ws, "loop_a/../out/key.txt")
    assert "TOP SECRET" not in str(err.value)
    with pytest.raises(ToolError):
        write_file(ws, "loop_a/../out/planted.py", "pwned")
    assert sorted(p.name for p in outside.iterdir()) == ["key.txt"]


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
    # 2**8 = 256 processes wanted: above RLIMIT_NPROC=64, which the kernel enforces (as root the
    # sandbox runs the command as a fresh per-run uid). Each process records its pid and hangs;
    # the timeout kills the sandbox's pid namespace and with it every one of them.
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
    assert 1 < len(pids) <= ResourceLimits().nproc  # RLIMIT_NPROC enforced (per-run uid under root)
    assert _wait_no_sandboxed(ws) == []


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
    assert len((ws / "pids.txt").read_text().split()) == 2  # both were running
    assert _wait_no_sandboxed(ws) == []


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
    assert int((ws / "pid.txt").read_text()) > 0
    assert _wait_no_sandboxed(ws) == []


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
    _need_bwrap()
    task = asyncio.create_task(
        run_command_async(["pytest", "-q"], workspace=ws, timeout=60, output_cap=1000)
    )
    for _ in range(200):
        if (ws / "pid.txt").exists():
            break
        await asyncio.sleep(0.05)
    assert (ws / "pid.txt").read_text().isdigit()
    assert _sandboxed(ws)  # the sleeper is running, seen from the host
    start = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - start < 5
    assert _wait_no_sandboxed(ws) == []


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


# --- namespace isolation: test files run by pytest try to get out --------------------------------

ROOT = Path(__file__).resolve().parents[2]
_PRELUDE = '''
import ctypes, os, socket, sys

SECRET = {secret!r}[::-1]  # reversed in the file, so the file itself never holds the sentinel


def attempt(name, fn):
    try:
        out = fn()
    except Exception as exc:  # noqa: BLE001 - every failure is a refusal
        print(f"BLOCKED {{name}} ({{type(exc).__name__}}: {{str(exc)[:60]}})")
    else:
        print(f"ESCAPED {{name}} -> {{str(out)[:200]}}")


def read(path):
    data = open(path, "rb").read().decode("utf-8", "replace")
    return "SECRET" if SECRET in data else f"{{len(data)}} chars"


def leaks(data):
    if SECRET not in data:
        raise LookupError("no secret in it")
    return "SECRET"


def libc_call(name, *args):
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        raise OSError(ctypes.get_errno(), name)
    return "allowed"


def test_probe():
'''


def _probe(ws: Path, body: str, expect: list[str], *, isolation: str = "bwrap", **kw):
    """Run ``body`` (lines of ``attempt(...)`` calls) as a test file; return (blocked, escaped, res).

    ``expect`` names every attempt; each must have printed a BLOCKED/ESCAPED line.
    """
    code = _PRELUDE.format(secret=SENTINEL[::-1]) + "".join(f"    {ln}\n" for ln in body.strip().splitlines())
    (ws / "test_probe.py").write_text(code)
    res = _pytest(ws, "-s", isolation=isolation, **kw)
    lines = [ln.split(" ", 2) for ln in res.stdout.splitlines() if ln.startswith(("BLOCKED ", "ESCAPED "))]
    blocked = {name for kind, name, *_ in lines if kind == "BLOCKED"}
    escaped = {name for kind, name, *_ in lines if kind == "ESCAPED"}
    assert blocked | escaped == set(expect), res.stdout + res.stderr
    return blocked, escaped, res


@pytest.fixture()
def project(tmp_path: Path, monkeypatch) -> dict[str, Path]:
    """A fake project with a secret ``.env``, a trace next to the workspace, a sibling run, a HOME
    with an ssh key, a secret outside file and a symlink to it planted in the workspace; the
    sentinel is also in this process's environment."""
    proj = tmp_path / "project"
    ws = proj / "traces" / "01J00000000000000000000001" / "workspace"
    ws.mkdir(parents=True)
    (proj / ".env").write_text(f"OPENAI_API_KEY={SENTINEL}\n")
    (ws.parent / "trace.json").write_text(f'{{"secret": "{SENTINEL}"}}')
    other = proj / "traces" / "01J00000000000000000000002" / "workspace"
    other.mkdir(parents=True)
    (other / "data.txt").write_text(SENTINEL)
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SENTINEL}\n")
    secret = tmp_path / "outside-secret.txt"
    secret.write_text(SENTINEL)
    (ws / "link_file").symlink_to(secret)
    (ws / "link_env").symlink_to(proj / ".env")
    (ws / "link_dir").symlink_to(other, target_is_directory=True)
    real_home = Path.home()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PSE_ESCAPE_SENTINEL", SENTINEL)
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    return {"ws": ws, "project": proj, "home": home, "secret": secret, "other": other,
            "real_home": real_home}  # fmt: skip


_READS = '''
attempt("project_env_abs", lambda: read({env!r}))
attempt("project_env_symlink", lambda: read("link_env"))
attempt("outside_file_symlink", lambda: read("link_file"))
attempt("sibling_run_via_symlinked_dir", lambda: read("link_dir/data.txt"))
attempt("sibling_run_abs", lambda: read({other!r} + "/data.txt"))
attempt("trace_next_to_workspace", lambda: read({trace!r}))
attempt("planted_home_ssh_key", lambda: read({key!r}))
attempt("proc_self_root", lambda: read("/proc/self/root" + {secret!r}))
attempt("proc_1_root", lambda: read("/proc/1/root" + {secret!r}))
attempt("proc_1_environ", lambda: leaks(open("/proc/1/environ", "rb").read().decode()))
attempt("all_proc_environ", lambda: leaks("".join(
    open(f"/proc/{{p}}/environ", "rb").read().decode("utf-8", "replace")
    for p in os.listdir("/proc") if p.isdigit() and os.access(f"/proc/{{p}}/environ", os.R_OK))))
attempt("own_environ", lambda: leaks(repr(dict(os.environ))))
'''


def _reads_body(p: dict[str, Path]) -> str:
    return _READS.format(env=str(p["project"] / ".env"), other=str(p["other"]),
                         trace=str(p["ws"].parent / "trace.json"),
                         key=str(p["home"] / ".ssh" / "id_rsa"), secret=str(p["secret"]))  # fmt: skip


def test_reads_outside_the_workspace_are_blocked(project: dict[str, Path]) -> None:
    """12 attempts: the project's .env, symlinks planted in the workspace (file, .env, directory),
    a sibling run, the trace next to the workspace, ~/.ssh, /proc/*/root and environments."""
    expect = [ln.split('"')[1] for ln in _READS.strip().splitlines() if ln.startswith("attempt(")]
    _, escaped, res = _probe(project["ws"], _reads_body(project), expect)
    assert escaped == set(), res.stdout
    assert SENTINEL not in res.stdout + res.stderr
    assert res.exit_code == 0 and res.isolation == "bwrap"


def test_control_without_sandbox_the_same_reads_succeed(project: dict[str, Path]) -> None:
    """Proof the attempts above are real: with ``isolation="none"`` the file tricks do read the
    secrets (only the environment, built from scratch, stays clean)."""
    expect = [ln.split('"')[1] for ln in _READS.strip().splitlines() if ln.startswith("attempt(")]
    _, escaped, res = _probe(project["ws"], _reads_body(project), expect, isolation="none")
    assert res.isolation == "none"
    assert {"project_env_abs", "project_env_symlink", "outside_file_symlink", "planted_home_ssh_key",
            "sibling_run_abs", "trace_next_to_workspace", "proc_self_root"} <= escaped, res.stdout


def test_real_project_home_and_host_files_are_invisible(project: dict[str, Path]) -> None:
    """The real project root (its source, traces, config), the real $HOME (~/.ssh) and the host's
    user database are not mounted; only the interpreter's own directories exist on those paths."""
    real_home = project["real_home"]
    assert (ROOT / "pyproject.toml").is_file()  # there on the host
    prefixes = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix)}
    allowed_in_home = {p.relative_to(real_home).parts[0] for p in prefixes if p.is_relative_to(real_home)}
    allowed_in_root = {p.relative_to(ROOT).parts[0] for p in prefixes if p.is_relative_to(ROOT)}
    body = f'''
attempt("project_pyproject", lambda: read({str(ROOT / "pyproject.toml")!r}))
attempt("project_source", lambda: read({str(ROOT / "src" / "autogen_pse" / "config.py")!r}))
attempt("project_dotenv", lambda: read({str(ROOT / ".env")!r}))
attempt("project_traces", lambda: os.listdir({str(ROOT / "traces")!r}))
attempt("project_listing", lambda: [n for n in os.listdir({str(ROOT)!r}) if n not in {allowed_in_root!r}] or 1 / 0)
attempt("real_home_listing", lambda: [n for n in os.listdir({str(real_home)!r}) if n not in {allowed_in_home!r}] or 1 / 0)
attempt("real_ssh_dir", lambda: os.listdir({str(real_home / ".ssh")!r}))
attempt("real_ssh_key", lambda: read({str(real_home / ".ssh" / "id_rsa")!r}))
attempt("etc_passwd", lambda: read("/etc/passwd"))
attempt("etc_shadow", lambda: read("/etc/shadow"))
attempt("sys_fs", lambda: os.listdir("/sys/class"))
attempt("host_block_device", lambda: read("/dev/vda") if os.path.exists("/dev/vda") else read("/dev/sda"))
'''
    expect = [ln.split('"')[1] for ln in body.strip().splitlines()]
    _, escaped, res = _probe(project["ws"], body, expect)
    assert escaped == set(), res.stdout


def test_network_is_unreachable(ws: Path, tmp_path: Path) -> None:
    """A TCP and a UDP listener on the host's loopback, an abstract and a path unix socket, and the
    outside world: nothing is reachable, and the host listeners receive nothing."""
    import socket
    import uuid

    tcp = socket.create_server(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    abstract_name = f"\0pse-escape-{uuid.uuid4().hex}"
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind(abstract_name)
    abstract.listen()
    path_sock = socket.socket(socket.AF_UNIX)
    path_sock.bind(str(tmp_path / "host.sock"))
    path_sock.listen()
    tcp_port, udp_port = tcp.getsockname()[1], udp.getsockname()[1]
    body = f'''
attempt("tcp_host_loopback", lambda: socket.create_connection(("127.0.0.1", {tcp_port}), timeout=2))
attempt("tcp_outside_world", lambda: socket.create_connection(("1.1.1.1", 53), timeout=2))
attempt("dns_lookup", lambda: socket.getaddrinfo("pypi.org", 443))
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", {udp_port}))  # own loopback
attempt("unix_abstract_host", lambda: socket.socket(socket.AF_UNIX).connect({abstract_name!r}))
attempt("unix_path_host", lambda: socket.socket(socket.AF_UNIX).connect({str(tmp_path / "host.sock")!r}))
'''
    expect = [ln.split('"')[1] for ln in body.strip().splitlines() if ln.startswith("attempt(")]
    try:
        for sock in (tcp, udp, abstract, path_sock):
            sock.setblocking(False)
        _, escaped, res = _probe(ws, body, expect)
        assert escaped == set(), res.stdout
        for sock in (tcp, udp, abstract, path_sock):
            with pytest.raises(BlockingIOError):
                sock.recv(1) if sock is udp else sock.accept()
        # control: without the sandbox the host's listeners are reachable
        local = "\n".join(ln for ln in body.strip().splitlines() if "host" in ln.split(",")[0])
        local_names = [ln.split('"')[1] for ln in local.splitlines()]
        _, escaped, _ = _probe(ws, local, local_names, isolation="none")
        assert escaped == {"tcp_host_loopback", "unix_abstract_host", "unix_path_host"}
    finally:
        for sock in (tcp, udp, abstract, path_sock):
            sock.close()


def test_writes_outside_the_workspace_do_not_reach_the_host(project: dict[str, Path]) -> None:
    """Host /tmp, the trace next to the workspace and its dir, the venv's site-packages (a .pth
    would run in the host's Python), /usr, a hard link to a file outside, a device node: all
    refused, or confined to the sandbox's own file system (checked from the host)."""
    import site
    import uuid

    ws = project["ws"]
    marker = Path("/tmp") / f"outside-marker-{uuid.uuid4().hex}"
    site_dir = Path(site.getsitepackages()[0])
    trace = ws.parent / "trace.json"
    before = trace.read_text()
    body = f'''
open({str(marker)!r}, "w").write("pwned")  # lands in the sandbox's private /tmp
print("TMPWRITE", open({str(marker)!r}).read())
for path in ({str(trace)!r}, {str(ws.parent / "escaped.txt")!r}):  # refused, or a sandbox-only dir
    try:
        open(path, "w").write("pwned")
    except OSError:
        pass
attempt("venv_site_packages_pth", lambda: open({str(site_dir / "zz_pse_escape.pth")!r}, "w").write("import os"))
attempt("usr_lib", lambda: open("/usr/lib/pse-escape", "w").write("x"))
attempt("hardlink_outside_file", lambda: os.link({str(Path(sys.prefix) / "pyvenv.cfg")!r}, "cfg_link"))
attempt("mknod_block_device", lambda: os.mknod("disk", 0o60600, os.makedev(8, 0)))
'''
    expect = [ln.split('"')[1] for ln in body.strip().splitlines() if ln.startswith("attempt(")]
    _, escaped, res = _probe(ws, body, expect)
    assert escaped == set(), res.stdout
    assert "TMPWRITE pwned" in res.stdout  # the write happened, inside
    assert not marker.exists()  # … and never reached the host
    assert trace.read_text() == before
    assert not (ws.parent / "escaped.txt").exists()
    assert not (site_dir / "zz_pse_escape.pth").exists()
    assert not (ws / "cfg_link").exists() and not (ws / "disk").exists()


def test_privileges_and_kernel_surfaces_are_closed(ws: Path) -> None:
    """No capabilities, no way back to uid 0, no new namespaces / mounts / keyrings / bpf, no
    signals to host processes (a different pid namespace)."""
    host_pid = os.getpid()
    body = f'''
caps = [ln for ln in open("/proc/self/status") if ln.startswith("CapEff")][0].split()[1]
print("CAPEFF", caps, "UID", os.getuid())
attempt("setuid_root", lambda: os.setuid(0))
attempt("new_user_namespace", lambda: libc_call("unshare", 0x10000000))
attempt("new_mount_namespace", lambda: libc_call("unshare", 0x00020000))
attempt("mount_tmpfs", lambda: libc_call("mount", b"none", b"/tmp", b"tmpfs", 0, None))
attempt("keyring", lambda: libc_call("syscall", 250 if os.uname().machine == "x86_64" else 219, 0, 0, 0, 0, 0))
attempt("signal_host_process", lambda: os.kill({host_pid}, 0))
attempt("see_host_processes", lambda: len([p for p in os.listdir("/proc") if p.isdigit()]) < 10 and 1 / 0)
attempt("inherited_host_fd", lambda: [t for t in (os.readlink(f"/proc/self/fd/{{fd}}") for fd in os.listdir("/proc/self/fd")
    if os.path.exists(f"/proc/self/fd/{{fd}}")) if t.startswith("/") and not t.startswith(("/dev/", "/proc/", {str(ws)!r}))] or 1 / 0)
attempt("writable_system_mount", lambda: [m for m in open("/proc/self/mounts").read().splitlines()
    if " rw," in m and m.split()[1] not in ("/", "/proc", "/dev", "/dev/pts", "/tmp", "/dev/shm", {str(ws)!r})
    and not m.split()[1].startswith("/dev/")] or 1 / 0)
'''
    expect = [ln.split('"')[1] for ln in body.strip().splitlines() if ln.startswith("attempt(")]
    _, escaped, res = _probe(ws, body, expect)
    assert escaped == set(), res.stdout
    assert "CAPEFF 0000000000000000" in res.stdout
    if os.geteuid() == 0:
        uid = int(res.stdout.split("UID ", 1)[1].split()[0])
        assert uid >= 2_100_000_000  # the per-run uid, not root
    assert all(st.st_uid == os.geteuid() for st in (os.lstat(p) for p in [ws, *ws.rglob("*")]))


def test_unbounded_fork_bomb_is_capped_by_nproc_and_reaped(ws: Path) -> None:
    """``while True: fork()``: the kernel refuses forks past RLIMIT_NPROC (as root too: the run has
    its own uid), the timeout kills the pid namespace, nothing is left on the host."""
    (ws / "test_bomb.py").write_text(
        "import os, time\n\n"
        "def test_bomb():\n"
        "    first = os.getpid()\n"
        "    while True:\n"
        "        try:\n"
        "            os.fork()\n"
        "        except OSError:\n"
        "            break\n"
        "    time.sleep(1.5)\n"
        "    if os.getpid() == first:\n"
        "        n = len([p for p in os.listdir('/proc') if p.isdigit()])\n"
        "        open('count.txt', 'w').write(str(n))\n"
        "    time.sleep(600)\n"
    )
    limits = ResourceLimits(nproc=24)
    res = _pytest(ws, timeout=SPAWN_TIMEOUT, limits=limits)
    assert res.timed_out and not res.ok
    count = int((ws / "count.txt").read_text())
    assert 3 < count <= limits.nproc + 2, count  # + the sandbox's init and pytest itself
    assert _wait_no_sandboxed(ws) == []


def test_private_tmp_is_size_capped(ws: Path) -> None:
    (ws / "test_fill.py").write_text(
        "import pytest\n\n"
        "def test_fill():\n"
        "    with pytest.raises(OSError) as err, open('/tmp/fill', 'wb') as fh:\n"
        "        for _ in range(64):\n"
        "            fh.write(b'x' * (1 << 20))\n"
        "            fh.flush()\n"
        "    print('ERRNO', err.value.errno)\n"
    )
    res = _pytest(ws, "-s", limits=ResourceLimits(tmp_bytes=8 * 1024 * 1024))
    assert res.exit_code == 0, res.stdout + res.stderr
    assert "ERRNO 28" in res.stdout  # ENOSPC


def test_ruff_config_cannot_pull_in_files_outside(tmp_path: Path) -> None:
    """A workspace ruff.toml ``extend``-ing a config outside the workspace: ruff cannot see it."""
    _need_bwrap()
    ws = tmp_path / "ws"
    ws.mkdir()
    outside = tmp_path / "outside.toml"
    outside.write_text('[lint]\nignore = ["F401"]\n')
    (ws / "ruff.toml").write_text(f'extend = "{outside}"\n')
    (ws / "bad.py").write_text("import os\n")
    res = run_command(["ruff", "check", "."], workspace=ws, timeout=30, output_cap=4000)
    assert res.exit_code != 0 and "F401" not in res.stdout
    assert "outside.toml" in res.stdout + res.stderr  # ruff says it cannot read it
    res = run_command(["ruff", "check", "."], workspace=ws, timeout=30, output_cap=4000, isolation="none")
    assert res.exit_code == 0, res.stdout + res.stderr  # control: without the sandbox it is read


def test_demo_workspace_runs_inside_the_sandbox(ws: Path) -> None:
    """The demo's shape: tests import the module from the workspace; ruff lints it; ownership of
    the workspace is handed back afterwards."""
    (ws / "quicksort.py").write_text(
        "def quicksort(xs):\n    if len(xs) <= 1:\n        return list(xs)\n"
        "    p, *rest = xs\n"
        "    return quicksort([x for x in rest if x < p]) + [p] + quicksort([x for x in rest if x >= p])\n"
    )
    (ws / "test_quicksort.py").write_text(
        "import tempfile\n\nfrom quicksort import quicksort\n\n\n"
        "def test_sort(tmp_path):\n    assert quicksort([3, 1, 2, 1]) == [1, 1, 2, 3]\n"
        "    (tmp_path / 'x').write_text('ok')\n"
        "    with open('made_here.txt', 'w') as fh:\n        fh.write('ok')\n"
        "    assert tempfile.gettempdir() == '/tmp'\n"
    )
    res = _pytest(ws)
    assert res.ok and "1 passed" in res.stdout and res.isolation == "bwrap", res.stdout + res.stderr
    lint = run_command(["ruff", "check", "."], workspace=ws, timeout=30, output_cap=4000)
    assert lint.ok and lint.isolation == "bwrap", lint.stdout + lint.stderr
    me = os.geteuid()
    assert all(os.lstat(p).st_uid == me for p in [ws, *ws.rglob("*")])
    assert (ws / "made_here.txt").read_text() == "ok"


# --- sandbox missing or broken: refuse, never fall back silently ----------------------------------


def test_missing_bwrap_refuses_to_run(ws: Path) -> None:
    (ws / "test_marker.py").write_text("def test_m():\n    open('ran.txt', 'w').write('x')\n")
    chain = Toolchain(python=Path(sys.executable), ruff=None, bwrap=None)
    res = run_command(["pytest", "-q"], workspace=ws, timeout=30, output_cap=1000, toolchain=chain)
    assert res.exit_code is None and not res.ok
    assert res.stderr.startswith("ERROR: sandbox unavailable: install bubblewrap")
    assert not (ws / "ran.txt").exists()


async def test_missing_bwrap_tool_text_and_check_say_error(ws: Path) -> None:
    from autogen_core import CancellationToken

    from autogen_pse.tools.agent_tools import run_pytest_check

    (ws / "test_ok.py").write_text("def test_ok():\n    pass\n")
    chain = Toolchain(python=Path(sys.executable), ruff=Path(sys.executable).parent / "ruff", bwrap=None)
    tools = {t.name: t for t in build_tools(["run_pytest", "run_ruff"], ws, timeout=KILL_TIMEOUT,
                                            output_cap=2000, toolchain=chain)}  # fmt: skip
    for name in ("run_pytest", "run_ruff"):
        out = await tools[name].run_json({}, CancellationToken())
        assert out.startswith("ERROR: sandbox unavailable: install bubblewrap"), out
    passed, summary = run_pytest_check(ws, 30, toolchain=chain)
    assert not passed and "sandbox unavailable" in summary


def test_broken_bwrap_is_reported_not_mistaken_for_a_test_failure(ws: Path, tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n")
    fake.chmod(0o755)
    (ws / "test_marker.py").write_text("def test_m():\n    open('ran.txt', 'w').write('x')\n")
    chain = Toolchain(python=Path(sys.executable), ruff=None, bwrap=fake, setpriv=find_tool("setpriv"))
    res = run_command(["pytest", "-q"], workspace=ws, timeout=30, output_cap=1000, toolchain=chain)
    assert res.exit_code is None and "sandbox unavailable" in (res.error or "")
    assert "Operation not permitted" in (res.error or "")
    assert not (ws / "ran.txt").exists()


def test_weaker_mode_only_when_asked_and_unknown_modes_refused(ws: Path) -> None:
    (ws / "test_ok.py").write_text("def test_ok():\n    pass\n")
    chain = Toolchain(python=Path(sys.executable), ruff=None, bwrap=None)
    res = run_command(["pytest", "-q"], workspace=ws, timeout=30, output_cap=1000, toolchain=chain,
                      isolation="none")  # fmt: skip
    assert res.ok and res.isolation == "none"
    with pytest.raises(ToolError, match="isolation"):
        run_command(["pytest"], workspace=ws, timeout=30, output_cap=1000, isolation="off")
    from autogen_pse.errors import UserError

    with pytest.raises(UserError, match="isolation"):
        build_tools(["run_pytest"], ws, timeout=1, output_cap=10, isolation="weak")
