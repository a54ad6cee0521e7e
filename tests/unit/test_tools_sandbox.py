"""The bubblewrap sandbox's parts: its command line, exit statuses, the seccomp program, workspace
hand-over (root) and sharing a workspace between concurrent runs."""

from __future__ import annotations

import asyncio
import os
import stat
import struct
import sys
from pathlib import Path

import pytest

from autogen_pse.tools import sandbox
from autogen_pse.tools.commands import Toolchain, run_command, run_command_async, sandbox_env
from autogen_pse.tools.sandbox import (
    SANDBOX_UID_BASE,
    bwrap_command,
    exit_status,
    find_tool,
    hand_back,
    hand_over,
    seccomp_program,
    unavailable_reason,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def _argv(ws: Path, uid: int | None = 2_100_000_123) -> list[str]:
    chain = Toolchain.detect()
    return bwrap_command([str(chain.python), "-m", "pytest"], bwrap=Path("/usr/bin/bwrap"), workspace=ws,
                         env={"PATH": "/usr/bin", "HOME": str(ws)}, extra_ro=[], tmp_bytes=1 << 20,
                         uid=uid, setpriv=Path("/usr/bin/setpriv"), info_fd=7, seccomp_fd=8)  # fmt: skip


def _pairs(argv: list[str], option: str) -> list[str]:
    """Destinations of every ``option SRC DEST`` (or ``option DEST`` for one-argument options)."""
    width = 2 if option in ("--ro-bind", "--bind", "--symlink") else 1
    return [argv[i + width] for i, a in enumerate(argv) if a == option]


def test_command_line_isolates_and_mounts_only_what_python_needs(ws: Path) -> None:
    argv = _argv(ws)
    before_cmd = argv[: argv.index("--")]
    for flag in ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
                 "--new-session", "--clearenv"):  # fmt: skip
        assert flag in before_cmd
    assert "--share-net" not in argv and "--unshare-all" not in argv
    ro = _pairs(argv, "--ro-bind")
    rw = _pairs(argv, "--bind")
    assert rw == [str(ws)]  # the only writable host path
    assert "/usr" in ro and "/etc/ld.so.cache" in ro
    home, project = str(Path.home()), str(ROOT)
    for dest in ro + rw:
        assert dest not in ("/", home, project, "/etc", "/root", "/home", str(Path.home() / ".ssh"))
        assert not dest.startswith(project + "/") or dest.startswith(str(Path(sys.prefix)))  # only the venv
    assert "--tmpfs" in argv and argv[argv.index("--chdir") + 1] == str(ws)
    assert argv[argv.index("--info-fd") + 1] == "7" and argv[argv.index("--seccomp") + 1] == "8"


def test_root_runs_drop_to_a_per_run_uid_without_capabilities(ws: Path) -> None:
    argv = _argv(ws, uid=2_100_000_123)
    cmd = argv[argv.index("--") + 1 :]
    assert cmd[0] == "/usr/bin/setpriv"
    assert {"--reuid=2100000123", "--regid=2100000123", "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all"} <= set(cmd)  # fmt: skip
    caps = [argv[i + 1] for i, a in enumerate(argv) if a == "--cap-add"]
    assert sorted(caps) == ["CAP_SETGID", "CAP_SETPCAP", "CAP_SETUID"] and "--cap-drop" in argv
    unpriv = _argv(ws, uid=None)
    assert "--unshare-user" in unpriv and "--disable-userns" in unpriv and "setpriv" not in " ".join(unpriv)
    assert SANDBOX_UID_BASE <= sandbox.pick_uid() < SANDBOX_UID_BASE + (1 << 24)


def test_mounting_home_or_an_ancestor_of_the_workspace_is_refused(ws: Path, tmp_path: Path) -> None:
    from autogen_pse.tools.paths import ToolError

    for exe in (tmp_path, Path.home()):
        with pytest.raises(ToolError, match="sandbox refused"):
            bwrap_command(["/usr/bin/true"], bwrap=Path("/usr/bin/bwrap"), workspace=ws, env={},
                          extra_ro=[exe], tmp_bytes=1, uid=None, setpriv=None, info_fd=3,
                          seccomp_fd=None)  # fmt: skip


def test_exit_status_maps_signals_like_popen() -> None:
    assert exit_status(0) == 0 and exit_status(1) == 1 and exit_status(5) == 5
    assert exit_status(128 + 9) == -9 and exit_status(128 + 24) == -24
    assert exit_status(128) == 128 and exit_status(255) == 255


def test_seccomp_program_shape() -> None:
    prog = seccomp_program("x86_64")
    assert prog is not None and len(prog) % 8 == 0 and 20 < len(prog) // 8 < 200
    first = struct.unpack("=HBBI", prog[:8])
    assert first == (0x20, 0, 0, 4)  # load seccomp_data.arch first
    last = struct.unpack("=HBBI", prog[-8:])
    assert last == (0x06, 0, 0, 0x7FFF0000)  # default: allow
    assert seccomp_program("aarch64") is not None and seccomp_program("aarch64") != prog
    assert seccomp_program("riscv64") is None


def test_unavailable_reason(tmp_path: Path) -> None:
    assert unavailable_reason(None, None) == sandbox.UNAVAILABLE
    assert unavailable_reason(tmp_path / "no-bwrap", None) == sandbox.UNAVAILABLE
    if os.geteuid() == 0:
        assert "setpriv" in (unavailable_reason(find_tool("bwrap") or Path("/usr/bin/bwrap"), None) or "")


def test_sandbox_env_names_the_user_only_in_the_sandbox(ws: Path) -> None:
    chain = Toolchain.detect()
    assert sandbox_env(ws, chain, "id", "bwrap")["USER"] == "sandbox"
    assert "USER" not in sandbox_env(ws, chain, "id", "none")


def test_hand_over_and_back_spare_symlinks_and_hard_links(ws: Path, tmp_path: Path) -> None:
    if os.geteuid() != 0:  # only used as root; any other user cannot give files away
        with pytest.raises(PermissionError):
            hand_over(ws, 2_100_000_321)
        return
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    (ws / "sub").mkdir()
    (ws / "sub" / "f.py").write_text("x")
    (ws / "link").symlink_to(outside)
    os.link(outside, ws / "hard")  # shares its inode with a file outside
    uid = 2_100_000_321
    owner = (os.lstat(ws).st_uid, os.lstat(ws).st_gid)
    hand_over(ws, uid)
    assert os.lstat(ws).st_uid == uid and os.lstat(ws / "sub" / "f.py").st_uid == uid
    assert os.lstat(outside).st_uid == owner[0]  # neither through the symlink nor the hard link
    assert os.lstat(ws / "link").st_uid == owner[0]
    made = ws / "sub" / "made.bin"
    made.write_text("y")
    os.chown(made, uid, uid)
    os.chmod(made, 0o6755)
    hand_back(ws, uid, owner)
    for path in [ws, *ws.rglob("*")]:
        assert os.lstat(path).st_uid == owner[0]
    assert not stat.S_IMODE(os.lstat(made).st_mode) & 0o6000  # setuid/setgid stripped


async def test_parallel_runs_in_one_workspace_share_it_safely(ws: Path) -> None:
    """Parallel tool calls of one turn: both runs can write, and ownership comes back at the end."""
    if unavailable_reason(find_tool("bwrap"), find_tool("setpriv")):
        pytest.fail("bubblewrap is needed for this test (apt-get install -y bubblewrap)")
    (ws / "test_a.py").write_text(
        "import time\n\ndef test_a():\n    time.sleep(0.5)\n"
        "    with open('a.txt', 'w') as fh:\n        fh.write('a')\n"
    )
    (ws / "b.py").write_text("x = 1\n")
    results = await asyncio.gather(
        run_command_async(["pytest", "-q", "test_a.py"], workspace=ws, timeout=30, output_cap=4000),
        run_command_async(["pytest", "-q", "test_a.py"], workspace=ws, timeout=30, output_cap=4000),
        run_command_async(["ruff", "check", "b.py"], workspace=ws, timeout=30, output_cap=4000),
    )
    assert all(r.ok for r in results), [r.stdout + r.stderr for r in results]
    assert (ws / "a.txt").read_text() == "a"
    me = os.geteuid()
    assert all(os.lstat(p).st_uid == me for p in [ws, *ws.rglob("*")])
    assert sandbox._LEASES == {}


def test_signal_exit_inside_sandbox_is_negative(ws: Path) -> None:
    if unavailable_reason(find_tool("bwrap"), find_tool("setpriv")):
        pytest.fail("bubblewrap is needed for this test (apt-get install -y bubblewrap)")
    (ws / "test_kill.py").write_text("import os, signal\n\ndef test_k():\n    os.kill(os.getpid(), signal.SIGTERM)\n")
    res = run_command(["pytest", "-q"], workspace=ws, timeout=30, output_cap=4000)
    assert res.exit_code == -15 and res.isolation == "bwrap"
