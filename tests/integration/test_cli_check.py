"""``pse check TASK FILE…`` as a user runs it: real subprocesses, exit codes, one-line errors, JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAITHFUL = """\
# Portfolio review — Alex Example, 1 March 2010

## Summary

The portfolio is worth $127,157.10 against a cost of $75,890.50, a gain of 67.55%. Apple is 43.85% of it, over the 30% cap, and Microsoft has hit its stop-loss.

## Findings

- **AAPL:** 43.85% of the portfolio, up 480.03%. Overweight.
- **AMZN:** 10.13% of the portfolio, up 241.97%. No trigger.
- **GOOG:** down 19.16% after 851 days, a long-held loss.
- **IBM:** 14.81% of the portfolio, up 72.70%. No trigger.
- **MSFT:** down 27.66%, through the -20% stop-loss.

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit |
| 2 | TRIM | AAPL | 79 units | overweight: 43.85% vs the 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss |
| 4 | HOLD | AMZN | — | no trigger |
| 5 | HOLD | IBM | — | no trigger |

## Next steps

- Place the SELL and TRIM orders this week.
- Re-run the review after the next monthly close.
"""
WRONG = "- **IBM:** 14.81% of the portfolio, up 27.70%. No trigger."
CONTRADICTED = FAITHFUL.replace("- **IBM:** 14.81% of the portfolio, up 72.70%. No trigger.", WRONG)
KEYS = {"file", "claims", "contradicted", "unverifiable", "grounding"}


def cli(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PSE_TRACES_DIR": str(tmp / "traces"), "PSE_STATE_DIR": str(tmp / "state"),
           "HOME": str(tmp), "COLUMNS": "200", "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp)


@pytest.fixture
def docs(tmp_path: Path) -> tuple[Path, Path]:
    good, bad = tmp_path / "good.md", tmp_path / "bad.md"
    good.write_text(FAITHFUL, encoding="utf-8")
    bad.write_text(CONTRADICTED, encoding="utf-8")
    return good, bad


def test_faithful_review_exits_0(tmp_path: Path, docs: tuple[Path, Path]) -> None:
    good, _bad = docs
    proc = cli(tmp_path, "check", "portfolio-review", str(good))
    assert proc.returncode == 0, proc.stderr
    assert "0 contradicted" in proc.stdout and "grounding 1.00" in proc.stdout
    assert "fails" not in proc.stdout


def test_one_contradicted_file_exits_1_and_names_the_claim(tmp_path: Path, docs: tuple[Path, Path]) -> None:
    good, bad = docs
    proc = cli(tmp_path, "check", "portfolio-review", str(good), str(bad))
    assert proc.returncode == 1, proc.stderr
    assert "contradicted" in proc.stdout and "27.70%" in proc.stdout
    assert "IBM.pnl_pct" in proc.stdout  # the evidence is named
    assert "Traceback" not in proc.stderr


def test_json_prints_one_object_per_file(tmp_path: Path, docs: tuple[Path, Path]) -> None:
    good, bad = docs
    proc = cli(tmp_path, "check", "portfolio-review", "--json", str(good), str(bad))
    assert proc.returncode == 1, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 2
    reports = [json.loads(line) for line in lines]
    for report in reports:
        assert set(report) >= KEYS
    first, second = reports
    assert [r["file"] for r in reports] == [str(good), str(bad)]
    assert (first["contradicted"], first["unverifiable"], first["grounding"]) == (0, 0, 1.0)
    assert second["contradicted"] == 1 and second["grounding"] < 1.0
    [claim] = [c for c in second["claims"] if c["status"] == "contradicted"]
    assert claim["text"] == WRONG.removeprefix("- ").removesuffix(" No trigger.")
    assert any("IBM.pnl_pct" in f["evidence"] for f in claim["findings"])


def test_json_with_a_faithful_file_exits_0(tmp_path: Path, docs: tuple[Path, Path]) -> None:
    good, _bad = docs
    proc = cli(tmp_path, "check", "portfolio-review", "--json", str(good))
    assert proc.returncode == 0, proc.stderr
    [line] = [line for line in proc.stdout.splitlines() if line.strip()]
    assert json.loads(line)["contradicted"] == 0


def test_unverifiable_claim_fails_a_cv_where_the_policy_makes_it_an_error(tmp_path: Path) -> None:
    cv = (ROOT / "tasks" / "resume-tailor" / "data" / "cv.md").read_text(encoding="utf-8")
    plain = tmp_path / "cv.md"
    plain.write_text(cv, encoding="utf-8")
    boasting = tmp_path / "cv-boast.md"
    boasting.write_text(cv.replace(
        "- Mentored a team of 6 engineers and introduced code review guidelines adopted across 3 teams.",
        "- Mentored a team of 6 engineers and was promoted to tech lead."), encoding="utf-8")
    assert boasting.read_text() != cv
    assert cli(tmp_path, "check", "resume-tailor", str(plain)).returncode == 0
    proc = cli(tmp_path, "check", "resume-tailor", "--json", str(boasting))
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["contradicted"] == 0 and report["unverifiable"] == 1


@pytest.mark.parametrize("case", ["unknown-task", "missing-file", "demo-task", "directory", "empty-file", "bad-var"])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, docs: tuple[Path, Path], case: str) -> None:
    good, _bad = docs
    empty = tmp_path / "empty.md"
    empty.write_text("   \n", encoding="utf-8")
    args, expected = {
        "unknown-task": (["nope", str(good)], "nope"),
        "missing-file": (["portfolio-review", str(good), str(tmp_path / "missing.md")], "missing.md"),
        "demo-task": (["demo", str(good)], "demo"),
        "directory": (["portfolio-review", str(tmp_path)], str(tmp_path)),
        "empty-file": (["portfolio-review", str(empty)], "empty.md"),
        "bad-var": (["portfolio-review", "--var", "novalue", str(good)], "novalue"),
    }[case]
    proc = cli(tmp_path, "check", *args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert expected in lines[0]
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    if case == "missing-file":
        assert proc.stdout.strip() == ""  # every file is read before any is checked


def test_non_regular_files_are_one_line_errors(tmp_path: Path) -> None:
    """A FIFO (nothing writing), a device and a symlink loop: exit 2, one line, no hang."""
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    loop_a, loop_b = tmp_path / "a.md", tmp_path / "b.md"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    for target in (fifo, Path("/dev/zero"), loop_a):
        done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "check", "portfolio-review", str(target)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 2, (target, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1

