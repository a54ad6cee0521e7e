"""Reading and validating the task inputs; building facts, ``Prepared.data`` and the task text.

Inputs (``--var`` overrides the defaults):

* ``cv``    — the CV in Markdown (default ``data/cv.md``), the only source of truth;
* ``job``   — the job description (default ``data/job.md``);
* ``notes`` — optional market notes (default ``data/market_notes.md``; ``--var notes=`` for none).

Default paths are looked up in the task folder first; a path given with ``--var`` in the working
directory first.

Every file must be UTF-8 text, non-empty and at most :data:`MAX_BYTES` bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autogen_pse.hooks import Fact, InputFileError

from .cv import parse_cv
from .lexicon import find_numbers, matcher_for, parse_vocab
from .model import build_vocab, tech_vocab
from .structure import CANONICAL, SECTION_CLASSES, heading_of
from .text import clean_inline

MAX_BYTES = 1_000_000
DEFAULTS = {"cv": "data/cv.md", "job": "data/job.md", "notes": "data/market_notes.md"}
BASE_SECTIONS = ("summary", "experience", "skills", "education")
VOCAB_FILE = "data/technologies.txt"


@dataclass
class Loaded:
    task_text: str
    facts: dict[str, Fact]
    data: dict[str, Any]


def resolve(task_dir: Path, vars: dict[str, str], key: str) -> Path | None:
    """The path for input ``key`` (``None`` for an optional input set to ``""`` or absent by default)."""
    value = vars.get(key, DEFAULTS[key])
    if not value.strip():
        if key == "notes":
            return None
        raise InputFileError(f"--var {key}", "empty path; pass a file, e.g. --var cv=my_cv.md", field=key)
    path = Path(value).expanduser()
    if path.is_absolute():
        return path
    default = value == DEFAULTS[key]
    for base in (task_dir, Path.cwd()) if default else (Path.cwd(), task_dir):
        if (base / path).is_file():
            return base / path
    if key == "notes" and default:
        return None  # the optional default is simply absent
    return task_dir / path if default else Path.cwd() / path


def read_text(path: Path, key: str) -> str:
    """Read one input file. Raises :class:`InputFileError` (missing, too big, binary, not UTF-8, empty)."""
    if not path.is_file():
        raise InputFileError(path, f"file not found; pass an existing file with --var {key}=PATH", field=key)
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise InputFileError(
            path, f"file is {size:,} bytes; the limit is 1 MB ({MAX_BYTES:,} bytes)", field=key
        )
    data = path.read_bytes()
    if b"\x00" in data:
        row = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputFileError(
            path, "binary file (NUL byte); give a UTF-8 Markdown or text file", row=row, field=key
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        row = data[: exc.start].count(b"\n") + 1
        raise InputFileError(
            path, f"not UTF-8 text (byte {exc.start}); re-save it as UTF-8", row=row, field=key
        ) from None
    if not text.strip():
        raise InputFileError(path, "file is empty", row=1, field=key)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_job(text: str, matcher: Any, cv_sections: set[str], cv_techs: set[str]) -> dict[str, Any]:
    """Title, company, requirement bullets, keywords and the sections the CV must have."""
    lines = text.splitlines()
    title = ""
    for line in lines:
        head = heading_of(line)
        if head or line.strip():
            title = clean_inline(head[1] if head else line)
            break
    company = ""
    m = re.search(
        r"^\s*\**(?:company|employer|organisation|organization)\**\s*:\s*\**\s*(.+?)\s*$", text, re.I | re.M
    )
    if m:
        company = clean_inline(m.group(1)).strip("* ")
    bullets = [clean_inline(re.sub(r"^\s*[-*+•]\s+", "", x)) for x in lines if re.match(r"^\s*[-*+•]\s+", x)]
    keywords = sorted({c for c, _, _ in matcher.find(text)})
    mentioned = {
        cls
        for cls, _, keys in SECTION_CLASSES
        if any(re.search(rf"\b{re.escape(k)}\b", text, re.I) for k in keys)
    }
    required = list(BASE_SECTIONS) + [
        c for c in CANONICAL if c not in BASE_SECTIONS and c in mentioned and c in cv_sections
    ]
    return {
        "title": title,
        "company": company,
        "requirements": bullets[:20],
        "keywords": keywords,
        "keywords_in_cv": [k for k in keywords if k in cv_techs],
        "keywords_not_in_cv": [k for k in keywords if k not in cv_techs],
        "required_sections": required,
    }


def build_facts(cv: dict[str, Any], job: dict[str, Any]) -> dict[str, Fact]:
    """Facts with stable ids: ``name``, ``exp1.employer``/``title``/``start``/``end``/``location``,
    ``exp1.n1``... (figures in that entry's bullets), ``edu1.degree``/``school``/``year``,
    ``job.title``, ``job.company``."""
    facts: list[Fact] = [Fact(id="name", value=cv["name"], label="the person's name")]
    for e in cv["experience"]:
        i = e["id"]
        where = f"{e['title']} at {e['employer']}"
        facts += [
            Fact(id=f"{i}.employer", value=e["employer"], label="employer"),
            Fact(id=f"{i}.title", value=e["title"], label=f"title at {e['employer']}"),
            Fact(id=f"{i}.start", value=e["start"], display=e["start_text"], label=f"start of {where}"),
            Fact(id=f"{i}.end", value=e["end"], display=e["end_text"], label=f"end of {where}"),
        ]
        if e["location"]:
            facts.append(Fact(id=f"{i}.location", value=e["location"], label=f"location of {where}"))
        n = 0
        for bullet in e["bullets"]:
            for num in find_numbers(bullet):
                n += 1
                unit = {"percent": "%", "money": num.currency}.get(num.kind, "")
                value: float | int = int(num.value) if num.value == int(num.value) else num.value
                facts.append(
                    Fact(
                        id=f"{i}.n{n}",
                        value=value,
                        unit=unit,
                        display=num.text,
                        label=f"figure in {where}: {bullet[:70]}",
                    )
                )
    for e in cv["education"]:
        i = e["id"]
        facts += [
            Fact(id=f"{i}.degree", value=e["degree"], label="degree"),
            Fact(id=f"{i}.school", value=e["school"], label=f"school of {e['degree']}"),
        ]
        if e["year"]:
            facts.append(Fact(id=f"{i}.year", value=e["year"], label=f"year of {e['degree']}"))
    facts.append(Fact(id="job.title", value=job["title"] or "the role", label="the job applied for"))
    if job["company"]:
        facts.append(Fact(id="job.company", value=job["company"], label="the hiring company"))
    return {f.id: f for f in facts}


def task_text(
    template: str, cv: dict[str, Any], cv_text: str, job: dict[str, Any], job_text: str, notes: str
) -> str:
    """What to produce, the job summary, the CV entries with fact ids, the CV, the notes."""
    at = f" at {job['company']}" if job["company"] else ""
    parts = [template.strip(), "", f"## The job: {job['title']}{at}", ""]
    parts += [f"- {b}" for b in job["requirements"]] or [job_text.strip()[:1200]]
    if job["keywords_in_cv"]:
        parts += ["", "Job keywords the CV supports: " + ", ".join(job["keywords_in_cv"]) + "."]
    if job["keywords_not_in_cv"]:
        parts += [
            "Job keywords the CV does NOT support (never claim them): "
            + ", ".join(job["keywords_not_in_cv"])
            + "."
        ]
    parts += [
        "Sections to include: " + ", ".join(CANONICAL[c] for c in job["required_sections"]) + ".",
        "",
        "## CV entries (fact ids)",
        "",
    ]
    for e in cv["experience"]:
        parts.append(f"- {e['id']}: {e['title']} — {e['employer']}, {e['start_text']} – {e['end_text']}")
    for e in cv["education"]:
        parts.append(f"- {e['id']}: {e['degree']} — {e['school']}{', ' + e['year'] if e['year'] else ''}")
    parts += ["", "## The CV (the only source of truth about the person)", "", cv_text.strip()]
    if notes.strip():
        parts += [
            "",
            "## Market notes (context about the market, never facts about the person)",
            "",
            notes.strip(),
        ]
    return "\n".join(parts) + "\n"


def load(task_dir: Path, vars: dict[str, str]) -> Loaded:
    """Read, validate and parse every input. Raises :class:`InputFileError`; writes nothing."""
    cv_path = resolve(task_dir, vars, "cv")
    job_path = resolve(task_dir, vars, "job")
    notes_path = resolve(task_dir, vars, "notes")
    assert cv_path is not None and job_path is not None
    cv_text = read_text(cv_path, "cv")
    job_text = read_text(job_path, "job")
    notes = read_text(notes_path, "notes") if notes_path is not None else ""
    cv = parse_cv(cv_text, cv_path)
    vocab_path = task_dir / VOCAB_FILE
    file_techs = parse_vocab(read_text(vocab_path, "technologies")) if vocab_path.is_file() else []
    techs = tech_vocab(file_techs, cv["skills"])
    vocab = build_vocab(cv, cv_text, techs)
    job = parse_job(
        job_text,
        matcher_for(tuple(techs)),
        {s["cls"] for s in cv["sections"] if s["cls"]},
        set(vocab["technologies"]),
    )
    template_path = task_dir / "task.md"
    template = read_text(template_path, "task") if template_path.is_file() else "Tailor the CV to the job."
    template = template.replace("{cv}", cv_path.name).replace("{job}", job_path.name)
    queries = [
        f"tailoring a CV for {job['title'] or 'a job'}",
        "CV format: experience entries, dates, sections",
    ]
    if job["keywords_in_cv"]:
        queries.append("CV keywords and screening: " + ", ".join(job["keywords_in_cv"][:6]))
    data = {
        "cv": cv,
        "cv_text": cv_text,
        "job": job,
        "retrieval_queries": queries,
        "job_text": job_text,
        "notes": notes,
        "vocab": vocab,
        "tech_vocab": [[t.canonical, list(t.names)] for t in techs],
        "inputs": {"cv": str(cv_path), "job": str(job_path), "notes": str(notes_path or "")},
    }
    return Loaded(task_text(template, cv, cv_text, job, job_text, notes), build_facts(cv, job), data)
