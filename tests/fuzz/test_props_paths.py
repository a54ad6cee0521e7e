"""Hypothesis property of the workspace path validator (``autogen_pse.tools.paths``, used read-only
here): for any relative path an agent may send — ``..`` chains, absolute and home paths, backslashes,
NUL bytes, unicode, overlong names — through a workspace holding symlinks that point outside, loop,
or point back in, ``resolve_in_workspace`` either returns a path inside the workspace (after every
symlink is resolved) or raises :class:`ToolError`; never anything else, never a sibling folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from autogen_pse.tools.paths import ToolError, resolve_in_workspace

PROFILE = settings(max_examples=500, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def sandbox() -> Iterator[tuple[Path, Path]]:
    """``(workspace, outside)``: a workspace with traps, next to a sibling whose name extends it."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        ws, outside, sibling = base / "ws", base / "outside", base / "ws-evil"
        for folder in (ws / "src" / "pkg", outside / "secret", sibling):
            folder.mkdir(parents=True)
        (outside / "secret" / "key.txt").write_text("secret")
        (sibling / "x.txt").write_text("sibling")
        (ws / "src" / "app.py").write_text("print(1)\n")
        links = {
            "out": outside, "out_file": outside / "secret" / "key.txt", "root": Path("/"), "up": Path(".."),
            "src/pkg/back": ws / "src", "loop_a": ws / "loop_b", "loop_b": ws / "loop_a",
            "sib": sibling, "proc": Path("/proc/self/root"), "dangling": base / "nowhere" / "x",
        }
        for name, target in links.items():
            os.symlink(target, ws / name)
        yield ws, outside


segments = st.sampled_from([
    "..", ".", "", "src", "pkg", "app.py", "out", "out_file", "root", "up", "back", "loop_a", "sib", "proc",
    "dangling", "secret", "key.txt", "ws", "ws-evil", "outside", "~", "~root", "\\..", "..\\..", "%2e%2e",
    "…", "．．", "a\x00b", " ", "\t..", "etc", "passwd", "x" * 255, "x" * 300, "é", "\udc80", "C:",
])
relative_paths = st.one_of(
    st.lists(segments, min_size=1, max_size=12).map("/".join),
    st.lists(segments, min_size=1, max_size=6).map(lambda parts: "/" + "/".join(parts)),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.text(alphabet=st.sampled_from(list("./\\~-_ ab\x00")), max_size=30),
)


@PROFILE
@given(rel=relative_paths)
@example(rel="../ws-evil/x.txt")
@example(rel="sib/x.txt")
@example(rel="src/pkg/back/../../out/secret/key.txt")
@example(rel="proc/etc/passwd")
@example(rel="loop_a/x")
@example(rel="loop_a/../out")  # Path.resolve collapsed this to <ws>/out, a symlink to outside
@example(rel="a/" * 600)
@example(rel=".")
def test_result_is_inside_the_workspace_or_a_tool_error(sandbox: tuple[Path, Path], rel: str) -> None:
    ws, outside = sandbox
    root = ws.resolve()
    try:
        target = resolve_in_workspace(ws, rel)
    except ToolError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert target.is_absolute() and target.is_relative_to(root), (rel, target)
    assert Path(os.path.realpath(target)).is_relative_to(root), (rel, target)  # no symlink left to escape
    assert not target.is_relative_to(outside.resolve())
    assert not target.is_relative_to(root.parent / "ws-evil")


def test_lone_surrogate_is_a_tool_error(sandbox: tuple[Path, Path]) -> None:
    with pytest.raises(ToolError):
        resolve_in_workspace(sandbox[0], "a\ud800b")
