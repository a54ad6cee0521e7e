"""Model providers from entry points: found by prefix (any case), `remote`/`priced` asked of the
registration, broken or clashing registrations reported clearly."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.models import open_provider, parse_spec, registered, spec_forms
from autogen_pse.plugins import entry_points
from tests.plugin_support import install_plugin

ECHO = '''
from pathlib import Path

from autogen_pse import ProviderPlugin
from autogen_pse.models.scripted import ScriptedProvider


def _open(argument, settings):
    return ScriptedProvider(Path(argument), max_retries=0, base_delay=0, max_delay=0)


# the class says local and free; the registration says remote and priced: the registration wins
PLUGIN = ProviderPlugin(prefix="echo", open=_open, remote=True, priced=True, usage="echo:<file.json>")
SHADOW = ProviderPlugin(prefix="scripted", open=_open, remote=True)
'''


@pytest.fixture
def echo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    install_plugin(tmp_path / "site", monkeypatch, {"autogen_pse.providers": {
        "echo": "pse_echo:PLUGIN", "scripted": "pse_echo:SHADOW", "broken": "pse_missing_module:PLUGIN"}},
        {"pse_echo.py": ECHO})
    return tmp_path


def test_builtins_are_entry_points_of_autogen_pse_itself() -> None:
    eps = entry_points("providers")
    assert {name: eps[name].value for name in ("local", "openai", "scripted")} == {
        "local": "autogen_pse.models.builtin:LOCAL", "openai": "autogen_pse.models.builtin:OPENAI",
        "scripted": "autogen_pse.models.builtin:SCRIPTED"}


async def test_a_registered_provider_opens_by_prefix_in_any_case(echo: Path, scripted_dir: Path) -> None:
    for spec in (f"echo:{scripted_dir / 'demo_pass.json'}", f" ECHO:{scripted_dir / 'demo_pass.json'}"):
        provider = open_provider(spec, Settings(_env_file=None))  # type: ignore[call-arg]
        assert (provider.remote, provider.priced) == (True, True)
        await provider.close()
    assert parse_spec("Echo:x.json") == ("echo", "x.json")
    assert "echo:<file.json>" in spec_forms()


def test_the_first_registration_of_a_prefix_wins_with_a_warning(echo: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="autogen_pse.plugins"):
        eps = entry_points("providers")
    assert eps["scripted"].value == "autogen_pse.models.builtin:SCRIPTED"
    assert any("'scripted'" in r.getMessage() and "pse_echo:SHADOW" in r.getMessage() for r in caplog.records)


def test_a_broken_registration_fails_only_when_asked_for(echo: Path, scripted_dir: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="autogen_pse.models"):
        assert "broken" not in registered() and "echo" in registered()
    assert any("pse_missing_module:PLUGIN" in r.getMessage() for r in caplog.records)
    with pytest.raises(UserError, match=r"entry point broken = pse_missing_module:PLUGIN .* cannot be loaded.*"
                                        r"ModuleNotFoundError"):
        open_provider("broken:x", Settings(_env_file=None))  # type: ignore[call-arg]
    assert parse_spec(f"scripted:{scripted_dir / 'demo_pass.json'}")[0] == "scripted"  # the others still work
