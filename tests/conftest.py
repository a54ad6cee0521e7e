"""Test isolation: every test gets its own traces/state dirs, no developer .env, no network.

Real components stay real (SQLite, Chroma, the embedding model, subprocess tools); only the LLM
is scripted. Outbound connections to anything but loopback fail the test.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))  # `tests.scripting`

from autogen_pse.config import Settings  # noqa: E402

SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
_LOOPBACK = ("127.", "::1", "localhost", "0.0.0.0")
_real_connect = socket.socket.connect


def _guarded_connect(self: socket.socket, address: object) -> object:
    host = address[0] if isinstance(address, tuple) else str(address)
    if self.family in (socket.AF_INET, socket.AF_INET6) and not str(host).startswith(_LOOPBACK):
        raise OSError(f"tests must not use the network (tried {host})")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key in list(os.environ):
        if (key.startswith("PSE_") and key not in ("PSE_REQUIRE_BROWSER",)) or key in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PSE_HOME", str(tmp_path / "home"))  # no developer .env, no state in the checkout
    monkeypatch.setenv("PSE_TRACES_DIR", str(tmp_path / "traces"))
    monkeypatch.setenv("PSE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    yield


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings isolated in ``tmp_path`` and never reading the project's .env."""
    return Settings(_env_file=None, traces_dir=tmp_path / "traces", state_dir=tmp_path / "state",
                    retry_base_delay=0.001, retry_max_delay=0.01)


@pytest.fixture
def scripted_dir() -> Path:
    return SCRIPTED
