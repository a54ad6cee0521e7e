"""The ``example`` hook: a plan and a tailored CV built only from one case's prepared CV and job.

``pse eval resume-tailor --model scripted-facts`` answers every case with it, so a dataset of
CV/job pairs runs deterministically without a language model. The tailored CV keeps the source
CV's header and sections (Summary, Experience, Skills, Education, Certifications, in that order),
every role with its bullets that name the job's keywords first (the later roles keep their first
three), employers, titles, dates and figures copied exactly. The flaw ``wrong-figure`` adds ten to
the first figure of the Summary (``7 years`` becomes ``17 years``; sanitize restores a shifted date
and drops a bullet with a wrong figure, but not this), so the claim check contradicts it.
"""

from __future__ import annotations

import re
from typing import Any

from autogen_pse.hooks import Example, ExampleContext, UserError

FLAWS = ("wrong-figure",)
SECTION_ORDER = ("Summary", "Experience", "Skills", "Education", "Certifications")


def example(ctx: ExampleContext) -> Example:
    """The plan and the tailored CV for ``ctx``'s prepared data (with ``ctx.flaw`` made, if any)."""
    data = ctx.data
    text = tailored_cv(data)
    if ctx.flaw == "wrong-figure":
        text = _raise_summary_figure(text)
    elif ctx.flaw is not None:
        raise UserError(f"resume-tailor has no flaw {ctx.flaw!r}; use one of {', '.join(FLAWS)}")
    return Example(plan=plan(data), artifact=text)


def _sections(cv_text: str) -> tuple[str, dict[str, str]]:
    """The header (lines before the first ``## ``) and ``{title: body}`` of every section."""
    parts = re.split(r"^## (.+)$", cv_text, flags=re.MULTILINE)
    return parts[0].strip(), {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts), 2)}


def _experience(data: dict[str, Any]) -> str:
    keywords = [k.lower() for k in data["job"]["keywords_in_cv"]]
    blocks = []
    for n, e in enumerate(data["cv"]["experience"]):
        bullets = sorted(e["bullets"], key=lambda b: -sum(k in b.lower() for k in keywords))
        if n > 0:
            bullets = bullets[:3]
        blocks.append("\n".join([f"### {e['title']} — {e['employer']}",
                                 f"{e['start_text']} – {e['end_text']} · {e['location']}", "",
                                 *[f"- {b}" for b in bullets]]))
    return "\n\n".join(blocks)


def tailored_cv(data: dict[str, Any]) -> str:
    """The faithful tailored CV: the CV's sections in the usual order, bullets reordered."""
    header, sections = _sections(data["cv_text"])
    out = [header]
    for title in SECTION_ORDER:
        body = _experience(data) if title == "Experience" else sections.get(title)
        if body:
            out += ["", f"## {title}", "", body]
    return "\n".join(out) + "\n"


def plan(data: dict[str, Any]) -> str:
    job, roles = data["job"], data["cv"]["experience"]
    missing = ", ".join(job["keywords_not_in_cv"]) or "nothing"
    return "\n".join([
        f"Plan for the tailored CV ({job['title']}):",
        f"1. Summary: lead with {', '.join(job['keywords_in_cv'][:4]) or 'the most recent role'}.",
        f"2. Experience: all roles ({', '.join(e['id'] for e in roles)}), bullets that name the job's keywords first.",
        "3. Skills, Education and Certifications copied from the CV.",
        f"4. Leave out {missing}: the CV does not show it.",
        "5. Copy employers, titles, dates and figures exactly.",
    ])


def _raise_summary_figure(text: str) -> str:
    start = text.index("## Summary")
    end = text.find("\n## ", start + 1)
    match = re.compile(r"\b(\d{1,2})\b").search(text, start, end if end > 0 else len(text))
    if match is None:
        raise UserError("resume-tailor flaw wrong-figure: the CV's Summary holds no figure to get wrong")
    return text[:match.start(1)] + str(int(match.group(1)) + 10) + text[match.end(1):]
