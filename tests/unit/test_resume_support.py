"""Shared helpers for the ``resume-tailor`` tests (no tests here).

The task's hooks live in ``tasks/resume-tailor/`` and are loaded by path, the way the registry
loads them. ``prepared()`` runs the real ``prepare`` on the shipped inputs once per session.
``run_checks`` / ``failing`` run what a run runs: the task's ``checks.py`` and then the claim ledger
built from its ``evidence.py`` (checks ``claims`` and ``unverifiable``, both errors for this task),
through :class:`autogen_pse.checking.Checker`.
"""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from autogen_pse.checking import Checker
from autogen_pse.hooks import CheckContext, CheckResult, PrepareContext, Prepared
from autogen_pse.registry import _load_module, load_task

ROOT = Path(__file__).resolve().parents[2]
TASK_DIR = ROOT / "tasks" / "resume-tailor"
CV_TEXT = (TASK_DIR / "data" / "cv.md").read_text(encoding="utf-8")
ERROR_CHECKS = ("employers", "titles", "degrees", "entries", "sections")  # checks.py, before "keywords"
LEDGER_CHECKS = ("claims", "unverifiable")  # appended by the Checker from evidence.py: figures, dates, tech

REGISTRY_ENTRY = {
    "name": "resume-tailor",
    "title": "Tailor a CV to a job description",
    "description": "Rewrite a Markdown CV for one job; every employer, title, date, figure, degree and "
    "technology is checked against the source CV (issue #3).",
    "artifact": "message",
    "knowledge": {"planner": ["market"], "specialist": ["source"], "evaluator": ["source"]},
    "vars": {"cv": "data/cv.md", "job": "data/job.md", "notes": "data/market_notes.md"},
    "redact_pii": True,
}

# A faithful tailored CV: sections renamed and reordered, bullets rephrased and trimmed.
FAITHFUL = """# Elena Marsh

Senior Backend Engineer · Manchester, UK
elena.marsh@example.com · +44 7700 900123

## Professional Summary

Backend engineer with 9 years of experience in Python and Go, building payment platforms at
Brightline Payments. Led teams of up to 6 engineers and cut infrastructure costs by 35%.

## Work Experience

### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present · Manchester, UK

- Designed an idempotent payments API in Go that handles 1,200 requests per second at peak.
- Moved 14 Python services from a monolith onto Kubernetes on AWS; deploys went from 45 minutes to 6 minutes.
- Reduced cloud spend by 35% ($420,000 a year) by consolidating PostgreSQL clusters.
- Mentored a team of 6 engineers.

### Backend Engineer — Harbourside Logistics GmbH
Jun 2017 – Feb 2020 · Hamburg, Germany

- Moved nightly batch jobs to Kafka streams: data delays fell from 24 hours to 15 minutes.
- Cut p95 API latency by 60% with Redis caching and PostgreSQL query tuning.
- Brought in Terraform, covering 80% of the AWS estate.

### Software Developer — Copperleaf Studio
Sep 2015 – May 2017

- Set up CI pipelines with Jenkins; test coverage rose from 40% to 85%.

## Technical Skills

- Languages: Go, Python, SQL
- Data and streaming: PostgreSQL, Kafka, Redis
- Platform: Kubernetes, AWS (EC2, S3, RDS), Terraform, Docker

## Education

### MSc Computer Science — University of Leeds
2015

### BSc Mathematics — University of York
2014

## Certifications

- AWS Certified Solutions Architect – Associate (2021)
"""

# The same person in another layout: bold headings, "Title, Employer (dates)", "Title at Employer |
# dates", education as a list, one-line skills, redaction placeholders for the contact details.
FAITHFUL_ALT = """**ELENA MARSH**
[[EMAIL_1]] | [[PHONE_1]]

**SUMMARY**

Payments-focused backend engineer (Python, Go) with 9 years of experience; MSc in Computer Science.

**EXPERIENCE**

**Senior Backend Engineer**, Brightline Payments (2020 – Present)
- Built a Go payments API serving 1.2k requests per second at peak.
- Cut cloud spend by 35%, about $420k a year.

**Backend Engineer**, Harbourside Logistics GmbH (Jun 2017 – Feb 2020)
- Django and Celery service processing 2 million events per day.

Software Developer at Copperleaf Studio | Sep 2015 – May 2017
- Client web apps in Flask and React for 12 clients.

**SKILLS**

Python, Go, SQL, PostgreSQL, Kafka, Kubernetes, AWS, Terraform, Docker, GitHub Actions

**EDUCATION**

- MSc in Computer Science, University of Leeds (2015)
- BSc Mathematics, University of York, 2014

**CERTIFICATIONS**

- Certified Kubernetes Application Developer (CKAD), 2022
"""


def hook(module: str) -> ModuleType:
    """``tasks/resume-tailor/<module>.py`` loaded by path (as :class:`TaskSpec.hook` does)."""
    return _load_module(TASK_DIR / f"{module}.py", f"pse_test_resume_tailor_{module}")


@lru_cache(maxsize=1)
def prepared() -> Prepared:
    out = Path(tempfile.mkdtemp(prefix="resume-prepared-"))
    return hook("prepare").prepare(PrepareContext(task_dir=TASK_DIR, vars={}, out_dir=out))


def context(artifact: str, data: dict | None = None) -> CheckContext:
    p = prepared()
    return CheckContext(
        artifact=artifact,
        facts=p.facts,
        data=p.data if data is None else data,
        workspace=Path(tempfile.gettempdir()),
        task_dir=TASK_DIR,
    )


@lru_cache(maxsize=1)
def checker() -> Checker:
    """The task's checks and claim ledger, as a run uses them, on the prepared default inputs."""
    p = prepared()
    return Checker(load_task(ROOT / "tasks", "resume-tailor"), facts=p.facts, data=p.data,
                   workspace=Path(tempfile.gettempdir()), vars={})


def run_checks(artifact: str) -> dict[str, CheckResult]:
    """Every check result of ``artifact`` (already rendered): checks.py's, then ``claims`` and
    ``unverifiable``."""
    return {r.name: r for r in checker().check(artifact)}


def failing(artifact: str) -> set[str]:
    """Names of the failing error-severity checks."""
    return {n for n, r in run_checks(artifact).items() if not r.ok and r.severity == "error"}


def mutate(text: str, old: str, new: str) -> str:
    assert old in text, f"fixture text lost {old!r}"
    return text.replace(old, new, 1)
