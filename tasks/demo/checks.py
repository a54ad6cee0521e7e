"""Programmatic checks of the demo task: the files exist and pytest really passes."""

from __future__ import annotations

from autogen_pse.hooks import CheckContext, CheckResult
from autogen_pse.tools.agent_tools import run_pytest_check

REQUIRED = ("quicksort.py", "test_quicksort.py")
PYTEST_TIMEOUT = 60.0  # seconds


def checks(ctx: CheckContext) -> list[CheckResult]:
    missing = [name for name in REQUIRED if not (ctx.workspace / name).is_file()]
    results = [
        CheckResult(
            name="files_coverage",
            ok=not missing,
            detail="both files present" if not missing else f"missing file(s): {', '.join(missing)}",
        )
    ]
    if missing:
        results.append(CheckResult(name="tests", ok=False, detail="pytest not run: files missing"))
        return results
    passed, summary = run_pytest_check(ctx.workspace, PYTEST_TIMEOUT)
    results.append(CheckResult(name="tests", ok=passed, detail=f"pytest: {summary}"))
    return results
