"""Programmatic checks of the demo task: the files exist and pytest really passes.

pytest runs with the run's own tool settings (``PSE_TOOL_ISOLATION``, ``PSE_TOOL_TIMEOUT``): with
``PSE_TOOL_ISOLATION=none`` the demo verifies without bubblewrap. A sandbox that cannot start is
reported as such (tests NOT run, reason NEEDS_INPUT), never as failing tests.
"""

from __future__ import annotations

from autogen_pse.hooks import CheckContext, CheckResult
from autogen_pse.tools.agent_tools import pytest_outcome
from autogen_pse.verdict import Reason

REQUIRED = ("quicksort.py", "test_quicksort.py")
PYTEST_TIMEOUT = 60.0  # seconds, outside a run (no settings)


def checks(ctx: CheckContext) -> list[CheckResult]:
    missing = [name for name in REQUIRED if not (ctx.workspace / name).is_file()]
    results = [
        CheckResult(
            name="files_coverage",
            ok=not missing,
            detail="both files present" if not missing else f"missing file(s): {', '.join(missing)}",
            reason=Reason.INCOMPLETE,
        )
    ]
    if missing:
        results.append(CheckResult(name="tests", ok=False, detail="pytest not run: files missing",
                                   reason=Reason.INCOMPLETE))
        return results
    settings = ctx.settings
    found = pytest_outcome(
        ctx.workspace,
        settings.tool_timeout if settings is not None else PYTEST_TIMEOUT,
        isolation=settings.tool_isolation if settings is not None else "bwrap",
        cancel=ctx.cancel,  # a cancelled run kills pytest at once
    )
    if not found.ran:
        results.append(CheckResult(name="tests", ok=False, reason=Reason.NEEDS_INPUT,
                                   detail=f"tests were NOT run ({found.summary.removeprefix('ERROR: ')}); "
                                          "install bubblewrap or set PSE_TOOL_ISOLATION=none"))
        return results
    results.append(CheckResult(name="tests", ok=found.passed, detail=f"pytest: {found.summary}",
                               reason=Reason.TEST_FAILURE))
    return results
