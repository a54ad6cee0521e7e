"""Programmatic checks of the demo task: the files exist and pytest really passes.

pytest runs with the run's own tool settings (``PSE_TOOL_ISOLATION``, ``PSE_TOOL_TIMEOUT``): with
``PSE_TOOL_ISOLATION=none`` the demo verifies without bubblewrap. A sandbox that cannot start is
reported as such (tests NOT run, reason NEEDS_INPUT), never as failing tests.
"""

from __future__ import annotations

from autogen_pse.hooks import CheckContext, CheckResult, Reason

REQUIRED = ("quicksort.py", "test_quicksort.py")


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
    found = ctx.tools.pytest(ctx.workspace)  # the run's sandbox and timeout; a cancel kills it at once
    if not found.ran:
        results.append(CheckResult(name="tests", ok=False, reason=Reason.NEEDS_INPUT,
                                   detail=f"tests were NOT run ({found.summary.removeprefix('ERROR: ')}); "
                                          "install bubblewrap or set PSE_TOOL_ISOLATION=none"))
        return results
    results.append(CheckResult(name="tests", ok=found.passed, detail=f"pytest: {found.summary}",
                               reason=Reason.TEST_FAILURE))
    return results
