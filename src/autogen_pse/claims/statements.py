"""Names and statements no evidence covers, and superlatives no ranking decides."""

from __future__ import annotations

import re

from .catalogue import _STOP_CAPS, Mention, is_abbreviation, is_label, is_person, sentence_initial, unknown_names
from .lexicon import content_words, stem
from .model import Finding, Status
from .patterns import (
    _NUMBER_WORDS,
    _SUPERLATIVE,
)
from .state import VerifierState

_QUANTIFIER = re.compile(r"most\s+[a-z]+[^su\s]s")  # "most afternoons", "most teams" (not "most serious")
# "Most interested in payments infrastructure", "most at home in Go": a preference, not a ranking
_FEELING = re.compile(r"most\s+(?:interested|keen|excited|passionate|comfortable|proud|drawn|enthusiastic|curious|"
                      r"happy|at)\b")
# "the best match in the whole application", "the only nice-to-have she has": a judgement of the fit with
# the job ad, not a claim about the record
_FIT_WORDS = r"(?:match|fit|nice-to-haves?|must-haves?|requirements?|gaps?|overlap)"
_FIT = re.compile(rf"(?:\s+[\w-]+)?\s+{_FIT_WORDS}\b|(?<=\s){_FIT_WORDS}$", re.I)
# "put the most weight on Brightline", "gave the most space to": the writer's emphasis, not a ranking
_EMPHASIS = re.compile(r"\b(?:put|puts|putting|place[sd]?|placing|gave|give[sn]?|giving|devote[sd]?|devoting)\s+$",
                       re.I)
_MATTERS = re.compile(r"\b(?:matters?|mattered|counts?|counted)\s+$", re.I)  # "the numbers that matter most"
_EMPHASIS_NOUN = re.compile(r"\s+(?:weight|emphasis|space|attention|focus|detail|room|prominence)\b", re.I)
_NOT_HELD = re.compile(r"\s+(?:is\s+not|was\s+not|isn['’]t|wasn['’]t)\s+(?:one\s+of|among|held|owned|a\s+holding)\b",
                       re.I)  # "ORCL is not one of the five holdings"
_PRONOUN_BEFORE = re.compile(r"\b(?:I|we|you|she|he|they)(?:['’](?:m|re|s)|\s+(?:am|are|is|was|were))?\s+$")
_BACK_THEN = re.compile(r"\s+(?:in|when|then|around|during|before|after)\b", re.I)  # "bought back in 2000": earlier
_IDIOM = re.compile(r"contract\s+notes?\b|split\s+(?:portfolio|picture|decision|verdict|result|view|book)\b|"
                    r"paper\s+trail\b|panel\s+interviews?\b|(?<=hiring\s|erview\s)panel\b|"  # who interviews her
                    r"panel\s+(?:needs?|wants?|asks?|will|may|should|can)\b|"
                    r"acquired(?=[^.;]{0,40}\b(?:certifi|certificate|licen[cs]e|qualification|diploma))", re.I)
_NICKNAME = re.compile(r"[\w'’ -]{0,20}\(\s*")
_GLOSS = re.compile(r"\s*\(\s*[A-Za-z][\w.&/-]{0,9}\s*\)")


_CSV_HEADER = re.compile(r"[\w%/.()&-]+(?:\s?[,;\t]\s?[\w%/.()&-]+){4,}")
_SMALL_WORDS = frozenset("a an and as at by for from in of on or the to with vs per".split())


def title_case(text: str, *, heading: bool = False) -> bool:
    """A short line in Title Case with no sentence in it (a letterhead, a document title); a heading
    may hold commas and a quoted question ('## Reader Q&A: "My Portfolio Is Up 67%. Why …?"')."""
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’&.-]*", text) if w.lower() not in _SMALL_WORDS]
    if not 2 <= len(words) <= 14 or (not heading and (
            re.search(r"[.!?](?:\s+[A-Z]|\s*$)", text.strip("*_ ")) or text.count(",") > 1)):
        return False  # a sentence, or a list of names ("Terraform, Docker, Zorblax Mesh") whose names count
    return sum(w[0].isupper() for w in words) >= 0.75 * len(words)


class Statements(VerifierState):
    """Unknown names, unsupported statements and superlatives (a part of the Verifier)."""

    def _names(self, text: str, mentions: list[Mention], skip: list[tuple[int, int]], advice: str | None,
               heading: bool = False) -> list[Finding]:
        """Names no source knows; in advice (``advice``: its stating clauses, the rest blanked) only those
        presented as part of the subject or named in a clause that states something."""
        taken = skip + [(m.start, m.end) for m in mentions]
        for m in self.catalogue.find(text):  # "PostgreSQL (PG)": a short gloss of a known name
            gloss = _GLOSS.match(text, m.end)
            if gloss:
                taken.append((gloss.start(), gloss.end()))
        out: list[Finding] = []
        if _CSV_HEADER.fullmatch(text.strip()):
            return out  # "Sym,Qty,CostPx,Close,MktVal,Wt%": column names
        titled = title_case(text, heading=heading)  # "Kingsbury Wealth Partners LLP", "Quarterly Portfolio Letter"
        for name in unknown_names(text, self.catalogue, self.known, taken, self.vocab):
            if titled and name.entity not in ("?ticker", "?lead"):
                continue
            if _NOT_HELD.match(text, name.end) or any(
                _NICKNAME.fullmatch(text, name.end, m.start) for m in mentions if name.end <= m.start
            ):  # "The Seattle shop (Amazon)": a nickname of a known name, given after it
                continue
            near = text[max(0, name.start - 40) : name.end + 40]
            subject = bool(self.subject_re and self.subject_re.search(near)) or name.entity in ("?ticker", "?lead")
            if not subject and advice is not None and not advice[name.start : name.end].strip():
                continue
            out.append(
                Finding(
                    kind="entity",
                    text=name.text,
                    status=Status.CONTRADICTED if subject else Status.UNVERIFIABLE,
                    note=f"{name.text} is in no source"
                    + (" but is presented as part of the subject" if subject else ""),
                )
            )
        return out

    def _statement(
        self, text: str, mentions: list[Mention], skip: list[tuple[int, int]], *, claim_words_only: bool = False,
        heading: bool = False,
    ) -> list[Finding]:
        """A factual statement whose content words no source or vocabulary explains: a claim word
        ("announced", "dividend", "award") or a proper noun that no source names (with
        ``claim_words_only``, the claim words alone: a clause stated beside advice)."""
        if _CSV_HEADER.fullmatch(text.strip()):
            return []  # column names
        taken = [(m.start, m.end) for m in mentions] + skip
        words = [(w, s) for w, s, _e in content_words(text) if not any(a <= s < b for a, b in taken)]
        unexplained = [
            (w, s)
            for w, s in words
            if stem(w) not in self.vocab and not self.catalogue.knows(w) and w.lower() not in _NUMBER_WORDS
        ]
        # a claim word ("dividend", "sales", "award") is explained by the sources only, never by the
        # vocabulary of ordinary words
        strong = [  # whole claim words and phrases as written ("on-call", "PCI DSS")
            m.group(0)
            for m in (self.claim_words.finditer(text) if self.claim_words else [])
            if not any(a <= m.start() < b for a, b in taken)
            and text[m.end() : m.end() + 2] not in ("'t", "’t")  # "won't" is no "won"
            and not (m.group(0).lower().endswith(" back") and _BACK_THEN.match(text, m.end()))  # not "buyback in"
            and not _IDIOM.match(text, m.start())  # "the contract note", "a split portfolio"
            and stem(m.group(0)) not in self.source_stems
            and not self.catalogue.knows(m.group(0))
        ]
        if not unexplained and not strong:
            return []
        titled = title_case(text, heading=heading)
        proper = [] if claim_words_only else [
            w
            for w, s in unexplained
            if w[:1].isupper()
            and not titled
            and len(w) > 2
            and not is_abbreviation(w)
            and re.sub(r"['’]s$", "", w) not in _STOP_CAPS  # "Monday's closes"
            and not (w.isupper() and w.title() in _STOP_CAPS)  # "EMPLOYMENT HISTORY"
            and not sentence_initial(text, s, s + len(w))
            and not is_person(text, s, s + len(w))  # a person ("Mr Castell noted …", "Bev (secretary)")
            and not self.catalogue.derives(w)  # "the Googlers"
            and not is_label(text, s, s + len(w))  # a label ("Based in: Manchester")
            and not (text[s + len(w) : s + len(w) + 1] == "." and w.lower() in self.known_prefixes)  # "Assoc."
        ]
        out = []
        if strong or proper:
            shown = ", ".join(dict.fromkeys(strong + proper))
            out.append(
                Finding(kind="statement", text=shown, status=Status.UNVERIFIABLE, note=f"no source supports: {shown}")
            )
        return out

    def _superlatives(self, text: str) -> list[Finding]:
        """A superlative ("the most senior engineer", "the largest migration") that no source states
        and no ranking of facts decides."""
        out = []
        for m in _SUPERLATIVE.finditer(text):
            phrase = " ".join(m.group(0).lower().split())
            fit = _FIT.match(text, m.end()) or _FIT.search(phrase)
            emphasis = _EMPHASIS.search(text, 0, m.start()) and (
                _EMPHASIS_NOUN.match(text, m.end()) or _EMPHASIS_NOUN.search(phrase))
            if _QUANTIFIER.fullmatch(phrase) or _FEELING.match(phrase) or fit or emphasis or (
                phrase.startswith("most") and _MATTERS.search(text, 0, m.start())) or (
                phrase.startswith("most ") and _PRONOUN_BEFORE.search(text, 0, m.start())
            ):
                continue  # "most afternoons", "what I most enjoy", "I'm most keen": how many, how much — no ranking
            if any(phrase in " ".join(s.text.lower().split()) for s in self.ev.sources):
                continue
            out.append(
                Finding(
                    kind="rank",
                    text=m.group(0),
                    status=Status(self.ev.unranked_superlatives),
                    note=f"“{m.group(0)}”: no source states it and no figure decides it"
                    + ("; the sources are the whole record" if self.ev.unranked_superlatives == "contradicted" else ""),
                )
            )
        return out
