"""write_file / read_file / list_files: normal behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest

from autogen_pse.tools.files import list_files, read_file, write_file
from autogen_pse.tools.paths import ToolError


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def test_write_then_read_roundtrip_creates_parents(ws: Path) -> None:
    text = "def f():\n    return 'é'\n"
    msg = write_file(ws, "src/pkg/mod.py", text)
    assert msg == f"wrote {len(text.encode())} bytes to src/pkg/mod.py"
    assert (ws / "src" / "pkg" / "mod.py").read_text("utf-8") == text
    assert read_file(ws, "src/pkg/mod.py") == text
    assert read_file(ws, "./src/../src/pkg/mod.py") == text


def test_overwrite_is_atomic_and_leaves_no_temp_files(ws: Path) -> None:
    write_file(ws, "a.txt", "one")
    write_file(ws, "a.txt", "two")
    assert read_file(ws, "a.txt") == "two"
    assert sorted(p.name for p in ws.iterdir()) == ["a.txt"]


def test_write_limits_are_configurable(ws: Path) -> None:
    write_file(ws, "ok.txt", "x" * 10, max_bytes=10)
    with pytest.raises(ToolError, match="write limit of 10 bytes"):
        write_file(ws, "big.txt", "x" * 11, max_bytes=10)
    with pytest.raises(ToolError, match="read limit of 5 bytes"):
        read_file(ws, "ok.txt", max_bytes=5)


def test_empty_file_roundtrip(ws: Path) -> None:
    write_file(ws, "empty.txt", "")
    assert read_file(ws, "empty.txt") == ""


def test_write_onto_a_folder_refused(ws: Path) -> None:
    (ws / "dir").mkdir()
    with pytest.raises(ToolError, match="not a regular file"):
        write_file(ws, "dir", "x")
    with pytest.raises(ToolError, match="workspace folder itself"):
        write_file(ws, ".", "x")


def test_read_missing_and_folder(ws: Path) -> None:
    (ws / "dir").mkdir()
    with pytest.raises(ToolError, match="no such file"):
        read_file(ws, "nope.txt")
    with pytest.raises(ToolError, match="no such file"):
        read_file(ws, "nodir/nope.txt")
    with pytest.raises(ToolError, match="folder"):
        read_file(ws, "dir")


def test_write_below_a_file_refused(ws: Path) -> None:
    write_file(ws, "plain.txt", "x")
    with pytest.raises(ToolError, match="not a folder"):
        write_file(ws, "plain.txt/child.txt", "y")


def test_non_text_content_refused(ws: Path) -> None:
    with pytest.raises(ToolError, match="text"):
        write_file(ws, "a.txt", b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ToolError, match="UTF-8"):
        write_file(ws, "a.txt", "\udcff")


def test_list_files_sorted_with_sizes_skipping_caches_and_links(ws: Path) -> None:
    write_file(ws, "b.py", "bb")
    write_file(ws, "a/c.py", "c")
    (ws / "__pycache__").mkdir()
    (ws / "__pycache__" / "x.pyc").write_bytes(b"\x00")
    (ws / "link.py").symlink_to(ws / "b.py")
    listing = list_files(ws)
    assert listing.files == [("a/c.py", 1), ("b.py", 2)]
    assert listing.omitted == 0
    assert listing.as_text() == "a/c.py (1 bytes)\nb.py (2 bytes)"


def test_list_files_cap_and_empty(ws: Path) -> None:
    assert list_files(ws).as_text() == "(workspace is empty)"
    for i in range(5):
        write_file(ws, f"f{i}.txt", "x")
    listing = list_files(ws, max_entries=3)
    assert [p for p, _ in listing.files] == ["f0.txt", "f1.txt", "f2.txt"]
    assert listing.omitted == 2
    assert listing.as_text().endswith("…[2 more files not listed]")


def test_missing_workspace_refused(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="does not exist"):
        list_files(tmp_path / "missing")
    with pytest.raises(ToolError, match="does not exist"):
        write_file(tmp_path / "missing", "a.txt", "x")
