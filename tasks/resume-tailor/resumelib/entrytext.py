"""The text of a CV's entries: an entry head's parts ("Senior Backend Engineer — Brightline Payments
Ltd — 2020"), a list's items, and a form's fields read as entry heads."""

from __future__ import annotations

import re

from .text import has_title_word

_STRONG_SEP = re.compile(r"\s+(?:—|–|-|\||·|•|@|at|\.|//)\s+|\s*[—–|·•]\s*")  # " . ": an ASCII middle dot


_PLACE_COLON = re.compile(r"^([^:,]{3,60},[^:,]{2,40}):\s+(?=\S)")  # an employer and its city before a colon


def split_parts(text: str) -> list[str]:
    """Split an entry head into segments on strong separators; commas only when nothing else splits.
    A comma before a legal suffix (``Acme, Inc.``) is kept."""
    text = re.sub(r",\s*(?=(?:Inc|Ltd|LLC|LLP|GmbH|PLC|plc|Corp|S\.A\.|AG|BV|B\.V\.)\b)", " ", text)
    text = re.sub(r"\(\s*\)|\[\s*\]", " ", text)
    # "Brightline Payments Ltd (Sr Backend Eng)": a job title in brackets after the employer is a part
    text = re.sub(r"(?<=\w)\s*\(([^()]{3,60})\)", lambda m: f" — {m.group(1)} — " if has_title_word(m.group(1))
                  else m.group(0), text)
    text = _PLACE_COLON.sub(r"\1 — ", text)  # "Brightline Payments Ltd, Manchester: Senior Backend Engineer"
    parts = [p.strip(" ,;:()[]") for p in _STRONG_SEP.split(text)]
    parts = [p for p in parts if p]
    if len(parts) <= 1 and "," in text:
        parts = [p.strip(" ,;:()[]") for p in text.split(",") if p.strip(" ,;:()[]")]
    return parts


def split_list(text: str) -> list[str]:
    """Items of a comma/semicolon/pipe list; a parenthesised group gives its own items:
    ``"AWS (EC2, S3), Docker"`` → ``["AWS", "EC2", "S3", "Docker"]``."""
    items: list[str] = []
    depth, current, inner = 0, [], []
    groups: list[str] = []
    for ch in text + ",":
        if ch in "([":
            depth += 1
            if depth == 1:
                inner = []
                continue
        elif ch in ")]" and depth:
            depth -= 1
            if depth == 0:
                groups.append("".join(inner))
                continue
        if depth:
            inner.append(ch)
        elif ch in ",;|·•":
            items.append("".join(current).strip(" ."))
            items += [p.strip(" .") for g in groups for p in re.split(r"[,;/|]", g)]
            current, groups = [], []
        else:
            current.append(ch)
    out = []
    for item in items:
        out += [p.strip(" .") for p in re.split(r"\s+/\s+", item)]
    return [i for i in out if i]


# an application form's numbered entry ("**Work experience 1**") whose head is given as fields below it
_FORM_LABEL = re.compile(
    r"^\W*(?:work\s+experience|experience|employment|position|job|education|qualification)\s*(?:no\.?\s*|#\s*)?"
    r"\d{1,2}\W*$",
    re.IGNORECASE,
)
_FORM_FIELD = re.compile(
    r"^\s*(?:[-*•]\s+)?\**(?P<key>job\s+title|title|position|role|company|employer|organi[sz]ation|institution|"
    r"school|university|degree|qualification|from|dates?|period)\**\s*:\s*\**(?P<value>.+?)\**\s*$",
    re.IGNORECASE,
)
_NOW_WORDS = re.compile(r"\b(?:currently|present|now|ongoing|to\s+date|still)\b", re.IGNORECASE)


def form_heads(lines: list[str]) -> list[str]:
    """Lines with each form entry's label ("Work experience 1") replaced by the head its fields give
    ("Senior Backend Engineer — Brightline Payments Ltd — 03/2020 – present"); the fields stay."""
    out = list(lines)
    for i, line in enumerate(lines):
        if not _FORM_LABEL.match(line):
            continue
        fields: dict[str, str] = {}
        for nxt in lines[i + 1 : i + 12]:
            m = _FORM_FIELD.match(nxt)
            if not nxt.strip() or _FORM_LABEL.match(nxt):
                break
            if m:
                key = m.group("key").lower()
                fields.setdefault("what" if key in ("job title", "title", "position", "role", "degree",
                                                    "qualification") else
                                  "where" if key not in ("from", "date", "dates", "period") else "when",
                                  m.group("value"))  # fmt: skip
        if "what" in fields and "where" in fields:
            when = re.sub(r"\s*[—–-]?\s*\bto\s*:\s*", " – ", fields.get("when", ""), flags=re.IGNORECASE)
            when = _NOW_WORDS.sub("present", re.sub(r"\bI\s+(?:currently\s+)?work\s+here\b", "present", when))
            out[i] = " — ".join(p for p in (fields["what"], fields["where"], when.strip(" –")) if p)
    return out
