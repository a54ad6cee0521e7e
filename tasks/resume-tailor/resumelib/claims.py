"""Claim extraction from a tailored CV and grounding of each claim against the source CV.

:func:`analyse` reads the artifact's structure (sections, entries) and every claim in it:

=============  ===================================================================================
check          claims
=============  ===================================================================================
employers      employer of each experience entry; ``Acme Ltd``-style names and "at/joined X" in prose
titles         title of each experience entry (held at that employer); job titles in the header
dates          every date (must appear in the CV); each entry's range (inside the CV's range for
               that employer); each education year
numbers        every percentage, money figure, count, multiplier
degrees        every degree (level + field) and institution
technologies   every technology of the vocabulary; every Skills item
entries        every experience/education/certification/project... entry maps to a CV entry
=============  ===================================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from autogen_pse.claims import annotation_lines, mend, message_header_lines, run_report_lines, wrapper_lines

from .changelog import as_markdown as changelog
from .cv import degree_compatible, degree_field, find_degrees, parse_education_entry, parse_role, remove_dates
from .entrytext import form_heads, split_list, split_parts
from .heads import (
    DATE_WORDS,
    EVENT,
    described,
    known_role,
    locate_date,
    org_like,
    role_text,
    sentence_tail,
)
from .lexicon import find_numbers, number_supported
from .model import CvModel, token_set
from .structure import (
    ITEM_SECTIONS,
    Block,
    Section,
    heading_of,
    named_classes,
    run_on_label,
    split_blocks,
    split_sections,
    strip_bullet,
)
from .structured import as_markdown
from .text import (
    ITEM_SEP,
    PRESENT,
    DateMention,
    clean_inline,
    find_dates,
    has_month,
    has_school_word,
    has_title_word,
    norm_org,
    norm_text,
    norm_title,
    not_before,
    show_date,
)

TITLE_WORDS = (  # a phrase with one of these is a job title
    "engineer", "developer", "manager", "lead", "director", "architect", "scientist", "analyst", "head",
    "consultant", "designer", "principal", "staff",
)  # fmt: skip
CHECK_NAMES = ("employers", "titles", "dates", "numbers", "degrees", "technologies", "entries")

_ORG_SUFFIX = re.compile(
    r"\b((?:[A-Z][\w&'-]*\s+){1,4}(?:Inc\.?|Ltd\.?|LLC|LLP|GmbH|PLC|plc|Corp\.?|Corporation|Limited|AG|"
    r"S\.A\.|B\.V\.|BV|Pty))(?![\w])"
)
_LEADING_WORDS = re.compile(  # "At Brightline Payments Ltd, she …": the sentence's first word is not the name
    r"^(?:(?:At|In|For|With|From|By|Since|While|After|Before|During|Joined|Left|Graduated|Completed|Started|"
    r"Entered|Of|To|On|As|And|The|Then)\s+)+"
)
_ORG_AFTER = re.compile(r"\b(?:at|joined)\s+((?:[A-Z][\w&'-]+)(?:\s+(?:[A-Z][\w&'-]+|&|of|and)){0,4})")
_SCHOOL = re.compile(
    r"\b((?:[A-Z][\w'.-]+\s+){0,3}(?:University|College|Institute|Polytechnic|Academy)"
    r"(?:\s+(?:of|for|de|der|the|and|&)?\s*(?<![a-z]{3}\.\s)[A-Z][\w'.-]+){0,4})"
)  # (not the next sentence's first word: "the University of York. I'm …")


@dataclass
class Claim:
    """One claim in the artifact; ``line`` is 1-based; ``note`` says what the CV has instead."""

    check: str
    text: str
    line: int
    ok: bool
    note: str = ""


@dataclass
class OutEntry:
    """An entry of the artifact (experience, education, or an item section)."""

    cls: str
    block: Block
    head: str
    ok: bool
    cv_ids: list[str] = field(default_factory=list)
    title: str = ""
    employer: str = ""
    date: DateMention | None = None
    date_index: int = -1  # 0-based line holding the date
    fix_title: str = ""  # the CV's title when the entry's title is wrong and the CV's is unambiguous
    fix_date: str = ""  # the CV's date range when the entry's range is wrong
    employer_ids: list[str] = field(default_factory=list)  # every CV role at the entry's employer


@dataclass
class Analysis:
    lines: list[str]
    sections: list[Section]
    claims: list[Claim]
    entries: list[OutEntry]

    @property
    def present(self) -> set[str]:
        named = {c for s in self.sections if s.cls and s.cls != "header" for c in named_classes(s.title)}
        return named | {s.cls for s in self.sections if s.cls and s.cls != "header"}


def _experience(model: CvModel, lines: list[str], block: Block, out: list[Claim]) -> OutEntry:
    line = block.first + 1
    text = role_text(lines, block)
    role = parse_role(text, known_titles=model.titles, known_orgs=set(model.by_employer))
    title, employer = clean_inline(role["title"]), clean_inline(role["employer"])
    first_body = next((lines[i] for i in block.body if lines[i].strip()), "")
    before = clean_inline(lines[block.first - 1]) if block.first > 0 else ""  # a title on the line above
    known = (known_role(model, text) or known_role(model, f"{text} | {clean_inline(first_body)}")
             or known_role(model, f"{before} | {text}"))  # fmt: skip
    unparsed = not model.employer_entries(employer) or not any(w in norm_title(title).split() for w in TITLE_WORDS)
    if known and unparsed:  # "brightline payments ltd / senior backend engineer / 03/2020 – today"
        title, employer = known  # (a title the parser did read, "Head of DevOps Engineer", is checked as written)
    if employer and model.is_location(employer) and not model.employer_entries(employer):
        employer = ""
    title = DATE_WORDS.sub("", title).strip(" ,;:|-–—")  # "Present   SENIOR BACKEND ENGINEER"
    title = sentence_tail(title)
    # a line the layout made an entry head ("Monolith → Kubernetes on AWS (14 Python services)",
    # "consolidated PostgreSQL clusters …, cloud spend −35%"): a title only when it has a title's
    # word, an unknown employer only when it is written as a name; the ledger reads the rest
    if not has_title_word(title) and not model.employer_entries(employer) and not org_like(employer):
        employer = re.sub(r"\s*\(.*$", "", title)  # "Streaming pipeline — *Ocado Technology* (client)"
        title = ""
    title = " / ".join(p for p in title.split(" / ") if has_title_word(p))  # "… Engineer / Ingénieure backend"
    if title and not model.employer_entries(employer) and model.item_supported("certifications", text):
        return OutEntry("experience", block, text, ok=True)  # "2021 | AWS Certified Solutions Architect": a cert
    body_head = clean_inline(first_body).strip()
    if not title and len(body_head.split()) <= 5 and has_title_word(body_head) and body_head[:1].isalpha():
        title = body_head  # "06/2017 – 02/2020 | Harbourside Logistics GmbH, Hamburg\nBackend Engineer"
    if not known and not model.employer_entries(employer):
        # "Joined Copperleaf Studio", "Graduated, University of York" (a rirekisho's history), "Career Details":
        # an event at a known name or a section's label is no employer of its own
        event = EVENT.match(employer)
        at = employer[event.end() :].split(",")[0] if event else ""
        named = bool(model.school_entries(employer.split(" — ")[0])) or (  # "University of Leeds — MSc …"
            bool(at) and bool(model.employer_entries(at) or model.school_entries(at)))
        closing = employer.strip(" ()–—-").lower() in ("end", "以上")  # a rirekisho's history table closes
        employer = employer if org_like(employer) and not (named or closing or named_classes(employer)) else ""
        if not employer and not title:
            return OutEntry("experience", block, text, ok=True)
    entry = OutEntry("experience", block, text, ok=False, title=title, employer=employer)
    entries = model.employer_entries(employer) if employer else []
    entry.employer_ids = [e["id"] for e in entries]
    if employer:
        note = "" if entries else f"CV employers: {', '.join(model.employer_names())}"
        out.append(Claim("employers", employer, line, bool(entries), note))
    if title:
        line = next((i + 1 for i in block.head if norm_text(title) in norm_text(clean_inline(lines[i]))), line)
        title_ok = model.title_known(title, entries or None)
        note = ""
        if not title_ok:
            held = sorted({e["title"] for e in entries})
            note = (
                f"the CV's title at {entries[0]['employer']} is {' / '.join(held)!r}"
                if entries
                else "no CV entry has this title"
            )
            if len(held) == 1:
                entry.fix_title = held[0]
        out.append(Claim("titles", title, line, title_ok, note))
        if title_ok and entries:
            entries = [e for e in entries if norm_title(e["title"]) == norm_title(title)] or entries
    entry.cv_ids = [e["id"] for e in entries]
    entry.ok = bool(entries) and (not title or model.title_known(title, entries))
    date, index = locate_date(lines, block)
    entry.date, entry.date_index = date, index
    if date is not None and entries:
        start = min((e["start"] for e in entries), key=lambda d: (int(d[:4]), d))
        end = PRESENT if any(e["end"] == PRESENT for e in entries) else max(e["end"] for e in entries)
        d_end = date.end or date.start
        inside = date.start != PRESENT and not_before(date.start, start) and not_before(end, d_end)
        cv_range = " / ".join(f"{e['start_text']} – {e['end_text']}" for e in entries)
        out.append(
            Claim(
                "dates",
                date.text,
                index + 1,
                inside,
                "" if inside else f"outside the CV's range for {entries[0]['employer']}: {cv_range}",
            )
        )
        if not inside and len(entries) == 1:
            entry.fix_date = f"{entries[0]['start_text']} – {entries[0]['end_text']}"
    if not entry.ok:
        why = "unknown employer" if not entries else "title not held at that employer"
        out.append(Claim("entries", text or lines[block.first].strip(), line, False, why))
    else:
        out.append(Claim("entries", text, line, True))
    return entry


def _education(model: CvModel, lines: list[str], block: Block, out: list[Claim]) -> OutEntry:
    line = block.first + 1
    text = role_text(lines, block)
    text = _with_next_line(lines, block, text)
    entry = OutEntry("education", block, text, ok=False)
    if _is_prose(text):  # "She has an MSc in … from Leeds, following a BSc in … at York. She also holds …"
        entry.ok = _prose_education(model, text, line, out)
        out.append(Claim("entries", text, line, entry.ok, "" if entry.ok else "no such education entry in the CV"))
        return entry
    parts = entry_parts(text)
    if not parts:
        return OutEntry("education", block, text, ok=True)  # a table's header row
    if len(parts) > 1 or (model.item_supported("certifications", text) and not parse_education_entry(text)["level"]):
        # several degrees on one line, or a certification listed under Education: each part on its own
        oks = [_education_part(model, p.strip(" ,"), line, out) for p in parts]
        entry.ok = all(oks)
        out.append(Claim("entries", text, line, entry.ok, "" if entry.ok else "no such education entry in the CV"))
        return entry
    text = parts[0]  # one item, its fields separated by commas ("MSc Computer Science\tUniversity of Leeds")
    info = parse_education_entry(text)
    schools = model.school_entries(info["school"]) if info["school"] else []
    candidates = schools if info["school"] else model.education  # "MSc Computer Science — [REDACTED], 2015"
    if info["level"]:
        ok = model.degree_supported(info["level"], info["field"])
        out.append(
            Claim(
                "degrees",
                info["degree"],
                line,
                ok,
                "" if ok else f"CV degrees: {', '.join(e['degree'] for e in model.education)}",
            )
        )
        matched = [e for e in candidates if model.degree_supported(info["level"], info["field"], [e])]
    else:
        ok = model.degree_text_supported(info["degree"])
        out.append(Claim("degrees", info["degree"], line, ok, "" if ok else "not a degree in the CV"))
        matched = [e for e in candidates if token_set(info["degree"]) <= token_set(e["degree"])]
    if info["school"]:
        out.append(
            Claim(
                "degrees",
                info["school"],
                line,
                bool(schools),
                "" if schools else f"CV schools: {', '.join(e['school'] for e in model.education)}",
            )
        )
    entry.ok, entry.cv_ids = bool(matched), [e["id"] for e in matched]
    out.append(
        Claim("entries", text, line, entry.ok, "" if entry.ok else "no such education entry in the CV")
    )
    date, index = locate_date(lines, block)
    entry.date, entry.date_index = date, index
    if date is not None and len(matched) == 1 and matched[0]["year"]:
        year = (date.end or date.start)[:4]
        ok = year == matched[0]["year"]
        out.append(
            Claim("dates", date.text, index + 1, ok, "" if ok else f"the CV says {matched[0]['year']}")
        )
        if not ok:
            entry.fix_date = matched[0]["year"]
    return entry


_SCHOOL_NAME = re.compile(r"\bUniversity\s+of\s+[A-Z][\w-]+|\b[A-Z][\w-]+\s+(?:University|College)\b")
_CERT = re.compile(r"\b(?:[A-Z][\w-]*\s+){0,5}(?:Certified|Certificate|Certification)\b[^.;()]{0,60}|\b[A-Z]{3,5}\b")


def _with_next_line(lines: list[str], block: Block, head: str) -> str:
    """An education entry's head with the line under it when that line names what the head does not:
    "**MSc in Computer Science**" over "University of Leeds – 2015", "**University of Leeds**" over
    "MSc, Computer Science · 2015" (a job platform's or a Word template's two-line entry)."""
    if not block.body or _is_prose(head):
        return head
    follow = remove_dates(clean_inline(strip_bullet(lines[block.body[0]]))).strip(" –-·|,")
    info, below = parse_education_entry(head), parse_education_entry(follow)
    if (info["level"] and not info["school"] and _SCHOOL_NAME.search(follow)) or (
            info["school"] and not info["level"] and below["level"]):
        return f"{head}, {follow}"
    return head


def _is_prose(text: str) -> bool:
    verbs = r"\b(?:I|She|He|They|her|his|has|have|holds?|graduated|studied|is|are|was|were)\b"
    return len(text.split()) >= 12 and bool(re.search(verbs, text))


def _written_field(text: str, span: tuple[int, int]) -> str:
    """The field written after the degree at ``span`` ("BSc Computer Science, University of York")."""
    return re.split(r"\s+(?:and|at|from|the|in\s+(?=\s|\d|$))\s*|[,.;(]", degree_field(text, span))[0]


def _field_wrong(model: CvModel, level: str, field: str) -> bool:
    """Is ``field``, written after a degree of ``level``, no field of the CV's degrees of that level
    ("BSc Computer Science" where the BSc is in Mathematics, "MSc Software Engineering")? Its first
    word may abbreviate the CV's ("MSc CS Leeds", "BSc Maths York")."""
    words = re.findall(r"[A-Za-z&]+", field)
    if not words or not all(w[0].isupper() or w in ("and", "of", "&") for w in words):
        return False  # no field named ("MSc from Leeds", "a BSc and an MSc")
    for e in model.education:
        if not (e["level"] and degree_compatible(level, e["level"])):
            continue
        expected = re.findall(r"[A-Za-z]+", e["field"])
        initials = "".join(w[0] for w in expected if w[0].isupper()).lower()
        first = words[0].lower()
        if (not expected or token_set(" ".join(words)) <= token_set(e["field"]) or first == initials
                or (len(first) >= 4 and first[:4] == expected[0].lower()[:4])):
            return False
    return True


def _prose_education(model: CvModel, text: str, line: int, out: list[Claim]) -> bool:
    """Education written as sentences: every degree, school and certification it names is the CV's."""
    ok = True
    for level, written, span in find_degrees(text):
        good = model.degree_supported(level, _written_field(text, span))
        out.append(Claim("degrees", written, line, good, "" if good else "not a degree in the CV"))
        ok &= good
    for m in _SCHOOL_NAME.finditer(text):
        good = bool(model.school_entries(m.group(0)))
        out.append(Claim("degrees", m.group(0), line, good, "" if good else "not a school in the CV"))
        ok &= good
    for m in _CERT.finditer(text):
        name = m.group(0).strip()
        if name.isupper() and not model.in_cv_text(name) and not find_degrees(name):
            continue  # an abbreviation the CV does not use is not necessarily a certification
        good = model.item_supported("certifications", name) or bool(find_degrees(name))
        ok &= good
    return ok


_PROSE_CUT = re.compile(r",?\s+(?:which|who|where|before|after|then|while|and then|followed by)\b.*$", re.I)


_EDUCATION_LABEL = re.compile(  # a line's own label: "Education:", "Education / certs.", "Education —"
    r"^\W*(?:education|qualifications?|degrees?)(?:\s*(?:/|&|and)\s*(?:certs?|certifications?|training))?"
    r"\W*?(?::|\.|\s[—–-])\W*",
    re.IGNORECASE,
)


def entry_parts(text: str) -> list[str]:
    """The items an Education/Certifications line states, one by one: a table row's cells joined (a
    header row states none), several items on one line, or the degrees and certifications a sentence
    names ("I hold an MSc in … from …, which I took after a BSc in …")."""
    text = re.sub(r"\s*(?<![\w'’])['’]\d{2}\b", "", text)  # "Leeds '15": the year is checked apart
    text = _EDUCATION_LABEL.sub("", text)  # "**Education:** MSc … (Leeds, 2015); BSc … (York, 2014)."
    text = re.sub(r"\s*\(([^()]*?),\s*\)", r", \1", text)  # "(Leeds, 2015)", its year removed: "(Leeds,  )"
    text = re.sub(r"(?<=[a-z]{2})\s*\.\s+(?=[A-Z])", "; ", text)  # "… University of York. AWS Certified …"
    text = re.sub(r"(?<=[a-z])\s*\.\s*$", "", text)
    text = re.sub(r"\s*(?:\t+|\s{3,})\s*(?=\S)", ", ", text.strip())  # "MSc Computer Science\tUniversity of Leeds"
    if text.lstrip().startswith("|") or text.count(" | ") >= 2:  # a table row, with or without its outer bars
        cells = [c.strip(" ,") for c in text.strip().strip("|").split("|")]
        if not re.search(r"\d", text) and not find_degrees(text) and all(len(c.split()) <= 3 for c in cells):
            return []  # "| Degree | Institution | Year |"
        text = ", ".join(c for c in cells if c)
    listed = [p.strip(" ,") for p in ITEM_SEP.split(text) if p.strip(" ,")]
    with_degree = [p for p in listed if find_degrees(p)]
    if len(listed) > 1 and len(with_degree) == 1 and all(has_school_word(p) for p in listed if p not in with_degree):
        return [" — ".join([*with_degree, *(p for p in listed if p not in with_degree)])]  # "Leeds | MSc …": one
    if len(listed) > 1 or (len(text.split()) < 10 and not re.match(r"(?:I|She|He|They)\b", text)):
        return listed
    body = re.sub(r"^[^:]{0,60}:\s*", "", text).strip().rstrip(".")
    starts = [span[0] for _lvl, _m, span in find_degrees(body)]
    if starts:
        if has_school_word(body[: starts[0]]):  # "University of Leeds — Master of Science in …"
            starts[0] = 0
        pieces = [body[a:b] for a, b in zip(starts, [*starts[1:], len(body)], strict=True)]
        return [_PROSE_CUT.sub("", p).strip(" ,.") for p in pieces]
    return [p.strip(" ,.") for p in re.split(r"\s+and\s+|;\s*|,\s+(?=[A-Z])", body) if p.strip(" ,.")]


_OUTCOME_WORDS = re.compile(r"\b(?:costs?|faster|quicker|cheaper|speed|savings?|performance|reliability|"
                            r"scal(?:e|ing)|quality)\b", re.IGNORECASE)


def _project_of_record(model: CvModel, text: str) -> bool:
    """ "Idempotent payments API (Brightline): Go service handling …": a project drawn from the work the
    CV describes — every word of its name is the CV's (its figures are the ledger's to check)."""
    name = re.sub(r"\([^()]*\)", " ", re.split(r":\s|\s[—–]\s", text, maxsplit=1)[0])
    name = _OUTCOME_WORDS.sub(" ", re.sub(r"[→&/+]", " ", name))  # "Cloud cost", "Faster APIs": what it improved
    return bool(re.search(r"[A-Za-z]", name)) and model.words_in_cv(re.sub(r"(?<=[A-Z])s\b", "", name))


def _education_part(model: CvModel, text: str, line: int, out: list[Claim]) -> bool:
    """One degree (or certification) of a line listing several: supported by a CV entry?"""
    if model.item_supported("certifications", text):
        return True
    info = parse_education_entry(text)
    if not info["level"]:
        return model.degree_text_supported(info["degree"])
    ok = model.degree_supported(info["level"], info["field"])
    out.append(Claim("degrees", info["degree"], line, ok, "" if ok else "not a degree in the CV"))
    if info["school"]:
        out.append(Claim("degrees", info["school"], line, bool(model.school_entries(info["school"])), ""))
    return ok and (not info["school"] or bool(model.school_entries(info["school"])))


def _skills_items(line: str) -> list[str]:
    text = clean_inline(strip_bullet(line))
    return split_list(re.sub(r"^[^:]{1,40}:\s*", "", text))


def _scan_line(
    model: CvModel, text: str, lineno: int, kinds: set[str], out: list[Claim], scope: tuple[str, ...] = ()
) -> None:
    """Free-text claims of one line: numbers, dates, technologies, degrees, institutions, orgs.
    ``scope``: the CV roles a bullet belongs to — its figures must come from those roles."""
    seen: dict[float, int] = {}
    for n in find_numbers(text):
        if scope:
            role_figures = model.numbers_for(scope)
            ok = number_supported(n, role_figures)
            note = ""
            seen[n.value] = seen.get(n.value, 0) + 1
            available = sum(1 for f in role_figures if abs(float(f["value"]) - n.value) < 1e-9)
            if ok and seen[n.value] > available:
                ok, note = (
                    False,
                    f"used {seen[n.value]} times in this line, {available} time(s) in the CV role",
                )
            elif not ok:
                where = model.by_id[scope[0]]["employer"]
                note = (
                    f"the CV gives this figure elsewhere, not for {where}"
                    if number_supported(n, model.vocab["numbers"])
                    else "no such figure in the CV"
                )
        else:
            ok = number_supported(n, model.vocab["numbers"])
            note = "" if ok else "no such figure in the CV"
        out.append(Claim("numbers", n.text, lineno, ok, note))
    for d in find_dates(text):
        for value in (d.start, d.end):
            if value is None or value == PRESENT:
                continue
            ok = value in model.dates if has_month(value) else value in model.years
            note = ""
            if not ok:
                note = (
                    f"the CV gives only the year {value[:4]}"
                    if value[:4] in model.years
                    else f"{show_date(value)} is not a date in the CV"
                )
            out.append(Claim("dates", show_date(value), lineno, ok, note))
    for canonical, matched, _ in model.matcher.find(text):
        ok = canonical in model.cv_techs
        out.append(Claim("technologies", matched, lineno, ok, "" if ok else "not in the CV"))
    if "degrees" in kinds:
        for level, matched, span in find_degrees(text):
            field = _written_field(text, span)
            swapped = _field_wrong(model, level, field)
            ok = model.level_supported(level) and not swapped
            written = f"{matched.rstrip('.')} {field}" if swapped else matched.rstrip(".")
            out.append(Claim("degrees", written, lineno, ok, "" if ok else "the CV lists no such degree"))
        for m in _SCHOOL.finditer(text):
            if " " not in m.group(1).strip():
                continue  # "| Qualification | Institute | Year |": a column's name, no institution
            ok = bool(model.school_entries(m.group(1))) or model.in_cv_text(m.group(1))
            out.append(Claim("degrees", m.group(1), lineno, ok, "" if ok else "institution not in the CV"))
    if "orgs" in kinds:
        names = {_LEADING_WORDS.sub("", m.group(1)) for m in _ORG_SUFFIX.finditer(text)}
        for m in _ORG_AFTER.finditer(text):
            parts = re.split(r"\s+(?:and|&)(?:\s+|$)", m.group(1))
            names.update(p for p in parts if p[:1].isupper())
        for name in sorted(names):
            if _known_name(model, name):
                continue
            out.append(Claim("employers", name, lineno, False, "organisation not in the CV"))


_TITLE_HEAD = (r"(?:Engineer|Eng|Developer|Dev|Manager|Lead|Architect|Consultant|Analyst|Scientist|Director|Designer"
               r"|Programmer|SRE|Intern)")
_TITLE = rf"((?:[A-Z][\w.-]*\s+){{1,3}}{_TITLE_HEAD}\b\.?)"
_EMPLOYER = r"((?:[A-Z][\w&'.-]*)(?:\s+[A-Z][\w&'.-]*){0,3})"
# a title held, in prose: "joined Harbourside as a Lead Backend Engineer", "I'm currently a Senior …",
# "Lead Backend Engineer at Brightline Payments", "Brightline Payments Ltd (Staff Backend Eng)"
_TITLE_AS = re.compile(rf"\b(?:as|was|is|am|'m|been|became|currently|promoted\s+to)\s+(?:a\s+|an\s+)?{_TITLE}")
_TITLE_AT = re.compile(rf"{_TITLE}\s+(?:at|@|with)\s+(?:the\s+)?{_EMPLOYER}")
_AT_TITLE = re.compile(rf"{_EMPLOYER}\s*\(\s*{_TITLE}\s*\)")
_JOINED_AS = re.compile(rf"\b(?:joined|at|with)\s+(?:the\s+)?{_EMPLOYER}\s+as\s+(?:a\s+|an\s+)?{_TITLE}")
_LEAD_IN = re.compile(r"^(?:(?:currently|now|formerly|previously|recently|most|an?|the)\s+)+", re.IGNORECASE)


def _prose_titles(model: CvModel, text: str, lineno: int, out: list[Claim]) -> None:
    """Job titles the prose says the candidate held: one of the CV's titles, and the named employer's
    own (fewer words are fine: "Backend Engineer at Brightline" of "Senior Backend Engineer"). Each
    sentence on its own: "I'm Elena, Senior Backend Engineer at Brightline. Applying for Staff …"."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", text)
    if len(sentences) > 1:
        for sentence in sentences:
            _prose_titles(model, sentence, lineno, out)
        return
    if _TARGET_ROLE.search(text):
        return
    target = norm_title(str(model.job.get("title") or "").split(",")[0])
    found: dict[str, list[dict[str, Any]]] = {}
    for m in _TITLE_AS.finditer(text):
        employer = _TITLE_AT.match(text, m.start(1))
        found.setdefault(m.group(1), model.employer_entries(employer.group(2)) if employer else [])
    for m in _TITLE_AT.finditer(text):
        found[m.group(1)] = model.employer_entries(m.group(2)) or found.get(m.group(1), [])
    for m in [*_AT_TITLE.finditer(text), *_JOINED_AS.finditer(text)]:  # "… (Staff Backend Eng)", "joined … as a …"
        found[m.group(2)] = model.employer_entries(m.group(1)) or found.get(m.group(2), [])
    for written, entries in found.items():
        title = _LEAD_IN.sub("", written.rsplit(". ", 1)[-1])  # "Go. Senior …", "Currently Senior …"
        words = set(norm_title(title).split())
        if (not entries and norm_title(title) == target) or "certified" in words or \
                model.item_supported("certifications", title):
            continue  # "as a Staff Backend Engineer": the job sought; "AWS Certified Solutions Architect"
        pool = [norm_title(e["title"]) for e in entries] if entries else [*model.titles, *model.headline_titles]
        if not any(words <= set(p.split()) for p in pool):
            out.append(Claim("titles", title, lineno, False, "a job title the CV never gives"
                             + (f" at {entries[0]['employer']}" if entries else "")))


def line_claims(model: CvModel, text: str) -> list[Claim]:
    """The free-text claims of one line or sentence (numbers, dates, technologies, degrees, orgs)."""
    out: list[Claim] = []
    _scan_line(model, text, 0, {"degrees", "orgs"}, out)
    return out


def _known_name(model: CvModel, name: str) -> bool:
    n = re.sub(r"[\s.,]+$", "", name)
    return bool(
        model.employer_entries(n)
        or model.in_cv_text(n)
        or model.school_entries(n)
        or model.matcher.find(n)
        or model.is_location(n)
        or (model.job_norm and f" {norm_org(n)} " in f" {model.job_norm} ")
    )


_PERSONAL = re.compile(r"(?:I|I['’]m|I['’]ve|I\s+am|She|He|She['’]s|He['’]s|We|My|Her|His)\s", re.IGNORECASE)
_TARGET_ROLE = re.compile(
    r"\b(?:prepared|submitted|applying|application|shortlisted|candidate|tailored)(?:\s+for\b[^:]{0,20}:?|\s*:)"
    r"|\b(?:target\s+)?role(?:\s*[:|]|[ \t]{3,})"
    r"|\b(?:target|goal|seeking|desired|next)(?:\s+(?:role|position|job))?(?:\s+title)?\s*[:—–]"
    r"|\bposition\s*[:|]|\bapplying\s+to\b|\b(?:subject|re|objective|requisition|vacancy)\s*:|\bapply\s+for\b"
    r"|\bfor\s+the\s+[^.]{0,60}\b(?:role|position|post|vacancy|opening)\b",
    re.IGNORECASE,
)


# a letter's close: the lines after it sign the letter ("Kind regards,\nEngineering Manager, Brightline")
_VALEDICTION = re.compile(
    r"(?:with\s+|all\s+the\s+)?(?:yours\s+(?:faithfully|sincerely|truly)|(?:(?:kind|best|warm|warmest)\s+)?regards"
    r"|best\s+wishes|sincerely|respectfully|cheers|best|many\s+thanks|thanks)\W*",
    re.IGNORECASE,
)
_SOUGHT_WORD = re.compile(r"\b(?:opening|vacancy|requisition)\b", re.IGNORECASE)
_SOUGHT_CAPTION = re.compile(r"\b(?:POSITION|JOB APPLIED FOR|PREFERRED JOB|DESIRED (?:JOB|ROLE|POSITION)|TARGET ROLE)"
                             r"\W*$")
# a memo's header names its writer and addressee ("From: Engineering Manager, Brightline"), not the candidate
_MEMO_FIELD = re.compile(r"(?:from|to|cc|signed|referee)\s*:", re.IGNORECASE)


def _header_titles(model: CvModel, lines: list[str], sec: Section, out: list[Claim]) -> None:
    for i in range(sec.start, sec.end):
        text = clean_inline(lines[i]).lstrip("# ").strip()
        if _VALEDICTION.fullmatch(text):
            return  # the signature block: the referee's title, not one the candidate held
        if (
            not text
            or "@" in text
            or _MEMO_FIELD.match(text)
            or i == next((j for j in range(sec.start, sec.end) if lines[j].strip()), -1)
        ):
            continue
        company = str(model.job.get("company") or "")
        above = next((clean_inline(lines[j]) for j in range(i - 1, sec.start - 1, -1) if lines[j].strip()), "")
        target = norm_title(str(model.job.get("title") or "").split(",")[0])
        # "Tidewater Financial — Payments Platform\nStaff Backend Engineer · interview loop": the job sought
        sought = bool(company) and company.lower() in above.lower() and \
            norm_title(re.split(r"\s*[·,|—–(]\s*", text)[0]) == target
        # a form's caption over the value: Europass "<Label>POSITION</Label>" (the job applied for)
        sought = sought or any(_SOUGHT_CAPTION.search(clean_inline(lines[j])) for j in range(max(sec.start, i - 4), i))
        if _TARGET_ROLE.search(text) or (company and company.lower() in text.lower()) or sought:
            # "Prepared for: Tidewater Financial, Staff Backend Engineer", "Curriculum Vitae – Staff Backend
            # Engineer, Payments Platform (Tidewater Financial)": the job sought, not held
            continue
        if re.fullmatch(r"[\"“][^\"“”]+[\"”][:.]?", text):
            continue  # '"Lead the move of the remaining batch jobs to event streaming"': the ad quoted
        if len(text.split()) > 12 or _PERSONAL.match(text):
            continue  # a sentence of a cover note ("I'm a senior backend engineer at …"): the prose checks read it
        text = re.sub(r"\s*\([^)]*\)", "", text)  # "Senior Backend Engineer (Payments · Platform)"
        # "2017   Software Developer          Copperleaf Studio": a wide gap parts fields too
        for part in (p for whole in split_parts(text) for p in re.split(r"\s*[;,]\s+|\s{3,}", whole)):
            part = re.sub(r"^\W*[\w ]{1,20}:\s*", "", part)  # "Candidate: Senior Backend Engineer"
            part = DATE_WORDS.sub("", part)  # "Mar 2020 – Present   SENIOR BACKEND ENGINEER"
            part = sentence_tail(part)  # "Joined Copperleaf Studio, Leeds. Software Developer"
            head, colon, _ = part.partition(": ")
            part = head if colon and has_title_word(head) else part  # "Backend engineer: Go and Python"
            if _SOUGHT_WORD.search(part):
                continue  # "…Staff Backend\nEngineer (Payments Platform) opening.": the job sought
            part = re.sub(r"^(?:summary|profile|objective|about)\s+(?=[A-Z])", "", part, flags=re.IGNORECASE)
            # ("Summary Backend engineer, 9 years": a heading run into its first line)
            part = re.sub(r"\s+(?:for|with|in|focused\s+on|specialising\s+in)\s+[a-z].*$", "", part)  # "… for payments"
            if part[:1].islower() or re.match(r"(?:holds?|has|earned|advance)\b", part, re.IGNORECASE):
                continue  # "holds the CKAD and the AWS Solutions Architect", "advance to the hiring manager …"
            if model.item_supported("certifications", part):
                continue  # "AWS Solutions Architect": a certification, not a job title
            if not re.search(r"[A-Za-z]", part) or not any(w in norm_title(part).split() for w in TITLE_WORDS):
                continue
            ok = norm_title(part) in model.titles | model.headline_titles or described(model, part)
            out.append(Claim("titles", part, i + 1, ok, "" if ok else "a job title the CV never gives"))


_HTML_TAG = re.compile(r"</?(?:details|summary|div|span|p|br|b|strong|em|i|sub|sup|small)\b[^<>]*>", re.I)


def analyse(artifact: str, model: CvModel, written: str = "") -> Analysis:
    """Every claim of ``artifact`` with its grounding, and the artifact's sections and entries. A CV
    written as JSON Resume data (in JSON, YAML or TOML; ``written``: the document as written, when
    ``artifact`` is its reading as Markdown) or as a changelog is read as the Markdown CV it stands
    for, its lines mapped back."""
    structured = (as_markdown(written) if written else None) or as_markdown(artifact) or changelog(artifact)
    if structured is not None:
        markdown, where = structured
        analysis = _analyse(markdown, model)
        for c in analysis.claims:
            c.line = where.get(c.line, c.line)
        return analysis
    # ("<think> … </think>", whose tags the reading as Markdown blanks: found in the document as written)
    notes = annotation_lines(written) if written.count("\n") == artifact.count("\n") else set()
    return _analyse(artifact, model, notes)


def _analyse(artifact: str, model: CvModel, notes: set[int] | None = None) -> Analysis:
    # a definition list (": **Senior Backend Engineer**, Brightline …" / ": – Designed …") reads as
    # entry heads and bullets; "MSc … @ University of Leeds" as "at"
    # "<summary>Brightline … — 2020 → present</summary>": a GitHub CV's collapsible entry, read without its tags
    # a run's digest around the CV (run id, model, tokens, checks, "Unsubscribe"): blank lines, numbers kept;
    mended = mend(artifact)
    # (and a chat's words around a fenced CV, a coach's notes on the draft, a chat's message headers)
    report = (run_report_lines(mended) | wrapper_lines(mended) | annotation_lines(mended) | message_header_lines(mended)
              | (notes or set()))
    lines = form_heads([re.sub(r"\s@\s", " at ", re.sub(r"^:\s+", "", _HTML_TAG.sub("", line)))
                        if n not in report else "" for n, line in enumerate(mended.splitlines(), start=1)])
    sections = split_sections(lines)
    for sec in sections:  # "EDUCATION MSc Computer Science …": the label is no part of the entries after it
        if sec.start == sec.heading_index and (label := run_on_label(lines[sec.start])):
            lines[sec.start] = " " * label + lines[sec.start][label:]
    claims: list[Claim] = []
    entries: list[OutEntry] = []
    head_lines: dict[int, str] = {}
    scopes: dict[int, tuple[str, ...]] = {}
    for sec in sections:
        if sec.cls == "header":
            _header_titles(model, lines, sec, claims)
            continue
        if sec.cls in ("experience", "education"):
            for block in split_blocks(lines, sec):
                fn = _experience if sec.cls == "experience" else _education
                entry = fn(model, lines, block, claims)
                entries.append(entry)
                head_lines.update(dict.fromkeys(block.head, sec.cls))
                if entry.employer_ids:
                    scopes.update(dict.fromkeys(block.body, tuple(entry.employer_ids)))
        elif sec.cls in ITEM_SECTIONS:
            for block in split_blocks(lines, sec):
                text = " | ".join(clean_inline(strip_bullet(lines[i]).lstrip("# ")) for i in block.head)
                if sec.cls == "certifications" and _is_prose(text):  # "She also holds two certifications: …"
                    ok = _prose_education(model, text, block.first + 1, claims)
                else:
                    ok = all(model.item_supported(sec.cls, p) for p in entry_parts(text)) or (
                        sec.cls == "projects" and _project_of_record(model, text))
                entries.append(OutEntry(sec.cls, block, text, ok))
                claims.append(
                    Claim(
                        "entries",
                        text,
                        block.first + 1,
                        ok,
                        ""
                        if ok
                        else f"not a {sec.cls[:-1] if sec.cls.endswith('s') else sec.cls} entry in the CV",
                    )
                )
        elif sec.cls == "skills":
            for i in range(sec.start, sec.end):
                if not lines[i].strip() or heading_of(lines[i]):
                    continue
                for item in _skills_items(lines[i]):
                    if model.matcher.find(item) or model.in_cv_text(item) or model.words_in_cv(item):
                        continue
                    claims.append(Claim("technologies", item, i + 1, False, "skill not in the CV"))
    section_headings = {s.heading_index for s in sections}
    for i, line in enumerate(lines):
        if not line.strip() or i in section_headings:
            continue
        kinds = set()
        if head_lines.get(i) != "education":
            kinds.add("degrees")
        if head_lines.get(i) != "experience":
            kinds.add("orgs")
        _scan_line(model, line, i + 1, kinds, claims, scopes.get(i, ()))
        if i not in head_lines:
            _prose_titles(model, clean_inline(line), i + 1, claims)
    return Analysis(lines, sections, claims, entries)


def grouped(analysis: Analysis) -> dict[str, list[Claim]]:
    """Claims by check name (every name of :data:`CHECK_NAMES` present)."""
    out: dict[str, list[Claim]] = {name: [] for name in CHECK_NAMES}
    for c in analysis.claims:
        out[c.check].append(c)
    return out


def summary_for(model: CvModel) -> dict[str, Any]:
    """Short lists of the CV's employers/titles/degrees, for check details."""
    return {
        "employers": model.employer_names(),
        "titles": sorted({e["title"] for e in model.experience}),
        "degrees": [e["degree"] for e in model.education],
    }
