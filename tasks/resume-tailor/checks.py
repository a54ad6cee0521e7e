"""Programmatic checks of a tailored CV against the source CV (claim level).

``checks(ctx)`` returns one :class:`CheckResult` per check, in this order:

``employers`` ``titles`` ``degrees`` ``entries`` — every entry of the artifact (role, degree,
certification…) is one of the CV's, with the CV's employer, title and degree (``claims_checked``,
``claims_supported`` and ``unsupported`` are filled; severity ``error``); ``sections`` — the
sections the job needs are present (error); ``keywords`` — job keywords the CV supports but the
artifact leaves out (severity ``warning``: a hint, never a fabrication).

Figures, dates, durations, technologies, organisations and every other sentence are verified by
the engine's claim ledger from this task's ``evidence.py`` (checks ``claims`` and
``unverifiable``; unverifiable claims are errors here). What the entry checks read is described in
``resumelib/claims.py``; the rules for a faithful CV in ``knowledge/source/grounding.md``.
"""

from __future__ import annotations

from typing import Any

from autogen_pse.hooks import CheckContext, CheckResult, Reason, task_module

_LABEL = {
    "employers": "employer",
    "titles": "job title",
    "dates": "date",
    "numbers": "figure",
    "degrees": "degree or institution",
    "technologies": "technology",
    "entries": "entry",
}
_HINT = {
    "employers": "use only the CV's employers ({employers}) or remove the entry",
    "titles": "use the exact title the CV gives for that employer",
    "dates": "copy each date range exactly as the CV gives it",
    "numbers": "use only figures that appear in the CV (or a fact reference); correct or remove the others",
    "degrees": "list only the CV's degrees and institutions ({degrees})",
    "technologies": "name only technologies that appear in the CV; remove the others",
    "entries": "every entry must be one of the CV's entries; remove the invented ones",
}
_MAX_LISTED = 8
ENTRY_CHECKS = ("employers", "titles", "degrees", "entries")  # the ledger verifies figures, dates, tech


def task_data(ctx: CheckContext) -> dict[str, Any]:
    """``ctx.data`` from ``prepare``; when absent, the inputs are read again (same code path)."""
    if ctx.data.get("cv") and ctx.data.get("vocab"):
        return ctx.data
    return task_module(__file__, "resumelib.inputs").load(ctx.task_dir, ctx.vars).data


def _claim_result(name: str, claims: list[Any], summary: dict[str, list[str]]) -> CheckResult:
    bad = [c for c in claims if not c.ok]
    label = _LABEL[name]
    if not bad:
        detail = (
            f"all {len(claims)} {label} claim(s) are in the CV" if claims else f"no {label} claims to check"
        )
        return CheckResult(
            name=name, ok=True, detail=detail, claims_checked=len(claims), claims_supported=len(claims)
        )
    listed = []
    for c in bad[:_MAX_LISTED]:
        listed.append(f"{c.text!r} (line {c.line}{': ' + c.note if c.note else ''})")
    more = f"; +{len(bad) - _MAX_LISTED} more" if len(bad) > _MAX_LISTED else ""
    hint = _HINT[name].format(
        employers=", ".join(summary["employers"]), degrees=", ".join(summary["degrees"])
    )
    detail = (
        f"{len(bad)} of {len(claims)} {label} claim(s) not supported by the CV: {'; '.join(listed)}{more}. "
        f"Fix: {hint}."
    )
    unsupported = list(dict.fromkeys(f"{c.text} (line {c.line})" for c in bad))
    return CheckResult(
        name=name,
        ok=False,
        detail=detail,
        claims_checked=len(claims),
        claims_supported=len(claims) - len(bad),
        unsupported=unsupported,
    )


def checks(ctx: CheckContext) -> list[CheckResult]:
    """Run every check on ``ctx.artifact`` (the rendered tailored CV)."""
    claims_mod, model_mod, text_mod = (task_module(__file__, f"resumelib.{name}")
                                       for name in ("claims", "model", "structure"))
    data = task_data(ctx)
    model = model_mod.CvModel(data)
    analysis = claims_mod.analyse(ctx.artifact or "", model, ctx.written)
    summary = claims_mod.summary_for(model)
    by_check = claims_mod.grouped(analysis)
    results = [_claim_result(name, by_check[name], summary) for name in ENTRY_CHECKS]

    # with no Experience section at all the sections check says so; with one, its roles must be read
    if "experience" in analysis.present and not any(e.cls == "experience" for e in analysis.entries):
        entries = results[ENTRY_CHECKS.index("entries")]
        entries.ok = False
        entries.detail = (
            "no experience entries found: list the CV's roles under an '## Experience' heading "
            "as '### Title — Employer' with the dates on the next line. " + entries.detail
        )

    required = data["job"]["required_sections"]
    present = analysis.present
    missing = [text_mod.CANONICAL[c] for c in required if c not in present]
    results.append(
        CheckResult(
            name="sections",
            ok=not missing,
            reason=Reason.INCOMPLETE,
            claims_checked=len(required),
            claims_supported=len(required) - len(missing),
            unsupported=[f"missing section {m}" for m in missing],
            detail=(
                f"all required sections present ({', '.join(text_mod.CANONICAL[c] for c in required)})"
                if not missing
                else f"missing section(s): {', '.join(missing)}; add a '## {missing[0]}' heading "
                "with content taken from the CV"
            ),
        )
    )

    found = {c for c, _, _ in model.matcher.find(ctx.artifact or "")}
    left_out = [k for k in data["job"]["keywords_in_cv"] if k not in found]
    results.append(
        CheckResult(
            name="keywords",
            ok=not left_out,
            severity="warning",
            detail=(
                "every job keyword the CV supports is mentioned"
                if not left_out
                else f"job keyword(s) the CV supports but the tailored CV leaves out: {', '.join(left_out)}"
            ),
        )
    )
    return results
