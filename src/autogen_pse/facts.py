"""Fact references: ``{{fact:<id>}}`` in an artifact, resolved deterministically at render time.

A figure the model never typed cannot be wrong: agents write a reference, :func:`render` replaces
it with :meth:`Fact.render`. Unknown ids are left in place and reported, so a check can fail on
them (see :func:`unknown_fact_check`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .errors import UserError
from .hooks import CheckResult, Fact

FACT_REF = re.compile(r"\{\{\s*fact:([A-Za-z0-9_.\-]+)\s*\}\}")


def render(text: str, facts: dict[str, Fact]) -> tuple[str, list[str]]:
    """Replace every known ``{{fact:id}}`` in ``text``.

    Returns:
        ``(rendered_text, unknown_ids)`` — unknown references stay verbatim in the text.
    """
    unknown: list[str] = []

    def sub(m: re.Match[str]) -> str:
        fact = facts.get(m.group(1))
        if fact is None:
            unknown.append(m.group(1))
            return m.group(0)
        return fact.render()

    return FACT_REF.sub(sub, text), unknown


def unknown_fact_check(unknown_ids: list[str]) -> CheckResult:
    """A check result that fails when the artifact references fact ids that do not exist."""
    if not unknown_ids:
        return CheckResult(name="fact_references", ok=True, detail="all fact references resolved")
    listed = ", ".join(sorted(set(unknown_ids)))
    return CheckResult(
        name="fact_references",
        ok=False,
        detail=f"unknown fact id(s): {listed}; use only ids listed in the facts",
    )


def save_facts(path: Path, facts: dict[str, Fact]) -> None:
    """Write ``facts`` as ``{"facts": [Fact...]}`` JSON (atomically, via a temp file)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps({"facts": [f.model_dump() for f in facts.values()]}, indent=2), encoding="utf-8")
    tmp.replace(path)


def load_facts(path: Path) -> dict[str, Fact]:
    """Read a facts file written by :func:`save_facts`.

    Raises:
        UserError: the file is not valid facts JSON.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return {f["id"]: Fact.model_validate(f) for f in raw["facts"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: not a valid facts file ({exc}); run `pse prepare <task>` again") from None

