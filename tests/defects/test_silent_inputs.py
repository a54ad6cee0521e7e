"""Issue 10, defect 5: wrong inputs are refused (exit 2, one line naming the bad thing and the fix)
or at least warned about — never silently replaced by a default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.registry import load_task
from autogen_pse.runner import RunRequest, plan_run

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tasks" / "portfolio-review" / "data"
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"


def cli(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "PSE_TRACES_DIR": str(tmp / "traces"), "PSE_STATE_DIR": str(tmp / "state"),
            "HOME": str(tmp), "COLUMNS": "300"}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env={**base, **env}, timeout=300, cwd=tmp)


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_unknown_var_is_a_user_error_naming_the_known_vars(tmp_path: Path) -> None:
    line = one_line_error(cli(tmp_path, "run", "portfolio-review", "--model", f"scripted:{SCRIPTED / 'demo_pass.json'}",
                              "--var", f"holding={DATA / 'holdings.csv'}"))
    assert "'holding'" in line and "holdings" in line and "prices" in line and "as_of" in line
    assert not (tmp_path / "traces").exists() or not any((tmp_path / "traces").iterdir())  # nothing written


@pytest.mark.parametrize("command", [["prepare", "portfolio-review"], ["run", "demo"]])
def test_unknown_var_on_other_commands(tmp_path: Path, command: list[str]) -> None:
    line = one_line_error(cli(tmp_path, *command, "--var", "holding=x.csv"))
    assert "unknown --var 'holding'" in line


def test_pse_check_refuses_an_unknown_var(tmp_path: Path) -> None:
    doc = tmp_path / "review.md"
    doc.write_text("# Review\n\nAAPL is 20% of the portfolio.\n")
    line = one_line_error(cli(tmp_path, "check", "portfolio-review", str(doc), "--var", "holding=x.csv"))
    assert "unknown --var 'holding'" in line and "holdings" in line


def test_check_vars_is_the_shared_validation(settings: Settings) -> None:
    task = load_task(settings.tasks_dir, "resume-tailor")
    assert task.known_vars() == ["cv", "job", "notes"]
    task.check_vars({"cv": "a.md", "job": "b.md"})
    with pytest.raises(UserError, match=r"unknown --vars 'c', 'jobs' for task 'resume-tailor'; known vars: cv, job"):
        task.check_vars({"jobs": "b.md", "c": "x"})
    with pytest.raises(UserError, match="unknown --var"):
        plan_run(RunRequest(task="demo", vars={"x": "1"}), settings)


@pytest.mark.parametrize(("env", "value"), [
    ("PSE_MAX_PARTIAL", "-5"), ("PSE_TOKEN_BUDGET", "-1"), ("PSE_RUN_TIMEOUT", "-1"), ("PSE_MAX_TURNS", "0"),
    ("PSE_MAX_CYCLES", "0"), ("PSE_MAX_FAIL", "-1"), ("PSE_TOOL_TIMEOUT", "0"), ("PSE_WEB_CONCURRENCY", "0"),
])
def test_limit_settings_are_validated(tmp_path: Path, env: str, value: str) -> None:
    line = one_line_error(cli(tmp_path, "list", **{env: value}))
    assert f"setting {env} " in line


def test_web_server_reports_a_bad_setting_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "web_server.py")], capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PSE_MAX_TURNS": "0"}, cwd=tmp_path)
    assert proc.returncode == 2 and "PSE_MAX_TURNS" in proc.stderr and "Traceback" not in proc.stderr


def test_empty_as_of_is_refused(tmp_path: Path) -> None:
    line = one_line_error(cli(tmp_path, "prepare", "portfolio-review", "--var", "as_of="))
    assert "as_of is empty" in line and "YYYY-MM-DD" in line


@pytest.mark.parametrize("quantity", ["2.5e2", "1_000", "inf", "0x10", "1,000"])
def test_quantity_must_be_plain_decimal(tmp_path: Path, quantity: str) -> None:
    holdings = tmp_path / "h.csv"
    holdings.write_text((DATA / "holdings.csv").read_text().replace(
        "AAPL,Apple Inc.,equity,250,", f'AAPL,Apple Inc.,equity,"{quantity}",'))
    line = one_line_error(cli(tmp_path, "prepare", "portfolio-review", "--var", f"holdings={holdings}"))
    assert "row 2" in line and "'quantity'" in line


def test_a_year_long_gap_in_prices_is_warned_about_and_recorded(tmp_path: Path, settings: Settings) -> None:
    prices = tmp_path / "p.csv"
    prices.write_text("".join(line for line in (DATA / "prices.csv").read_text().splitlines(keepends=True)
                              if not line.startswith("MSFT,2008")))
    proc = cli(tmp_path, "prepare", "portfolio-review", "--var", f"prices={prices}")
    assert proc.returncode == 0, proc.stderr
    assert "warning:" in proc.stdout and "MSFT" in proc.stdout and "397 days" in proc.stdout
    run = cli(tmp_path, "run", "portfolio-review", "--model", f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}",
              "--max-cycles", "1", "--var", f"prices={prices}", "--json")
    assert run.returncode in (0, 1), run.stderr
    events = next((tmp_path / "traces").glob("*/events.jsonl")).read_text()
    assert '"kind":"warning"' in events.replace(" ", "") and "MSFT has no close between" in events


def test_a_held_symbol_without_prices_names_the_holdings_row(tmp_path: Path) -> None:
    holdings = tmp_path / "h.csv"
    holdings.write_text((DATA / "holdings.csv").read_text().replace("AAPL,Apple", "APPL,Apple"))
    line = one_line_error(cli(tmp_path, "prepare", "portfolio-review", "--var", f"holdings={holdings}"))
    assert f"{holdings}, row 2, field 'symbol': APPL has no close in prices.csv" in line
    assert "AAPL" in line  # the symbol the prices file does have


def test_a_price_for_a_symbol_not_held_still_names_the_prices_file(tmp_path: Path) -> None:
    prices = tmp_path / "p.csv"
    prices.write_text((DATA / "prices.csv").read_text() + "NVDA,2010-03-01,10.5\n")
    line = one_line_error(cli(tmp_path, "prepare", "portfolio-review", "--var", f"prices={prices}"))
    assert str(prices) in line and "NVDA is not in the holdings" in line


async def test_the_api_refuses_an_unknown_var_too(tmp_path: Path) -> None:
    import httpx

    from autogen_pse.web import create_app
    from tests.web.web_helpers import make_settings

    app = create_app(make_settings(tmp_path))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            checked = await c.post("/api/check", json={"task": "portfolio-review", "text": "# R\n\nAAPL.\n",
                                                       "vars": {"holding": "x.csv"}})
            run = await c.post("/api/runs", json={"task": "portfolio-review", "vars": {"holding": "x.csv"},
                                                  "model": "scripted:demo_pass.json"})
        await app.state.pse.executor.shutdown()
    assert checked.status_code == 422 and "unknown --var 'holding'" in checked.json()["detail"], checked.text
    # a run answers field by field (the dashboard shows the message next to the field)
    assert run.status_code == 422, run.text
    [problem] = run.json()["detail"]
    assert problem["loc"] == ["body", "vars", "holding"] and "unknown --var 'holding'" in problem["msg"]
