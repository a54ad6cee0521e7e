"""Sanitize a tailored CV deterministically before the final checks.

``sanitize(ctx)`` fixes what can be fixed from the CV alone — wrong titles and dates of real
entries, headings — and removes what cannot be grounded: invented entries, bullets and sentences
with an unsupported figure/date/technology/degree/organisation, Skills items not in the CV. A
required section that is missing is copied from the CV. Every edit is a
:class:`SanitizeChange` ``(rule, before, after)``; the rules are listed in
``resumelib/repair.py``. The checks run again on the result.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from autogen_pse.hooks import CheckContext, Sanitized


def load_lib(name: str) -> ModuleType:
    """Import ``resumelib.<name>`` from this task folder under a private package name."""
    pkg_dir = Path(__file__).resolve().with_name("resumelib")
    pkg = "pse_resume_tailor_" + hashlib.sha1(str(pkg_dir).encode()).hexdigest()[:10]
    if pkg not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            pkg, pkg_dir / "__init__.py", submodule_search_locations=[str(pkg_dir)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[pkg] = module
        spec.loader.exec_module(module)
    return importlib.import_module(f"{pkg}.{name}")


def sanitize(ctx: CheckContext) -> Sanitized:
    """Repair ``ctx.artifact`` (see the module docstring); deterministic and idempotent."""
    data = ctx.data
    if not (data.get("cv") and data.get("vocab")):
        data = load_lib("inputs").load(ctx.task_dir, ctx.vars).data
    text, changes = load_lib("repair").repair(ctx.artifact, data)
    return Sanitized(artifact=text, changes=changes)
