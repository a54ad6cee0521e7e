"""Register entry points for a test the way an installed package does: a ``*.dist-info`` folder
with ``entry_points.txt`` on ``sys.path`` (read by importlib.metadata), plus the plugin modules."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from autogen_pse import plugins


def install_plugin(root: Path, monkeypatch: pytest.MonkeyPatch, entry_points: dict[str, dict[str, str]],
                   modules: dict[str, str], *, name: str = "pse-test-plugin") -> None:
    """``entry_points``: group (``autogen_pse.sinks``) → {name: "module:attr"}; ``modules``: file
    name → source. Everything is importable until the test ends."""
    root.mkdir(parents=True, exist_ok=True)
    dist = root / f"{name.replace('-', '_')}-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    lines = []
    for group, table in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in table.items()]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for file, source in modules.items():
        (root / file).write_text(textwrap.dedent(source), encoding="utf-8")
    monkeypatch.syspath_prepend(str(root))
    plugins.clear_cache()


@pytest.fixture(autouse=True)
def _fresh_registry() -> object:
    plugins.clear_cache()
    yield
    plugins.clear_cache()
