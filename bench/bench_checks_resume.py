"""Benchmark the resume-tailor checks on a generated corpus of tailored CVs.

Synthetic people (random employers, titles, dates, figures, degrees, technologies) are written as
source CVs and prepared with the task's real ``prepare``. For each person, tailored CVs are rendered
in random layouts (heading styles, entry formats, date formats, number spellings, bullet subsets,
section order): faithful ones, and ones with exactly one planted error of a kind:

    number      a figure in a bullet changed to a value the CV does not have
    swap        a figure replaced by another figure of the CV (same kind, other meaning)
    employer    an employer replaced by an invented company
    title       a title changed (e.g. promoted) at a real employer
    date        a role's start moved earlier or its end later
    degree      a degree level changed to one the CV does not have
    technology  a technology the CV does not name added to a bullet or the skills
    entry       an invented role or certification added
    section     a section the job needs removed

Each CV is checked the way a run checks it (:class:`autogen_pse.checking.Checker`): the task's
``checks.py`` (employers, titles, degrees, entries, sections, keywords) and then the claim ledger
built from its ``evidence.py`` — check ``claims`` (contradicted figures, dates, technologies) and
``unverifiable`` (no source; an error for this task). Prints the detection rate per kind (by the
expected check — for the ledger, on the claim holding the planted figure, date or technology — and
by any check), the false-positive rate on faithful CVs, how often sanitize makes
a planted CV pass, and the time per check (checks.py + ledger) call.

Run: ``.venv/bin/python bench/bench_checks_resume.py [--n 300] [--seed 7] [--json]``
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from autogen_pse.checking import Checker  # noqa: E402
from autogen_pse.hooks import CheckContext, PrepareContext  # noqa: E402
from autogen_pse.registry import _load_module, load_task  # noqa: E402

TASK_DIR = ROOT / "tasks" / "resume-tailor"
KINDS = ("number", "swap", "employer", "title", "date", "degree", "technology", "entry", "section")
EXPECTED = {  # figures, dates and technologies are the claim ledger's (check "claims")
    "number": "claims",
    "swap": "claims",
    "employer": "employers",
    "title": "titles",
    "date": "claims",
    "degree": "degrees",
    "technology": "claims",
    "entry": "entries",
    "section": "sections",
}
SCHEDULE = ("faithful", *KINDS[:5], "faithful", *KINDS[5:], "faithful")  # 3 faithful per 9 planted

# fmt: off
FIRST = ["Amara", "Jonas", "Priya", "Tomás", "Mei", "Lukas", "Fatima", "Noah", "Ines", "Kwame", "Sofia", "Dmitri"]
LAST = ["Okafor", "Lindqvist", "Raman", "Castillo", "Chen", "Weber", "Haddad", "Brooks", "Moreau", "Mensah"]
CO_A = ["Blue", "Iron", "Silver", "North", "Cedar", "Quartz", "Maple", "Falcon", "Orbit", "Summit", "Lumen",
        "Granite", "Juniper", "Kestrel", "Harbour", "Copper"]
CO_B = ["Analytics", "Payments", "Logistics", "Systems", "Labs", "Health", "Robotics", "Media", "Energy",
        "Retail", "Software", "Networks"]
SUFFIX = ["Ltd", "GmbH", "Inc.", "LLC", "", "AG", "plc"]
INVENTED = ["Vandelay Industries", "Initech LLC", "Globex Corporation", "Hooli Inc.", "Pied Piper Ltd",
            "Umbrella GmbH", "Wonka Ltd", "Soylent Corp"]
LEVELS = ["", "Senior ", "Lead ", "Principal ", "Junior ", "Staff "]
ROLES = ["Backend Engineer", "Data Engineer", "Software Developer", "Data Analyst", "Platform Engineer",
         "Machine Learning Engineer", "DevOps Engineer", "Frontend Developer"]
CITIES = ["London, UK", "Berlin, Germany", "Lisbon, Portugal", "Toronto, Canada", "Austin, USA",
          "Dublin, Ireland", "Warsaw, Poland", "Nairobi, Kenya"]
TECHS = ["Python", "Go", "Java", "Kotlin", "TypeScript", "SQL", "PostgreSQL", "MySQL", "Redis", "Kafka",
         "Apache Airflow", "dbt", "Snowflake", "Docker", "Kubernetes", "Terraform", "AWS", "GCP", "Azure",
         "React", "Django", "FastAPI", "Spring Boot", "pandas", "PyTorch", "Grafana", "Prometheus", "Jenkins",
         "GitHub Actions", "Elasticsearch", "RabbitMQ", "MongoDB", "Rust", "gRPC", "Scala", "Apache Flink",
         "Cassandra", "Ansible"]
DEGREES = [("BSc", "Computer Science"), ("BSc", "Mathematics"), ("BA", "Economics"), ("MSc", "Data Science"),
           ("MEng", "Software Engineering"), ("PhD", "Physics"), ("MSc", "Statistics")]
SCHOOLS = ["University of Leeds", "University of Toronto", "University of Lisbon", "University College Dublin",
           "Warsaw University of Technology", "University of Nairobi", "Imperial College London"]
CERTS = ["AWS Certified Developer – Associate", "Certified Kubernetes Administrator (CKA)",
         "Google Professional Data Engineer", "HashiCorp Certified Terraform Associate"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
BULLETS = [
    "Cut {metric} by {pct}% by moving {n} services to {tech}.",
    "Built a {tech} pipeline processing {count} events per day.",
    "Saved {money} a year by consolidating {tech} clusters.",
    "Led a team of {small} engineers shipping {n} releases a year.",
    "Raised test coverage from {pct}% to {pct2}% with {tech}.",
    "Reduced p95 latency from {ms} ms to {ms2} ms using {tech}.",
]
SYNONYMS = {"Summary": ["Summary", "Professional Summary", "Profile"],
            "Experience": ["Experience", "Work Experience", "Employment History"],
            "Skills": ["Skills", "Technical Skills", "Core Skills"],
            "Education": ["Education", "Academic Background"],
            "Certifications": ["Certifications", "Licences and Certifications"]}
# fmt: on


@dataclass
class Role:
    title: str
    employer: str
    start: tuple[int, int]
    end: tuple[int, int] | None
    location: str
    bullets: list[str]


@dataclass
class Person:
    name: str
    roles: list[Role]
    degrees: list[tuple[str, str, str, int]]
    skills: list[str]
    certs: list[tuple[str, int]]
    summary: str
    extra_certs: list[tuple[str, int]] = field(default_factory=list)
    pinned: set[str] = field(default_factory=set)  # planted bullets the tailored CV must keep
    marker: str = ""  # the planted figure, year or technology: the ledger must flag a claim holding it


def _money(rng: random.Random) -> str:
    cur = rng.choice("$€£")
    if rng.random() < 0.5:
        return f"{cur}{rng.randrange(40, 900) * 1000:,}"
    return f"{cur}{rng.choice(['1.2', '2', '3.5', '4'])}M"


def make_person(rng: random.Random) -> Person:
    used = rng.sample(TECHS[:32], 10)
    year, month = rng.randrange(2019, 2024), rng.randrange(1, 13)
    roles: list[Role] = []
    employers = set()
    end: tuple[int, int] | None = None
    for _ in range(rng.randrange(2, 5)):
        while True:
            employer = f"{rng.choice(CO_A)} {rng.choice(CO_B)} {rng.choice(SUFFIX)}".strip()
            if employer not in employers:
                break
        employers.add(employer)
        start = (year, month)
        bullets = []
        for template in rng.sample(BULLETS, rng.randrange(2, 5)):
            bullets.append(
                template.format(
                    metric=rng.choice(["cloud costs", "failed runs", "page load time"]),
                    pct=rng.randrange(10, 60),
                    pct2=rng.randrange(61, 95),
                    n=rng.randrange(3, 40),
                    tech=rng.choice(used),
                    count=rng.choice(["2M", "350,000", "1.5M", "12,000"]),
                    money=_money(rng),
                    small=rng.randrange(2, 9),
                    ms=rng.randrange(300, 900),
                    ms2=rng.randrange(40, 290),
                )
            )
        roles.append(
            Role(
                f"{rng.choice(LEVELS)}{rng.choice(ROLES)}", employer, start, end, rng.choice(CITIES), bullets
            )
        )
        end = (year - 1 if month == 1 else year, 12 if month == 1 else month - 1)
        year, month = year - rng.randrange(1, 4), rng.randrange(1, 13)
    grad = year - rng.randrange(0, 2)
    degrees = [
        (*DEGREES[i], rng.choice(SCHOOLS), grad - k)
        for k, i in enumerate(rng.sample(range(len(DEGREES)), rng.randrange(1, 3)))
    ]
    certs = [(c, rng.randrange(2018, 2024)) for c in rng.sample(CERTS, rng.randrange(0, 3))]
    summary = f"{roles[0].title} with {rng.randrange(4, 15)} years of experience in {used[0]} and {used[1]}."
    return Person(f"{rng.choice(FIRST)} {rng.choice(LAST)}", roles, degrees, used, certs, summary)


def _date(d: tuple[int, int] | None, style: int) -> str:
    if d is None:
        return "Present"
    return [f"{MONTHS[d[1] - 1]} {d[0]}", f"{d[0]}", f"{d[1]:02d}/{d[0]}"][style]


def render_cv(p: Person) -> str:
    """The source CV in the task's canonical format."""
    out = [
        f"# {p.name}",
        "",
        f"{p.roles[0].title} · {p.roles[0].location}",
        f"{p.name.split()[0].lower()}@example.com · +44 20 7946 0{len(p.name):03d}",
        "",
        "## Summary",
        "",
        p.summary,
        "",
        "## Experience",
        "",
    ]
    for r in p.roles:
        out += [
            f"### {r.title} — {r.employer}",
            f"{_date(r.start, 0)} – {_date(r.end, 0)} · {r.location}",
            "",
            *[f"- {b}" for b in r.bullets],
            "",
        ]
    out += ["## Education", ""]
    for level, fld, school, year in p.degrees:
        out += [f"### {level} {fld} — {school}", str(year), ""]
    out += ["## Skills", "", "- " + ", ".join(p.skills), ""]
    if p.certs:
        out += ["## Certifications", "", *[f"- {c} ({y})" for c, y in p.certs], ""]
    return "\n".join(out)


def _respell(bullet: str, rng: random.Random) -> str:
    """Same claims, other spelling: 1,200 → 1200, $420,000 → $420k, 2M → 2 million, 35% → 35 percent."""
    if rng.random() < 0.3:
        bullet = re.sub(r"(?<![\w.$€£])(\d{1,3}),(\d{3})(?!,?\d)", r"\1\2", bullet)
    if rng.random() < 0.3:
        bullet = re.sub(r"([$€£])(\d{2,3}),000\b", r"\1\2k", bullet)
    if rng.random() < 0.3:
        bullet = re.sub(r"\b(\d+(?:\.\d)?)M events", r"\1 million events", bullet)
    if rng.random() < 0.3:
        bullet = re.sub(r"(\d+)% ", r"\1 percent ", bullet, count=1)
    return rng.choice(["", "Drove: ", "Key result: "]) + bullet if rng.random() < 0.2 else bullet


def render_tailored(p: Person, rng: random.Random, required: list[str], drop: str = "") -> str:
    """A tailored CV of ``p`` in a random layout (the same rng state gives the same layout)."""
    style = rng.randrange(3)
    date_style = rng.choice([0, 0, 1, 2])
    entry_style = rng.randrange(3)

    def heading(name: str) -> str:
        label = rng.choice(SYNONYMS.get(name, [name]))
        return [f"## {label}", f"**{label.upper()}**", label.upper()][style]

    summary = p.summary
    if rng.random() < 0.3:  # naming the employer applied to is not an invented employer
        summary += " Applying for the Staff Backend Engineer role at Tidewater Financial."
    sections: dict[str, list[str]] = {"Summary": [summary]}
    exp: list[str] = []
    short = rng.random() < 0.3  # "Orbit Energy" for "Orbit Energy GmbH"
    abbrev = rng.random() < 0.3  # "Sr." for "Senior"
    highlights: list[str] = []
    for r in p.roles:
        dates = f"{_date(r.start, date_style)} – {_date(r.end, date_style)}"
        employer = re.sub(r"\s+(?:Ltd|GmbH|Inc\.|LLC|AG|plc)$", "", r.employer) if short else r.employer
        title = r.title.replace("Senior ", "Sr. ") if abbrev else r.title
        head = [
            [f"### {title} — {employer}", dates],
            [f"**{title}**, {employer} ({dates})"],
            [f"{title} at {employer} | {dates}"],
        ][entry_style]
        bullets = rng.sample(r.bullets, max(1, len(r.bullets) - rng.randrange(2)))
        bullets += [b for b in r.bullets if b in p.pinned and b not in bullets]
        exp += [*head, "", *[f"- {_respell(b, rng)}" for b in bullets], ""]
        highlights += [f"- {b}" for b in bullets[:1]]
    sections["Experience"] = exp
    if rng.random() < 0.3:  # a section the checks do not know, repeating bullets
        sections["Highlights"] = highlights[:2]
    skills = rng.sample(p.skills, len(p.skills) - rng.randrange(3))
    sections["Skills"] = [
        "- " + ", ".join(skills + [t for t in p.skills if t in p.pinned and t not in skills])
    ]
    sections["Education"] = (
        [f"- {lv} {f}, {s}, {y}" for lv, f, s, y in p.degrees]
        if rng.random() < 0.5
        else [x for lv, f, s, y in p.degrees for x in (f"### {lv} in {f} — {s}", str(y), "")]
    )
    if p.certs or p.extra_certs:
        sections["Certifications"] = [f"- {c} ({y})" for c, y in p.certs + p.extra_certs]
    order = ["Summary", "Highlights", "Experience", "Skills", "Education", "Certifications"]
    if rng.random() < 0.3:
        order[3], order[4] = order[4], order[3]
    out = [f"# {p.name}" if style == 0 else f"**{p.name.upper()}**", ""]
    if rng.random() < 0.5:
        out.append(f"{p.roles[0].title} · {p.roles[0].location}")
    out += ["[[EMAIL_1]] · [[PHONE_1]]", ""]
    for name in order:
        if name in sections and name != drop:
            out += [heading(name), "", *sections[name], ""]
    return "\n".join(out)


def plant(
    p: Person, kind: str, rng: random.Random, cv_numbers: set[float], cv_figures: list[dict[str, Any]]
) -> tuple[Person, str]:
    """A copy of ``p`` with one error of ``kind`` (and the section to drop, for "section")."""
    q = copy.deepcopy(p)
    role = rng.choice(q.roles)
    if kind == "number":
        role = rng.choice([r for r in q.roles if any(re.search(r"\d", b) for b in r.bullets)])
        i = rng.randrange(len(role.bullets))
        m = list(re.finditer(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?![\d,]*\d)", role.bullets[i]))
        if not m:
            return plant(p, kind, rng, cv_numbers, cv_figures)
        hit = rng.choice(m)
        value = int(hit.group(1).replace(",", ""))
        new = next(v for v in (value + d for d in (7, 13, 21, 29, 37)) if float(v) not in cv_numbers)
        shown = f"{new:,}" if "," in hit.group(1) else str(new)
        role.bullets[i] = role.bullets[i][: hit.start(1)] + shown + role.bullets[i][hit.end(1) :]
        q.pinned.add(role.bullets[i])
        q.marker = str(new)
    elif kind == "swap":
        for _ in range(20):
            r = rng.choice(q.roles)
            i = rng.randrange(len(r.bullets))
            m = list(re.finditer(r"(?<![\w.,$€£])(\d+)(%?)(?![\d,.]*\d)", r.bullets[i]))
            if not m:
                continue
            hit = rng.choice(m)
            pool = sorted(
                {
                    int(x["value"])
                    for x in cv_figures
                    if x["kind"] == ("percent" if hit.group(2) else "count")
                    and x["value"] == int(x["value"])
                    and int(x["value"]) != int(hit.group(1))
                }
            )
            if pool:
                q.marker = str(rng.choice(pool))
                r.bullets[i] = r.bullets[i][: hit.start(1)] + q.marker + r.bullets[i][hit.end(1) :]
                q.pinned.add(r.bullets[i])
                return q, ""
        return plant(p, "number", rng, cv_numbers, cv_figures)
    elif kind == "employer":
        role.employer = rng.choice(INVENTED)
    elif kind == "title":
        words = role.title.split()
        base = " ".join(w for w in words if w + " " not in LEVELS)
        held = {r.title for r in p.roles if r.employer == role.employer}
        role.title = next(
            f"{lv}{base}"
            for lv in ("Head of ", "Principal ", "Director of ", "Lead ")
            if f"{lv}{base}" not in held
        )
    elif kind == "date":
        if role.end is not None and rng.random() < 0.5:
            role.end = (role.end[0] + 1, role.end[1])
            q.marker = str(role.end[0])
        else:
            role.start = (role.start[0] - 1, role.start[1])
            q.marker = str(role.start[0])
    elif kind == "degree":
        have = {d[0] for d in q.degrees}
        i = rng.randrange(len(q.degrees))
        level = next(lv for lv in ("PhD", "MBA", "MPhil") if lv not in have)
        q.degrees[i] = (level, *q.degrees[i][1:])
    elif kind == "technology":
        cv_text = render_cv(p).lower()
        tech = rng.choice([t for t in TECHS if t not in p.skills and t.lower() not in cv_text])
        q.marker = tech
        if rng.random() < 0.5:
            q.skills.append(tech)
            q.pinned.add(tech)
        else:
            b = rng.randrange(len(role.bullets))
            role.bullets[b] = role.bullets[b].rstrip(".") + f" and {tech}."
            q.pinned.add(role.bullets[b])
    elif kind == "entry":
        if rng.random() < 0.5:
            last = q.roles[-1]
            q.roles.append(
                Role(
                    "Software Engineer",
                    rng.choice(INVENTED),
                    (last.start[0] - 2, 3),
                    (last.start[0] - 1, 6),
                    "London, UK",
                    ["Built internal tools."],
                )
            )
        else:
            cert = next(
                c
                for c in [*CERTS, "Oracle Certified Professional, Java SE Developer"]
                if c not in {x for x, _ in p.certs}
            )
            q.extra_certs.append((cert, p.certs[0][1] if p.certs else 2021))
    elif kind == "section":
        return q, rng.choice(["Skills", "Education", "Summary"])
    return q, ""


@dataclass
class Tally:
    total: int = 0
    expected: int = 0
    any_check: int = 0
    sanitized_ok: int = 0
    by_check: dict[str, int] = field(default_factory=dict)
    flagged: dict[str, int] = field(default_factory=dict)  # faithful only: "[check] sentence — why": count


def run(n: int, seed: int, debug: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    prepare = _load_module(TASK_DIR / "prepare.py", "bench_resume_prepare")
    sanitize = _load_module(TASK_DIR / "sanitize.py", "bench_resume_sanitize")
    task = load_task(ROOT / "tasks", "resume-tailor")
    people: list[tuple[Person, Any, Checker]] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-resume-"))
    for i in range(max(1, n // len(SCHEDULE))):
        person = make_person(rng)
        cv_path = tmp / f"cv{i}.md"
        cv_path.write_text(render_cv(person), encoding="utf-8")
        prepared = prepare.prepare(
            PrepareContext(task_dir=TASK_DIR, vars={"cv": str(cv_path), "notes": ""}, out_dir=tmp / f"out{i}")
        )
        checker = Checker(task, facts=prepared.facts, data=prepared.data, workspace=tmp, vars={})
        people.append((person, prepared, checker))
    tallies = {k: Tally() for k in ("faithful", *KINDS)}
    elapsed, calls = 0.0, 0
    for i in range(n):
        kind = SCHEDULE[i % len(SCHEDULE)]
        person, prepared, checker = people[i % len(people)]
        cv_numbers = {x["value"] for x in prepared.data["vocab"]["numbers"]}
        drop = ""
        if kind != "faithful":
            person, drop = plant(person, kind, rng, cv_numbers, prepared.data["vocab"]["numbers"])
        text = render_tailored(
            person, random.Random(rng.random()), prepared.data["job"]["required_sections"], drop
        )
        ctx = CheckContext(
            artifact=text, facts=prepared.facts, data=prepared.data, workspace=tmp, task_dir=TASK_DIR
        )
        start = time.perf_counter()
        results = checker.check(text)
        elapsed += time.perf_counter() - start
        calls += 1
        failed = {r.name for r in results if not r.ok and r.severity == "error"}
        t = tallies[kind]
        t.total += 1
        for name in failed:
            t.by_check[name] = t.by_check.get(name, 0) + 1
        if failed:
            t.any_check += 1
        if kind == "faithful":
            for line in _false_flags(results, checker):
                t.flagged[line] = t.flagged.get(line, 0) + 1
        if kind != "faithful" and _detected(results, EXPECTED[kind], person.marker):
            t.expected += 1
        fixed = sanitize.sanitize(ctx)
        after = checker.check(fixed.artifact)
        if all(r.ok or r.severity != "error" for r in after):
            t.sanitized_ok += 1
        elif debug:
            print(
                f"--- sanitize left failures ({kind}):\n{fixed.artifact}\n"
                + "\n".join(r.detail for r in after if not r.ok),
                file=sys.stderr,
            )
        if debug and (
            (kind == "faithful") == bool(failed) or (kind != "faithful" and EXPECTED[kind] not in failed)
        ):
            print(
                f"--- {kind}: failed={sorted(failed)} pinned={person.pinned}\n{text}\n"
                + "\n".join(r.detail for r in results if not r.ok),
                file=sys.stderr,
            )
    return {
        "n": n,
        "seed": seed,
        "people": len(people),
        "ms_per_check": 1000 * elapsed / max(calls, 1),
        "kinds": {k: vars(v) for k, v in tallies.items()},
    }


def _detected(results: list[Any], check: str, marker: str) -> bool:
    """The expected check failed — for the claim ledger, on a claim holding the planted text (it may
    fail on another sentence too)."""
    result = next(r for r in results if r.name == check)
    if result.ok:
        return False
    if not marker or check not in ("claims", "unverifiable"):
        return True
    return any(marker in u.replace(",", "") for u in result.unsupported)


def _false_flags(results: list[Any], checker: Checker) -> list[str]:
    """What failed on a faithful CV: each ledger claim with the ledger's reason, else the check detail."""
    out = []
    for r in results:
        if r.ok or r.severity != "error":
            continue
        if r.name in ("claims", "unverifiable") and checker.ledger is not None:
            claims = checker.ledger.contradicted if r.name == "claims" else checker.ledger.unverifiable
            out += [f"[{r.name}] {c.text!r} — {c.why()}" for c in claims]
        else:
            out.append(f"[{r.name}] {r.detail}")
    return out


def report(res: dict[str, Any]) -> str:
    lines = [
        f"resume-tailor checks: {res['n']} tailored CVs of {res['people']} generated people "
        f"(seed {res['seed']}), {res['ms_per_check']:.1f} ms per check (checks.py + claim ledger)",
        "",
        f"{'kind':<12}{'n':>5}{'expected check':>16}{'any check':>11}{'sanitize→pass':>15}",
    ]
    for kind in KINDS:
        t = res["kinds"][kind]

        def pct(x: int, t: dict[str, Any] = t) -> str:
            return f"{100 * x / t['total']:.1f}%" if t["total"] else "-"

        lines.append(
            f"{kind:<12}{t['total']:>5}{pct(t['expected']):>16}{pct(t['any_check']):>11}{pct(t['sanitized_ok']):>15}"
        )
    f = res["kinds"]["faithful"]
    fp = 100 * f["any_check"] / f["total"] if f["total"] else 0.0
    lines += [
        "",
        f"faithful    {f['total']:>5}  false positives: {f['any_check']} ({fp:.1f}%)"
        + (f" by check {f['by_check']}" if f["by_check"] else ""),
    ]
    if f["flagged"]:
        lines.append("flagged on faithful CVs (times, check, sentence — what the ledger or check said):")
        lines += [f"  {n:>3}× {line}" for line, n in sorted(f["flagged"].items(), key=lambda kv: (-kv[1], kv[0]))]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="tailored CVs to generate (default 300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--debug", action="store_true", help="print misses and false positives to stderr")
    args = parser.parse_args()
    res = run(args.n, args.seed, args.debug)
    print(json.dumps(res, indent=2) if args.json else report(res))


if __name__ == "__main__":
    main()
