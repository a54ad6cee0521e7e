"""Markdown structure of a CV: sections, entries (blocks) and entry heads (their text: :mod:`.entrytext`).

Line indices are 0-based into the document's lines; the checks report 1-based line numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .text import PRESENT, DateMention, caps_lead, clean_inline, find_dates, norm_text

# --- Markdown structure ---------------------------------------------------------------------

SECTION_CLASSES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("volunteering", "Volunteering", ("volunteer", "volunteering")),
    ("summary", "Summary", (
        "summary", "profile", "about", "objective", "overview", "introduction", "personal statement", "statement",
        "about me", "highlights of qualifications", "qualifications highlights", "key qualifications",
        "career highlights", "self pr",  # (a rirekisho's "自己PR", self-promotion)
    )),
    (
        "skills",
        "Skills",
        ("skills", "technologies", "tech stack", "competencies", "toolbox", "tools", "programming languages",
         "strengths", "proficiencies", "knowledge", "knowledges", "expertise", "languages programming",
         "competences"),
    ),
    ("experience", "Experience", (
        "experience", "employment", "work history", "career history", "career", "roles", "positions held",
        "appointments", "experiences",
    )),
    ("education", "Education", ("education", "academic", "qualifications", "degrees", "formation", "formations")),
    (
        "certifications",
        "Certifications",
        ("certifications", "certification", "certificates", "certs", "licenses", "licences", "accreditations"),
    ),
    ("projects", "Projects", ("projects", "portfolio", "open source")),
    ("publications", "Publications", ("publications", "talks", "papers")),
    ("awards", "Awards", ("awards", "honors", "honours")),
    ("languages", "Languages", ("languages", "spoken languages")),
    ("interests", "Interests", ("interests", "hobbies")),
    ("referees", "Referees", ("referees", "references")),
    ("personal", "Personal details", ("personal details", "personal information", "personal data", "personal profile")),
    ("declaration", "Declaration", ("declaration",)),
    ("contact", "Contact", ("contact", "contact details", "contact information", "contact info", "get in touch")),
    ("additional", "Additional information", (
        "additional information", "additional details", "other information", "further information",
    )),
    ("notes", "Notes", (  # an assistant's remarks after the CV ("Key changes made", "Tips")
        "key changes", "changes made", "tips", "tailoring notes", "notes", "what i changed", "what changed",
        "before sending", "before you send", "to do", "todo", "checklist", "next steps", "placeholders",
        "things to check", "to check", "to confirm",
    )),
)
CANONICAL = {cls: name for cls, name, _ in SECTION_CLASSES}
SECTION_ORDER = (
    "summary",
    "experience",
    "skills",
    "education",
    "certifications",
    "projects",
    "publications",
    "awards",
    "volunteering",
    "languages",
    "interests",
)
ITEM_SECTIONS = ("certifications", "projects", "publications", "awards", "languages", "volunteering")

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_ONLY = re.compile(r"^\s*(?:\*\*|__)(.+?)(?:\*\*|__)\s*:?\s*$")
BULLET = re.compile(r"^\s*(?:[-*+•–]|\d{1,2}[.)])\s+")


# a reviewer's remarks on the CV against the ad ("How your CV lines up with the ad", "Fit against the ad",
# "Gaps", "Recommendation", "Best evidence for our role", "Why I am a strong fit for this role"): notes, after the CV
_REMARKS = re.compile(
    r"\b(?:the (?:job )?ad|gaps?|recommendation|fit against|lines? up with|evidence (?:for|from)|"
    r"requirements? (?:vs|map|mapping|match)|match(?:ing)? (?:to|against)|"
    r"(?:strong|good|great|perfect|right) (?:fit|match)|why (?:i am|i m|im|me|hire))\b"
)


# a job platform's panels about the candidate, not sections of the CV: "Qualifications match: Strong",
# "Years of experience — 9 years", "Screener questions", "Job preferences", "What I'm looking for"
_SLIDE_NOTES = re.compile(r"(?:slide\s+\d{1,2}\s+)?(?:q and a|questions|open questions)")  # "Slide 6 — Q&A"
_PANELS = re.compile(r"\b(?:qualifications? match|years of (?:relevant |professional )?experience|screener questions?|"
                     r"job preferences?|looking for)\b")


def classify_section(title: str) -> str | None:
    """Section class of a heading text (``"Work Experience"`` → ``"experience"``) or ``None``."""
    words = norm_text(clean_inline(title))
    if _PANELS.search(words) or _SLIDE_NOTES.fullmatch(words):
        return "notes"
    if words and len(words.split()) <= 10 and _REMARKS.search(words) and not named_classes(title) - {"notes"}:
        return "notes"
    if not words or len(words.split()) > 5:
        return None
    padded = f" {words} "
    for cls, _, keys in SECTION_CLASSES:
        if any(f" {k} " in padded for k in keys):
            return cls
    return None


def named_classes(title: str) -> set[str]:
    """Every section class a heading names ("Education & Certifications": both)."""
    padded = f" {norm_text(clean_inline(title))} "
    return {cls for cls, _, keys in SECTION_CLASSES if any(f" {k} " in padded for k in keys)}


@dataclass
class Section:
    """A section: ``cls`` (``"header"`` for the lines before the first section, ``None`` for an
    unknown heading), heading text, heading level, and its body as 0-based ``[start, end)`` line
    indices (the heading line itself is ``heading_index``, ``-1`` for the header block)."""

    cls: str | None
    title: str
    level: int
    heading_index: int
    start: int
    end: int


_CAPS_LABEL = re.compile(r"^\s*([A-Z][A-Z &/-]{2,40}?)\s*:\s+\S")
_YEARS_VALUE = re.compile(r"\s*(?:\d+\+?|[a-z]+)\s+(?:\+\s*)?years?\b", re.IGNORECASE)
_CLOSING_SECTIONS = ("additional", "personal", "declaration", "notes")  # "**Additional information:** …"
_MAIN_SECTIONS = ("summary", "experience", "education", "skills", "certifications")
_BOLD_LEAD = re.compile(r"^\s*(\*\*|__)([A-Za-z][\w &/-]{1,38}?)[.:]?\s*\1[.:]?\s+\S")


def heading_of(line: str) -> tuple[int, str] | None:
    """``(level, text)`` of a Markdown heading, a bold-only line (level 2) or ``None``."""
    m = _HEADING.match(line)
    if m:
        return len(m.group(1)), m.group(2).strip()
    m = _BOLD_ONLY.match(line)
    if m and not BULLET.match(line):
        return 2, m.group(1).strip()
    return None


def run_on_label(line: str) -> int:
    """Where an ALL-CAPS section label ends when the section's content runs on after it on its line
    ("EDUCATION MSc Computer Science …", "SKILLSLanguages: Python"), else 0."""
    return caps_lead(line, lambda t: classify_section(t) is not None)


def split_sections(lines: list[str]) -> list[Section]:
    """Split a CV into sections. A heading starts a section when its text names a known section
    class, or when it is a level-1/2 ``#`` heading after the first section; other headings
    (entries such as ``### Title — Employer``) stay inside the current section. An ALL-CAPS line
    naming a section class also counts as a section heading."""
    sections = [Section("header", "", 0, -1, 0, len(lines))]
    for i, line in enumerate(lines):
        head = heading_of(line)
        text = line.strip().strip("|+=*_ ").strip()  # "| SUMMARY        |" in an ASCII box
        if head is None and text.isupper() and classify_section(text) and len(text) <= 40:
            head = (2, text.title())
        label = _CAPS_LABEL.match(line) if head is None else None  # "PERSONAL DETAILS: Elena Marsh, …"
        run_on = run_on_label(line) if head is None else 0  # "EDUCATION MSc …"
        if label and classify_section(label.group(1)):
            head, inline_label = (2, label.group(1).title()), True
        elif run_on:
            head, inline_label = (2, line[:run_on].strip().title()), True
        else:
            inline_label = False
        plain = clean_inline(text)  # "Experience", "Licenses & certifications": a plain-text heading line
        if (
            head is None
            and (i == 0 or not lines[i - 1].strip())
            and len(plain.split()) <= 3
            and re.fullmatch(r"[A-Za-z][A-Za-z &/()-]*", plain)  # "Languages (programming)"
            and classify_section(plain)
        ):
            head = (2, plain)
        # "**Summary.** Backend engineer with …", "**Education** MSc …": a bold label opens a main
        # section on its own line (inside Skills, "**Languages:** Python, Go" is a line of the section)
        inline = _BOLD_LEAD.match(line) if head is None and sections[-1].cls != "skills" else None
        # (a short label: "**Years of relevant experience:** 9 years" is a form's field, no section)
        label = classify_section(inline.group(2)) if inline else None
        label = label if inline and (len(inline.group(2).split()) <= 3 or label == "notes") else None
        if inline and label == "experience" and _YEARS_VALUE.match(line, inline.end() - 1):
            inline = label = None  # "**Experience:** 9 years, backend": a profile's field, not the section
        if inline and (sections[-1].cls == "header" or label in _MAIN_SECTIONS or label in _CLOSING_SECTIONS):
            head = (2, inline.group(2))
        if head is None:
            continue
        level, title = head
        cls = classify_section(title)
        if level == 1 and sections[-1].cls == "header" and len(title.split()) > 3:
            continue  # "# Elena Marsh — candidate summary": the document's title, not a section
        current = sections[-1]
        is_md = bool(_HEADING.match(line))
        if cls is not None and cls == current.cls and not is_md:
            continue  # "**Roles & Responsibilities**" inside an experience entry: a label, not a new section
        if cls == "languages" and current.cls == "skills" and not is_md:
            continue  # "**Languages**" inside Skills: the programming languages, a part of the section
        # a section a bold label opened on its line ("**Years of experience** — 9 years") ends at any
        # Markdown heading naming a section ("### Education")
        weak = current.start == current.heading_index and is_md
        if cls is not None and (current.cls in ("header", None) or level <= current.level or cls == "notes" or weak):
            pass  # (an assistant's notes after the CV end it at any heading level)
        elif cls is None and is_md and current.cls != "header" and level <= current.level and (
                level <= 2 or _HEADING.match(lines[current.heading_index])):
            pass  # an unknown top-level section ("## Extras"), or one beside the current ("### Screening questions")
        else:
            continue
        current.end = i
        sections.append(Section(cls, clean_inline(title), level, i, i if inline or inline_label else i + 1, len(lines)))
    return sections


def is_date_line(line: str) -> tuple[DateMention | None, str]:
    """If ``line`` starts with a date or date range (italics/brackets allowed), ``(date, rest)`` where
    ``rest`` is the remaining text (usually a location); else ``(None, "")``."""
    text = clean_inline(line).strip().lstrip("([").strip()
    since = re.match(r"since\s+", text, re.IGNORECASE)  # "since 03/2020   Senior Backend Engineer": to the present
    dates = find_dates(text)
    if not dates or dates[0].span[0] != (since.end() if since else 0) or (since and dates[0].end is not None):
        return None, ""
    date = dates[0]
    if since:
        date = DateMention(date.start, PRESENT, text[: date.span[1]], (0, date.span[1]))
    rest = text[date.span[1] :].strip(" )]·|,—–-\t")
    return date, rest


@dataclass
class Block:
    """An entry inside a section: head lines (title, employer, dates) and body lines, as 0-based
    line indices into the document."""

    head: list[int] = field(default_factory=list)
    body: list[int] = field(default_factory=list)

    @property
    def first(self) -> int:
        return self.head[0] if self.head else self.body[0]

    @property
    def last(self) -> int:
        return max(self.head + self.body)


_UNDERLINE = re.compile(r"[ \t]*([-=~^\"'`+*#])\1{2,}[ \t]*")  # a setext or reStructuredText heading's rule
_SUBLABEL = re.compile(
    r"^\W*(?:(?:key|selected|notable|major|main|other|recent)\s+)?(?:(?:roles?\s*(?:&|and)\s*)?responsibilities|"
    r"achievements|accomplishments|"
    r"highlights|impact|duties|"
    r"technical\s+environment|tech(?:nology)?\s+stack|stack|tools|environment|technologies|"
    r"(?:project\s+)?spotlights?|case\s+study|project)\b\W*(?::|$)",  # "**Project spotlight: idempotent payments API**"
    re.IGNORECASE,
)


# "tech i use: Python, Go, SQL, …", "Other tools: SQL, JavaScript, …": a labelled list under the last
# entries, not an entry of its own
_LABELLED_LIST = re.compile(r"\W*[A-Za-z][\w &/'-]{1,30}:\s+[^:,]+(?:,[^,]+){3,}")


def _head_candidate(lines: list[str], i: int, section: Section) -> bool:
    line = lines[i]
    if not line.strip() or BULLET.match(line) or _SUBLABEL.match(line):
        return False  # "**Responsibilities:**", "Technical environment: Go, …": parts of an entry
    head = heading_of(line)
    if head is not None:
        return head[0] > section.level or not _HEADING.match(line)
    if line.lstrip().startswith(("**", "__")):
        return True
    if section.cls not in ("experience", "education"):
        return False
    if i + 1 < section.end and (_UNDERLINE.fullmatch(lines[i + 1]) or (
            not line[:1].isspace() and is_date_line(line)[0] is None and _continues_head(lines, [i], i + 1))):
        return True  # a sub-heading over "-------" (reStructuredText); a definition list's term
    date, rest = is_date_line(line)
    if date is not None:  # "2020 – now   Senior Backend Engineer @ Brightline Payments Ltd": a date-first head
        if re.search(r"\S\s*(?:@|\bat\b|[—|·,])\s*\S", rest) and len(rest.split()) >= 3:
            return True
        # "2014      BSc Mathematics" over an indented "          University of York": the head's two lines
        return (len(rest.split()) >= 2 and i + 1 < section.end and is_date_line(lines[i + 1])[0] is None
                and _continues_head(lines, [i], i + 1))
    if any(d.is_range for d in find_dates(clean_inline(line))) and re.search(r"[—–|·,@]| at |\S\s{3,}\S", line):
        return True  # "SENIOR BACKEND ENGINEER          Mar 2020 - Present": columns apart
    nxt = next((j for j in range(i + 1, min(i + 3, section.end)) if lines[j].strip()), None)
    if nxt is not None and is_date_line(lines[nxt])[0] is not None:
        return True
    # a head of several short lines ("Senior Backend Engineer" / "Brightline Payments Ltd — 2020 –
    # present"; "University of Leeds" / "Master of Science - MSc" / "2015"): one of the next two
    # lines, with no blank line between, carries the dates
    if find_dates(clean_inline(line)):
        return False  # "Since 2020" over a definition list: a label, not the entry's head
    for j in range(i + 1, min(i + 3, section.end)):
        if not lines[j].strip() or BULLET.match(lines[j]) or lines[j].lstrip().startswith(":"):
            return False
        if len(clean_inline(lines[j])) > 80:
            return False
        if is_date_line(lines[j])[0] is not None or any(d.is_range for d in find_dates(clean_inline(lines[j]))):
            return len(clean_inline(line)) <= 80
    return False


def _continues_head(lines: list[str], head: list[int], i: int) -> bool:
    """Is line ``i`` the indented second line of a two-line head: of a date-first head ("2014
    BSc Mathematics" over "          University of York"), or a definition list's term and its
    dated definition ("MSc Computer Science" over "    University of Leeds, 2015")?"""
    first, line = lines[head[0]], lines[i]
    return (
        head == [i - 1]
        and bool(line.strip())
        and not BULLET.match(line)
        and len(line) - len(line.lstrip()) > len(first) - len(first.lstrip())
        and (is_date_line(first)[0] is not None or (len(line) < 90 and bool(find_dates(clean_inline(line)))))
    )


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _sub_label(lines: list[str], blocks: list[Block], i: int, section: Section) -> bool:
    """Is line ``i`` a bold label inside the last entry ("### Senior Backend Engineer — Brightline" /
    "Mar 2020 – Present" / "**Payments API**" / "- Designed …"): under a sub-heading that has its dates,
    with no dates of its own on it or the next line?"""
    if not blocks or not blocks[-1].head:
        return False
    head = blocks[-1].head
    nxt = next((j for j in range(i + 1, section.end) if lines[j].strip()), None)
    return (
        lines[i].lstrip().startswith(("**", "__"))
        and lines[head[0]].lstrip().startswith("#")
        and any(find_dates(clean_inline(lines[j])) for j in head)
        and not find_dates(clean_inline(lines[i]))
        and (nxt is None or is_date_line(lines[nxt])[0] is None)
    )


def split_blocks(lines: list[str], section: Section) -> list[Block]:
    """Entries of a section. A head candidate (sub-heading, bold lead, a line followed by a date
    line) starts an entry; consecutive head lines and an immediately following date line belong
    to the same head. A section without head candidates gives one entry per bullet (or per line).
    A table's header row and rule are no entries."""
    idx = [
        i
        for i in range(section.start, section.end)
        if lines[i].strip()
        and not _TABLE_RULE.match(lines[i])
        and not re.fullmatch(r"[\s+\-=_|*#~.]+", lines[i])  # an ASCII rule or box edge
        and not (i + 1 < len(lines) and "|" in lines[i] and _TABLE_RULE.match(lines[i + 1]))
    ]
    blocks: list[Block] = []
    for i in idx:
        if blocks and not blocks[-1].body and _continues_head(lines, blocks[-1].head, i):
            blocks[-1].head.append(i)
        elif _head_candidate(lines, i, section) and not _sub_label(lines, blocks, i, section):
            current = blocks[-1] if blocks else None
            if (
                current is not None
                and current.head
                and not current.body
                and not _HEADING.match(lines[i])
                and not any(find_dates(clean_inline(lines[j])) for j in current.head)
            ):
                current.head.append(i)  # "### Title" then "**Employer** | dates"
            else:
                blocks.append(Block(head=[i]))
        elif blocks and blocks[-1].head and not blocks[-1].body and is_date_line(lines[i])[0] is not None:
            blocks[-1].head.append(i)
        elif blocks:
            blocks[-1].body.append(i)
        else:
            blocks.append(Block(body=[i]))
    if not any(b.head for b in blocks):
        items = [i for i in idx if BULLET.match(lines[i])] or idx
        return [Block(head=[i]) for i in items if not _LABELLED_LIST.match(clean_inline(lines[i]))]
    return [b for b in blocks if b.head]


def strip_bullet(line: str) -> str:
    return BULLET.sub("", line, count=1).strip()


def head_text(lines: list[str], block: Block) -> str:
    """The head lines of ``block`` joined by `` | `` with Markdown markup removed."""
    parts = []
    for i in block.head:
        h = heading_of(lines[i])
        parts.append(clean_inline(h[1] if h else strip_bullet(lines[i])))
    return " | ".join(p for p in parts if p)
