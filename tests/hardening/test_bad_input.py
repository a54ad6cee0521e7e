"""Every bad input gets exit code 2 (CLI) or 422 (API), one message naming the file (and the row
and field where there is one), no traceback, nothing half-written: no new file under traces/ and no
prepared output changed. Table-driven: each case builds its bad file in a temporary folder."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from autogen_pse.web import create_app
from tests.hardening.helpers import ROOT, SCRIPTED, base_env, cli, cli_proc, env_vars, snapshot
from tests.web.web_helpers import make_settings

DEMO = f"scripted:{SCRIPTED / 'demo_pass.json'}"
PORTFOLIO = f"scripted:{SCRIPTED / 'portfolio_fix_then_pass.json'}"
RESUME = f"scripted:{SCRIPTED / 'resume_fix_then_pass.json'}"
DATA = ROOT / "tasks" / "portfolio-review" / "data"
HOLDINGS = (DATA / "holdings.csv").read_text()
PRICES = (DATA / "prices.csv").read_text()
RULES = (DATA / "rules.json").read_text()
CV = (ROOT / "tasks" / "resume-tailor" / "data" / "cv.md").read_text()


@dataclass
class Case:
    """``build(tmp)`` writes what the case needs and returns the CLI arguments; ``env`` is added to
    the environment; every string of ``needles`` (``{tmp}`` replaced) must be in the message."""

    id: str
    build: Callable[[Path], list[str]]
    needles: list[str] = field(default_factory=list)
    env: Callable[[Path], dict[str, str]] = lambda tmp: {}


def write(tmp: Path, name: str, content: str | bytes) -> Path:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def edit_csv(text: str, row: int, column: str, value: str) -> str:
    """``text`` with the cell at (``row`` as a spreadsheet counts it, ``column``) set to ``value``."""
    rows = list(csv.reader(io.StringIO(text)))
    rows[row - 1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def tasks_copy(tmp: Path, change: Callable[[Path], None]) -> dict[str, str]:
    tasks = tmp / "tasks-copy"
    if not tasks.exists():
        shutil.copytree(ROOT / "tasks", tasks, ignore=shutil.ignore_patterns("__pycache__"))
        change(tasks)
    return {"PSE_TASKS_DIR": str(tasks)}


def portfolio(key: str, name: str, content: str | bytes) -> Callable[[Path], list[str]]:
    return lambda tmp: ["run", "portfolio-review", "--model", PORTFOLIO, "--var",
                        f"{key}={write(tmp, name, content)}"]


def resume(key: str, name: str, content: str | bytes) -> Callable[[Path], list[str]]:
    return lambda tmp: ["run", "resume-tailor", "--model", RESUME, "--var", f"{key}={write(tmp, name, content)}"]


def scripted(name: str, content: str | bytes) -> Callable[[Path], list[str]]:
    return lambda tmp: ["run", "demo", "--model", f"scripted:{write(tmp, name, content)}"]


def _registry(tasks: Path, text: str) -> None:
    (tasks / "_registry.json").write_text(text)


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def _bad_entry(tasks: Path) -> None:
    reg = json.loads((tasks / "_registry.json").read_text())
    reg["tasks"][1]["artifact"] = "zip"
    _registry(tasks, json.dumps(reg))


def _dup_entry(tasks: Path) -> None:
    reg = json.loads((tasks / "_registry.json").read_text())
    reg["tasks"].append(reg["tasks"][0])
    _registry(tasks, json.dumps(reg))


def _bad_name(tasks: Path) -> None:
    reg = json.loads((tasks / "_registry.json").read_text())
    reg["tasks"][0]["name"] = "../escape"
    _registry(tasks, json.dumps(reg))


def _bad_inject(tasks: Path) -> None:
    reg = json.loads((tasks / "_registry.json").read_text())
    reg["tasks"][1]["inject"]["INVESTMENT_RULES"] = "../../../etc/passwd"
    _registry(tasks, json.dumps(reg))


BIG_HOLDINGS = HOLDINGS + ("# padding line to pass the size cap " + "x" * 64 + "\n") * 52_000
REG = "{tmp}/tasks-copy/_registry.json"
_run_demo: Callable[[Path], list[str]] = lambda tmp: ["run", "demo", "--model", DEMO]  # noqa: E731
_run_portfolio: Callable[[Path], list[str]] = lambda tmp: ["run", "portfolio-review", "--model", PORTFOLIO]  # noqa: E731

CASES = [
    # --- the task registry and task folders (PSE_TASKS_DIR points at a damaged copy of tasks/)
    Case("registry not JSON", _run_demo, [REG, "not valid JSON (line 1, column 2"],
         env=lambda t: tasks_copy(t, lambda d: _registry(d, "{tasks: ["))),
    Case("registry empty", _run_demo, [REG, "not valid JSON"], env=lambda t: tasks_copy(t, lambda d: _registry(d, ""))),
    Case("registry a list", _run_demo, [REG, "invalid at"], env=lambda t: tasks_copy(t, lambda d: _registry(d, "[]"))),
    Case("registry nested too deep", _run_demo, [REG, "not valid JSON"],
         env=lambda t: tasks_copy(t, lambda d: _registry(d, "[" * 100_000 + "]" * 100_000))),
    Case("registry not UTF-8", _run_demo, [REG, "not UTF-8"],
         env=lambda t: tasks_copy(t, lambda d: (d / "_registry.json").write_bytes(b'{"tasks": ["\xff"]}'))),
    Case("registry bad field", _run_demo, [REG, "tasks.1.artifact"], env=lambda t: tasks_copy(t, _bad_entry)),
    Case("registry task listed twice", _run_demo, [REG, "'demo' is listed twice"],
         env=lambda t: tasks_copy(t, _dup_entry)),
    Case("registry name with path characters", _run_demo, [REG, "'../escape'"], env=lambda t: tasks_copy(t, _bad_name)),
    Case("inject outside the task", _run_portfolio, [REG, "'portfolio-review'", "'inject'", "INVESTMENT_RULES"], env=lambda t: tasks_copy(t, _bad_inject)),
    Case("registry broken, `list`", lambda tmp: ["list"], [REG, "not valid JSON"],
         env=lambda t: tasks_copy(t, lambda d: _registry(d, '{"tasks": [}'))),
    Case("prompt missing, `list`", lambda tmp: ["list", "--json"], ["{tmp}/tasks-copy/demo/prompts/specialist.md"],
         env=lambda t: tasks_copy(t, lambda d: (d / "demo/prompts/specialist.md").unlink())),
    Case("registry missing", _run_demo, [REG, "task registry not found"],
         env=lambda t: tasks_copy(t, lambda d: (d / "_registry.json").unlink())),
    Case("prompt file missing", _run_demo, ["{tmp}/tasks-copy/demo/prompts/planner.md", "prompt file missing"],
         env=lambda t: tasks_copy(t, lambda d: (d / "demo/prompts/planner.md").unlink())),
    Case("prompt not UTF-8", _run_demo, ["{tmp}/tasks-copy/demo/prompts/evaluator.md", "not UTF-8"],
         env=lambda t: tasks_copy(t, lambda d: (d / "demo/prompts/evaluator.md").write_bytes(b"caf\xe9 {RULES}"))),
    Case("unknown placeholder", _run_demo, ["{tmp}/tasks-copy/demo/prompts/evaluator.md", "{NOPE_X}"],
         env=lambda t: tasks_copy(t, lambda d: _append(d / "demo/prompts/evaluator.md", "\n{NOPE_X}\n"))),
    Case("unknown task.md field", _run_portfolio, ["{tmp}/tasks-copy/portfolio-review/task.md", "unknown_field"],
         env=lambda t: tasks_copy(t, lambda d: _append(d / "portfolio-review/task.md", "{unknown_field}\n"))),
    Case("task folder missing", _run_demo, ["{tmp}/tasks-copy/demo", "task folder missing"],
         env=lambda t: tasks_copy(t, lambda d: shutil.rmtree(d / "demo"))),
    # --- task names
    *[Case(f"task name {name!r}", lambda tmp, n=name: ["run", n, "--model", DEMO], [repr(name)])
      for name in ("../demo", "demo/../demo", "/etc/passwd", "..", "de mo", "DEMO", "demo%2f", "a" * 80, "")],
    Case("task name with a newline", lambda tmp: ["prepare", "demo\n"], ["'demo\\n'"]),
    Case("unknown task", lambda tmp: ["run", "nope", "--model", DEMO], ["unknown task 'nope'", "demo"]),
    # --- portfolio-review CSV / JSON inputs
    Case("holdings missing column", portfolio("holdings", "h.csv", HOLDINGS.replace("opened_on", "opened")),
         ["{tmp}/h.csv", "row 1", "'opened_on'"]),
    Case("holdings non-numeric", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 3, "quantity", "12,5")),
         ["{tmp}/h.csv", "row 3", "'quantity'", "not a number"]),
    Case("holdings negative", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 2, "cost_per_unit", "-38.45")),
         ["{tmp}/h.csv", "row 2", "'cost_per_unit'", "greater than 0"]),
    Case("holdings zero", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 4, "quantity", "0")),
         ["{tmp}/h.csv", "row 4", "'quantity'"]),
    Case("holdings NaN", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 2, "quantity", "NaN")),
         ["{tmp}/h.csv", "row 2", "'quantity'", "finite"]),
    Case("holdings bad symbol", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 5, "symbol", "ib m;")),
         ["{tmp}/h.csv", "row 5", "'symbol'"]),
    Case("holdings duplicate symbol", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 3, "symbol", "AAPL")),
         ["{tmp}/h.csv", "row 3", "'symbol'", "listed twice"]),
    Case("holdings bad date", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 2, "opened_on", "2005-02-30")),
         ["{tmp}/h.csv", "row 2", "'opened_on'"]),
    Case("holdings empty cell", portfolio("holdings", "h.csv", edit_csv(HOLDINGS, 3, "currency", " ")),
         ["{tmp}/h.csv", "row 3", "'currency'", "empty value"]),
    Case("holdings ragged row", portfolio("holdings", "h.csv", HOLDINGS.replace("equity,250,", "equity,250,1,", 1)),
         ["{tmp}/h.csv", "row 2", "cells"]),
    Case("holdings empty file", portfolio("holdings", "h.csv", ""), ["{tmp}/h.csv", "file is empty"]),
    Case("holdings header only", portfolio("holdings", "h.csv", HOLDINGS.splitlines()[0] + "\n"),
         ["{tmp}/h.csv", "row 2", "no data rows"]),
    Case("holdings over the size cap", portfolio("holdings", "h.csv", BIG_HOLDINGS),
         ["{tmp}/h.csv", "over the 5 MB limit"]),
    Case("holdings not UTF-8", portfolio("holdings", "h.csv", HOLDINGS.encode().replace(b"Apple", b"Appl\xe9")),
         ["{tmp}/h.csv", "row 2", "not UTF-8"]),
    Case("holdings UTF-16", portfolio("holdings", "h.csv", HOLDINGS.encode("utf-16")), ["{tmp}/h.csv", "not UTF-8"]),
    Case("holdings NUL byte", portfolio("holdings", "h.csv", HOLDINGS.replace("Apple", "App\x00le")),
         ["{tmp}/h.csv", "row 2", "NUL"]),
    Case("holdings missing file", lambda tmp: ["run", "portfolio-review", "--model", PORTFOLIO, "--var",
                                               f"holdings={tmp}/nope.csv"], ["{tmp}/nope.csv", "file not found"]),
    Case("prices unknown symbol", portfolio("prices", "p.csv", PRICES + "ZZZZ,2010-01-01,10\n"),
         ["{tmp}/p.csv", f"row {len(PRICES.splitlines()) + 1}", "'symbol'", "not in the holdings"]),
    Case("prices missing column", portfolio("prices", "p.csv", PRICES.replace("close", "price", 1)),
         ["{tmp}/p.csv", "row 1", "'close'"]),
    Case("prices negative", portfolio("prices", "p.csv", edit_csv(PRICES, 2, "close", "-25.94")),
         ["{tmp}/p.csv", "row 2", "'close'"]),
    Case("prices non-numeric", portfolio("prices", "p.csv", edit_csv(PRICES, 7, "close", "1e999")),
         ["{tmp}/p.csv", "row 7", "'close'"]),
    Case("prices empty file", portfolio("prices", "p.csv", "\n \n"), ["{tmp}/p.csv", "file is empty"]),
    Case("prices not UTF-8", portfolio("prices", "p.csv", b"symbol,date,close\nAAPL,2000-01-01,\xff1\n"),
         ["{tmp}/p.csv", "row 2", "not UTF-8"]),
    Case("rules not JSON", portfolio("rules", "r.json", "{'stop': 1}"), ["{tmp}/r.json", "row 1", "not valid JSON"]),
    Case("rules nested too deep", portfolio("rules", "r.json", "[" * 100_000 + "]" * 100_000),
         ["{tmp}/r.json", "not valid JSON"]),
    Case("rules over-long integer", portfolio("rules", "r.json", '{"max_position_weight": ' + "1" * 5000 + "}"),
         ["{tmp}/r.json", "not valid JSON"]),
    Case("rules negative cap", portfolio("rules", "r.json", RULES.replace("0.30", "-0.30")),
         ["{tmp}/r.json", "'max_position_weight'"]),
    Case("rules non-numeric", portfolio("rules", "r.json", RULES.replace("-0.20", '"twenty"')),
         ["{tmp}/r.json", "'stop_loss_pct'"]),
    Case("rules unknown action", portfolio("rules", "r.json", RULES.replace('["SELL"], "forbids": ["BUY"]}',
                                                                               '["DUMP"], "forbids": ["BUY"]}', 1)),
         ["{tmp}/r.json", "'triggers.stop_loss_hit.allows'"]),
    Case("as_of not a date", lambda tmp: ["run", "portfolio-review", "--model", PORTFOLIO, "--var", "as_of=soon"],
         ["--var as_of='soon'"]),
    # --- resume-tailor inputs
    Case("cv not UTF-8", resume("cv", "cv.md", CV.encode().replace(b"Elena", b"El\xe9na", 1)),
         ["{tmp}/cv.md", "row 1", "'cv'", "not UTF-8"]),
    Case("cv Latin-1", resume("cv", "cv.md", CV.replace("—", "-").replace("–", "-").replace("·", "|")
                             .replace("Present", "Pr\u00e9sent").encode("latin-1", "replace")),
         ["{tmp}/cv.md", "'cv'", "not UTF-8"]),
    Case("cv empty", resume("cv", "cv.md", "  \n"), ["{tmp}/cv.md", "'cv'", "file is empty"]),
    Case("cv binary", resume("cv", "cv.md", b"%PDF-1.4\n\x00\x01\x02"), ["{tmp}/cv.md", "'cv'", "binary"]),
    Case("cv over the size cap", resume("cv", "cv.md", CV + "\n" + "lorem ipsum " * 90_000),
         ["{tmp}/cv.md", "'cv'", "limit is 1 MB"]),
    Case("cv without experience", resume("cv", "cv.md", "# Ann Example\n\n## Summary\n\nHello.\n"),
         ["{tmp}/cv.md", "'Experience'"]),
    Case("job not UTF-8", resume("job", "job.md", b"# Engineer\n\n\xfe\xff"), ["{tmp}/job.md", "'job'", "not UTF-8"]),
    Case("job empty", resume("job", "job.md", ""), ["{tmp}/job.md", "'job'", "file is empty"]),
    Case("notes not UTF-8", resume("notes", "notes.md", b"\xc3\x28 notes"), ["{tmp}/notes.md", "'notes'"]),
    Case("cv missing file", lambda tmp: ["run", "resume-tailor", "--model", RESUME, "--var", f"cv={tmp}/none.md"],
         ["{tmp}/none.md", "'cv'", "file not found"]),
    # --- scripted-model files
    Case("script not JSON", scripted("s.json", '{"planner": ['), ["{tmp}/s.json", "not valid JSON"]),
    Case("script empty", scripted("s.json", ""), ["{tmp}/s.json", "not valid JSON"]),
    Case("script not UTF-8", scripted("s.json", b'{"planner": ["\xff"]}'), ["{tmp}/s.json", "not UTF-8"]),
    Case("script nested too deep", scripted("s.json", "[" * 100_000 + "]" * 100_000),
         ["{tmp}/s.json", "not valid JSON"]),
    Case("script a list", scripted("s.json", "[]"), ["{tmp}/s.json", "field '$'"]),
    Case("script unknown role", scripted("s.json", '{"judge": []}'), ["{tmp}/s.json", "field 'judge'"]),
    Case("script role not a list", scripted("s.json", '{"planner": "hi"}'), ["{tmp}/s.json", "field 'planner'"]),
    Case("script bad reply", scripted("s.json", '{"evaluator": ["ok", 3]}'), ["{tmp}/s.json", "field 'evaluator[1]'"]),
    Case("script bad fault", scripted("s.json", '{"planner": [{"error": "meteor"}]}'),
         ["{tmp}/s.json", "field 'planner[0].error'"]),
    Case("script bad retry_after", scripted("s.json", '{"planner": [{"error": "rate_limit", "retry_after": -1}]}'),
         ["{tmp}/s.json", "field 'planner[0].retry_after'"]),
    Case("script bad tool arguments",
         scripted("s.json", '{"specialist": [{"tool_calls": [{"name": "write_file", "arguments": [1]}]}]}'),
         ["{tmp}/s.json", "field 'specialist[0].tool_calls[0].arguments'"]),
    Case("script two kinds in a reply", scripted("s.json", '{"planner": [{"content": "a", "error": "server"}]}'),
         ["{tmp}/s.json", "field 'planner[0]'"]),
    Case("script missing", lambda tmp: ["run", "demo", "--model", f"scripted:{tmp}/none.json"],
         ["{tmp}/none.json", "not found"]),
    Case("script is a folder", lambda tmp: ["run", "demo", "--model", f"scripted:{tmp}"], ["{tmp}", "not found"]),
    # --- the price table (PSE_PRICING_FILE)
    Case("pricing file wrong shape", _run_demo, ["{tmp}/price.json", "'models'"],
         env=lambda t: {"PSE_PRICING_FILE": str(write(t, "price.json", '{"models": 3}'))}),
    Case("pricing file nested too deep", _run_demo, ["{tmp}/price.json", "not valid JSON"],
         env=lambda t: {"PSE_PRICING_FILE": str(write(t, "price.json", "[" * 100_000 + "]" * 100_000))}),
    Case("pricing file not UTF-8", _run_demo, ["{tmp}/price.json", "not UTF-8 text (byte 13)"],
         env=lambda t: {"PSE_PRICING_FILE": str(write(t, "price.json", b'{"models": {"\xff": 1}}'))}),
    # --- options
    Case("--var without =", lambda tmp: ["run", "demo", "--model", DEMO, "--var", "holdings"], ["--var 'holdings'"]),
    Case("--max-cycles 0", lambda tmp: ["run", "demo", "--model", DEMO, "--max-cycles", "0"], ["--max-cycles"]),
    Case("unknown model spec", lambda tmp: ["run", "demo", "--model", "gpt-4"], ["unknown model spec 'gpt-4'"]),
]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state folder whose portfolio-review and resume-tailor outputs are prepared already."""
    state = tmp_path_factory.mktemp("state")
    with env_vars(PSE_STATE_DIR=str(state), PSE_TASKS_DIR=None):
        for task in ("portfolio-review", "resume-tailor"):
            assert cli("prepare", task).code == 0
    return state


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_cli(case: Case, tmp_path: Path, prepared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    shutil.copytree(prepared, state)
    monkeypatch.setenv("PSE_STATE_DIR", str(state))
    for key, value in case.env(tmp_path).items():
        monkeypatch.setenv(key, value)
    args = case.build(tmp_path)
    traces_before, prepared_before = snapshot(tmp_path / "traces"), snapshot(state / "prepared")
    result = cli(*args)
    assert result.code == 2, (result.code, result.out, result.err)
    assert len(result.err_lines) == 1 and result.err_lines[0].startswith("error: "), result.err
    assert "Traceback" not in result.err + result.out
    message = result.err_lines[0]
    for needle in case.needles:
        assert needle.replace("{tmp}", str(tmp_path)) in message, (needle, message)
    assert snapshot(tmp_path / "traces") == traces_before == {}
    assert snapshot(state / "prepared") == prepared_before


def test_bad_input_as_a_user_meets_it(tmp_path: Path) -> None:
    """Three cases through a real process: stderr is exactly one line, stdout empty, exit 2."""
    bad = write(tmp_path, "h.csv", HOLDINGS.replace("2005-01-01", "01/01/2005"))
    deep = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    for args, needle in [
        (["run", "portfolio-review", "--model", PORTFOLIO, "--var", f"holdings={bad}"],
         f"{bad}, row 2, field 'opened_on'"),
        (["run", "demo", "--model", f"scripted:{deep}"], f"{deep}: not valid JSON"),
        (["run", "../../etc/passwd"], "invalid task name"),
    ]:
        proc = cli_proc(tmp_path, *args, env=base_env(tmp_path))
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1 and needle in proc.stderr
    assert not (tmp_path / "traces").exists()


async def test_bad_input_api(tmp_path: Path) -> None:
    """The same mistakes through ``POST /api/runs``: 422 (404 for an unknown task) naming the file."""
    tasks = tmp_path / "tasks"
    shutil.copytree(ROOT / "tasks", tasks, ignore=shutil.ignore_patterns("__pycache__"))
    holdings = tasks / "portfolio-review" / "data" / "holdings.csv"
    holdings.write_text(edit_csv(HOLDINGS, 3, "quantity", "-5"))
    (tasks / "resume-tailor" / "data" / "cv.md").write_bytes(CV.encode().replace(b"Elena", b"El\xe9na", 1))
    _append(tasks / "demo" / "prompts" / "planner.md", "\n{NOT_A_PLACEHOLDER}\n")
    bad_script = write(tmp_path, "bad.json", '{"planner": [1]}')
    settings = make_settings(tmp_path, tasks_dir=tasks, web_scripted_dir=tmp_path)  # web scripts: from there
    app = create_app(settings)
    portfolio, resume, demo = (f"scripted:{shutil.copy(spec.split(':', 1)[1], tmp_path)}"
                               for spec in (PORTFOLIO, RESUME, DEMO))
    cases = [
        # a var's file is named as the client names it, relative to the project (no server path)
        ({"task": "portfolio-review", "model": portfolio}, 422,
         ['"tasks/portfolio-review/data/holdings.csv, row 3', "'quantity'"]),
        ({"task": "resume-tailor", "model": resume}, 422, ['"tasks/resume-tailor/data/cv.md, row 1', "not UTF-8"]),
        ({"task": "demo", "model": demo}, 422, [str(tasks / "demo/prompts/planner.md"), "{NOT_A_PLACEHOLDER}"]),
        ({"task": "portfolio-review", "model": f"scripted:{bad_script}"}, 422, [str(bad_script), "planner[0]"]),
        ({"task": "portfolio-review", "model": portfolio, "vars": {"holdings": "../../etc/passwd"}}, 422, ["vars"]),
        ({"task": "../demo", "model": demo}, 422, []),
        ({"task": "nope", "model": demo}, 404, ["unknown task 'nope'"]),
    ]
    async with app.router.lifespan_context(app):
        before = snapshot(settings.traces_dir)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            for body, status, needles in cases:
                r = await c.post("/api/runs", json=body)
                assert r.status_code == status, (body, r.status_code, r.text)
                assert "Traceback" not in r.text
                for needle in needles:
                    assert needle in r.text, (needle, r.text)
                if "vars" in r.text:  # an error tied to a var names no folder of the server
                    assert str(tmp_path) not in r.text, r.text
            (tasks / "_registry.json").write_text("{")
            broken = await c.post("/api/runs", json={"task": "demo", "model": demo})
            listing = await c.get("/api/tasks")
            assert (await c.get("/api/runs")).json()["count"] == 0
        await app.state.pse.executor.shutdown()
    for r in (broken, listing):
        assert r.status_code == 422 and str(tasks / "_registry.json") in r.json()["detail"], r.text
    assert snapshot(settings.traces_dir) == before
    assert snapshot(settings.state_dir / "prepared") == {}
