"""``pse --version``, ``python -m autogen_pse``, ``pse tasks show``, ``pse serve``'s refusals, ``--json``
on the data commands and ``pse trace --status/--until/--cursor`` paging like the web API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from autogen_pse import __version__
from autogen_pse.store.index import RunIndex
from autogen_pse.store.rows import RunRow

ROOT = Path(__file__).resolve().parents[2]


def pse(tmp: Path, *args: str, module: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "PSE_HOME": str(tmp / "home"), "COLUMNS": "200",
            "PYTHONPATH": str(ROOT / "src"), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    head = [sys.executable, "-m", "autogen_pse"] if module else [sys.executable, str(ROOT / "cli.py")]
    return subprocess.run([*head, *args], capture_output=True, text=True, env={**base, **(env or {})},
                          timeout=120, cwd=tmp)


def test_version_and_python_dash_m(tmp_path: Path) -> None:
    for module in (True, False):
        proc = pse(tmp_path, "--version", module=module)
        assert (proc.returncode, proc.stdout.strip()) == (0, f"autogen-pse {__version__}")
    helped = pse(tmp_path, "--help")
    assert helped.returncode == 0 and "serve" in helped.stdout and "tasks" in helped.stdout


def test_tasks_show_human_and_json(tmp_path: Path) -> None:
    data = json.loads(pse(tmp_path, "tasks", "show", "portfolio-review", "--json").stdout)
    assert data["name"] == "portfolio-review" and Path(data["folder"]) == ROOT / "tasks" / "portfolio-review"
    assert {"holdings", "prices", "as_of"} <= set(data["vars"]) and data["defaults"]["holdings"]
    assert "prepare" in data["hooks"] and data["knowledge"]
    human = pse(tmp_path, "tasks", "show", "demo")
    assert human.returncode == 0 and "Quicksort" in human.stdout and "hooks: checks" in human.stdout
    listed = json.loads(pse(tmp_path, "tasks", "--json").stdout)
    assert listed["count"] == len(listed["data"]) >= 3
    unknown = pse(tmp_path, "tasks", "show", "nope")
    assert unknown.returncode == 2 and "unknown task 'nope'" in unknown.stderr and "demo" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_prepare_and_reindex_print_json(tmp_path: Path) -> None:
    prepared = json.loads(pse(tmp_path, "prepare", "portfolio-review", "--json").stdout)
    assert prepared["task"] == "portfolio-review" and prepared["facts"] > 10
    assert prepared["out_dir"].startswith(str(tmp_path / "home" / ".pse"))
    assert json.loads(pse(tmp_path, "trace", "reindex", "--json").stdout) == {"reindexed": 0, "interrupted": []}


def _seed(traces: Path) -> list[RunRow]:
    traces.mkdir(parents=True)
    index = RunIndex(traces / "index.sqlite")
    rows = []
    for i in range(7):
        row = RunRow(run_id=f"01JD{i:022d}", task="demo", model="scripted:x",
                     status="finished" if i % 2 == 0 else "error", verdict="PASS" if i % 2 == 0 else None,
                     started_at=f"2026-11-{10 + i:02d}T08:00:00.000Z", ended_at=f"2026-11-{10 + i:02d}T08:01:00.000Z")
        index.upsert(row)
        rows.append(row)
    index.close()
    return rows


def test_trace_status_until_and_cursor_page_like_the_api(tmp_path: Path) -> None:
    rows = _seed(tmp_path / "home" / "traces")
    finished = [r.run_id for r in reversed(rows) if r.status == "finished"]  # newest first
    page = json.loads(pse(tmp_path, "trace", "--status", "finished", "-n", "2", "--json").stdout)
    assert page["count"] == 4 and [r["run_id"] for r in page["data"]] == finished[:2]
    seen = [r["run_id"] for r in page["data"]]
    while page["next_cursor"]:
        page = json.loads(pse(tmp_path, "trace", "--status", "finished", "-n", "2", "--cursor",
                              page["next_cursor"], "--json").stdout)
        seen += [r["run_id"] for r in page["data"]]
    assert seen == finished

    until = json.loads(pse(tmp_path, "trace", "--until", "2026-11-12", "--json").stdout)
    assert [r["run_id"] for r in until["data"]] == [rows[1].run_id, rows[0].run_id]
    human = pse(tmp_path, "trace", "-n", "1", "--status", "error")
    assert "1 of 3 runs" in human.stdout and "--cursor" in human.stdout

    for args, needle in ((("--status", "done"), "--status 'done'"), (("--until", "soon"), "--until 'soon'"),
                         (("--cursor", "bogus"), "invalid cursor")):
        bad = pse(tmp_path, "trace", *args)
        assert bad.returncode == 2 and needle in bad.stderr and "Traceback" not in bad.stderr


def test_serve_refuses_a_public_address_without_a_token(tmp_path: Path) -> None:
    proc = pse(tmp_path, "serve", "--host", "0.0.0.0")
    assert proc.returncode == 2 and "PSE_WEB_TOKEN" in proc.stderr and "Traceback" not in proc.stderr
    bad = pse(tmp_path, "serve", "--log-level", "loud")
    assert bad.returncode == 2 and "--log-level 'loud'" in bad.stderr
