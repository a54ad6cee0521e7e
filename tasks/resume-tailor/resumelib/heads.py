"""An experience entry's head: its text across the head's lines, its dates, and which of its parts
are a job title and an employer ("2020–present · Brightline Payments Ltd · Senior Backend Engineer",
"Joined Copperleaf Studio, Leeds. Software Developer", "**Streaming pipeline** — *Ocado Technology*").
A title has a title's word; an employer the CV does not give is one only when it is written as a name.
"""

from __future__ import annotations

import re

from .cv import remove_dates
from .model import CvModel
from .structure import Block, heading_of, is_date_line, strip_bullet
from .text import DateMention, clean_inline, find_dates, has_title_word, norm_org, norm_text, norm_title


def locate_date(lines: list[str], block: Block) -> tuple[DateMention | None, int]:
    for i in block.head + block.body[:2]:
        date, _ = is_date_line(lines[i])
        if date is not None:
            return date, i
    for i in block.head:
        dates = find_dates(lines[i])
        ranges = [d for d in dates if d.is_range]
        if ranges or dates:
            return (ranges or dates)[0], i
    return None, -1


def role_text(lines: list[str], block: Block) -> str:
    parts = []
    for i in block.head:
        date, rest = is_date_line(lines[i])
        if date is not None:
            parts.append(rest)  # "2020–present · Acme Ltd · Engineer" (or just a location)
            continue
        h = heading_of(lines[i])
        parts.append(_head_only(clean_inline(h[1] if h else strip_bullet(lines[i]))))
    for i in block.body[:4]:  # "Employer: Harbourside Logistics GmbH" / "Position: Backend Engineer"
        labelled = _ROLE_LABEL.match(clean_inline(lines[i]))
        if labelled:
            parts.append(labelled.group(1))
    return remove_dates(" | ".join(p for p in parts if p))


def _head_only(text: str) -> str:
    """A one-line entry's head without its details: "Brightline (Sr Backend Eng) 03/20–now,
    Manchester: Go payments API, …" → up to the colon after the dates."""
    ranges = [d for d in find_dates(text) if d.end is not None]
    cut = text.find(": ", ranges[0].span[1]) if ranges else -1
    if cut > 0 and not re.search(r"[A-Za-z]", text[: ranges[0].span[0]] + text[ranges[0].span[1] : cut]):
        return text  # "2020–now: Senior Backend Engineer, Brightline …": the dates lead, the head follows
    return text[:cut] if cut > 0 else text


EVENT = re.compile(r"(?:Joined|Left|Graduated|Completed|Started|Entered|Enrolled|Resigned)\b[,:]?\s+")
_ROLE_LABEL = re.compile(r"^\s*(?:employer|company|organi[sz]ation|position|title|role|job title)\s*:\s*(.+)$", re.I)


def known_role(model: CvModel, text: str) -> tuple[str, str] | None:
    """A CV role whose employer and (longest) title both appear in ``text``, whatever the layout."""
    padded = f" {norm_text(clean_inline(text))} "
    found = [e for es in model.by_employer.values() for e in es if f" {norm_text(e['title'])} " in padded]
    if not found:
        return None
    longest = max(len(norm_text(e["title"])) for e in found)
    for e in found:
        names = {norm_text(e["employer"]), norm_org(e["employer"])}
        if len(norm_text(e["title"])) == longest and any(n and f" {n} " in padded for n in names):
            return e["title"], e["employer"]
    return None


DATE_WORDS = re.compile(
    r"^(?:(?:present|now|today|current|ongoing|\d{4}|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
    r"june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?)[\s,–—-]+)+"
    r"|(?:[\s,–—-]+(?:present|now|today|current|ongoing|\d{4}))+$",  # (a month's name, not "Junior", "Marketing")
    re.IGNORECASE,
)
_NAME_JOINERS = {"of", "and", "&", "the", "de", "der", "für", "for", "und"}


def sentence_tail(title: str) -> str:
    """The title a history line ends on: "Joined Copperleaf Studio, Leeds. Software Developer"."""
    cut = [m.end() for m in re.finditer(r"[a-z]{3,}\. ", title)]  # (not "Sr. Backend Engineer")
    tail = title[cut[-1] :] if cut else title
    return tail if has_title_word(tail) else title


def org_like(name: str) -> bool:
    """An organisation's name: at most six words, each capitalised (or a joiner), no figures."""
    words = name.replace("/", " ").split()
    content = [w for w in words if w.lower() not in _NAME_JOINERS]
    return (
        0 < len(words) <= 6
        and not re.search(r"[\d%$€£→]", name)
        and all(w[:1].isupper() or not w[:1].isalpha() for w in content)
    )


_RANK_WORDS = frozenset({"senior", "junior", "graduate"})


def described(model: CvModel, part: str) -> bool:
    """A role described in sentence case ("Payments-focused backend engineer"), not a title: its
    title and seniority words are those of a title the CV gives; the other words describe."""
    if not any(w[:1].islower() for w in part.split()[1:]):
        return False
    ranked = {w for w in norm_title(part).split() if has_title_word(w) or w in _RANK_WORDS}
    return any(ranked <= set(t.split()) for t in model.titles)
