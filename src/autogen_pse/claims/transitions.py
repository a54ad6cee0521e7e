"""Changes of state without numbers: "migrated 14 services from a monolith to Kubernetes", "moved
nightly batch jobs to Kafka streams". A source states each as a (from, to) pair of terms; an artifact
that writes the same change the other way round ("from k8s back into a monolith", "moved our Kafka
streams over to nightly batch jobs") contradicts it."""

from __future__ import annotations

import re

from .lexicon import STOPWORDS, stem

_FROM_TO = re.compile(
    r"\bfrom\s+(?P<a>[A-Za-z][\w\s-]{1,40}?)\s+(?:(?:back|over)\s+)?(?:to|into|onto)\s+(?P<b>[A-Za-z][\w\s-]{1,40})",
    re.IGNORECASE,
)
_MOVED = re.compile(
    r"\b(?:moved|migrated|converted|ported|switched|shifted|consolidated|transitioned|refactored"
    r"|(?:move|migration|conversion|port|switch|shift|transition)\s+of)\s+"  # "Migration of … to …" (a CV's nouns)
    r"(?P<a>[A-Za-z][\w\s-]{1,40}?)\s+(?:(?:back|over)\s+)?(?:to|into|onto)\s+(?P<b>[A-Za-z][\w\s-]{1,40})",
    re.IGNORECASE,
)
_REPLACED = re.compile(  # "replaced nightly batch jobs with Kafka streams": from the first to the second
    r"\b(?:replac(?:ed|ing)|replacement\s+of)\s+(?P<a>[A-Za-z][\w\s-]{1,40}?)\s+(?:with|by)\s+(?P<b>[A-Za-z][\w\s-]{1,40})",
    re.IGNORECASE,
)
_ARROW = re.compile(  # "14 Python svcs k8s→monolith", "nightly batch → Kafka": from the words before to those after
    r"(?P<a>(?:[A-Za-z][\w-]*[ \t]+){0,2}[A-Za-z][\w-]*)[ \t]*(?:→|->|=>)[ \t]*(?P<b>[A-Za-z][\w \t-]{1,40})"
)
_ARROWS = ("→", "->", "=>")
_END = re.compile(r"\s(?:on|in|at|for|with|by|using|via|across|while|and|reducing|cutting|saving|,)\b.*$", re.I)
_GENERIC = frozenset({"servic", "system", "platform", "job", "our", "the", "a", "an", "all", "some", "python"})


def terms(phrase: str, alias: dict[str, str] | None = None) -> frozenset[str]:
    """The stems that name one side of a change ("nightly batch jobs" → {nightli, batch}); ``alias``
    maps a name's stem to one key ("k8s" and "kubernetes" alike)."""
    phrase = _END.sub("", phrase)
    words = re.findall(r"[A-Za-z][\w-]*", phrase)
    stems = {stem(w) for w in words if w.lower() not in STOPWORDS and not w.isdigit()} - _GENERIC
    return frozenset((alias or {}).get(s, s) for s in stems)


def changes(
    text: str, alias: dict[str, str] | None = None
) -> list[tuple[frozenset[str], frozenset[str], int, int]]:
    """Each "from A to B" / "moved A to B" / "A → B" of ``text``: the terms of A and B and the match's span."""
    out = []
    for rx in (_FROM_TO, _MOVED, _REPLACED, _ARROW):
        for m in rx.finditer(text):
            chained = text[m.end() : m.end() + 4].lstrip().startswith(_ARROWS)
            if rx is _ARROW and (text[m.start() - 1 : m.start()] == "/" or chained):
                continue  # "Kafka/streaming → batch→Kafka": a requirement mapped to a chain, not one change
            a, b = terms(m.group("a"), alias), terms(m.group("b"), alias)
            if a and b and not a & b:
                out.append((a, b, m.start(), m.end()))
    return out


def stated_changes(text: str) -> list[tuple[str, str]]:
    """The (from, to) phrases of each change ``text`` states, as written (for a task's evidence)."""
    out = []
    for rx in (_FROM_TO, _MOVED, _REPLACED):
        for m in rx.finditer(text):
            if terms(m.group("a")) and terms(m.group("b")) and not terms(m.group("a")) & terms(m.group("b")):
                out.append((_END.sub("", m.group("a")).strip(), _END.sub("", m.group("b")).strip()))
    return out


def reversed_change(
    text: str, known: list[tuple[frozenset[str], frozenset[str]]], alias: dict[str, str] | None = None
) -> tuple[str, str] | None:
    """The first change of ``text`` that a known change states the other way round, as
    ``(written, known)`` descriptions; ``None`` when there is none."""
    for a, b, start, end in changes(text, alias):
        for src, dst in known:
            if a & dst and b & src and not (a & src or b & dst):
                return text[start:end], f"{'/'.join(sorted(src))} → {'/'.join(sorted(dst))}"
    return None
