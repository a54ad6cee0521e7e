"""build_tools (AutoGen FunctionTools) and run_pytest_check: normal behaviour."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from autogen_core import CancellationToken

from autogen_pse.errors import UserError
from autogen_pse.tools.agent_tools import TOOL_NAMES, build_tools, run_pytest_check
from autogen_pse.tools.commands import Toolchain

TIMEOUT = 30.0


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def _tools(ws: Path, *names: str, cap: int = 20_000, **kw):
    return {t.name: t for t in build_tools(list(names), ws, timeout=TIMEOUT, output_cap=cap, **kw)}


async def _call(tool, **args) -> str:
    return await tool.run_json(args, CancellationToken())


def test_build_tools_names_order_and_errors(ws: Path) -> None:
    tools = build_tools(["run_ruff", "write_file", "run_ruff"], ws, timeout=1, output_cap=100)
    assert [t.name for t in tools] == ["run_ruff", "write_file"]
    with pytest.raises(UserError, match="unknown tool"):
        build_tools(["write_file", "shell"], ws, timeout=1, output_cap=100)
    with pytest.raises(UserError, match="kb_search"):
        build_tools(["kb_search"], ws, timeout=1, output_cap=100)
    all_tools = build_tools(list(TOOL_NAMES), ws, timeout=1, output_cap=100, kb_search=lambda q: q)
    assert [t.name for t in all_tools] == list(TOOL_NAMES)


def test_schemas_describe_parameters(ws: Path) -> None:
    tools = _tools(ws, "write_file", "run_pytest")
    schema = tools["write_file"].schema
    assert schema["description"]
    props = schema["parameters"]["properties"]
    assert set(props) == {"path", "content"} and "relative to the workspace" in props["path"]["description"]
    pytest_props = tools["run_pytest"].schema["parameters"]["properties"]
    assert set(pytest_props) == {"args"}  # cancellation_token is not exposed to the model


async def test_file_tools_roundtrip_and_errors(ws: Path) -> None:
    tools = _tools(ws, "write_file", "read_file", "list_files")
    assert await _call(tools["write_file"], path="pkg/a.py", content="A = 1\n") == "wrote 6 bytes to pkg/a.py"
    assert await _call(tools["read_file"], path="pkg/a.py") == "A = 1\n"
    assert await _call(tools["list_files"]) == "pkg/a.py (6 bytes)"
    out = await _call(tools["read_file"], path="missing.py")
    assert out.startswith("ERROR: no such file")


async def test_results_capped_with_marker(ws: Path) -> None:
    (ws / "long.txt").write_text("q" * 5000)
    tools = _tools(ws, "read_file", cap=100)
    out = await _call(tools["read_file"], path="long.txt")
    assert out == "q" * 100 + "\n…[truncated 4900 chars]"


async def test_run_pytest_pass_fail_and_no_tests(ws: Path) -> None:
    tools = _tools(ws, "run_pytest")
    out = await _call(tools["run_pytest"])
    assert out.startswith("FAILED: no tests collected (exit code 5)")
    (ws / "test_a.py").write_text("def test_a():\n    assert True\n")
    out = await _call(tools["run_pytest"])
    assert out.startswith("PASSED: all tests passed (exit code 0)") and "1 passed" in out
    (ws / "test_b.py").write_text("def test_b():\n    assert 'x' == 'y'\n")
    out = await _call(tools["run_pytest"], args="-x --tb=short")
    assert out.startswith("FAILED: some tests failed (exit code 1)") and "1 failed" in out
    out = await _call(tools["run_pytest"], args="test_a.py")
    assert out.startswith("PASSED")
    out = await _call(tools["run_pytest"], args="'unbalanced")
    assert out.startswith("ERROR: cannot parse arguments")


async def test_run_ruff_texts(ws: Path) -> None:
    tools = _tools(ws, "run_ruff")
    assert (await _call(tools["run_ruff"])).startswith("WARNING: ruff found no Python files")
    (ws / "ok.py").write_text("x = 1\n")
    assert (await _call(tools["run_ruff"])).startswith("PASSED: ruff found no problems")
    (ws / "bad.py").write_text("import os\n")
    out = await _call(tools["run_ruff"])
    assert out.startswith("FAILED: ruff found problems (exit code 1)") and "F401" in out


async def test_run_ruff_missing_is_error(ws: Path) -> None:
    (ws / "ok.py").write_text("x = 1\n")
    chain = Toolchain(python=Path(sys.executable), ruff=None)
    out = await _call(_tools(ws, "run_ruff", toolchain=chain)["run_ruff"])
    assert out.startswith("ERROR: ruff is not installed") and "NOT run" in out


async def test_kb_search_sync_and_async(ws: Path) -> None:
    def sync_kb(query: str) -> list[dict]:
        return [{"id": "c1", "text": f"about {query}"}]

    async def async_kb(query: str) -> str:
        return f"passage for {query}"

    out = await _call(_tools(ws, "kb_search", kb_search=sync_kb)["kb_search"], query="sorting")
    assert '"about sorting"' in out and '"c1"' in out
    out = await _call(_tools(ws, "kb_search", kb_search=async_kb)["kb_search"], query="heaps")
    assert out == "passage for heaps"


async def test_cancellation_token_kills_pytest(ws: Path) -> None:
    (ws / "test_slow.py").write_text(
        "import os, time\n\ndef test_slow():\n    open('pid.txt', 'w').write(str(os.getpid()))\n"
        "    time.sleep(600)\n"
    )
    tool = _tools(ws, "run_pytest")["run_pytest"]
    token = CancellationToken()
    task = asyncio.create_task(tool.run_json({}, token))
    for _ in range(300):
        if (ws / "pid.txt").exists():
            break
        await asyncio.sleep(0.05)
    assert (ws / "pid.txt").read_text().isdigit()  # a pid of the sandbox's own pid namespace
    assert _running_in(ws)
    token.cancel()
    start = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - start < 5
    deadline = time.monotonic() + 2
    while _running_in(ws) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert _running_in(ws) == []


def _running_in(ws: Path) -> list[int]:
    """Host pids of live (non-zombie) processes started with ``HOME=<ws>``, i.e. by a tool run."""
    needle = f"HOME={ws.resolve()}".encode() + b"\x00"
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if needle in (entry / "environ").read_bytes() + b"\x00":
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in ("Z", "X"):
                    found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_run_pytest_check(ws: Path) -> None:
    ok, summary = run_pytest_check(ws, TIMEOUT)
    assert not ok and "no tests collected" in summary
    (ws / "test_a.py").write_text("def test_a():\n    assert True\n")
    ok, summary = run_pytest_check(ws, TIMEOUT)
    assert ok and summary.startswith("1 passed")
    (ws / "test_b.py").write_text("def test_b():\n    assert False\n")
    ok, summary = run_pytest_check(ws, TIMEOUT)
    assert not ok
    assert summary.startswith("FAILED: some tests failed (exit code 1)") and "1 failed, 1 passed" in summary


def test_run_pytest_check_timeout(ws: Path) -> None:
    (ws / "test_hang.py").write_text("import time\n\ndef test_hang():\n    time.sleep(600)\n")
    ok, summary = run_pytest_check(ws, 3.0)
    assert not ok and summary.startswith("ERROR: pytest timed out after 3 s")
