"""The ``scripted-facts`` model of ``pse eval``: a scripted model whose replies are built, per case,
from that case's prepared facts by the task's ``example`` hook (``tasks/<name>/example.py``).

A fixed scripted file cannot be right for every case of a dataset (each portfolio has its own
holdings and figures), so before a case runs the eval writes a scripted file for it
(``<eval>/scripts/<case>.json``) and the case runs with ``--model scripted:<that file>`` through
the normal engine. The planner gives the hook's plan, the specialist its artifact and the
evaluator says PASS every time: whatever fails is found by the programmatic checks, which override
it. ``scripted-facts:FLAW`` (or a case's ``"scripted": {"flaw": FLAW}``) asks the hook for a
deliberate mistake (``wrong-figure``), so a dataset can hold a case the scripted model fails.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import UserError
from ..hooks import ExampleContext
from ..preparation import PrepareOutcome
from ..registry import TaskSpec
from ..store.files import atomic_write_text
from ..verdict import Outcome, Reason, Verdict, format_trailer

__all__ = ["FACTS_MODEL", "case_script", "check_task", "flaw_of", "is_facts_model", "write_script"]

FACTS_MODEL = "scripted-facts"
REPLIES_PER_CYCLE = 3  # a cycle may ask a role again (a re-ask); spare replies are never an error


def is_facts_model(spec: str) -> bool:
    return spec == FACTS_MODEL or spec.startswith(FACTS_MODEL + ":")


def flaw_of(spec: str) -> str | None:
    """``wrong-figure`` of ``scripted-facts:wrong-figure``; None for the faithful model."""
    _, _, flaw = spec.partition(":")
    return flaw or None


def check_task(task: TaskSpec) -> None:
    """Raises UserError when the task has no ``example`` hook for the scripted-facts model."""
    if task.hook("example", "example") is None:
        raise UserError(f"--model {FACTS_MODEL}: task {task.name!r} has no example.py with example(ctx); "
                        "add one (see docs/eval.md) or use another model")


def case_script(task: TaskSpec, prep: PrepareOutcome, vars: dict[str, str], flaw: str | None,
                cycles: int) -> dict[str, list[str]]:
    """The scripted file of one case (replies for ``cycles`` cycles), as a dict.

    Raises:
        UserError: the task has no example hook, or no such flaw.
    """
    hook = task.hook("example", "example")
    if hook is None:
        check_task(task)
    assert hook is not None
    prepared = prep.prepared
    example = hook(ExampleContext(task_dir=task.dir, vars={**task.entry.vars, **vars}, facts=prepared.facts,
                                  data=prepared.data, task_text=prepared.task_text, flaw=flaw))
    verdict = Verdict(outcome=Outcome.PASS, reason=Reason.OK, issues=[],
                      summary="The artifact follows the plan and the facts.")
    evaluator = "I compared the artifact with the facts and the rules.\n\n" + format_trailer(verdict)
    n = cycles * REPLIES_PER_CYCLE
    return {"planner": [example.plan] * n, "specialist": [example.artifact] * n, "evaluator": [evaluator] * n}


def write_script(script: dict[str, list[str]], dest: Path) -> Path:
    """Write a scripted file to ``dest``; returns ``dest``."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(dest, json.dumps(script, ensure_ascii=False, indent=1) + "\n", durable=False)
    return dest
