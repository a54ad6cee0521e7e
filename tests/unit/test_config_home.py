"""Where state lives: one home (PSE_HOME), the checkout by default, never the working directory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autogen_pse import config
from autogen_pse.config import load_settings, user_data_dir

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_is_its_own_home_and_ships_its_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSE_HOME")
    for name in ("PSE_TRACES_DIR", "PSE_STATE_DIR"):
        monkeypatch.delenv(name)
    assert config.CHECKOUT_ROOT == ROOT
    assert config.BUILTIN_TASKS_DIR == ROOT / "tasks"
    settings = load_settings()
    assert (settings.home, settings.traces_dir, settings.state_dir) == (ROOT, ROOT / "traces", ROOT / ".pse")
    assert settings.tasks_dir == ROOT / "tasks"


def test_pse_home_holds_traces_state_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".env").write_text("PSE_MODEL=scripted:from-home.json\n")
    monkeypatch.setenv("PSE_HOME", str(home))
    monkeypatch.delenv("PSE_TRACES_DIR")
    monkeypatch.setenv("PSE_STATE_DIR", "elsewhere")  # relative: under home, not the working folder
    monkeypatch.setenv("PSE_SINK_JSONL_PATH", "exports/events.jsonl")  # the jsonl sink's file, likewise
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert settings.traces_dir == home / "traces"
    assert settings.state_dir == home / "elsewhere"
    assert settings.sink_jsonl_path == home / "exports" / "events.jsonl"
    assert settings.model == "scripted:from-home.json"


def test_the_working_folder_env_file_is_never_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("PSE_MODEL=from-cwd\n")
    code = "from autogen_pse.config import load_settings; s = load_settings(); print(s.model, s.traces_dir)"
    env = {"PATH": "/usr/bin", "PYTHONPATH": str(ROOT / "src"), "PSE_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env=env, check=True).stdout
    assert "from-cwd" not in out
    assert str(tmp_path / "home" / "traces") in out


def test_user_data_dir_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if sys.platform in ("win32", "darwin"):
        pytest.skip("XDG applies to Linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_data_dir() == tmp_path / "xdg" / "autogen-pse"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert user_data_dir() == tmp_path / "h" / ".local" / "share" / "autogen-pse"


def test_web_scripted_models_come_from_the_checkout_fixtures_or_the_home(tmp_path: Path) -> None:
    assert load_settings().scripted_web_dir == ROOT / "tests" / "fixtures" / "scripted"
    elsewhere = load_settings(project_root=tmp_path, home=tmp_path / "home")  # not a checkout
    assert elsewhere.scripted_web_dir == tmp_path / "home" / "scripted"
    assert load_settings(web_scripted_dir=tmp_path).scripted_web_dir == tmp_path
