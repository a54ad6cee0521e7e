"""prepare() of the resume-tailor task: parsing, facts, task text, bad inputs, registry loading."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autogen_pse.errors import InputFileError, UserError
from autogen_pse.hooks import PrepareContext
from autogen_pse.registry import ROLES, load_task
from tests.unit.test_resume_support import CV_TEXT, REGISTRY_ENTRY, TASK_DIR, hook, prepared


def _prepare(tmp_path: Path, **vars: str):
    out = tmp_path / "out"
    return hook("prepare").prepare(PrepareContext(task_dir=TASK_DIR, vars=vars, out_dir=out)), out


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- the shipped inputs ----------------------------------------------------------------------


def test_cv_is_parsed_into_entries() -> None:
    cv = prepared().data["cv"]
    assert cv["name"] == "Elena Marsh"
    assert [(e["id"], e["title"], e["employer"], e["start"], e["end"]) for e in cv["experience"]] == [
        ("exp1", "Senior Backend Engineer", "Brightline Payments Ltd", "2020-03", "present"),
        ("exp2", "Backend Engineer", "Harbourside Logistics GmbH", "2017-06", "2020-02"),
        ("exp3", "Software Developer", "Copperleaf Studio", "2015-09", "2017-05"),
    ]
    assert cv["experience"][0]["location"] == "Manchester, UK"
    assert len(cv["experience"][1]["bullets"]) == 4
    assert [(e["degree"], e["level"], e["school"], e["year"]) for e in cv["education"]] == [
        ("MSc Computer Science", "msc", "University of Leeds", "2015"),
        ("BSc Mathematics", "bsc", "University of York", "2014"),
    ]
    assert {"Python", "Go", "AWS", "EC2", "S3", "RDS", "GitHub Actions"} <= set(cv["skills"])
    assert len(cv["items"]["certifications"]) == 2


def test_facts_have_stable_ids_and_cv_values() -> None:
    facts = prepared().facts
    assert facts["exp2.employer"].value == "Harbourside Logistics GmbH"
    assert facts["exp2.start"].render() == "Jun 2017" and facts["exp2.start"].value == "2017-06"
    assert facts["exp1.end"].render() == "Present"
    assert facts["edu1.degree"].value == "MSc Computer Science" and facts["edu2.year"].value == "2014"
    assert facts["exp1.n5"].render() == "35%" and facts["exp1.n5"].unit == "%"
    assert facts["exp1.n6"].render() == "$420,000" and facts["exp1.n6"].unit == "USD"
    assert facts["job.title"].value.startswith("Staff Backend Engineer")
    assert facts["job.company"].value == "Tidewater Financial"
    assert not any("@" in str(f.value) or "7700" in str(f.value) for f in facts.values())  # no PII in facts


def test_data_is_json_serialisable_and_has_the_vocabulary() -> None:
    data = prepared().data
    assert json.loads(json.dumps(data)) == data
    vocab = data["vocab"]
    assert vocab["employers"] == ["brightline payments", "copperleaf studio", "harbourside logistics"]
    assert "senior backend engineer" in vocab["titles"]
    assert {
        "kind": "percent",
        "value": 60.0,
        "currency": "",
        "text": "60%",
        "context": ["by", "adding", "redis"],
    } in vocab["numbers"]
    assert {"kind": "count", "value": 12.0, "currency": "", "text": "12", "context": ["clients"]} in vocab[
        "numbers"
    ]
    assert "2017-06" in vocab["dates"] and "2014" in vocab["years"]
    job = data["job"]
    assert job["keywords_not_in_cv"] == ["Rust", "gRPC"]
    assert {"Kafka", "PostgreSQL", "Kubernetes"} <= set(job["keywords_in_cv"])
    assert job["required_sections"] == ["summary", "experience", "skills", "education", "certifications"]


def test_task_text_has_instructions_job_summary_and_cv(tmp_path: Path) -> None:
    p, out = _prepare(tmp_path)
    text = p.task_text
    assert text.startswith("Tailor the CV in cv.md to the job in job.md.")
    assert "## The job: Staff Backend Engineer, Payments Platform at Tidewater Financial" in text
    assert "never claim them): Rust, gRPC" in text
    assert "- exp2: Backend Engineer — Harbourside Logistics GmbH, Jun 2017 – Feb 2020" in text
    assert CV_TEXT.strip() in text
    assert "## Market notes" in text
    parsed = json.loads((out / "resume_parsed.json").read_text(encoding="utf-8"))
    assert parsed["cv"]["experience"][0]["employer"] == "Brightline Payments Ltd"


# --- --var overrides -------------------------------------------------------------------------


def test_var_paths_relative_to_cwd_and_notes_optional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cv = CV_TEXT.replace("Copperleaf Studio", "Copperleaf Studio Ltd")
    _write(tmp_path, "my_cv.md", cv)
    _write(tmp_path, "my_job.md", "# Data Engineer\n\nWe use Spark and Python. Send Summary, Experience.\n")
    monkeypatch.chdir(tmp_path)
    p, _ = _prepare(tmp_path, cv="my_cv.md", job="my_job.md", notes="")
    assert p.data["cv"]["experience"][2]["employer"] == "Copperleaf Studio Ltd"
    assert p.data["job"]["title"] == "Data Engineer"
    assert p.data["job"]["keywords_not_in_cv"] == ["Apache Spark"]
    assert p.data["notes"] == "" and "## Market notes" not in p.task_text


def test_alternative_cv_layout_is_parsed(tmp_path: Path) -> None:
    cv = _write(
        tmp_path,
        "cv.md",
        """# Sam Okafor
sam@example.org

## Work History

**Acme Widgets Inc.** | Data Analyst | 01/2019 - 12/2021
- Built 12 dashboards in Tableau.

Junior Analyst at Globex Corp, 2016 – 2018
- Cleaned data with Python.

## Qualifications
- BA Economics, University of Ghana, 2015
""",
    )
    p, _ = _prepare(tmp_path, cv=str(cv))
    exp = p.data["cv"]["experience"]
    assert [(e["title"], e["employer"], e["start"], e["end"]) for e in exp] == [
        ("Data Analyst", "Acme Widgets Inc.", "2019-01", "2021-12"),
        ("Junior Analyst", "Globex Corp", "2016", "2018"),
    ]
    edu = p.data["cv"]["education"][0]
    assert (edu["level"], edu["field"], edu["school"], edu["year"]) == (
        "ba",
        "Economics",
        "University of Ghana",
        "2015",
    )


# --- bad inputs ------------------------------------------------------------------------------

NO_EXPERIENCE = "# Jo Bloggs\n\n## Summary\n\nEngineer.\n\n## Skills\n\n- Python\n"
NO_DATES = "# Jo\n\n## Experience\n\n### Engineer — Acme Ltd\n\n- Built things.\n"
NO_EMPLOYER = "# Jo\n\n## Experience\n\n### Engineer\nJan 2020 – Present\n\n- Built things.\n"
BACKWARDS = "# Jo\n\n## Experience\n\n### Engineer — Acme Ltd\nJan 2020 – Mar 2018\n"


@pytest.mark.parametrize(
    "content,message,row,field",
    [
        ("", "file is empty", 1, "cv"),
        ("  \n\n\t\n", "file is empty", 1, "cv"),
        (b"# CV\n\ncaf\xe9 au lait\n", "not UTF-8 text (byte 9)", 3, "cv"),
        (b"%PDF-1.4\n\x00\x01binary", "binary file", 2, "cv"),
        (NO_EXPERIENCE, "no Experience section", 1, "Experience"),
        (NO_DATES, "has no date range", 5, "exp1.start"),
        (NO_EMPLOYER, "needs a title and an employer", 5, "exp1.employer"),
        (BACKWARDS, "ends before it starts", 5, "exp1.end"),
    ],
)
def test_bad_cv_raises_input_file_error_and_writes_nothing(
    tmp_path: Path, content: str | bytes, message: str, row: int, field: str
) -> None:
    cv = _write(tmp_path, "cv.md", content)
    with pytest.raises(InputFileError) as info:
        _prepare(tmp_path, cv=str(cv))
    err = info.value
    assert message in str(err) and err.row == row and err.field == field
    assert str(cv) in str(err)
    assert err.exit_code == 2
    assert not (tmp_path / "out").exists()


def test_oversized_and_missing_files(tmp_path: Path) -> None:
    big = _write(tmp_path, "big.md", CV_TEXT + "x" * 1_000_001)
    with pytest.raises(InputFileError, match="the limit is 1 MB"):
        _prepare(tmp_path, cv=str(big))
    with pytest.raises(InputFileError, match=r"file not found; pass an existing file with --var job=PATH"):
        _prepare(tmp_path, job=str(tmp_path / "nope.md"))
    with pytest.raises(InputFileError, match="--var notes"):
        _prepare(tmp_path, notes=str(tmp_path / "missing_notes.md"))
    empty_job = _write(tmp_path, "job.md", "\n")
    with pytest.raises(InputFileError, match="file is empty") as info:
        _prepare(tmp_path, job=str(empty_job))
    assert info.value.field == "job"
    assert not (tmp_path / "out").exists()


# --- the task loads through the real registry -------------------------------------------------


@pytest.fixture
def tasks_dir(tmp_path: Path) -> Path:
    root = tmp_path / "tasks"
    root.mkdir()
    (root / "_registry.json").write_text(json.dumps({"tasks": [REGISTRY_ENTRY]}), encoding="utf-8")
    (root / "resume-tailor").symlink_to(TASK_DIR, target_is_directory=True)
    return root


def test_registry_entry_loads_prompts_without_unfilled_placeholders(tasks_dir: Path) -> None:
    spec = load_task(tasks_dir, "resume-tailor")
    for role in ROLES:
        prompt = spec.prompts[role]
        assert not re.search(r"\{[A-Z][A-Z0-9_]*\}", prompt), role
        assert len(prompt) < 4000
    assert "```verdict" in spec.prompts["evaluator"]
    assert "{{fact:<id>}}" in spec.prompts["specialist"]
    assert "Employers, titles, dates" in spec.prompts["specialist"]
    for module, func in (("prepare", "prepare"), ("checks", "checks"), ("sanitize", "sanitize")):
        assert callable(spec.hook(module, func))
    text = spec.render_task({})
    assert "data/cv.md" in text and "{" not in text
    with pytest.raises(UserError):
        load_task(tasks_dir, "resume-tailors")


def test_knowledge_partitions_exist() -> None:
    for partition in REGISTRY_ENTRY["knowledge"].values():
        for name in partition:
            files = list((TASK_DIR / "knowledge" / name).glob("*.md"))
            assert files and all(f.read_text(encoding="utf-8").startswith("# ") for f in files)
