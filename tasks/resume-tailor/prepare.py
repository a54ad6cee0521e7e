"""Prepare the ``resume-tailor`` task: parse the CV and the job deterministically.

``prepare(ctx)`` reads ``cv``, ``job`` and the optional ``notes`` (``--var`` overrides, see
README.md), validates them, and returns:

* ``facts`` — stable ids: ``name``, ``exp1.employer``, ``exp1.title``, ``exp1.start``, ``exp1.end``,
  ``exp1.location``, ``exp1.n1``... (figures in that role's bullets), ``edu1.degree``,
  ``edu1.school``, ``edu1.year``, ``job.title``, ``job.company``;
* ``data`` — ``{"cv": parsed CV, "cv_text", "job": {title, company, requirements, keywords,
  keywords_in_cv, keywords_not_in_cv, required_sections}, "job_text", "notes",
  "vocab": normalised claim vocabulary, "tech_vocab": [[canonical, [names]]],
  "retrieval_queries": [str], "inputs": {cv, job, notes}}`` (JSON-serialisable);
* ``task_text`` — what to produce, the job summary, the CV entries with fact ids, the CV text.

Raises:
    InputFileError: a missing, empty, binary, non-UTF-8 or over-1-MB file; a CV without an
        Experience section or with an entry lacking title, employer or date range (the error
        names the file, the line and the field, e.g. ``exp2.start``). Nothing is written then.

On success ``resume_parsed.json`` (the parsed CV and job) is written to ``ctx.out_dir``.
"""

from __future__ import annotations

import json
from types import ModuleType

from autogen_pse.hooks import PrepareContext, Prepared, task_module


def load_lib(name: str) -> ModuleType:
    """``resumelib.<name>``; kept for bench/bench_claims.py (the hooks call ``task_module``)."""
    return task_module(__file__, f"resumelib.{name}")


def prepare(ctx: PrepareContext) -> Prepared:
    """Parse and validate the inputs (see the module docstring)."""
    loaded = task_module(__file__, "resumelib.inputs").load(ctx.task_dir, ctx.vars)
    prepared = Prepared(task_text=loaded.task_text, facts=loaded.facts, data=loaded.data)
    ctx.out_dir.mkdir(parents=True, exist_ok=True)
    target = ctx.out_dir / "resume_parsed.json"
    tmp = target.with_suffix(".json.tmp")
    parsed = {"cv": loaded.data["cv"], "job": loaded.data["job"], "inputs": loaded.data["inputs"]}
    tmp.write_text(json.dumps(parsed, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(target)
    return prepared
