"""The normalised claim vocabulary of a CV, and :class:`CvModel`, the lookups the checks use.

``build_vocab`` output (stored in ``Prepared.data["vocab"]``)::

    {"employers": [str], "titles": [str], "schools": [str],
     "degrees": [{"level", "field", "school"}], "technologies": [canonical],
     "numbers": [{"kind", "value", "currency", "text", "context": [unit words]}],
     "dates": ["YYYY-MM"|"YYYY"],
     "years": ["YYYY"], "locations": [str]}

All names in the vocabulary are normalised (:func:`norm_org`, :func:`norm_title`, ...).
"""

from __future__ import annotations

import re
from typing import Any

from .cv import degree_compatible
from .lexicon import Tech, find_numbers, matcher_for, word_numbers
from .text import ITEM_SEP, PRESENT, find_dates, norm_org, norm_text, norm_title

STOPWORDS = frozenset(["of", "the", "at", "and", "in", "for", "a", "an", "to", "on", "with", "by", "from"])


def token_set(text: str) -> set[str]:
    return {w for w in norm_text(text).split() if w not in STOPWORDS}


# "Univ. of Leeds", "Université de Leeds": the word for a university, abbreviated or in another language
_UNIVERSITY = {"univ", "uni", "universite", "universitat", "universitaet", "universidad", "universita"}


def _school_words(school: str) -> set[str]:
    words = {"university" if w in _UNIVERSITY else w for w in token_set(norm_org(school))}
    return words - {"de", "di", "del", "der", "des", "du"}  # "Université de Leeds"


def tech_vocab(file_techs: list[Tech], skills: list[str]) -> list[Tech]:
    """The vocabulary file plus every CV skill it does not already name (matched case-sensitively)."""
    matcher = matcher_for(tuple(file_techs))
    extra = [
        Tech(s, ("!" + s,))
        for s in skills
        if len(s) <= 40 and not any(span == (0, len(s)) for _, _, span in matcher.find(s))
    ]
    return list(file_techs) + extra


def figures(text: str) -> list[dict[str, Any]]:
    """Every figure of ``text`` (numbers and number words) as ``{kind, value, currency, text, context}``."""
    numbers = [
        {"kind": n.kind, "value": n.value, "currency": n.currency, "text": n.text, "context": list(n.context)}
        for n in find_numbers(text)
    ]
    numbers += [
        {"kind": "count", "value": v, "currency": "", "text": "(word)", "context": list(ctx)}
        for v, ctx in word_numbers(text)
    ]
    return numbers


def build_vocab(cv: dict[str, Any], cv_text: str, techs: list[Tech]) -> dict[str, Any]:
    """The normalised claim vocabulary of a parsed CV (see module docstring)."""
    numbers = figures(cv_text)
    dates: set[str] = set()
    for d in find_dates(cv_text):
        dates.update(x for x in (d.start, d.end) if x and x != PRESENT)
    locations = set()
    for e in cv["experience"]:
        for part in re.split(r"[,·|/]", e.get("location", "")):
            if norm_text(part):
                locations.add(norm_text(part))
    return {
        "employers": sorted({norm_org(e["employer"]) for e in cv["experience"]}),
        "titles": sorted({norm_title(e["title"]) for e in cv["experience"]}),
        "schools": sorted({norm_org(e["school"]) for e in cv["education"] if e["school"]}),
        "degrees": [
            {"level": e["level"], "field": norm_text(e["field"]), "school": norm_org(e["school"])}
            for e in cv["education"]
        ],
        "technologies": sorted({c for c, _, _ in matcher_for(tuple(techs)).find(cv_text)}),
        "numbers": numbers,
        "dates": sorted(dates),
        "years": sorted({d[:4] for d in dates}),
        "locations": sorted(locations),
    }


# "· Issued 2021", "Credential ID …", "expires 2025", "obtained 2022": when a certificate was given, not a name
_SPELLED_OUT = re.compile(r"\b((?:[A-Z][a-z]+\s+){2,5})\(([A-Z]{2,6})\)")
_WHEN_WORDS = frozenset("issued credential expires expiry expired valid until obtained earned awarded renewed".split())

class CvModel:
    """Lookups over ``Prepared.data`` (``cv``, ``cv_text``, ``vocab``, ``tech_vocab``, ``job``)."""

    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.cv: dict[str, Any] = data["cv"]
        self.text: str = data["cv_text"]
        self.norm = norm_text(self.text)
        self.vocab: dict[str, Any] = data["vocab"]
        self.job: dict[str, Any] = data.get("job", {})
        self.techs = tuple(Tech(c, tuple(n)) for c, n in data["tech_vocab"])
        self.matcher = matcher_for(self.techs)
        self.experience: list[dict[str, Any]] = self.cv["experience"]
        self.education: list[dict[str, Any]] = self.cv["education"]
        self.by_id = {e["id"]: e for e in self.experience}
        self._role_figures: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        self.by_employer: dict[str, list[dict[str, Any]]] = {}
        for e in self.experience:
            self.by_employer.setdefault(norm_org(e["employer"]), []).append(e)
        self.titles = set(self.vocab["titles"])
        self.headline_titles = {norm_title(p) for p in re.split(r"[·|,—–]", self.cv.get("headline", ""))}
        self.cv_techs = set(self.vocab["technologies"])
        self.dates = set(self.vocab["dates"])
        self.years = set(self.vocab["years"])
        self.locations = set(self.vocab["locations"]) | {"remote", "hybrid", "on site", "onsite"}
        self.job_norm = norm_text(data.get("job_text", ""))

    # -- employers and titles -----------------------------------------------------------------
    def employer_entries(self, name: str) -> list[dict[str, Any]]:
        """CV entries for an employer name: exact normalised match, or an unambiguous shortening
        (``"Brightline"`` for ``"Brightline Payments Ltd"``)."""
        n = norm_org(name)
        if not n:
            return []
        if n in self.by_employer:
            return self.by_employer[n]
        prefixed = [k for k in self.by_employer if (k + " ").startswith(n + " ")]
        return self.by_employer[prefixed[0]] if len(prefixed) == 1 else []

    def numbers_for(self, ids: tuple[str, ...]) -> list[dict[str, Any]]:
        """The figures of the CV roles ``ids`` (their bullets), for figures claimed in a role's bullets."""
        if ids not in self._role_figures:
            text = "\n".join(b for i in ids for b in self.by_id[i]["bullets"])
            self._role_figures[ids] = figures(text)
        return self._role_figures[ids]

    def employer_names(self) -> list[str]:
        seen: dict[str, str] = {}
        for e in self.experience:
            seen.setdefault(norm_org(e["employer"]), e["employer"])
        return list(seen.values())

    def title_known(self, title: str, entries: list[dict[str, Any]] | None = None) -> bool:
        n = norm_title(title)
        pool = {norm_title(e["title"]) for e in entries} if entries else self.titles
        return n in pool

    def is_location(self, text: str) -> bool:
        n = norm_text(text)
        return bool(n) and (n in self.locations or all(p in self.locations for p in n.split()))

    # -- education --------------------------------------------------------------------------
    def school_entries(self, school: str) -> list[dict[str, Any]]:
        want = _school_words(school)
        if not want:
            return []
        exact = [e for e in self.education if e["school"] and _school_words(e["school"]) == want]
        if exact:
            return exact
        # "Leeds" for "University of Leeds": the distinctive words of one school, nothing else
        generic = {"university", "college", "institute", "school", "academy"}
        out = []
        for e in self.education:
            have = _school_words(e["school"]) if e["school"] else set()
            if want - generic and want <= have:
                out.append(e)
        return out

    def degree_supported(self, level: str, field: str, entries: list[dict[str, Any]] | None = None) -> bool:
        """A degree claim (``level`` from :func:`find_degrees`, optional ``field``) matches a CV degree."""
        pool = entries if entries is not None else self.education
        f = norm_text(field)
        for e in pool:
            if e["level"] and level and not degree_compatible(level, e["level"]):
                continue
            if not e["level"] and level:
                continue
            if (
                f
                and token_set(f) != token_set(e["field"])
                and not (not e["level"] and token_set(f) <= token_set(e["degree"]))
            ):
                continue
            return True
        return False

    def degree_text_supported(self, text: str) -> bool:
        """An education head without a recognised degree: its words must appear in a CV degree."""
        want = token_set(text)
        return any(want and want <= token_set(e["degree"]) for e in self.education)

    # -- other entry sections -----------------------------------------------------------------
    def item_supported(self, cls: str, text: str) -> bool:
        """An item of a Certifications/Projects/... section: ≥ 80 % of its words (years aside) in
        one item of the CV's section of the same kind."""
        parts = [p for p in ITEM_SEP.split(text) if p.strip()]
        if len(parts) > 1:  # "AWS Certified … (2021) · CKAD (2022)": several items on one line
            return all(self.item_supported(cls, p) for p in parts)
        want = {w for w in token_set(text) if not re.fullmatch(r"(?:19|20)?\d\d", w)} - _WHEN_WORDS
        for spelled in _SPELLED_OUT.finditer(text):  # "Amazon Web Services (AWS) · Issued 2021": the issuer,
            if "".join(w[0] for w in spelled.group(1).split()).lower() == spelled.group(2).lower():  # by its
                want -= token_set(spelled.group(1))  # abbreviation
        if not want:
            return True
        items = self.cv["items"].get(cls, [])
        have_all = set().union(*(token_set(i) for i in items)) if items else set()
        for item in items:
            have = token_set(item) | _initialisms(item)
            # most words shared, and none that another level or kind would name ("– Professional" for
            # "– Associate"): a word the CV's items never use must be an ordinary one
            foreign = {w for w in want - have if w in _LEVEL_WORDS}
            if len(want & have) >= 0.8 * len(want) and not foreign:
                return True
        # an abbreviation the CV gives in brackets ("CKAD") names the whole item
        return bool(want) and want <= have_all and len(want) <= 2

    # -- free text ----------------------------------------------------------------------------
    def in_cv_text(self, text: str) -> bool:
        n = norm_text(text)
        return bool(n) and f" {n} " in f" {self.norm} "

    def words_in_cv(self, text: str) -> bool:
        """Every significant word of ``text`` occurs in the CV (by its first 5 letters)."""
        words = [w for w in norm_text(text).split() if w not in STOPWORDS]
        stems = {w[:5] for w in self.norm.split()}
        return bool(words) and all(w[:5] in stems for w in words)

    def level_supported(self, level: str) -> bool:
        """Does the CV hold a degree of ``level`` (from :func:`find_degrees`)?"""
        return any(degree_compatible(level, e["level"]) for e in self.education if e["level"])


def _initialisms(item: str) -> set[str]:
    """Initials of each run of 2–4 consecutive words ("Solutions Architect" → "sa")."""
    words = [w for w in re.findall(r"[A-Za-z]+", item) if w[0].isupper()]
    return {"".join(w[0] for w in words[i : i + n]).lower() for n in (2, 3, 4) for i in range(len(words) - n + 1)}


_LEVEL_WORDS = frozenset(
    "associate professional expert specialty specialist practitioner foundational fundamentals advanced senior "
    "junior master masters administrator developer architect engineer security networking data devops sysops "
    "professional-level associate-level".split()
)
