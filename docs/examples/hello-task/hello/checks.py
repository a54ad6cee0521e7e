"""Programmatic checks of the hello task, run after every evaluator verdict."""

from autogen_pse.hooks import CheckContext, CheckResult, Reason


def checks(ctx: CheckContext) -> list[CheckResult]:
    name = ctx.facts["name"].render()
    letters = ctx.facts["letters"].render()
    return [
        CheckResult(name="greets_by_name", ok=name in ctx.artifact, reason=Reason.INCOMPLETE,
                    detail=f"the greeting {'names' if name in ctx.artifact else 'does not name'} {name}"),
        CheckResult(name="letter_count", ok=f"{letters} letters" in ctx.artifact, reason=Reason.DATA_MISMATCH,
                    detail=f"the name has {letters} letters"),
    ]
