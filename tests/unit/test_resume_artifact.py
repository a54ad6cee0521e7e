"""resume-tailor's artifact schema: built per run from the parsed CV, rendered, checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autogen_pse.artifacts import ArtifactParseError, parse_object, try_render
from autogen_pse.checking import Checker, all_pass
from autogen_pse.config import Settings
from tests.structured_support import as_json, resume, resume_object

OTHER_CV = """# Sam Rivera

Data Engineer · Lisbon, Portugal
sam.rivera@example.org · +351 912 345 678

## Summary

Data engineer with 6 years of experience building analytics pipelines.

## Experience

### Data Engineer — Northwind Analytics SA
Jan 2021 – Present · Lisbon, Portugal

- Built Spark pipelines processing 3TB of events per day.
- Cut warehouse costs by 25% by partitioning BigQuery tables.
- Ran the on-call rota for a team of 4 engineers.

### Junior Developer — Bluefin Labs
Jul 2018 – Dec 2020 · Porto, Portugal

- Wrote ETL jobs in Python and SQL for 9 retail clients.

## Education

### BSc Statistics — University of Porto
2018

## Skills

- Languages: Python, SQL, Scala
- Data: Spark, BigQuery, Airflow
"""


def _enums(js: dict[str, Any]) -> dict[str, Any]:
    """The enums of a tailored-CV JSON schema: role → bullet ids, skills, degrees."""
    defs, props = js["$defs"], js["properties"]
    roles = {}
    for role, ref in defs["Experience"]["properties"].items():
        entry = defs[ref["$ref"].split("/")[-1]]
        roles[role] = _values(entry["properties"]["bullets"]["items"])
    return {"roles": roles, "skills": _values(props["skills"]["items"]),
            "education": _values(props["education"]["items"]), "sections": sorted(props)}


def _values(items: dict[str, Any]) -> list[str]:
    return items["enum"] if "enum" in items else [items["const"]]  # one allowed value is a const


def test_schema_is_built_from_the_cv_and_varies_with_it(settings: Settings, tmp_path: Path) -> None:
    _task, _prep, schema = resume(settings)
    js = schema.json_schema()
    first = _enums(js)
    assert first["roles"] == {"exp1": ["exp1.b1", "exp1.b2", "exp1.b3", "exp1.b4"],
                              "exp2": ["exp2.b1", "exp2.b2", "exp2.b3", "exp2.b4"],
                              "exp3": ["exp3.b1", "exp3.b2"]}
    assert {"Python", "Go", "Kafka", "GitHub Actions"} <= set(first["skills"]) and "Spark" not in first["skills"]
    assert first["education"] == ["edu1", "edu2"] and js["properties"]["skills"]["maxItems"] == 12
    assert "certifications" in first["sections"]  # the CV has them and the job asks for them
    assert js["required"] == ["summary", "experience", "skills", "education", "certifications"]
    assert js["$defs"]["Experience"]["required"] == ["exp1", "exp2", "exp3"]  # every role listed
    assert "Brightline Payments Ltd" in js["$defs"]["Experience"]["properties"]["exp1"]["description"]

    cv = tmp_path / "other_cv.md"
    cv.write_text(OTHER_CV, encoding="utf-8")
    _task, _prep, other = resume(settings, {"cv": str(cv)})
    second = _enums(other.json_schema())
    assert second["roles"] == {"exp1": ["exp1.b1", "exp1.b2", "exp1.b3"], "exp2": ["exp2.b1"]}
    assert set(second["skills"]) == {"Python", "SQL", "Scala", "Spark", "BigQuery", "Airflow"}
    assert second["education"] == ["edu1"]
    assert "certifications" not in second["sections"]  # this CV has none
    assert "Northwind Analytics SA" in other.brief and "Brightline" not in other.brief
    assert "@" not in other.brief and "912" not in other.brief  # contact details never reach a prompt


def test_only_the_cvs_own_entries_validate(settings: Settings) -> None:
    _task, prep, schema = resume(settings)
    assert parse_object(schema, as_json(resume_object(prep)))
    for mutate, where in [
        (lambda o: o["experience"]["exp1"].update(bullets=["exp2.b1"]), "experience"),  # another role's bullet
        (lambda o: o["experience"].pop("exp2"), "experience"),  # a role left out
        (lambda o: o["experience"].update(exp4={"bullets": []}), "experience"),  # a role the CV lacks
        (lambda o: o["skills"].append("Rust"), "skills"),  # the job wants it, the CV lacks it
        (lambda o: o["education"].append("edu3"), "education"),
        (lambda o: o.update(summary="Engineer with 12 years of experience in payments."), "summary"),
        (lambda o: o.update(certifications=["AWS Certified Solutions Architect – Professional (2023)"]),
         "certifications"),
    ]:
        bad = resume_object(prep)
        mutate(bad)
        with pytest.raises(ArtifactParseError, match=where):
            parse_object(schema, as_json(bad))


def test_rendered_cv_passes_every_check_and_follows_the_chosen_order(settings: Settings, tmp_path: Path) -> None:
    task, prep, schema = resume(settings)
    obj = resume_object(prep)
    obj["experience"]["exp1"]["bullets"] = ["exp1.b3", "exp1.b1", "exp1.b3"]  # a repeat is shown once
    markdown, error = try_render(schema, as_json(obj))
    assert error is None and markdown is not None
    lines = markdown.splitlines()
    assert lines[0] == "# Elena Marsh" and "elena.marsh@example.com" in markdown  # the CV's header, as is
    assert [x for x in lines if x.startswith("## ")] == [
        "## Summary", "## Experience", "## Skills", "## Education", "## Certifications"]
    first_role = lines.index("### Senior Backend Engineer — Brightline Payments Ltd")
    assert lines[first_role + 1] == "{{fact:exp1.start}} – {{fact:exp1.end}} · Manchester, UK"
    bullets = [x for x in lines[first_role + 2:first_role + 6] if x.startswith("- ")]
    assert bullets[0].startswith("- Cut monthly cloud spend") and bullets[1].startswith("- Led the migration")
    assert len(bullets) == 2
    assert "- Infrastructure: GitHub Actions, Jenkins" in markdown  # the CV's labels, the chosen order
    checker = Checker(task, facts=prep.prepared.facts, data=prep.prepared.data, workspace=tmp_path, vars={})
    rendered, results = checker.run(markdown)
    assert all_pass(results), [r for r in results if not r.ok]
    assert {r.name for r in results} >= {"employers", "titles", "degrees", "entries", "sections", "claims"}
    assert "Mar 2020 – Present · Manchester, UK" in rendered and "{{fact:" not in rendered


def test_resume_schema_compiles_to_a_llama_grammar(settings: Settings) -> None:
    llama_cpp = pytest.importorskip("llama_cpp")
    _task, _prep, schema = resume(settings)
    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema.json_schema()), verbose=False)
    assert grammar is not None
