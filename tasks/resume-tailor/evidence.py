"""resume-tailor evidence for the claim ledger: the source CV is the only truth about the person.

``evidence(ctx)`` describes what a tailored CV may claim: each role (its employer's names; its dates
and duration; the figures of its bullets with the metric, direction and from/to order they are
written with), each education entry (school, year), the certifications' years, the figures of the
summary (person-level), the technologies of the curated vocabulary (those the CV names are
supported, the others contradicted), the job ad's company (named, but not the candidate's
employer), and the CV's lines as sources. Unverifiable claims are **errors**: a CV may claim
nothing the source CV does not. The metric words are in ``claims_lexicon.json``, the ordinary
vocabulary of CVs in ``claims_vocabulary.txt``.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

from autogen_pse.claims import (
    DateFact,
    Duration,
    Entity,
    Evidence,
    Metric,
    Source,
    Transition,
    Verifier,
    stated_changes,
)
from autogen_pse.hooks import CheckContext, task_module

_HERE = Path(__file__).resolve().parent
_LEGAL = re.compile(r"\s+(?:Ltd|Limited|GmbH|Inc|LLC|PLC|plc|Corp|AG|BV|SA|Studio|Group)\.?$")


def _data(ctx: CheckContext) -> dict[str, Any]:
    if ctx.data.get("cv") and ctx.data.get("vocab"):
        return ctx.data
    lib = task_module(__file__, "resumelib")
    import importlib

    return importlib.import_module(f"{lib.__name__}.inputs").load(ctx.task_dir, dict(ctx.vars)).data


def _org_names(name: str) -> list[str]:
    """ "Brightline Payments Ltd" → also "Brightline Payments" and "Brightline"."""
    names = {name}
    short = _LEGAL.sub("", name).strip()
    names.add(short)
    if short.split():
        names.add(short.split()[0])
    return sorted(n for n in names if len(n) > 2)


def _school_names(edu: dict[str, Any], cv: dict[str, Any]) -> list[str]:
    """ "University of York" with its degree → also "BSc Mathematics" and "York" (the town alone only
    where no role is in it: "Copperleaf Studio, Leeds" is no school)."""
    names = {edu["school"], edu.get("degree", "")}
    town = re.fullmatch(r"University of (\w+)|(\w+) University", edu["school"])
    roles = " ".join(r.get("location", "") for r in cv["experience"])
    if town and (name := town.group(1) or town.group(2)) not in roles:
        names.add(name)
    return sorted(n for n in names if len(n) > 2)


_LEVELS = {"msc": ["MSc", "M.Sc."], "bsc": ["BSc", "B.Sc."], "phd": ["PhD", "Ph.D."], "ma": ["MA", "M.A."],
           "ba": ["BA", "B.A."], "meng": ["MEng", "M.Eng."], "beng": ["BEng", "B.Eng."], "mba": ["MBA"]}


def _level_names(edu: dict[str, Any], cv: dict[str, Any]) -> list[str]:
    """ "MSc" alone names the one MSc of the CV ("🎓 MSc CS Leeds 2015 · BSc Maths York 2014")."""
    level = edu.get("level", "")
    unique = sum(e.get("level") == level for e in cv["education"]) == 1
    return _LEVELS.get(level, []) if unique else []


def _role_cities(cv: dict[str, Any]) -> dict[str, list[str]]:
    """The city of each role where it names that role alone ("… event processing in Hamburg"): not
    one shared with another role, a school ("University of Leeds") or the CV's contact lines."""
    city = {r["id"]: r.get("location", "").split(",")[0].strip() for r in cv["experience"]}
    schools = [e.get("school", "") for e in cv["education"]]
    elsewhere = " ".join([*schools, cv.get("headline", ""), cv.get("contact", "")])
    out = {}
    for rid, name in city.items():
        shared = sum(name == other for other in city.values()) > 1 or name.lower() in elsewhere.lower()
        if len(name) > 2 and not shared:
            out[rid] = [name]
    return out


def _months(start: str, end: str) -> int:
    sy, sm = int(start[:4]), int(start[5:7] or 1) if len(start) > 4 else 1
    ey, em = int(end[:4]), int(end[5:7]) if len(end) > 4 else 12
    return (ey * 12 + em) - (sy * 12 + sm) + 1


def evidence(ctx: CheckContext) -> Evidence:
    data = _data(ctx)
    lex = json.loads((_HERE / "claims_lexicon.json").read_text(encoding="utf-8"))
    cv = data["cv"]
    ev = Evidence(
        metrics=[Metric(**m) for m in lex["metrics"]],
        claim_words=lex["claim_words"],
        subject_words=lex["subject_words"],
        unverifiable="error",
        unranked_superlatives="contradicted",
        imperatives=False,
        vocabulary=[(_HERE / "claims_vocabulary.txt").read_text(encoding="utf-8")],
    )
    cities = _role_cities(cv)
    for role in cv["experience"]:
        names = _org_names(role["employer"]) + cities.get(role["id"], [])
        ev.entities.append(Entity(id=role["id"], kind="role", names=names))
    for edu in cv["education"]:
        if edu.get("school"):
            ev.entities.append(
                Entity(id=edu["id"], kind="school", names=_school_names(edu, cv), symbols=_level_names(edu, cv))
            )
    company = data.get("job", {}).get("company")
    if company:
        ev.entities.append(Entity(id="job.company", kind="company", names=_org_names(company), subject=False))
    in_cv = set(data["vocab"]["technologies"])
    # "GitHub" of "GitHub Actions", "AWS" of "AWS Lambda": the family a technology of the CV is named after
    in_cv |= {c for c, _n in data["tech_vocab"] if any(t.lower().startswith(f"{c.lower()} ") for t in in_cv)}
    for canonical, names in data["tech_vocab"]:
        plain = [n for n in names if not n.startswith("!")]
        exact = [n[1:] for n in names if n.startswith("!")]
        ev.entities.append(
            Entity(id=f"tech:{canonical}", kind="technology", names=plain, symbols=exact, in_sources=canonical in in_cv)
        )
    _dates(ev, cv, data.get("cv_text", ""))
    _figures(ev, cv, data.get("cv_text", ""))
    bullets = {" ".join(b.split()): role["id"] for role in cv["experience"] for b in role.get("bullets", [])}
    ev.sources = [  # a role's bullet is that role's
        Source(id=f"cv:{n}", text=line, entity=next((r for b, r in bullets.items() if b in " ".join(line.split())),
                                                   None))
        for n, line in enumerate(data.get("cv_text", "").splitlines(), 1)
        if line.strip()
    ]
    return ev


def _as_of(cv: dict[str, Any], cv_text: str) -> tuple[str, bool]:
    """When "present" is: the first start plus the years of experience the CV states ("9 years of
    experience"), else the latest date the CV gives (then durations to "present" are lower bounds)."""
    first = min(r["start"] for r in cv["experience"])
    stated = re.search(r"\b(\d{1,2})\+?\s+years?\b[^.\n]{0,40}\bexperience", cv_text, re.IGNORECASE)
    if stated:
        months = int(first[:4]) * 12 + int(first[5:7] or 1) - 1 + int(stated.group(1)) * 12
        return f"{months // 12:04d}-{months % 12 + 1:02d}", True
    known = [r["end"] for r in cv["experience"] if r["end"] != "present"] + [e["year"] for e in cv["education"]]
    return max(known + [r["start"] for r in cv["experience"]], default=str(date.today().year)), False


def _dates(ev: Evidence, cv: dict[str, Any], cv_text: str) -> None:
    latest, exact = _as_of(cv, cv_text)
    if exact:  # a date after the record's "present" is the document's own ("Who wants to be hired? (April 2025)")
        ev.dates.append(DateFact(id="present", entity=None, metric="as_of", value=latest))
    for role in cv["experience"]:
        rid = role["id"]
        ev.dates.append(
            DateFact(id=f"{rid}.start", entity=rid, metric="start", value=role["start"], display=role["start_text"])
        )
        if role["end"] != "present":
            ev.dates.append(
                DateFact(id=f"{rid}.end", entity=rid, metric="end", value=role["end"], display=role["end_text"])
            )
        open_ended = role["end"] == "present" and not exact
        months = _months(role["start"], latest if role["end"] == "present" else role["end"])
        ev.durations.append(
            Duration(
                id=f"{rid}.duration",
                entity=rid,
                years=months / 12,
                open_ended=open_ended,
                display=f"{role['start_text']} – {role['end_text']}",
            )
        )
    for edu in cv["education"]:
        if edu.get("year"):
            ev.dates.append(DateFact(id=f"{edu['id']}.year", entity=edu["id"], metric="year", value=edu["year"]))
    certifications = "\n".join(cv.get("items", {}).get("certifications", []) or [])
    for year in re.findall(r"\((?:[A-Za-z ]*)((?:19|20)\d\d)\)", certifications):
        ev.dates.append(DateFact(id=f"certification.{year}", metric="year", value=year))
    first = min(r["start"] for r in cv["experience"])
    ev.durations.append(
        Duration(
            id="career",
            years=_months(first, latest) / 12,
            open_ended=not exact,
            default=True,
            display=f"{first} to {latest}",
            words=["experience", "career", "industry"],
        )
    )


def _figures(ev: Evidence, cv: dict[str, Any], cv_text: str) -> None:
    """The CV's figures, read with the same extraction as the artifact (metric, direction, order)."""
    reader = Verifier(ev)
    roles = {r["id"]: r for r in cv["experience"]}
    for rid, role in roles.items():
        for n, bullet in enumerate(role["bullets"], 1):
            ev.facts += reader.source_figures(bullet, rid, f"{rid}.b{n}")
            for k, (a, b) in enumerate(stated_changes(bullet), 1):
                ev.transitions.append(Transition(id=f"{rid}.b{n}.t{k}", entity=rid, source=a, target=b))
    summary = _section(cv_text, "summary")
    ev.facts += reader.source_figures(summary, None, "summary")


def _section(text: str, name: str) -> str:
    m = re.search(rf"^#+\s*{name}\s*$(.*?)(?=^#|\Z)", text, re.IGNORECASE | re.MULTILINE | re.DOTALL)
    return " ".join(m.group(1).split()) if m else ""
