"""The claim ledger on the hand-written corpus (tests/fixtures/claims): figures must not regress.

The floors sit a little under what ``bench/bench_claims.py`` measures today (see docs/claims.md); a
change that loses detections or fails faithful artifacts shows up here before it ships.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "claims"


def _bench(name: str = "bench_claims") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def test_corpus_is_complete_and_labelled() -> None:
    """≥ 120 reviews and ≥ 80 CVs, about a third faithful, every kind ≥ 8 times, planted text present."""
    for task, minimum in (("portfolio-review", 120), ("resume-tailor", 80)):
        items = []
        for labels in sorted((CORPUS / task).glob("*/labels.jsonl")):
            for line in labels.read_text(encoding="utf-8").splitlines():
                item = json.loads(line)
                text = (labels.parent / item["file"]).read_text(encoding="utf-8")
                if not item["faithful"]:
                    assert text.count(item["planted"]) == 1, (labels.parent.name, item["file"])
                items.append(item)
        assert len(items) >= minimum
        faithful = sum(i["faithful"] for i in items)
        assert 0.25 <= faithful / len(items) <= 0.4
        kinds: dict[str, int] = {}
        for i in items:
            if not i["faithful"]:
                kinds[i["kind"]] = kinds.get(i["kind"], 0) + 1
        assert min(kinds.values()) >= 8, kinds
        assert len({i["style"] for i in items}) >= 8


@pytest.mark.parametrize(("task", "floors"), [
    # batches a–zx; the floors sit under a–l's because the blind batches m–zx (voice memos, YAML reports,
    # spreadsheet pastes, LinkedIn, HTML e-mails, PDF and Word pastes, LaTeX, chat transcripts, notebook
    # exports, newsletters, JSON Resume, podcast scripts, e-mail threads, ASCII timelines, shorthand notes,
    # forum replies, call notes, letters, Indian and Canadian résumés, career-coach rewrites, notes-app
    # vaults, machine-translated and bilingual reports, OCR, CRM exports, suitability reports, AsciiDoc and
    # RST CVs, application forms, rirekisho, TeX working, text threads, case studies, spreadsheets with
    # formulas, earnings-call transcripts, tracked changes, scorecards, bilingual French CVs, org-mode CVs,
    # reference letters, chatbot transcripts, mind maps, kanban boards, fund factsheets, subtitles, Mermaid
    # charts, TOML and changelog CVs, job logs, app notifications, psql output, wiki pages, terminal screens,
    # pandoc grid tables, pull requests, Q&A pages, R sessions, WhatsApp exports, Europass XML, job-platform
    # profiles, Confluence markup, dictated CVs, a local 8B model's output, artifacts revised after the
    # evaluator's PARTIAL, scheduled runs' digest e-mails, Telegram bot messages, Google Docs pastes, CVs pasted
    # into a form's text box, chat answers with the CV in a fence, reviewers' strikethrough edits, machine-
    # translated French letters…) are in the count (see docs/claims.md)
    ("portfolio-review", {"contradicted": 0.94, "no_number_flagged": 0.89, "fails": 0.85,
                          "faithful_failed": 0.10, "faithful_warned": 0.10}),
    ("resume-tailor", {"contradicted": 0.95, "no_number_flagged": 0.88, "fails": 0.94,
                       "faithful_failed": 0.07, "faithful_warned": 0.0}),
])
def test_corpus_figures_hold(task: str, floors: dict[str, float]) -> None:
    bench = _bench()
    verifier, checker = bench.evidence_for(task)
    items = bench.load_corpus(task, sorted(p.name for p in (CORPUS / task).iterdir() if p.is_dir()))
    results = [bench.evaluate(item, verifier, checker) for item in items]
    fabricated = [(i, r) for i, r in zip(items, results, strict=True) if not i["faithful"]]
    checkable = [r for i, r in fabricated if i["kind"] not in bench.NO_NUMBER_KINDS]
    no_number = [r for i, r in fabricated if i["kind"] in bench.NO_NUMBER_KINDS]
    faithful = [r for i, r in zip(items, results, strict=True) if i["faithful"]]

    def rate(rows: list[dict[str, object]], key: str) -> float:
        return sum(bool(r[key]) or (key == "contradicted" and bool(r["task_caught"])) for r in rows) / len(rows)

    assert rate(checkable, "contradicted") >= floors["contradicted"]
    assert rate(no_number, "flagged") >= floors["no_number_flagged"]
    assert rate([r for _i, r in fabricated], "fails") >= floors["fails"]
    failed = sum(bool(r["failed"] or r["task_failed"]) for r in faithful) / len(faithful)
    assert failed <= floors["faithful_failed"]
    assert rate(faithful, "warned") <= floors["faithful_warned"]


def test_template_faithful_reviews_pass() -> None:
    """The template benchmark's faithful reviews (generated text with prose notes in varied places)
    pass every check: they once failed 60–70 % on "Prices are month-end closes from 2000 to 2010"."""
    import random

    bench = _bench("bench_checks_portfolio")
    corpus = bench.Corpus(random.Random(7))
    checker = bench.Checker(bench.load_task(ROOT / "tasks", "portfolio-review"), facts=corpus.facts,
                            data=corpus.data, workspace=bench.TASK_DIR, vars={})
    failed = []
    for _ in range(24):
        text = corpus.make("faithful")
        failed += [f"{r.name}: {r.detail[:200]}" for r in checker.check(text) if not r.ok]
    assert not failed, failed



def test_template_tailored_cvs_pass_and_their_plants_are_caught() -> None:
    """The resume template benchmark, small: faithful CVs pass and every planted kind is caught by some
    check (a date word once matched "Junior" and "Marketing" in an entry head, and half the faithful CVs
    failed on their titles for a session without a test to say so)."""
    kinds = _bench("bench_checks_resume").run(120, 7)["kinds"]  # (its printed figures)
    faithful = kinds.pop("faithful")
    assert faithful["any_check"] == 0, faithful["flagged"]
    missed = {k: t["total"] - t["any_check"] for k, t in kinds.items() if t["any_check"] < t["total"]}
    assert not missed, missed
