"""resume-tailor artifact schema: the tailored CV as one JSON object, built per run from the parsed CV.

``artifact_schema(ctx)`` returns an :class:`~autogen_pse.artifacts.ArtifactSchema` whose model holds

* ``summary`` — short text in words only (no digit, Markdown or newline);
* ``experience`` — an object with one required entry per CV role, keyed by the role's id
  (``exp1``, ``exp2``…): ``bullets``, the ids of that role's own bullets (``exp1.b1``…) in the
  order to show them (at least one). The role's employer, title, dates and location are not typed
  by the model: choosing the role chooses them, and the renderer writes them from the CV;
* ``skills`` — up to :data:`MAX_SKILLS` of the CV's skills (an enum of its Skills items) in the
  order to show them;
* ``education`` — the ids of the CV's degrees to list (``edu1``…);
* one list per other entry section the CV has (``certifications``, ``projects``…) — items chosen
  from that section of the CV, at least one when the job asks for the section.

So "every employer, title, date, figure, degree and technology comes from the CV" holds by
construction for everything but the summary; the checks still verify the rendered Markdown (and
the claim ledger reads the summary). The renderer writes the Markdown the checks expect:
``# Name``, the CV's headline and contact lines, then ``## Summary``, ``## Experience`` (``###
Title — Employer``, the dates as fact references and the location, the chosen bullets verbatim),
``## Skills`` (grouped under the CV's own labels), ``## Education`` and the other sections.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from autogen_pse.hooks import ArtifactSchema, SchemaContext, task_module

# Words only: figures, dates and names come from the CV through the renderer. The length bound sits
# in the pattern too, since a grammar built from the schema follows the pattern, not maxLength.
FREE_CHARS = r"[^0-9{}|\n\r`#*$\"\\<>\[\]_]"
SUMMARY_MIN, SUMMARY_MAX = 40, 320
MAX_LEGEND = 90  # characters of a bullet quoted in the schema's descriptions and the brief
# Skills listed at most: the ones the job asks for lead anyway, and a small model under a grammar
# otherwise repeats one item up to the list's bound (the renderer drops repeats, the tokens are spent).
MAX_SKILLS = 12


def _resumelib(name: str = "structure") -> ModuleType:
    import importlib

    return importlib.import_module(f"{task_module(__file__, 'resumelib').__name__}.{name}")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _text(min_len: int, max_len: int) -> Any:
    pattern = f"^[A-Za-z]{FREE_CHARS}{{{min_len - 1},{max_len - 1}}}$"
    return Annotated[str, Field(min_length=min_len, max_length=max_len, pattern=pattern)]


def _choices(values: list[str], *, min_items: int, max_items: int | None = None, description: str = "") -> Any:
    """A list of ``min_items``…``max_items`` (default: all) items of ``values`` (an enum)."""
    item = Literal[tuple(values)]  # type: ignore[valid-type]
    top = len(values) if max_items is None else min(max_items, len(values))
    return Annotated[list[item], Field(min_length=min_items, max_length=top,  # type: ignore[valid-type]
                                       description=description or None)]


def _short(text: str, limit: int = MAX_LEGEND) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def bullet_ids(role: dict[str, Any]) -> list[str]:
    """The ids of a role's bullets, in CV order: ``exp1.b1``, ``exp1.b2``…"""
    return [f"{role['id']}.b{k}" for k in range(1, len(role["bullets"]) + 1)]


def role_label(role: dict[str, Any]) -> str:
    return f"{role['title']} — {role['employer']}, {role['start_text']} – {role['end_text']}"


def item_sections(cv: dict[str, Any]) -> list[str]:
    """The CV's entry sections other than experience, education and skills that have items, in
    the usual section order."""
    order = _resumelib().SECTION_ORDER
    return [cls for cls in order if cv.get("items", {}).get(cls)]


def build_model(data: dict[str, Any]) -> type[BaseModel]:
    """The tailored-CV model for this CV: its roles, bullets, skills, degrees and section items."""
    cv = data["cv"]
    required = set(data.get("job", {}).get("required_sections", ()))
    role_fields: dict[str, Any] = {}
    for role in cv["experience"]:
        ids = bullet_ids(role)
        legend = "; ".join(f"{b}: {_short(t)}" for b, t in zip(ids, role["bullets"], strict=True))
        if ids:
            bullets: Any = _choices(ids, min_items=1, description=f"bullets of {role_label(role)} — {legend}")
            entry = create_model(f"{role['id']}_entry", __base__=_Strict, bullets=(bullets, ...))
        else:  # a role without bullets: nothing to choose, the entry is still listed
            entry = create_model(f"{role['id']}_entry", __base__=_Strict,
                                 bullets=(Annotated[list[str], Field(max_length=0)], ...))
        role_fields[role["id"]] = (entry, Field(..., description=role_label(role)))
    experience = create_model("Experience", __base__=_Strict, **role_fields)  # type: ignore[call-overload]
    fields: dict[str, Any] = {
        "summary": (_text(SUMMARY_MIN, SUMMARY_MAX), ...),
        "experience": (experience, ...),
    }
    if cv["skills"]:
        fields["skills"] = (_choices(_unique(cv["skills"]), min_items=1, max_items=MAX_SKILLS), ...)
    if cv["education"]:
        legend = "; ".join(f"{e['id']}: {e['degree']} — {e['school']}" for e in cv["education"])
        fields["education"] = (_choices([e["id"] for e in cv["education"]], min_items=1, description=legend), ...)
    for cls in item_sections(cv):
        items = list(dict.fromkeys(cv["items"][cls]))
        fields[cls] = (_choices(items, min_items=1 if cls in required else 0), ...)
    return create_model("TailoredCv", __base__=_Strict, **fields)  # type: ignore[call-overload, no-any-return]


# --- rendering ---------------------------------------------------------------------------------

def header_lines(data: dict[str, Any]) -> list[str]:
    """The CV's lines before its first section, without the ``# Name`` line (headline, contact)."""
    cv = data["cv"]
    lines = data["cv_text"].splitlines()
    first = min((s["line"] for s in cv["sections"] if s["line"] > 0), default=len(lines) + 1)
    out = [x.rstrip() for x in lines[: first - 1] if x.strip()]
    if out and (out[0].lstrip().startswith("#") or _plain(out[0]) == cv["name"]):
        out = out[1:]
    return out


def _plain(text: str) -> str:
    return re.sub(r"[#*_`]", "", text).strip()


def skill_groups(data: dict[str, Any]) -> dict[str, str]:
    """Skill item → the label of its line in the CV's Skills section (``"Languages"``), or ``""``."""
    st = _resumelib()
    groups: dict[str, str] = {}
    for line in data["cv"].get("section_text", {}).get("skills", "").splitlines():
        text = st.strip_bullet(line)
        m = re.match(r"^\**([^:*]{1,40}?)\**\s*:\s*\**\s*(.*)$", text)
        label, rest = (m.group(1).strip(), m.group(2)) if m else ("", text)
        for item in _resumelib("entrytext").split_list(re.sub(r"[*_`]", "", rest)):
            groups.setdefault(item, label)
    return groups


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


def render(obj: BaseModel, data: dict[str, Any]) -> str:
    """The tailored CV as Markdown (see the module docstring); dates as ``{{fact:expN.start}}`` references."""
    cv = data["cv"]
    canonical = _resumelib().CANONICAL
    dumped = obj.model_dump()
    lines = [f"# {cv['name']}", "", *header_lines(data), "", "## Summary", "", _sentence(dumped["summary"]), "",
             "## Experience", ""]
    for role in cv["experience"]:
        texts = dict(zip(bullet_ids(role), role["bullets"], strict=True))
        where = f" · {role['location']}" if role["location"] else ""
        lines += [f"### {role['title']} — {role['employer']}",
                  f"{{{{fact:{role['id']}.start}}}} – {{{{fact:{role['id']}.end}}}}{where}", ""]
        chosen = _unique(dumped["experience"][role["id"]]["bullets"])
        lines += [f"- {texts[b]}" for b in chosen]
        lines.append("")
    if dumped.get("skills"):
        groups = skill_groups(data)
        by_label: dict[str, list[str]] = {}
        for item in _unique(dumped["skills"]):
            by_label.setdefault(groups.get(item, ""), []).append(item)
        lines += ["## Skills", ""]
        lines += [f"- {label}: {', '.join(items)}" if label else f"- {', '.join(items)}"
                  for label, items in by_label.items()]
        lines.append("")
    if dumped.get("education"):
        by_id = {e["id"]: e for e in cv["education"]}
        lines += ["## Education", ""]
        for eid in _unique(dumped["education"]):
            e = by_id[eid]
            head = f"{e['degree']} — {e['school']}" if e["school"] else e["degree"]
            lines += [f"### {head}", *([f"{{{{fact:{eid}.year}}}}"] if e["year"] else []), ""]
    for cls in item_sections(cv):
        chosen = _unique(dumped.get(cls) or [])
        if chosen:
            lines += [f"## {canonical[cls]}", "", *[f"- {item}" for item in chosen], ""]
    return "\n".join(lines).rstrip() + "\n"


# --- the brief and the instructions -----------------------------------------------------------

def brief(data: dict[str, Any]) -> str:
    """Compact task text: the job's needs and the CV's entries with their ids (what a small model
    needs to fill the object; contact details are never in it)."""
    cv, job = data["cv"], data.get("job", {})
    at = f" at {job['company']}" if job.get("company") else ""
    lines = [f"Tailor the CV of {cv['name']} to the job {job.get('title') or 'described'}{at}."]
    if job.get("keywords_in_cv"):
        lines.append("Job keywords the CV supports: " + ", ".join(job["keywords_in_cv"]) + ".")
    for req in job.get("requirements", [])[:4]:
        lines.append(f"- job: {_short(req, 100)}")
    lines.append("CV roles (id: title — employer, dates) and their bullets (id: text):")
    for role in cv["experience"]:
        lines.append(f"{role['id']}: {role_label(role)}")
        lines += [f"  {b}: {_short(t)}" for b, t in zip(bullet_ids(role), role["bullets"], strict=True)]
    if cv["education"]:
        lines.append("Degrees: " + "; ".join(f"{e['id']}: {e['degree']} — {e['school']}" for e in cv["education"]))
    if cv["skills"]:
        lines.append("Skills: " + ", ".join(_unique(cv["skills"])) + ".")
    return "\n".join(lines)


INSTRUCTIONS = (
    "Reply with one JSON object: summary (two or three sentences in words only, no digits, on the "
    "person's experience that fits the job, using only what the CV says), experience (for every role "
    "id, the ids of its bullets that matter most for the job, most relevant first), skills (the CV's "
    "skills, those the job asks for first), education (the degree ids), and any other section list "
    "(items copied from the CV). Names, titles, dates and figures are added for you from the CV."
)


def artifact_schema(ctx: SchemaContext) -> ArtifactSchema:
    """The run's tailored-CV schema (see the module docstring)."""
    data = ctx.data
    cv = data["cv"]
    model = build_model(data)
    ids = sum(len(r["bullets"]) * (len(r["id"]) + 7) + 20 for r in cv["experience"])
    skills = sum(sorted((len(s) + 4 for s in _unique(cv["skills"])), reverse=True)[:MAX_SKILLS])
    items = sum(len(i) + 4 for cls in item_sections(cv) for i in cv["items"][cls])
    chars = SUMMARY_MAX + 30 + ids + skills + items + 12 * len(cv["education"]) + 80
    return ArtifactSchema(
        model=model,
        render=lambda obj: render(obj, data),
        brief=brief(data),
        # at least 2.5 characters per token under the grammar, rounded up
        max_tokens=int(chars / 2.5) + 32,
        instructions=INSTRUCTIONS,
    )
