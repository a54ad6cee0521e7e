"""Sanitize a tailored CV deterministically before the final checks.

``sanitize(ctx)`` fixes what can be fixed from the CV alone — wrong titles and dates of real
entries, headings — and removes what cannot be grounded: invented entries, bullets and sentences
with an unsupported figure/date/technology/degree/organisation, Skills items not in the CV. A
required section that is missing is copied from the CV. Every edit is a
:class:`SanitizeChange` ``(rule, before, after)``; the rules are listed in
``resumelib/repair.py``. The checks run again on the result.
"""

from __future__ import annotations

from autogen_pse.hooks import CheckContext, Sanitized, task_module


def sanitize(ctx: CheckContext) -> Sanitized:
    """Repair ``ctx.artifact`` (see the module docstring); deterministic and idempotent."""
    data = ctx.data
    if not (data.get("cv") and data.get("vocab")):
        data = task_module(__file__, "resumelib.inputs").load(ctx.task_dir, ctx.vars).data
    text, changes = task_module(__file__, "resumelib.repair").repair(ctx.artifact, data)
    return Sanitized(artifact=text, changes=changes)
