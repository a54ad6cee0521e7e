"""Generic English cues the claim ledger reads: direction, negation, advice, nearness, ordinals.

Task-specific words (metrics, superlatives, action verbs, domain vocabulary) come from the task's
:class:`~autogen_pse.claims.evidence.Evidence`; only language that means the same in every task
lives here.
"""

from __future__ import annotations

import itertools
import re
import threading
from functools import lru_cache
from typing import Any

# a holding's value against what was paid for it: a gain or a loss
ABOVE_COST = ("above cost", "above its cost", "above their cost", "above what we paid", "above what you paid",
              "above the price paid")
BELOW_COST = ("below cost", "below its cost", "below their cost", "below what we paid", "below what you paid",
              "below the price paid")
UP_WORDS = (
    "up",
    "gain",
    "gains",
    "gained",
    "gaining",
    "rose",
    "risen",
    "rising",
    "climbed",
    "climbing",
    "grew",
    "grown",
    "growing",
    "increase",
    "increased",
    "increasing",
    "rallied",
    "appreciated",
    "advanced",
    "surged",
    "jumped",
    "higher",
    "profit",
    "profitable",
    "in profit",
    "in the green",
    "ahead",
    "positive",
    "raised",
    "raising",
    "boosted",
    "boosting",
    "improved",
    "improving",
    "above water",
    *ABOVE_COST,
    "winner",
    "winners",
    "outperformed",
    "expanded",
    "soared",
    "added",
    "upside",
    "doubled",
    "tripled",
    "quadrupled",
    "grow",
    "rise",
    "raise",
    "boost",
    "compounded",
    "compounding",
    "compounds",
    "▲",
    "↑",
)
DOWN_WORDS = (
    "down",
    "loss",
    "losses",
    "lost",
    "given back",
    "gave back",
    "giving back",
    "losing",
    "loser",
    "losers",
    "fell",
    "fallen",
    "falling",
    "declined",
    "declining",
    "decline",
    "dropped",
    "dropping",
    "slid",
    "slumped",
    "sank",
    "shed",
    "decreased",
    "decreasing",
    "depreciated",
    "lower",
    "under water",
    "underwater",
    "in the red",
    "negative",
    "has cost us",
    "has cost you",
    "have cost us",
    "have cost you",
    "cut",
    "cutting",
    "reduced",
    "reducing",
    "lowered",
    "lowering",
    "shrank",
    "shrunk",
    "halved",
    *BELOW_COST,
    "under cost",
    "deficit",
    "slashed",
    "slashing",
    "trimmed",
    "drop",
    "fall",
    "reduce",
    "lower",
    "decrease",
    "shrink",
    "eroded",
    "underperformed",
    "lagged",
    "lagging",
    "laggard",
    "red",
    "▼",
    "↓",
    "gone",
    "wiped out",
    "erased",
)
NEGATIONS = re.compile(
    r"n't\b|\b(?:not|no|none|never|cannot|can't|without|avoid|avoiding|refrain|rather than|instead of|forbid|forbids|"
    r"forbidden|prohibit|prohibits|prohibited|disallow|disallowed|rules? out|ruled out|nor|neither|"
    r"against(?!\s+(?:the\s+|a\s+|its\s+)?(?:[-−+]?\d|limit|level|cap|threshold|benchmark|cost))|"
    r"isn't|aren't|wasn't|don't|do not|does not|shouldn't|mustn't|no longer|barred|off the table|nobody|no one)\b",
    re.IGNORECASE,
)
NEAR_WORDS = re.compile(
    r"\b(?:near|nearing|close to|closing in on|approaching|just above|just shy|shy of|within|edge|brink|verge|"
    r"flirting|borderline|on the cusp|a whisker|short of|away from|buffer|cushion|headroom|watch|watching|risk of|"
    r"could|may|might|would)\b",
    re.IGNORECASE,
)
ADVICE = re.compile(
    r"\b(?:should|could|would|may|might|consider|considering|recommend|recommended|recommends|suggest|"
    r"suggested|suggests|worth|prefer|need to|needs to|must|ought|plan to|aim to|let's|we'll|i'd|advisable|"
    r"propose|proposed|opportunity|option|options|candidate|if|unless|whether|intend|want to|going forward|"
    r"next step|next steps|to-do|todo|action item|please|make sure|ensure|keep an eye|monitor|revisit|reassess|"
    r"re-run|rerun|check|confirm|(?<!-)(?<!design )document|discuss|schedule|set up|track|next|upcoming|in the coming|"
    r"proceed to|progress to|advance to|move (?:her|him|them|the candidate) to|probe|ask about|dig into)\b",
    re.IGNORECASE,
)
# a hedge on a statement, not advice: "Microsoft may account for about 13.59%", "it may be worth noting
# that Microsoft raised its dividend", "which would appear to be beyond the stop". The statement is still
# claimed; "may be worth adding to", "could be trimmed", "might be a candidate" stay advice
_HEDGE = re.compile(
    r"\b(?:(?:may|might|could)(?:\s+(?:well|also|currently|now|already|still|even|actually|possibly))?"
    r"\s+(?:be|have\s+been|represent|account|amount|reflect|remain|sit|stand|qualify|constitute|show|appear|seem)"
    r"\b(?!\s+(?:worth\s+(?!noting|mentioning|flagging|highlighting|pointing)|a\s+candidate|an?\s+option"
    r"|prudent|wise|sensible|advisable|better|best|appropriate|time\b|trimmed|sold|reduced|added|bought|cut"
    r"|increased|rebalanced|considered|reviewed|revisited|needed|necessary|required|useful|helpful|good"
    r"|a\s+good|worthwhile|reasonable|able|tempted|inclined|asked|expected|to\b|in\s+order|an?\s+opportunity"
    r"|relevant|considerations?|factors?)))"
    r"|\b(?:it\s+)?(?:may|might)\s+be\s+worth\s+(?:noting|mentioning|flagging|highlighting|pointing\s+out)"
    r"|\bworth\s+(?:noting|mentioning|flagging|highlighting|pointing\s+out)\b"
    r"|\bwould\s+(?:appear|seem)\b",
    re.IGNORECASE,
)


def unhedged(text: str) -> str:
    """``text`` with its hedges on statements blanked (same length): what is left of advice words is advice."""
    return _HEDGE.sub(lambda m: " " * len(m.group()), text)


IMPERATIVE_START = re.compile(
    r"^(?:\s*(?:\d{1,2}(?:\.\d{1,2}){0,3}[.)]?|[A-Za-z][.)]|\([a-z]{1,4}\))\s)?[^\w*]*(?:\*\*[^*]+\*\*[:\s]*)?"
    r"(?:consider|be|expect|mention|emphasise|emphasize|highlight|stress|quantify|review|recalculate|recompute|monitor|trim|sell|hold|keep|reassess|rebalance|"
    r"document|check|confirm|discuss|set|watch|revisit|avoid|do|don't|use|add|reduce|think|look|talk|schedule|"
    r"update|re-run|rerun|run|compare|exit|buy|evaluate|re-evaluate|decide|maintain|retain|book|take|track|"
    r"flag|note|record|verify|rerun|plan|prepare|ask|agree|apply|execute|implement|stay|leave|wait|tighten|"
    r"raise|lower|cut|trim|sell|let|make|ensure|re-check|recheck|re-examine|reexamine|investigate|assess|"
    r"revise|refresh|obtain|get|send|share|continue|start|begin|stop|limit|cap|pair|realise|realize|place|complete|approve|instruct|arrange|call|contact|move|put|switch|bank|lock|finalise|finalize|submit|sign|schedule)\b",
    re.IGNORECASE,
)
_CLAUSE_BREAK = re.compile(r",\s+(?=(?:which|and|but|so|though|although|while)\b)|;|:\s+(?=[A-Z])|[.!?]\s+|\s+[—–→]\s+")


# "and have Ana run …", "then add …": a clause going on with the last one's subject (a verb, no subject of its own)
_SAME_SUBJECT = re.compile(r"(?:and|or|then|and\s+then)\s+(?!(?:it|its|it's|it’s|this|that|that's|that’s|there|the|a|"
                           r"an|he|she|they|we|I|you|his|her|their|our|my|your)\b)[a-z]+\b")


# a clause saying what the sources do not show ("nothing explicit on settlement", "what I can't see from
# the CV is …"): its words are not claimed
UNSEEN = re.compile(
    r"\b(?:nothing\s+explicit|no\s+(?:sign|evidence|mention)\s+of|(?:can't|cannot|can\s+not)\s+see|neither\s+on"
    r"|not\s+(?:visible|evidenced|shown)|not\s+on\s+(?:the|her|his|my|your)\s+(?:cv|résumé|resume)"
    r"|(?:didn't|did\s+not|haven't|have\s+not)\s+(?:claim|add|include|invent)(?:ed)?"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+(?:mention|show|list|cover)"
    r"|\b(?:has|have|had|shows?|lists?|mentions?)\s+no\b"  # "The CV has no reconciliation or settlement work"
    r"|^\W*(?:and|or|nor)\s+any\b"  # "… can't see X — … — and any settlement work": the list goes on
    # what the job ad asks for is the ad's, not the candidate's: "the ad also talks about reconciliation"
    r"|the\s+(?:job\s+)?(?:ad|advert|advertisement|posting|listing)\s+(?:also\s+)?(?:talks\s+about|mentions|asks\s+for"
    r"|wants|lists|calls\s+for|expects|requires))\b",
    re.IGNORECASE,
)


def factual_part(text: str, imperatives: bool = True) -> str:
    """``text`` with its advice, plans and questions blanked (same length), leaving the clauses that
    state something: "Google announced a buyback, which could support the price" keeps its first."""
    out = text
    bounds = [0, *[m.end() for m in _CLAUSE_BREAK.finditer(text)], len(text)]
    blanked = False
    for a, b in itertools.pairwise(bounds):
        part = text[a:b]
        if blanked and _SAME_SUBJECT.match(part):  # "I'd put her in …, and have Ana run …": the same advice
            out = out[:a] + " " * (b - a) + out[b:]
            continue
        # a short topic before a question is the question's ("Settlement and reconciliation — any exposure?")
        question = part.rstrip().endswith("?") or (len(part.split()) <= 4 and text[b:].rstrip().endswith("?"))
        blanked = bool(ADVICE.search(part) or (imperatives and IMPERATIVE_START.match(part)) or question
                       or UNSEEN.search(part))
        if blanked:
            out = out[:a] + " " * (b - a) + out[b:]
    return out


ORDINALS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5}
STOPWORDS = frozenset(
    """
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of
off on once only or other our ours ourselves out over own same she should so some such than that the their
theirs them themselves then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours yourself yourselves per via vs versus one
two three four five six seven eight nine ten etc s t re ve ll d m o y also still yet already however though
although whose i've i'm i'd i'll we've we're we'd we'll you've you're they're they've it's that's there's
here's what's don't doesn't didn't isn't aren't wasn't weren't won't can't couldn't shouldn't wouldn't haven't
hasn't hadn't its it's let us may might must shall upon within without across around among amongst toward
towards onto
""".split()
)


_STEMMERS = threading.local()  # a Snowball stemmer keeps state while it works: one per thread


def _stemmer() -> Any:
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        import snowballstemmer

        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of a lower-cased word ("buybacks" → "buyback", "reduced" → "reduc");
    safe from several threads at once (two runs checking claims together)."""
    return str(_stemmer().stemWord(word.lower()))


WORD = re.compile(r"[A-Za-z][A-Za-z'’&-]*[A-Za-z]|[A-Za-z]")


def content_words(text: str) -> list[tuple[str, int, int]]:
    """``(word, start, end)`` of every word that is not a stop word (hyphenated words split)."""
    out = []
    text = text.replace("’", "'")
    for m in WORD.finditer(text):
        for part in re.finditer(r"[A-Za-z][A-Za-z'’&]*", m.group(0)):
            w = part.group(0).strip("'’")
            if len(w) > 1 and w.lower() not in STOPWORDS:
                out.append((w, m.start() + part.start(), m.start() + part.end()))
    return out


def rank_regex(phrase: str) -> re.Pattern[str]:
    """A superlative phrase that allows one word between its adjective and the rest
    ("deepest maximum drawdown", "largest single position")."""
    first, _sp, rest = phrase.strip().partition(" ")
    filler = r"(?:[\s-]+(?:maximum|max|single|overall|individual|current|peak-to-trough|recorded|absolute))?"
    body = re.escape(first) + (filler + r"[\s-]+" + re.escape(rest).replace(r"\ ", r"[\s-]+") if rest else "")
    return re.compile(rf"(?<![\w])(?:{body})(?![\w])", re.IGNORECASE)


_COMPARATIVES = ("lower", "higher", "low", "high", "less", "more", "most", "least", "bigger", "smaller", "largest",
                 "smallest", "biggest", "heaviest", "lightest")  # fmt: skip
_DETERMINERS = ("the", "your", "our", "my", "this", "that", "total", "overall", "entire", "whole", "all",
                "combined", "aggregate", "portfolio's", "book's", "fund's", "account's")  # fmt: skip
_MODIFIERS = (*_DETERMINERS, "unrealised", "unrealized", "current", "paper")
_DETERMINER = "(?:" + "|".join(re.escape(w) for w in _DETERMINERS) + r")[\s-]+"
_MODIFIER = "(?:" + "|".join(re.escape(w) for w in _MODIFIERS) + r")[\s-]+"


def _phrase_body(phrase: str, modifiers: bool) -> str:
    """``phrase`` as a regex; with ``modifiers``, "of the gain" also reads "of total unrealised gain"
    (a determiner, then any modifiers, between "of" and the noun; not "of unrealised profit" after
    an amount, nor "of its value")."""
    words = phrase.split()
    if (modifiers and len(words) >= 3 and words[0].lower() == "of" and words[-1].lower() != "total"
            and all(w.lower() in _MODIFIERS for w in words[1:-1])):  # fmt: skip
        return rf"of[\s-]+{_DETERMINER}(?:{_MODIFIER}){{0,3}}{re.escape(words[-1])}"
    return re.escape(phrase).replace(r"\ ", r"[\s-]+")


_TOKEN = re.compile(r"[a-z0-9]+|%")  # ("% mv": a percent sign opens a phrase)


def tokens(text: str) -> frozenset[str]:
    """The lower-case letter-and-digit runs and percent signs of ``text``: what :func:`first_tokens` is
    checked against."""
    return frozenset(_TOKEN.findall(text.lower()))


def token_starts(text: str) -> dict[str, list[int]] | None:
    """Where each of :func:`tokens` starts in ``text`` (``None`` when lower-casing changes its length)."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    out: dict[str, list[int]] = {}
    for m in _TOKEN.finditer(lowered):
        out.setdefault(m.group(0), []).append(m.start())
    return out


def phrase_matches(
    rx: re.Pattern[str], first: frozenset[str] | None, text: str, starts: dict[str, list[int]] | None
) -> list[re.Match[str]]:
    """``rx.finditer(text)`` for a :func:`phrase_regex` whose phrases start with the tokens ``first``, tried
    only where one of them starts (``starts``: :func:`token_starts`): a regex of hundreds of phrases is slow
    to try at every position."""
    if first is None or starts is None:
        return list(rx.finditer(text))
    hits = first.intersection(starts)
    if not hits:
        return []
    out: list[re.Match[str]] = []
    end = -1
    for pos in sorted(p for t in hits for p in starts[t]) if len(hits) > 1 else starts[next(iter(hits))]:
        if pos >= end and (m := rx.match(text, pos)) is not None:
            out.append(m)
            end = m.end()
    return out


def first_tokens(phrases: list[str] | tuple[str, ...]) -> frozenset[str] | None:
    """The first letter-and-digit run (or percent sign) of each phrase: a phrase can only match a text whose
    :func:`tokens` hold its first one (``None`` when a phrase starts with a symbol: no such test)."""
    out = set()
    for p in phrases:
        m = re.match(r"\s*([a-z0-9]+|%)", p.lower())
        if m is None:
            return None
        out.add(m.group(1))
    return frozenset(out)


def phrase_regex(
    phrases: list[str] | tuple[str, ...], *, after_hyphen: bool = False, phrase_end: bool = False,
    modifiers: bool = False,
) -> re.Pattern[str] | None:
    """One case-insensitive regex matching any of ``phrases`` as whole words (longest first);
    ``after_hyphen`` lets a phrase start after a hyphen ("second-largest"); ``modifiers``: see
    :func:`_phrase_body`."""
    items = sorted({p.strip() for p in phrases if p.strip()}, key=len, reverse=True)
    if not items:
        return None
    words = [p for p in items if re.search(r"\w", p)]
    symbols = [p for p in items if not re.search(r"\w", p)]  # "▼", "↑": they may touch a figure ("▼72.7%")
    body = "|".join(_phrase_body(p, modifiers) for p in words)
    # a hyphen after a figure joins it to its noun ("a 2M-events/day service", "a 14-service migration")
    before = r"(?<![\w])" if after_hyphen else r"(?:(?<![\w-])|(?<=\d-)|(?<=\d[kKmM]-)|(?<=%-))"
    if modifiers:  # "the lower-volatility option": a metric after a comparative and a hyphen (not "stop-loss")
        # (the comparatives are looked for only after a hyphen: a regex tries this at every position)
        before = "(?:" + before + "|(?<=-)(?:" + "|".join(rf"(?<=\b{w}-)" for w in _COMPARATIVES) + "))"
    # ``phrase_end``: not before a possessive ("of the portfolio" in "of the portfolio's gain")
    parts = [rf"{before}(?:{body})(?![\w])" + (r"(?!['’]s\b)" if phrase_end else "")] if words else []
    parts += [re.escape(p) for p in symbols]
    return re.compile("|".join(parts), re.IGNORECASE)


UP_RE = phrase_regex(UP_WORDS)
DOWN_RE = phrase_regex(DOWN_WORDS)
