"""Helpers for the claim-ledger tests: a prepared checker per task and claim lookups in a report."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.config import Settings
from autogen_pse.verification import DocumentReport, check_document, document_checker


def isolated_settings(root: Path) -> Settings:
    """Settings with state and traces under ``root`` (the repo's tasks, no .env)."""
    return Settings(_env_file=None, state_dir=root / "state", traces_dir=root / "traces")


def checker_for(task: str, root: Path) -> Checker:
    """A document checker of ``task`` on its default inputs, prepared under ``root``."""
    return document_checker(task, {}, isolated_settings(root))


def status_of(verifier: Verifier, text: str) -> Status:
    """The status of the last claim of ``text`` that has findings."""
    claims = [c for c in build_ledger(text, verifier).claims if c.findings]
    assert claims, text
    return claims[-1].status


def statuses(verifier: Verifier, text: str) -> set[Status]:
    return {c.status for c in build_ledger(text, verifier).claims}


def assert_clean(verifier: Verifier, text: str) -> None:
    """No claim of ``text`` is contradicted or unverifiable."""
    ledger = build_ledger(text, verifier)
    flagged = ledger.contradicted + ledger.unverifiable
    assert not flagged, [(c.text, c.why()) for c in flagged]


def assert_pair(verifier: Verifier, faithful: str, fabricated: str) -> None:
    """``faithful`` has no contradicted claim; ``fabricated`` (one fact changed) has one."""
    assert Status.CONTRADICTED not in statuses(verifier, faithful), faithful
    assert Status.CONTRADICTED in statuses(verifier, fabricated), fabricated


def failed_checks(checker: Checker, text: str) -> set[str]:
    """The names of the checks ``text`` fails with an error (the section outline aside)."""
    return {r.name for r in checker.check(text) if not r.ok and r.severity == "error"} - {"sections"}


def check(checker: Checker, text: str, name: str = "review.md") -> DocumentReport:
    return check_document(checker, name, text)


def claim(report: DocumentReport, sentence: str) -> dict[str, Any]:
    """The one claim of ``report`` whose text is ``sentence`` (a leading list marker is dropped)."""
    wanted = re.sub(r"^\s*[-*+]\s+", "", sentence).strip()
    found = [c for c in report.claims if c["text"] == wanted]
    assert len(found) == 1, (f"expected one claim {wanted!r}, got {len(found)}; claims: "
                             + " | ".join(c["text"] for c in report.claims))
    return found[0]


def failing(report: DocumentReport) -> list[str]:
    """Contradicted and unverifiable claims, each with why (for assertion messages)."""
    out = []
    for c in report.claims:
        if c["status"] in ("contradicted", "unverifiable"):
            why = "; ".join(f["note"] or f["text"] for f in c["findings"] if f["status"] == c["status"])
            out.append(f"[{c['status']}] line {c['line']}: {c['text']} — {why}")
    return out


def findings(c: dict[str, Any], status: str | None = None, kind: str | None = None) -> list[dict[str, Any]]:
    return [f for f in c["findings"] if (status is None or f["status"] == status) and (kind is None or f["kind"] == kind)]


def supported_by(report: DocumentReport, fact_id: str) -> list[str]:
    """Texts of the supported findings whose evidence names ``fact_id``."""
    return [f["text"] for c in report.claims for f in c["findings"]
            if f["status"] == "supported" and fact_id in f["evidence"]]
