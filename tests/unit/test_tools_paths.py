"""resolve_in_workspace and cap_text: normal behaviour (escapes live in test_sandbox_escapes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from autogen_pse.tools.paths import ToolError, cap_text, display_path, resolve_in_workspace


def test_relative_paths_resolve_inside(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    assert resolve_in_workspace(ws, "a/b.txt") == ws.resolve() / "a" / "b.txt"
    assert resolve_in_workspace(ws, "a/../b.txt") == ws.resolve() / "b.txt"
    assert resolve_in_workspace(ws, ".") == ws.resolve()
    assert resolve_in_workspace(ws, "./ünïcode file.py").name == "ünïcode file.py"


def test_workspace_given_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert resolve_in_workspace(link, "x.py") == real.resolve() / "x.py"
    assert display_path(link, real / "sub" / "x.py") == "sub/x.py"
    assert display_path(link, real) == "."


def test_symlink_inside_workspace_pointing_inside_is_followed(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "data").mkdir(parents=True)
    (ws / "alias").symlink_to(ws / "data", target_is_directory=True)
    assert resolve_in_workspace(ws, "alias/f.txt") == ws.resolve() / "data" / "f.txt"


def test_dotdot_after_a_symlink_steps_up_from_where_the_link_leads(tmp_path: Path) -> None:
    """As the kernel does: ``..`` applies to the folder a symlink reached, not to the link's name."""
    ws = tmp_path / "ws"
    (ws / "a" / "deep").mkdir(parents=True)
    (ws / "b").mkdir()
    (ws / "b" / "to_deep").symlink_to(ws / "a" / "deep", target_is_directory=True)
    (ws / "rel").symlink_to("a/deep")  # a relative link target
    assert resolve_in_workspace(ws, "b/to_deep/../x.txt") == ws.resolve() / "a" / "x.txt"
    assert resolve_in_workspace(ws, "rel/../../y.txt") == ws.resolve() / "y.txt"
    assert resolve_in_workspace(ws, "new/dir/../f.txt") == ws.resolve() / "new" / "f.txt"


@pytest.mark.parametrize("bad", ["", "   ", "x" * 2000])
def test_empty_or_overlong_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ToolError):
        resolve_in_workspace(tmp_path, bad)


def test_non_string_refused(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="string"):
        resolve_in_workspace(tmp_path, 42)  # type: ignore[arg-type]


def test_tool_error_is_value_error() -> None:
    assert issubclass(ToolError, ValueError)


def test_cap_text_marks_truncation() -> None:
    assert cap_text("abc", 3) == "abc"
    capped = cap_text("abcdef", 4)
    assert capped.startswith("abcd") and capped.endswith("…[truncated 2 chars]")
    with pytest.raises(ValueError):
        cap_text("x", -1)
