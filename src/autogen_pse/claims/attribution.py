"""An achievement told of the wrong subject: "At Brightline I moved nightly batch jobs to Kafka
streams" where the source states it, in nearly the same words, of another entity (the CV's
Harbourside role) and of none the sentence names. Figures are compared elsewhere; this reads the
words, so a swap with no number in it is caught too.
"""

from __future__ import annotations

import itertools
import re

from .catalogue import Mention
from .evidence import Evidence, Source
from .lexicon import content_words, stem
from .model import Finding, Status

_MIN_WORDS = 4  # fewer content words say too little to be matched to one passage
_SHARED = 0.6  # the share of the sentence's words the other entity's passage must hold
_OWN = 0.34  # a passage of a named entity holding this share explains the sentence


def _stems(text: str, drop: set[str]) -> set[str]:
    return {stem(w) for w, _s, _e in content_words(text) if w.lower() not in drop}


_AT = re.compile(r"\b(?:at|with|for|in)\s+$", re.IGNORECASE)
_AT_END = re.compile(r"[\s.,;:)*_]*")
_CLAUSE_SEP = re.compile(r";|\.\s|\s[—–|·•]\s|\n")


def misattributed(text: str, named: list[tuple[str, int, int]], sources: list[Source]) -> Source | None:
    """The passage of another entity that states the achievement of the clause naming an entity of
    ``named`` (``(entity, start, end)`` of its mentions), when no passage of that entity states it."""
    owned = [s for s in sources if s.entity]
    if not named or not owned:
        return None
    names = {w.lower() for _e, a, b in named for w in re.findall(r"[A-Za-z]+", text[a:b])}
    bounds = [0, *(m.end() for m in _CLAUSE_SEP.finditer(text)), len(text)]
    for lo, hi in itertools.pairwise(bounds):
        mentions = [(e, a, b) for e, a, b in named if lo <= a < hi]
        if not mentions:
            continue
        entities = {e for e, _a, _b in mentions}
        # what the clause says after the name ("At Brightline I moved …"), or before a closing "at <name>"
        # ("… to Kafka streams at Brightline"); not the words before a name that opens the next record
        # ("… used by 3 teams 2020 Harbourside Logistics GmbH — Backend Engineer")
        first, last = mentions[0], mentions[-1]
        words = _stems(text[first[1] : hi], names)
        if len(words) < _MIN_WORDS and _AT_END.fullmatch(text, last[2], hi) and _AT.search(text, lo, last[1]):
            words = _stems(text[lo : last[1]], names)
        if len(words) < _MIN_WORDS:
            continue
        clause = _stems(text[lo:hi], names)  # (what the whole clause says of the named entity explains it too:
        best, best_share, own_share = None, 0.0, 0.0  # "moved … to Kafka streams (at Harbourside), led …")
        for source in owned:
            said = _stems(source.text, names)
            share = len(words & said) / len(words)
            if source.entity in entities:
                own_share = max(own_share, share, len(clause & said) / len(clause))
            elif share > best_share:
                best, best_share = source, share
        if best is not None and best_share >= _SHARED and own_share < _OWN:
            return best
    return None


def misattribution(text: str, found: list[Mention], evidence: Evidence) -> Finding | None:
    """The finding that ``text`` tells an achievement of an entity it names that the sources state of
    another ("At Brightline I moved nightly batch jobs to Kafka streams": Harbourside's), or None."""
    owners = {s.entity for s in evidence.sources if s.entity}
    told = [(m.entity, m.start, m.end) for m in found if m.entity in owners]
    other = misattributed(text, told, evidence.sources) if told else None
    if other is None:
        return None
    known = evidence.entity(other.entity)
    name = known.names[0] if known is not None and known.names else str(other.entity)
    return Finding(kind="entity", text=next(m.text for m in found if m.entity in owners), status=Status.CONTRADICTED,
                   evidence=[other.id], note=f"the source states this of {name}: {other.text.strip(' -*')!r}")
