"""Patterns and small helpers shared by the verifier's parts."""

from __future__ import annotations

import re

from .lexicon import ABOVE_COST, BELOW_COST, phrase_regex, stem
from .model import Finding, Status
from .quantities import _SCALE_WORDS, _UNITS_WORDS, Quantity

# a full stop that ends a sentence, not an abbreviation ("c. 31 per cent", "approx. USD 127k", "Mr. Osei")
_STOP = (
    r"(?<!\bc)(?<!\bca)(?<!\bapprox)(?<!\best)(?<!\bvs)(?<!\bno)(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bincl)(?<!\bUniv)\. "
)
_CLAUSE = re.compile(
    rf";|\s[—–]\s|\s-\s|\bwhile\b|\bwhereas\b|\bbut\b|\bhowever\b|\balthough\b|\b(?:is|was) that\b|{_STOP}|\|"
)
_STRONG = re.compile(rf";|{_STOP}|\bbut\b|\bwhile\b|\bwhereas\b|\bhowever\b")
_PERF_UP = phrase_regex(
    [
        "is up",
        "are up",
        "was up",
        "'s up",
        "’s up",
        "sits up",
        "stands up",
        "now up",
        "still up",
        "both up",
        "in profit",
        "profitable",
        "in the green",
        "above water",
        *ABOVE_COST,
        "gained",
        "gaining",
        "a gain",
        "strong gain",
        "solid gain",
        "big gain",
        "large gain",
        "healthy gain",
        "nice gain",
        "handsome gain",
        "showing a gain",
        "sitting on a gain",
        "sitting on gains",
        "made money",
        "winner",
        "appreciated",
        "rose",
        "has risen",
        "positive return",
    ]
)
_PERF_DOWN = phrase_regex(
    [
        "is down",
        "are down",
        "was down",
        "'s down",
        "’s down",
        "sits down",
        "now down",
        "still down",
        "both down",
        "at a loss",
        "in the red",
        "under water",
        "underwater",
        *BELOW_COST,
        "under cost",
        "losing",
        "lost money",
        "a loss",
        "heavy loss",
        "big loss",
        "large loss",
        "steep loss",
        "showing a loss",
        "sitting on a loss",
        "sitting on losses",
        "loser",
        "declined",
        "fell",
        "has fallen",
        "negative return",
        "losing money",
        "loss-making",
    ]
)
_COMPAT = {
    "pct": ("pct",),
    "money": ("money",),
    "multiple": ("multiple",),
    "units": ("units", "count"),
    "count": ("count", "units", "ratio", "money", "days", "minutes", "hours", "pct"),
    "days": ("days",),
    "months": ("months",),
    "years": ("years",),
    "minutes": ("minutes",),
    "hours": ("hours",),
    "weeks": ("weeks",),
}
_UNIT_NOUNS = re.compile(  # "79 shares", "79 Apple shares", "79 of your 250 Apple shares"; "250 of them" — not
    # "thirty-nine eighty-one a share", a price
    r"^[\s-]*(?:(?:of\s+(?:your|the|our|its|my|their)\s+(?:\d[\d,]*\s+)?)?(?:(?!(?:a|an|per|each)\s)[A-Z][\w.&]*\s+)?"
    r"(?:shares?|units?|sh|shs|pieces?|pcs)|of\s+them)\b",
    re.IGNORECASE,
)
# the start of a sentence: after an outline number ("2.3", "A.", "b)", a thread's "8/8"), emoji, quotes or markup
OUTLINE = r"(?:\s*(?:\d{1,2}(?:\.\d{1,2}){0,3}[.)]?|\d{1,2}/\d{0,2}|[A-Za-z][.)]|\([a-z]{1,4}\)))?"
# an emoji ends a chat sentence as a full stop does ("feels familiar 🙂 Ping me")
_EMOJI = "\u2600-\u27bf\U0001f000-\U0001faff"
_INITIAL = re.compile(rf"(?:^{OUTLINE}|[.!?:;|•>(—–\t{_EMOJI}]|\*\*|__|\s-)[^A-Za-z0-9,]*$")
_PRONOUN = re.compile(
    r"(?:\b(?:because|as|since|so|and|but|while|when|where)|,)\s+(?:it|it's|it has|it is)\b"
    r"|\b(?:despite|while|since|as) being\b",
    re.IGNORECASE,
)
_VERSUS_FIGURE = re.compile(r"(?:[\d%]|\d(?:k|m|bn))\s*(?:vs\.?|versus)\s+[~≈]?$", re.IGNORECASE)  # "−6,606.00 vs
# −5,312.40", "$46.1k vs $9.1k"
_VERSUS = re.compile(r"\b(?:compared (?:with|to)|versus|vs\.?|relative to)(?!\w)", re.IGNORECASE)
_LIST_SEP = re.compile(r"[\s,]*(?:and|&|or|,|/|\+)?[\s,]*", re.IGNORECASE)
_RUN_SEP = re.compile(r"[\s,]*(?:and|&|/|vs\.?|versus|or|–|-|to)?[\s,]*", re.IGNORECASE)
_TOGETHER = re.compile(
    r"^\W{0,3}(?:\w+\s+){0,2}?(?:between them|combined|together|jointly|in total|altogether|"
    r"collectively|between the two|across (?:the )?(?:two|both))",
    re.IGNORECASE,
)
_NEXT_FIGURE = re.compile(r"\s*(?:by|of|at|=|:)?\s*[~≈]?\s*[-+−]?\s*[$€£]?\d")
_OBJECT_GAP = re.compile(
    r"\s*(?:\w+ly\s+)?"
    r"(?:(?:(?:maybe|perhaps|possibly|say)\s+)?(?:~|about|around|roughly|approx\.?|another)?\s*\$?\d[\d,.]*\s*k?\s+(?:more|extra|additional|new)?\s*"
    r"(?:shares?\s+(?:of\s+|in\s+)?|sh\s+)?)?"  # "buy ~10 more GOOG sh", "add 20 shares of IBM"
    r"(?:(?:some|more|part|all|half|a\s+bit|a\s+few|a\s+little|a\s+small|"
    r"a\s+couple|a\s+handful|a\s+modest|little|few|further|additional)\s+(?:\w+\s+)?(?:of\s+)?)?"
    r"(?:the|its|our|your|my|their|this|that|back|down|into|out\s+of|to|of|in|on|up)?\s*(?:the|our|its|your|my)?\s*"
    r"[*_`]*",  # ("sell `IBM`", "add to **Google**")
    re.IGNORECASE,
)
_TOGETHER_ANY = re.compile(
    r"\b(?:between them|combined|together|jointly|altogether|collectively|between the two|"
    r"across (?:the )?(?:two|both)|(?:losses|gains) (?:total(?:l?ed)?|came to|amount(?:ed)? to))\b",
    re.IGNORECASE,
)
_PAREN = re.compile(r"\([^()]*\)|\s[—–]\s[^—–]{1,60}\s[—–]\s")
_HYPOTHETICAL = re.compile(
    r"\b(?:if it were|were it|would have|would be at|should (?:the|it|its)\b[^.;]{0,30}\b(?:reach|fall|drop|rise)|"
    r"were to|if (?:the|it|its) (?:loss|gain|weight|price)\b[^.;]{0,20}\b(?:reach|fall|drop|rise|hit)|"
    r"\bif\s+(?:the\s+|its\s+)?(?:pnl|p&l|p/l|loss|price|weight|return|drawdown|it)\s+(?:ever\s+)?(?:hits?|reach\w*|"
    r"falls?|drops?|rises?|breach\w*|cross\w*|goes)\b|"
    r"evenly|equal-weight|equally weighted|"
    r"\bif\s+[\w' ]{1,30}?\b(?:fell|falls?|dropped|drops?|halved|halves|crashed|crashes)\s+(?:by\s+)?|"
    r"\b(?:falling|dropping)\s+(?:by\s+)?(?:half|a\s+third|\d+\s*%)[^.;]{0,60}\bwould\b|"  # a shock's size
    r"\bthe\s+remaining\s+\d|"  # "reassess the remaining 20 GOOG shares": what a proposed sale would leave
    r"\brepeat\b[^.;]{0,40}\bwould\b|"  # "a repeat of that fall would cost the portfolio …"
    r"\bif\s+(?:you|we|she|he|they|I)\s+(?:moved|sold|put|bought|added|switched|shifted)\b[^.;]{0,80}\bwould\b|"
    r"\bwould\s+(?:put|take|bring|leave)\s+(?:it|them)\s+(?:at|to|below|above|under)\b|"  # "a close at $554.40 would
    # put it at −20%"
    r"\bthan\s+(?:to\s+)?be\s+at\b|"  # "I'd rather decide now than be at −25% in six months"
    r"\b(?:keep|kept)\s+wanting\s+to\s+(?:write|say|type)\b|\b(?:almost|nearly)\s+(?:wrote|typed)\b|"  # a slip avoided
    r"hypothetical|suppose|imagine|for example|e\.g\.)",
    re.IGNORECASE,
)
_POSSESSIVE = re.compile(r"(?:['’]s|\bits|\btheir|\bhis|\bher)\s+$", re.IGNORECASE)
_SUPERLATIVE = re.compile(
    r"(?<!\bat\s)\b(?:the\s+)?(?:most|least)\s+(?!recent|recently|relevant|important|of\b|once\b|[a-z]+ly\b)[a-z-]+|\b(?<!-)(?:largest|biggest|highest|fastest|youngest|"
    r"greatest|best|(?:strongest|smartest|brightest|finest)(?=\s+(?:[\w-]+\s+)?(?:engineers?|developers?|"
    r"programmers?|coders?|architects?|performers?|candidates?|hires?)\b)|busiest|heaviest|longest|quickest|top-rated|top-performing|highest-[a-z]+|largest-[a-z]+|best-[a-z]+|first|(?:(?<=\bthe\s)|(?<=\bher\s)|(?<=\bhis\s)|(?<=\bmy\s)|(?<=\bour\s))only|sole|No\.?\s*1|"
    r"number one|top(?=\s+(?:performer|contributor|engineer|developer|talent|ranked|rated|earner|producer)\b))"
    r"\s+(?!(?:for|at|in|as|to|on|of|with|a|an|the|and|or|step|time|two|three|few|one|ones|relevant|recent|"
    r"important|notably|recently|sentence|line|bullet|paragraph|section|duty|responsibility|here|item|point|"
    r"page|thing|draft|pass|impression|look|glance|read|reading|sight|skim|scan|mention|version|name|names|"
    r"qualifications?|level|ways?|"
    r"(?:(?<=\bfirst\s)|(?<=\bonly\s))[a-z]+(?:ed|ing))\b)[A-Za-z-]+",  # "first building", "only reordered"
    re.IGNORECASE,
)
_NUMBER_WORDS = frozenset(_UNITS_WORDS) | set(_SCALE_WORDS) | set(
    "dozen half third thirds quarter quarters fifth fifths tenth tenths".split())
_OBJECT_WORDS = {
    "position",
    "stake",
    "holding",
    "shares",
    "stock",
    "it",
    "them",
    "exposure",
    "units",
    "name",
    "allocation",
    "weight",
    "some",
    "more",
    "part",
    "all",
    "half",
}
_AFTER_GAP = re.compile(
    r"[*_]{0,2}[\s:=(-]{0,3}[\"“‘]?(?:of\s+|in\s+|on\s+|as\s+)?(?:the\s+|its\s+|a\s+)?"
    r"(?:(?:lower|higher|less|more|fewer|faster|slower|cheaper|smaller|bigger|reduction\s+in|cut\s+in)\s+)?"
    r"(?:[a-z]+-(?:related|based|facing|side|level|wide)\s+)?"  # "1,200 — payment-related requests per second"
)
# "**1,200** — requests per second …": a line led by its figure, then a dash and what it counts
_DASH_GAP = re.compile(r"[*_]{0,2}\s*[—–]" + _AFTER_GAP.pattern)
# "| **2M/day** | events through the tracking service |": a figure's cell, then the cell saying what it counts
_CELL_GAP = re.compile(r"(?:/\w+)?[*_]{0,2}\s*\|\s*(?:of\s+)?(?:the\s+|its\s+|a\s+)?")
_OF_TOTAL = re.compile(  # "… 90 % of the total", "nine-tenths of the portfolio total"
    r"\s*(?:per\s*cent|percent)?\s*of\s+(?:the\s+|its\s+|our\s+|your\s+)?(?:portfolio(?:['’]s)?\s+)?"
    r"(?:total|whole|overall)\b(?!\s+(?:value|cost|portfolio|book))",
    re.IGNORECASE,
)
_SHARE_GAP = re.compile(  # "gain of US$46,142.50 (480.03 per cent) is roughly", "gain is ~"
    r"(?:\s+of)?\s*(?:(?:US)?[$€£]\s?[\d,.]+\s*[kK]?)?\s*(?:\([^()]*\))?\s*,?"
    r"(?:\s*(?:is|are|was|makes?\s+up|made\s+up|accounts?\s+for|represents?|comes?\s+to|amounts?\s+to|around|"
    r"about|roughly|nearly|almost|some|~|≈))*\s*",
    re.IGNORECASE,
)
_POSSESSED = re.compile(r"['’]s\s+(?:~|≈|about|around|roughly|nearly|almost|only|just)?\s*")  # "Apple's ~40.6%"
_POSSESSIVE_GAP = re.compile(r"[\s:=(-]{0,3}(?:of|in|on)\s+(?:our|their|her|his|your|my)\s+")
_COMPARATOR = re.compile(r"\s*(?:vs\.?|versus|against|compared (?:with|to)|instead of|rather than)\s*", re.IGNORECASE)
_CONCEDED = re.compile(r"\b(?:even\s+though|although|though|whereas)\b[^,;:—.]*$", re.IGNORECASE)  # a concession
_COMPARED = re.compile(  # a mention right after these is the other side of a comparison
    r"\b(?:than|vs\.?|versus|compared (?:with|to)|relative to|unlike|behind|ahead of|outpac\w*|outperform\w*|"
    r"beat|beats|beating|trails?|trailing|lags?|lagging|exceeds?|exceeding|overtak\w*|(?:a\s+touch\s+|just\s+)?(?:above|below)|"
    r"edges?\s+out|edged\s+out|pips?|pipped|"  # "Amazon (48.0%) edges out Apple (47.1%) as the most volatile"
    r"(?:second|third|next)(?:\s+only)?\s+to|"  # "Volatility 47.12%, second only to Amazon"
    r"(?:set|offset|offsetting|cushion\w*)\s+against|against|to\s+offset)"  # "a loss to set against the apple gain"
    r"\s+(?:the\s+|your\s+|our\s+)?$",
    re.IGNORECASE,
)
_CHAIN = re.compile(
    r"\s*(?:vs\.?|versus|against|compared (?:with|to)|and|or|to|→|->|–|-|down to|up to|(?:,\s*)?now|"
    r"instead of|rather than|from|down from|up from|(?:,\s*)?(?:down|up) from)\s*"
    r"(?:for\s+\S+\s+)?",
    re.IGNORECASE,
)
# a rule stated of any holding ("No position may exceed …", "A loss of 20 per cent triggers …")
_GENERIC_SUBJECT = (  # "No position may …", "A holding down 20 per cent or more …", "any stock held …"
    r"\b(?:anything|something|whatever)\s+(?:(?:you|we|I)(?:'ve|\s+have)?\s+)?(?:held|owned|bought|that|which|down|up)\b|"
    r"\b(?:held|owned|bought)\s+(?:something|anything)\b|"
    r"\b(?:an?|any)\s+(?:overweight|triggered|flagged|losing|loss-making)\s+(?:holding|position|stock|name)\b|"
    r"\b(?:no|any|each|every)\s+(?:single\s+)?(?:holding|position|stock|name|share)s?\s+(?:that\b|which\b|at\b|"
    r"may\b|must\b|should\b|shall\b|can\b|is\b|down\b|up\b|held\b|owned\b|above\b|below\b|over\b|under\b)"
    r"|\ba\s+(?:holding|position|stock|line)\b[^.;]{0,60}\b(?:or more|or longer|or worse|at least)\b"
    r"|\ba\s+(?:holding|position|stock|share)\s+(?:whose|(?:that|which)\s+(?:falls|drops|loses|is\s+down|reaches"
    r"|exceeds|breaches|is\s+held|has\s+been\s+held)\b)"  # "a holding whose loss reaches −20 %"
    # "**Long-held loss** — held for 730 days or more and down 10% or more": a rule's definition, of no holding
    r"|(?:^|[—:–]\s*)(?:held|down|up|above|below|fallen|a\s+loss|a\s+fall)\b[^.;]{0,60}\bor\s+(?:more|longer|worse)\b"
    r"|^\W*(?:your|our|my|the)\s+(?:rules|rule\s*book|limits)\s*(?:are\s*)?:"
    # "SELL needs a stop-loss or long-held-loss trigger": what an action requires, of no holding
    r"|\b(?:needs?|requires?)\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}(?:or\s+(?:an?\s+)?[\w-]+\s+)?(?:trigger|breach)\b"
    r"|\b(?:the|our|your|this|that|first|second|third)\s+(?:\w+\s+)?rule\s+"
    r"(?:covers|says|applies|means|concerns|is\s+about)\b"  # "your rules: 30% cap, -20% stop, …"
)
GENERIC = re.compile(_GENERIC_SUBJECT, re.IGNORECASE)
_NORM = re.compile(  # a rule stated of any holding: its figures may be the rules' own
    _GENERIC_SUBJECT + r"|\b(?:may|must|should|shall|can)\s+(?:not\s+)?(?:exceed|be|fall|go|stay|remain)\b"
    r"|\btriggers?\b|\bthe\s+(?:\w+['’]s?\s+)?rules?\b"  # "the Trustees' rules"
    # "the stop-loss is a loss of 20 %", "the long-held loss test applies at 730 days"
    r"|\b(?:stop-loss|test|cap|limit|threshold)\s+(?:is|applies|bites|kicks\s+in)\b",
    re.IGNORECASE,
)
_GLOBAL_NEAR = re.compile(
    r"\b(?:portfolio|book|overall|in aggregate|aggregate|in total|total|whole|combined)\b", re.IGNORECASE
)
_TOP_N = re.compile(
    r"\btop[\s-]*(?:\d|one|two|three|four|five)\b|\b(?:\d|two|three|four|five)\s+(?:largest|biggest)\b", re.IGNORECASE
)
_MARKERS = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:[*_]{1,2})?(?:\d{1,2}[.)/]|(?:\d{1,2}|[IVX]{1,4})(?:\.\d{1,2}){1,3}\.?"
    r"(?!\s*(?:%|per\s?cent|percent|x\b|times\b)))(?:[*_]{1,2})?(?=\s)"
    r"|(?<=\s)\d{1,2}\.\d{1,2}(?=\s+[A-Z][a-z]+(?:\s[A-Z]?[a-z]+)?:)|\{\{[^}]*\}\}|https?://\S+|\S+@\S+"
    r"|\b(?:www\.)?[a-z0-9.-]+\.(?:com|io|org|net|dev|co|uk|de)(?:/\S*)?|\b[\w.-]+\.(?:com|io|org|net|dev)/\S*"
    r"|(?<![\w$€£,.])\+?\d(?=(?:[ \u00a0\u202f\u2009().-]*\d){8})[\d \u00a0\u202f\u2009().-]{7,}\d(?![\d%])"  # a phone
    # number (its spaces may be no-break or thin ones), not "927.50 (72.70%"
    r"|(?i:\b(?:rules?|section|item|step|clause|para(?:graph)?|point|agenda)\s+\d{1,2}(?:\.\d{1,2})*"
    r"(?:\s*(?:[-–—,&]|and|to)\s*\d{1,2}(?:\.\d{1,2})*)*\b)"
)


_PAIR_HEDGE = r"(?:(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|just\s+(?:over|under))\s+)?"


def _pair_role(text: str, q: Quantity) -> str:
    """ "from" / "to" when ``q`` is one end of "from A to B" (or "A → B"), else ""."""
    before = text[max(0, q.start - 24) : q.start]  # "from roughly $100k to $65k a month"
    if re.search(rf"\bfrom\s*[~≈]?\s*{_PAIR_HEDGE}$", before):
        return "from"
    if re.search(rf"(?:\bto|→|->)\s*[~≈]?\s*{_PAIR_HEDGE}$", before) and re.search(
        r"\bfrom\b|→|->", text[max(0, q.start - 70) : q.start]
    ):
        return "to"
    if re.match(r"\s*(?:→|->)", text[q.end :]):
        return "from"
    return ""


def _bare(q: Quantity) -> bool:
    """A small whole number written without a unit ("the five holdings", "two problems")."""
    return q.unit == "count" and q.tol >= 0.5 and float(q.value).is_integer() and abs(q.value) <= 20


def _quantity_units(q: Quantity) -> tuple[str, ...]:
    """Fact units a quantity can be compared with (a bare decimal such as "17.62" may be a percentage)."""
    if q.unit == "count":
        pct = not _bare(q) and not re.search(r"\d,\d{3}", q.text)  # ("6,606" is no percentage)
        return ("count", "units", "ratio", "money", "days", "minutes", "hours") + (("pct",) if pct else ())
    return _COMPAT.get(q.unit, (q.unit,))


def _fold(phrase: str) -> str:
    return re.sub(r"[\s-]+", " ", phrase.strip().lower())


def _status(findings: list[Finding]) -> Status:
    statuses = {f.status for f in findings}
    for s in (Status.CONTRADICTED, Status.UNVERIFIABLE, Status.SUPPORTED):
        if s in statuses:
            return s
    return Status.NONE


def checked(kind: str, text: str, ok: bool, evidence: list[str], note: str) -> Finding:
    """A finding that the evidence either supports (``ok``) or contradicts."""
    return Finding(kind=kind, text=text, status=Status.SUPPORTED if ok else Status.CONTRADICTED,
                   evidence=evidence, note=note)


_NOUN_STOP = frozenset(
    "a an the of in on at for from to per across by with and or over into than each every its their our".split()
)


def counted_noun(text: str, end: int) -> str:
    """The stem of what a count counts ("14 Python services" → "servic", "3 teams" → "team"): the last
    of up to three words right after it, before a preposition or punctuation; "" when none."""
    words: list[str] = []
    for m in re.finditer(r"[\s*_]*([A-Za-z][\w-]*)|.", text[end : end + 40]):
        if not m.group(1) or m.group(1).lower() in _NOUN_STOP or len(words) == 3:
            break
        words.append(m.group(1))
    return stem(words[-1]) if words and words[-1][:1].islower() else ""


_INDEX = re.compile(  # before a word that is no unit: "1 trim AAPL", not "1 yr 9 mos"
    r"(?:^|:|\s{2,})\s*(\d{1,2})[.)]?(?=\s+(?!(?:yrs?|years?|mos?|months?|wks?|weeks?|days?|hrs?|hours?|mins?|"
    r"minutes|sh|shares|units|pct|percent|per|of|x|k|m|bn)\b)[a-z])"
)


_PAREN_INDEX = re.compile(r"\((\d{1,2})\)(?=\s)")


def list_indexes(text: str) -> list[tuple[int, int]]:
    """The numbers of a list run into one line ("to do:  1 trim AAPL 79  2 sell MSFT 600  3 note …",
    "confirm (1) the Apple trim, (2) the Microsoft sale"): 1, 2, 3 … in order; not figures."""
    out: list[tuple[int, int]] = []
    for rx in (_INDEX, _PAREN_INDEX):
        found = list(rx.finditer(text))
        numbers = [int(m.group(1)) for m in found]
        if len(found) >= 2 and numbers[0] <= 1 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            out += [(m.start(1), m.end(1)) for m in found]
    return out


# figures that are no claims of a fact: a self-rated level, a score, working before rounding, a figure
# denied, an arrow to the cap, the rounding of a gloss
_RATING = re.compile(r"[\u2580-\u259f★☆●○◉◯■□▪▫]{3,}\s*$")  # "Python ████████░░ 80%": a self-rated level
# "Score: 4/5", "rated 4 out of 5", "8/10", "★ 4": a judgement on a scale, not a fact of the sources
# ("Your match with this role: 85%", "Match for this project: 92%": a platform's score of the profile)
_SCORE_BEFORE = re.compile(r"\b(?:score[sd]?|rating|rated|fit|match)(?:\s+(?:with|for|to)\s+[\w ]{2,24}?)?\s*[:=]?\s*$",
                           re.IGNORECASE)
_SCORE_AFTER = re.compile(r"\s*(?:/|out\s+of\s+)(?:5|10|100)\b(?![.,]\d)|\s*(?:stars?\b|★)", re.IGNORECASE)
# "78.95 rounded up", "I got 78.95 sh and rounded up": the working before a fact's rounding
_UNROUNDED = re.compile(r"\s*(?:sh|shares?|units?)?\s*(?:and\s+)?(?:I\s+)?rounded\b", re.IGNORECASE)
_DENIED = re.compile(  # "about forty-four percent, not thirty-five": the figure after "not" is one denied
    r"(?:[,;—–]\s*(?:and\s+|but\s+)?not|\b(?:rather\s+than|instead\s+of))\s+(?:the\s+)?(?:about\s+|around\s+|~\s*)?$",
    re.IGNORECASE,
)
_REQUIRED = re.compile(  # "more than the 7 years asked for": the job ad's requirement, not the candidate's figure
    r"\s*(?:years?\s+)?(?:(?:of\s+experience\s+)?(?:asked\s+for|required|requested)\b|(?:that\s+|which\s+)?the\s+"
    r"(?:role|job|ad|advert|posting|spec|listing)\s+(?:asks|wants|requires|calls)\b)",
    re.IGNORECASE,
)
# "two pieces of evidence", "three things to note", "a few questions": the document's own points, no fact
_DISCOURSE_COUNT = re.compile(
    r"\s+(?:(?:more|other|key|main|quick|big|small|short|further|final)\s+)?(?:pieces?\s+of\s+evidence|points?|"
    r"things?|questions?|reasons?|examples?|options?|takeaways?|caveats?|concerns?|observations?|suggestions?|"
    r"comments?|topics?|bullets?|headlines?|places?|items?\s+(?:to|for|on)|ways?\s+(?:to|of))\b",
    re.IGNORECASE,
)
# "Microsoft broke TWO of them", "AAPL trips one rule": how many of the rules a holding breaks
_RULES_BROKEN = re.compile(
    r"\b(?:broke|breaks?|breach(?:es|ed)?|trip(?:s|ped)?|trigger(?:s|ed)?|violat\w+|fail(?:s|ed)?|hits?|"
    r"meets?|met|pass(?:es|ed)?)\s+(?:only\s+|just\s+|all\s+)?$",
    re.IGNORECASE,
)
_OF_RULES = re.compile(r"\s+(?:of\s+(?:them|those|these|the\s+(?:rules|tests|checks))\b|(?:rules?|tests?|checks?)\b)",
                       re.IGNORECASE)
_OVER_CAP = re.compile(r"\s*[▲↑▼↓]\s*(?:vs\.?\s*)?(?:the\s+)?(?:cap|limit)\b", re.IGNORECASE)
_GLOSS_YEARS = re.compile(r"\s*\(\s*(?:~|about\s+|c\.\s*)?(\d+(?:\.\d+)?)\+?\s*(?:years?|yrs?|y)\b[^()]{0,20}\)", re.I)


_OF_THE_WHOLE = re.compile(  # "… $46.1k of the $51.3k net gain": a part, then the whole it is of
    r"\b(?:of|out\s+of)\s+(?:the|our|your)\s+(?:total\s+|overall\s+|combined\s+|whole\s+)?[~≈]?$", re.IGNORECASE)
# "GOOG: review in 4 weeks", "check again within a month": when, not how long something was
_PLAN_BEFORE = re.compile(
    r"\b(?:review|revisit|reassess|re-?check|check|look|re-?evaluate|reconsider)\w*(?:\s+(?:it|again|back|this|them))?"
    r"\s+(?:in|within|after)\s+(?:another\s+|the\s+next\s+|about\s+|~)?$"
    r"|\b(?:give|giving)\s+(?:it|them|this|that)\s+(?:another\s+|a\s+further\s+|about\s+)?$",  # "We give it two weeks."
    re.IGNORECASE,
)


# figures (figures.py): a data field's key that names a percentage; a list of orders ("Orders entered: AAPL -79,
# MSFT -600": a signed whole number is a number of shares); an accountant's parenthesis for a loss; a spread
# between holdings; hedge words; a pronoun subject; a holding the sentence does not name ("a sub-$23k position")
_PCT_KEY = re.compile(r"\b(?:pct|percent)\s*[:=]\s*$", re.IGNORECASE)  # a data field's key names a percentage
_ORDERS = re.compile(r"\b(?:orders?|trades?|tickets?|fills?|executions?|blotter)\b[^.;]*$", re.IGNORECASE)
_ACCOUNTING = re.compile(r"\(\s*[$€£]?\s*$")
_SPREAD = re.compile(r"\b(?:spread|apart|gap|difference|differ|separat\w*)\b", re.IGNORECASE)
_HEDGE_WORDS = re.compile(r"\s*\b(?:about|around|roughly|approximately|approx\.|nearly|almost|just)\s*$|~\s*$", re.I)
_PRONOUN_SUBJECT = re.compile(r"\b(?:it|it's|it’s|its|she|he|this\s+one|that\s+one|the\s+\w+\s+one)\b", re.I)
_A_HOLDING = re.compile(r"(?<!\bper\s)\b(?:position|holding|stake)\b", re.IGNORECASE)
# a direction anywhere in a sentence; a figure in a parenthesis compared with one before ("ahead of Apple (47.12 %)")
_ANY_DIRECTION = re.compile(
    r"[-−–]\s*(?:c\.|~|about|approx\.?)?\s*\d|\b(?:down|lost|los[se]s?|losing|lower|fell|fall(?:en)?|declin\w*|"
    r"negative|under\s?water|red|drop\w*|shr[iu]nk\w*|below|less|up|gain\w*|rose|risen|positive|profit\w*)\b",
    re.IGNORECASE,
)
_COMPARED_PAREN = re.compile(
    r"[^.;]{0,40}\b(?:ahead\s+of|behind|above|below|than|versus|vs\.?|compared\s+with|next\s+to)\s+"
    r"[\w.&'’ ]{1,30}?\s*\(\s*(?:~|about|around)?\s*$", re.IGNORECASE,
)
