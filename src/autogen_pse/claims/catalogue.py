"""Entity mentions: the task's catalogue (names, aliases, tickers) and organisation-like names it lacks.

:class:`Catalogue` finds catalogue entities in text (names case-insensitively, symbols such as
tickers case-sensitively, possessives allowed). :func:`unknown_names` finds names the catalogue
does not know: a ticker in a ticker context (``$CSCO``, ``(TSLA)``, ``CSCO shares``) or a run of
capitalised words that is not at the start of a sentence and not a word of the sources — an
ordinary abbreviation (``DD``, ``CPA``, ``ASAP``, ``TL;DR``) is never read as a ticker.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .evidence import Evidence
from .lexicon import STOPWORDS, phrase_regex, stem
from .patterns import _INITIAL

_TICKER_CONTEXT = re.compile(
    r"(?:\$(?P<a>[A-Z]{2,5})\b|\((?P<b>[A-Z]{2,5})\)|\b(?P<c>[A-Z]{2,5})\s+(?:shares|stock|stake|position|holding)\b"
    r"|\b(?:position|stake|holding|shares|exposure)\s+(?:in|of|to)\s+(?P<d>[A-Z]{2,5})\b"
    r"|\b(?:buy|buying|add|adding|sell|selling|trim|trimming|into|rotate into|switch into)\s+(?P<e>[A-Z]{2,5})\b"
    r"|\b(?:symbol|ticker|sym)\s*[:=]\s*(?P<f>[A-Z]{2,5})\b)"  # "symbol: ORCL", a log's or a table's field
)
_CAPS_WORD = re.compile(r"\b[A-Z]{3,5}\b")
_LIST_BEFORE = re.compile(r"\b([A-Z]{2,5})\s*(?:,|&|/|\band\b|\bor\b)\s*$")
_LIST_AFTER = re.compile(r"\s*(?:,|&|/|\band\b|\bor\b)\s*([A-Z]{2,5})\b")
# "Villaseñor", "Andrés": accented letters are part of a name (not "Ia" of "IaC")
_NAME_WORD = r"(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ0-9]+(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ0-9]+)*(?![A-Za-zÀ-ÖØ-öø-ÿ])|[A-Z][A-Z0-9]+\b)"
_CAP_RUN = re.compile(
    rf"\b{_NAME_WORD}(?: (?:& )?(?:{_NAME_WORD}|of|and|de|la|for))*"  # a tab ends a table cell, and a name
    r"(?: (?:Inc|Ltd|LLC|Corp|Group|Bank|Capital|Partners)\.?)?"
)
_ORG_SUFFIX = re.compile(
    r"\b(?:Inc|Ltd|LLC|GmbH|PLC|plc|Corp|Corporation|Limited|Group|Bank|Capital|Partners|"
    r"Technologies|Systems|Labs|Software|AG)\b\.?|\b(?:S\.A|N\.V|S\.p\.A)\b\.?"
)
_LEGAL_FORM = re.compile(r"(?:Inc|Ltd|LLC|GmbH|PLC|plc|Corp|Corporation|Limited|AG)\b\.?|(?:S\.A|N\.V|S\.p\.A)\b\.?")
_STOP_CAPS = frozenset(
    """
I A An The This That These Those It Its We Our Us You Your He She They Their There Here What When Where Which
Who Why How And But Or Nor So Yet For If In On At By To Of As From With Without Within Into Over Under After
Before Since Until While Both Each Every All Any No Not Only Also Just Still Even Then Than Once Note Notes NB
PS TL DR TLDR Summary Findings Finding Actions Action Next Steps Step Priority Symbol Amount Reason Overview
Recommendation Recommendations Bottom Line Key Risk Risks Rules Rule Review Reviews Portfolio Conclusion
Conclusions Context Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May
June July August September October November December Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Q1 Q2 Q3
Q4 H1 H2 FY YTD BUY SELL TRIM HOLD REVIEW PASS FAIL OK Yes No None N/A NA TBD Mr Ms Mrs Dr St Sr Jr Present
Current Today Experience Education Skills Certifications Summary Profile Projects Languages Achievements
Impact Selected Key Professional Technical Work History Employment Career Core Competencies Highlights Contact
Interests Awards Up Down Gain Gains Loss Losses Issued Credential Record Appointments Electronic Quarterly
Status Met Open Closed Failed Passed Done Pending Breach Breached Compliant Flagged Checked Scope Sources Source
Prepared Owner Reviewer Findings Evidence Result Results Outcome Comment Comments Remarks Target Goal
Have Has Had Do Does Did Is Are Was Were Be Been Will Would Should Could Can Must Really Very Never Always
Altogether Overall Great Per
Hi Hey Hello Dear Thanks Thank Cheers Regards Best Morning Evening Afternoon Team All Everyone Folks Qs Hola
Querido Querida Estimado Estimada Bonjour Hallo Ciao Atentamente Saludos
Slide Slides Speaker Presenter Chart Image Figure Fig Table Appendix Agenda Deck Page Section Caption Thinking Thought
Reasoning Answer Final Draft Question Assistant User Wait Hmm Referees References Level Levels Expert Advanced
Intermediate Beginner Basic Proficient Fluent Native About Around Roughly Approximately Nearly Almost Analyst Chair
Committee Sub Trustee Trustees Board Scheme Bot Secretary
Members Minutes Résumé Resume Caught Nasdaq NASDAQ Dow Jones Wall Street New Year Years Day Christmas
Easter Thanksgiving Mail Email E-Mail E-mail Mobile Phone Tel Proficiencies Qualifications Declaration Personal
Madam Madame Sir Monsieur Senior Junior Chief
Details Strengths Objective Tips Changes Mio Mrd Tsd Mn Bn Residence Telephone Surname Hobbies Sr Sra Srta
Due Body Subject Export Exported Eng Dev Mgr Snr Jnr Score Scores Rating Ratings Scorecard Home Now Skip Menu
Contents United States Schedule Schedules Clause Clauses Annex Exhibit Dad Mum Mom Grandad Grandpa Grandma Granny Nan
Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun Commentary Manager's Backlog Doing Parked Kanban
Analytics Analysis Description Descriptions Moderator Margin
""".split()
)
GENERIC_ABBREVIATIONS = frozenset(
    """
DD MDD CPA ASAP TLDR TL DR FYI FAQ NB PS ETA EOD EOW EOM IMO IMHO AKA AKA RIP KPI KPIs OKR OKRs ROI ROE ROA EPS PE
PEG NAV IPO FX CEO CFO CTO COO CIO VP SVP EVP HR PR QA UX UI AI ML API APIs SDK SLA SLO SLOs SLI URL JSON CSV
PDF UTC ISO GMT PST EST USD EUR GBP JPY CHF CAD AUD CNY HKD US USA UK EU UN EM DM GDP CPI SEC FED FOMC ECB IRS
HMRC FCA FINRA NYSE DJIA REIT REITs ETF ETFs ESG SMA EMA RSI MACD ATR VAR VaR CVAR BPS HHI PNL PL CAGR YTD MTD
QTD YOY YoY QoQ MoM TTM LTM NTM ATH ATL DCA LIFO FIFO IRA ISA SIPP TFSA ETA OTC ADR MSCI FTSE DAX IBD WSJ FT
CNBC ASAP S&P NOTE WARN INFO TBD TBC NA NB OK PASS FAIL BUY SELL TRIM HOLD REVIEW MAX MIN AVG ALL NONE
YAML YML XML DOCX TXT NFA DYOR IAC CI CD LHL GL YRS YR YOE TOC ATS TSV
WGT WT VOL PX PCT MAXDD XS SHS SH MLN MN BN CO GOVT REC RECO CERTS CERT TRUE FALSE CTRL
DESC ASC WTS RNK SYM FLG Q&A DOB SSN NI NINO TIN KYC AML PII GDPR ID IDs REF ACCT AC TODO FIXME XXX DOC MV
UNRLZD RPT JOB PG PGM EOJ
""".split()
)


_DOT_FIELD = re.compile(r"·[^A-Za-z0-9,]*$")
# (or a figure, a date: "5 holdings · Updated Mar 1, 2010")
_GOES_ON = re.compile(r"[ \t]+(?:[a-z]|\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?[ \t]+\d)")
# a quotation opening in sentence case: 'Her talk, "Paying less for the cloud …"', 'a short "Proudest achievement"'
_QUOTE_OPENS = re.compile(r"(?:^|\s)[\"“‘][*_]*$")


def sentence_initial(text: str, start: int, end: int) -> bool:
    """The word at ``start:end`` opens a sentence, a line, a field or a quotation, where a capital says
    nothing: "Open to work · Likely to respond" (after a middle dot or an opening quote only when
    words go on in lower case: a list of names, "Go · Rust · Kafka", is names)."""
    before = text[:start]
    return bool(_INITIAL.search(before) or ((_DOT_FIELD.search(before) or _QUOTE_OPENS.search(before))
                                            and _GOES_ON.match(text, end)))

def is_abbreviation(word: str) -> bool:
    """An ordinary abbreviation, singular or plural ("PR", "PRs", "KPIs")."""
    return word.upper() in GENERIC_ABBREVIATIONS or (
        word.endswith("s") and word[:-1].isupper() and word[:-1] in GENERIC_ABBREVIATIONS)


@dataclass(frozen=True)
class Mention:
    entity: str
    start: int
    end: int
    text: str


class Catalogue:
    """Finds the catalogue's entities in text; longest name wins where names overlap."""

    def __init__(self, evidence: Evidence) -> None:
        self._by_name: dict[str, str] = {}
        self._by_symbol: dict[str, str] = {}
        # entities known by a ticker ("AAPL"): an unknown word in capitals may be another one
        self.has_tickers = any(re.fullmatch(r"[A-Z]{2,5}", e.id) and e.id in e.symbols for e in evidence.entities)
        self.sharing: dict[str, tuple[str, ...]] = {}  # entity → every entity with one of its names
        for e in evidence.entities:
            for name in _with_abbreviations(e.names):
                first = self._by_name.setdefault(_norm(name), e.id)
                if first != e.id:  # two degrees at one school, two roles at one employer
                    self.sharing[first] = (*self.sharing.get(first, (first,)), e.id)
            for sym in e.symbols:
                self._by_symbol.setdefault(sym, e.id)
        # "aapl", "msft" in a lower-case chat: a ticker of three or more capitals, when the
        # lower-case word is not English the evidence uses ("all", "cat" stay words)
        words = {w.lower() for text in evidence.vocabulary for w in re.findall(r"[A-Za-z]+", text)}
        for sym, entity in list(self._by_symbol.items()):
            low = sym.lower()
            if re.fullmatch(r"[A-Z]{3,5}", sym) and low not in words and low not in STOPWORDS:
                self._by_symbol.setdefault(low, entity)
        self._names = phrase_regex(list({n for e in evidence.entities for n in _with_abbreviations(e.names)}))
        symbols = sorted(self._by_symbol, key=len, reverse=True)
        self._symbols = (
            re.compile(r"(?<![\w.&-])\$?(" + "|".join(re.escape(s) for s in symbols) + r")(?![\w&-])")
            if symbols
            else None
        )
        self.known_words = frozenset(w.lower() for n in self._by_name for w in n.split()) | frozenset(
            s.lower() for s in self._by_symbol
        )

    def find(self, text: str) -> list[Mention]:
        found: list[Mention] = []
        if self._symbols is not None:
            for m in self._symbols.finditer(text):
                found.append(Mention(self._by_symbol[m.group(1)], m.start(), m.end(), m.group(0)))
        if self._names is not None:
            for m in self._names.finditer(text):
                entity = self._by_name.get(_norm(m.group(0)))
                if m.group(0).islower() and _COMMON_COMPOUND.match(text, m.end()):
                    continue  # "the old apple tree", "the amazon rainforest": the fruit, the river
                if entity is not None:
                    found.append(Mention(entity, m.start(), m.end(), m.group(0)))
        found.sort(key=lambda x: (x.start, -(x.end - x.start)))
        out: list[Mention] = []
        for mention in found:
            if out and mention.start < out[-1].end:
                continue
            out.append(mention)
        return out

    def knows(self, name: str) -> bool:
        n = _norm(name)
        return n in self._by_name or name in self._by_symbol

    def derives(self, word: str) -> bool:
        """``word`` is a known name with a short ending: its people or fans ("Googlers", "Amazonians")."""
        w = word.lower()
        return any(w.startswith(n) and 0 < len(w) - len(n) <= 4 for n in self._by_name if len(n) >= 5 and " " not in n)


_COMMON_COMPOUND = re.compile(r"\s+(?:trees?|pies?|orchards?|juice|blossoms?|rainforest|river|basin|jungle)\b")


# the usual short forms of the words of a company's or a school's name ("Intl Business Machines", "Univ. of Leeds")
_SHORT_FORMS = {"International": ("Intl", "Int'l", "Intl."), "Corporation": ("Corp", "Corp."),
                "Company": ("Co", "Co."), "University": ("Univ", "Univ.", "Uni"), "Technologies": ("Tech",),
                "Manufacturing": ("Mfg",), "Incorporated": ("Inc", "Inc.")}


def _with_abbreviations(names: list[str]) -> list[str]:
    """``names`` and each with one word written in its usual short form."""
    out = list(names)
    for name in names:
        for word, shorts in _SHORT_FORMS.items():
            if re.search(rf"\b{word}\b", name):
                out += [re.sub(rf"\b{word}\b", short, name) for short in shorts]
    return list(dict.fromkeys(out))


def _norm(text: str) -> str:
    return re.sub(r"[\s\-–—]+", " ", re.sub(r"[’']s$|[.,]$", "", text.strip())).lower()


_PERSON_BEFORE = re.compile(  # a first name after a word for a person or a sign-off
    r"\b(?:member|members|editor|secretary|chair|treasurer|president|brother|sister|brother-in-law|sister-in-law|"
    r"wife|husband|spouse|friend|colleague|neighbou?r|adviser|advisor|planner|accountant|banker|welcome|thanks|cheers|"
    r"regards|love|congratulations|congrats)"
    r"[,:]?\s+(?:to\s+)?(?-i:[A-Z][\w'’-]+\s+)?$"  # ("Our adviser, Marcus Oyelaran": the surname too)
    r"|^\W*(?:\w+[ -]){0,2}(?:regards|wishes|cheers|thanks|love|yours|abrazo|saludos|atentamente|cordialmente"
    r"|grüße|gruß|cordialement|amitiés)[,!]?\s+$"
    r"|\b(?:I'm|I am|my name is|call (?:her|him|me|them))\s+$|\bhosts?\s*:[^\n]*$",
    re.IGNORECASE,
)
_GREETED = re.compile(r"(?:Hi|Hey|Hello|Hiya|Dear|Morning)\s+[A-Z][a-z'’-]+")  # "Hi Tom 👋 quick …"
# after a name: "Bev (secretary)", "RENATA ALVES, ADVISER:", "Dana Whitfield wrote:", "**Sam Ortega** lgtm"
_SURNAME = r"(?:[ \t]+[A-Z][\w'’-]+)?"
_PERSON_AFTER = re.compile(
    rf"{_SURNAME}(?:['’]s)?\s*(?:\(|,\s*)(?:our\s+)?(?:secretary|editor|chair|treasurer|president|member)\b"
    rf"|{_SURNAME}\s*(?:\(|,\s*)(?:adviser|advisor|client|host|co-host|analyst|planner|interviewer)\s*[):]"
    r"|(?:\*\*|__)?\s+(?:wrote|said|says|asked|asks|replied|commented|approved|lgtm|reopened|changed\s+(?:the\s+)?status)\b",
    re.IGNORECASE,
)
# a first name's initial: "H. Abernathy-Cruz", "D. McAllister" (not the "S." of "U.S. Steel")
_FIRST_INITIAL = re.compile(r"(?:^|[\s|(,])[A-Z]\.\s?(?:[A-Z][a-z'’]+-)?$")
_HONORIFIC = re.compile(  # "Mr Sato", "Dr N. Hartmann", "Mrs Oyelaran-Whitfield"; "Hi Tom", "Dear Priya"
    r"\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sir|Dame|Miss)\.?\s+(?:[A-Z]\.\s*)*(?:[A-Z][\w'’]*-)?$|^(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s"
    r"|\b(?:Sr|Sra|Srta|Don|Doña|Herr|Frau|Mme|Mlle)\.?\s+(?:[A-Z]\.\s*)*$"  # other languages' honorifics
    r"|(?:^|\n|[,.!]\s)\W*(?:Hi|Hey|Hello|Hiya|Dear|Morning|Thanks|Cheers|Hola|Querid[oa]|Estimad[oa]|Bonjour|Hallo"
    r"|Liebe[rs]?|Ciao)[,\s]+$"
)


_NUMBER_NAMES = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million half "
    "dozen".split()
)
_LABEL = re.compile(r"(?:\s+(?:in|for|by|at|to|on|of))?\s*:")  # "Based in:", "Submitted for:": a label
_LABEL_START = re.compile(r"(?:^|[|·•;\n)—–]|\*\*)\W*(?:[\w'’&.-]+\s+){0,3}$")  # … when it opens its line or field


def is_person(text: str, start: int, end: int) -> bool:
    """Is the name ``text[start:end]`` a person's: after an honorific ("Dr N. Hartmann") or an initial
    ("H. Abernathy-Cruz"), a word for a person ("our newest member, Priya"), in a sign-off ("Sun-kissed
    regards, Edie"), or before a role ("Bev (secretary)")?"""
    before = text[:start]
    return bool(_HONORIFIC.search(before) or _PERSON_BEFORE.search(before[-40:]) or _PERSON_AFTER.match(text, end)
                or _FIRST_INITIAL.search(before[-40:]))


def is_initialism(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a person's initials after the name, in brackets ("Rafael Cruz (RC)")?
    It is that name, already judged. (Longer ones, "British Computer Society (BCS)", are organisations.)"""
    sym = text[start:end]
    if not (sym.isupper() and len(sym) == 2 and text[start - 1 : start] == "(" and text[end : end + 1] == ")"):
        return False
    words = re.findall(r"[A-Za-z][\w'’.-]*", text[max(0, start - 80) : start - 1])
    return "".join(w[0] for w in words[-len(sym) :]).upper() == sym


def is_label(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a field label ("Based in: Manchester", "Employer: Acme"), not a name
    followed by a colon in a sentence ("a migration with Thoughtworks: 14 services")?"""
    return bool(_LABEL.match(text, end)) and _LABEL_START.search(text[:start]) is not None


# "E. Moreau, Senior Portfolio Reviewer", "Conseillère en Gestion de Patrimoine": a person's role, not a name
_ROLE_TITLE = re.compile(
    r"\b(?:Reviewer|Adviser|Advisor|Manager|Director|Directrice|Directeur|Analyst|Officer|Planner|Consultant|"
    r"Conseill\w*|Secretary|Editor|Strategist|Economist|Specialist)$"
)
# "a portfolio of American equities": an adjective of a country, not a name (a statement may still rest on it)
_DEMONYM = re.compile(r"American|European|French|German|British|English|Spanish|Italian|Dutch|Swiss|Japanese|Chinese|"
                      r"Canadian|Australian")
_LEAD_END = re.compile(r"(?:\*\*|__|\]\])?\s+[—–]\s")  # "Cisco — …": the name a list item is about


def unknown_names(
    text: str,
    catalogue: Catalogue,
    known: frozenset[str],
    taken: list[tuple[int, int]],
    stems: frozenset[str] = frozenset(),
) -> list[Mention]:
    """Organisation-like names in ``text`` that neither the catalogue nor ``known`` (lower-cased words
    of the sources and the vocabulary) nor ``stems`` (their word stems: "Optimisation" of "optimise")
    explain; ``taken`` spans are skipped."""
    out: list[Mention] = []

    def free(s: int, e: int) -> bool:
        return not any(a < e and s < b for a, b in taken)

    for m in _TICKER_CONTEXT.finditer(text):
        sym = next(g for g in m.groups() if g)
        s = m.start(sym and next(k for k in "abcdef" if m.group(k)))
        if is_abbreviation(sym) or catalogue.knows(sym) or sym.lower() in known or not free(s, s + len(sym)) \
                or is_initialism(text, s, s + len(sym)):
            continue
        out.append(Mention("?ticker", s, s + len(sym), sym))
        taken = [*taken, (s, s + len(sym))]
    if catalogue.has_tickers:  # "AMZN, IBM and CSCO are clean": a ticker listed with the holdings' tickers
        for m in _CAPS_WORD.finditer(text):
            sym, s = m.group(0), m.start()
            before = _LIST_BEFORE.search(text, 0, s)
            after = _LIST_AFTER.match(text, m.end())
            if not any(x and catalogue.knows(x.group(1)) for x in (before, after)) or is_abbreviation(sym) \
                    or catalogue.knows(sym) or sym.lower() in known or not free(s, m.end()):
                continue
            out.append(Mention("?ticker", s, m.end(), sym))
            taken = [*taken, (s, m.end())]
    def runs() -> Iterator[re.Match[str]]:  # "IBM and Oracle": the part of a run no known name takes
        for m in _CAP_RUN.finditer(text):
            if free(m.start(), m.end()):
                yield m
                continue
            edges = sorted((max(a, m.start()), min(b, m.end())) for a, b in taken if a < m.end() and m.start() < b)
            pos = m.start()
            for a, b in [*edges, (m.end(), m.end())]:
                if a > pos:  # a whole word of its own ("Oracle"), not an abbreviation's piece ("SA Assoc.")
                    yield from (x for x in _CAP_RUN.finditer(text, pos, a)
                                if re.fullmatch(r"[A-Z][a-z]{3,}", x.group(0)) and text[x.end() : x.end() + 1] != ".")
                pos = max(pos, b)

    for m in runs():
        words = [w for w in re.split(r"[ \t]+", m.group(0)) if w and w not in ("of", "and", "de", "la", "for", "&")]
        if not words or not free(m.start(), m.end()):
            continue
        at_start = sentence_initial(text, m.start(), m.end())
        after = re.match(r":\s*([A-Z][a-z]+)", text[m.end() :])  # "ORCL: Oracle, bought as a hedge"
        ticker_key = catalogue.has_tickers and re.fullmatch(r"[A-Z]{3,5}", m.group(0)) and after \
            and not catalogue.knows(after.group(1)) and after.group(1).lower() not in known
        if is_person(text, m.start(), m.end()) or _HONORIFIC.match(m.group(0) + " ") or _GREETED.fullmatch(m.group(0)) \
                or _ROLE_TITLE.search(m.group(0)) or _DEMONYM.fullmatch(m.group(0)) \
                or (is_label(text, m.start(), m.end()) and not ticker_key) or is_initialism(text, m.start(), m.end()):
            continue  # "Mr Sato", "Dr N. Hartmann", "our newest member, Priya", "Bev (secretary)": a person
        # "**CSCO** — in profit", "ORCL: flat", "INTC — small", "[[Cisco]] — flat": a name standing alone as a lead
        before2 = text[max(0, m.start() - 2) : m.start()]
        lead = bool(at_start and len(words) == 1 and _LEAD_END.match(text, m.end())
                    and not text[m.end() :].isupper()  # "AUDIT — PORTFOLIO RULES": a title
                    and (before2 == "[[" or (re.fullmatch(r"[A-Z]{2,5}", m.group(0)) and not before2.endswith("["))))
        ticker_like = re.fullmatch(r"[A-Z]{2,5}", m.group(0)) is not None and (
            lead or re.match(r"\*\*|__|:", text[m.end() :]) is not None)
        if at_start and not ticker_like and not lead and not _ORG_SUFFIX.search(text[m.start() : m.end() + 8]) \
                and not (catalogue.has_tickers and len(words) == 1 and re.fullmatch(r"[A-Z]{3,5}", words[0])
                         and re.match(r"\s+[a-z]", text[m.end() :])):  # "CSCO also sitting in the book"
            words = words[1:]  # a capitalised first word is ordinary English unless it names an org
        name = " ".join(words)
        if not words or catalogue.knows(name) or all(catalogue.knows(w) for w in words):
            continue
        unexplained = [
            w
            for w in words
            if re.sub(r"['’]s$", "", w) not in _STOP_CAPS
            and not catalogue.derives(w)
            and not (w.isupper() and w.title() in _STOP_CAPS)  # "EMPLOYMENT HISTORY"
            and w.lower() not in _NUMBER_NAMES  # "Nine years of …"
            and not is_abbreviation(w)
            and w.lower() not in known
            and stem(w) not in stems
            and not catalogue.knows(w)
            and not (w.isupper() and len(w) < 3)
        ]
        own = [w for w in words if not _LEGAL_FORM.fullmatch(w)]  # the name without its "Inc." or "S.A."
        suffixed = bool(own) and (bool(_LEGAL_FORM.fullmatch(words[-1])) or bool(_LEGAL_FORM.match(text, m.end() + 1)))
        if not unexplained and not (suffixed and not catalogue.knows(name)):  # "Total S.A.", "Acme Inc."
            continue
        out.append(Mention("?lead" if lead or ticker_like else "?", m.start(), m.end(), name))
    return out
