"""Actions, flags and dates checked against the evidence."""

from __future__ import annotations

import re

from .catalogue import Mention
from .directions import _THE_REST, Directions
from .figures import Figures
from .lexicon import NEAR_WORDS, NEGATIONS, tokens
from .model import Finding, Status
from .patterns import (
    _CLAUSE,
    _OBJECT_GAP,
    _OBJECT_WORDS,
    _STRONG,
    _fold,
    checked,
)
from .quantities import find_quantities, matches
from .ranks import Ranks

# "stop_loss_hit: no", "overweight=false": a field's value that says the flag is not set
_NO_VALUE = re.compile(r"[*_]*\s*[:=]\s*[\"']?(?:no|false|n|none|0)\b[\"']?(?!\s*[\w%.-]*\d)", re.IGNORECASE)
# "13.85 points below the 30% cap": under a limit, i.e. not over it (said with the distance; "just under
# the cap" is where a trim leaves it)
_UNDER_LIMIT = re.compile(r"(?:under|below|inside)\s+(?:the|its)\s+(?:[\d.]+\s*%\s+)?(?:cap|limit)\b", re.IGNORECASE)
# "with the stop-loss not yet hit it may be worth adding …": the negation is of a state, not of the action
_NEGATED_STATE = re.compile(r"(?:\s+yet)?\s+(?:been\s+)?(?:hit|triggered|breached|reached|crossed|tripped|touched)\b",
                            re.IGNORECASE)
_ALL_OF = re.compile(r"\b(?:all|entire|entirely|whole|every|completely|fully|outright|altogether|in\s+full|out\s+of"
                     r"|the\s+lot|remaining|position)\b", re.IGNORECASE)
_POINTS_BEFORE = re.compile(r"(?:points?|pts?|pp|p\.p\.)\s*$", re.IGNORECASE)
_BROUGHT = re.compile(
    r"\b(?:back|to|brings?|bringing|gets?|getting|takes?|taking|puts?|putting|until|after|would|will|once|keeps?"
    r"|keeping|stays?|staying|moves?|moving|falls?|drops?)\b(?:\s+[\w'’%.-]+){0,4}\s*$",
    re.IGNORECASE,
)
_ANY_HOLDING_WITH = re.compile(
    r"\b(?:a|any|each|every|one)\s+(?:holding|position|stock|name|share)s?\s+(?:with|that|which|whose|where|having)\b",
    re.IGNORECASE,
)
_CLAUSE_SEP = re.compile(r"[·•|;,]|\s[—–]\s")
_DENIED = re.compile(  # "— not allowed", "is not permitted", "isn't allowed under the rules", "is blocked"
    r"[^.;!?]{0,25}?(?:\b(?:not|never)|n['’]t)\s+(?:be\s+)?(?:allowed|permitted)\b|[^.;!?]{0,25}?\bnot an option\b"
    r"|[^.;!?]{0,25}?\b(?:is|are|stays?|remains?)\s+(?:blocked|prohibited|forbidden|barred|off the table)\b",
    re.IGNORECASE,
)
# "Not allowed: adding to Google …; selling Amazon or IBM.", "What isn't permitted: BUY on GOOG, …": a label
# that denies every action listed after it
_DENIED_LIST = re.compile(
    r"(?:\bnot\s+(?:allowed|permitted)|n['’]t\s+(?:allowed|permitted)|\b(?:forbidden|prohibited|barred|banned|"
    r"disallowed|off[- ]limits|off the table|ruled out))[*_]*\s*:",
    re.IGNORECASE,
)
# a rule's own parameter, not a holding's flag: "Long-held loss: 730+ days", "stop loss pct: -20.00"
_RULE_PARAMETER = re.compile(r"\s*(?:days|pct|percent|threshold)?\s*[:=]?\s*[≥>]?\s*[-−]?\d", re.IGNORECASE)
# "Could we buy more Google instead?", "if we trim aapl to 30 what do we sell": asked, not advised — but
# "Why not add to IBM?" advises
_ASKED = re.compile(r"\?\s*$|\bwhat\s+do\s+(?:we|i|you)\s+$", re.IGNORECASE)
_ADVISING_QUESTION = re.compile(r"\b(?:why\s+not|how\s+about|what\s+about|shouldn['’]t|should\s+(?:we|you|i))\b", re.I)
_REPORTED = re.compile(r"\btold\s+(?:me|us|him|her|them)\s+to\s+$", re.IGNORECASE)  # "my broker told me to buy …"
# '❌ Mistake #3: "Google is cheap now — buy the dip!"': the words quoted as what not to do
_DISOWNED = re.compile(r"(?:❌|\b(?:mistakes?|myths?|wrong|bad idea)\b)[^\"“”]{0,20}[\"“][^\"“”]*$", re.IGNORECASE)
_ANY_SUCH = re.compile(r"\b(?:to|into|on|about|against)\s+(?:a|an|any)\s+$|\b(?:off the table|not allowed|forbidden|"
                       r"banned|prohibited|not permitted|ruled out)\s+for\s+(?:a|an|any)\s+$", re.IGNORECASE)
_RANGE_ON = re.compile(r"\s*(?:–|-|—|to|until|through)\s*(?:\d|present|now|current|today)", re.IGNORECASE)
_PLACEHOLDERS = {"", "-", "—", "–", "N/A", "NA", "ALL", "PORTFOLIO", "CASH", "ALL HOLDINGS"}


_PERMITTED = re.compile(r"\b(?:lets?|allows?|permits?)\s+(?:you|us|me|them)\s+(?:to\s+)?$", re.IGNORECASE)

_SUMMED = re.compile(
    r"\b(?:comes?|came)\s+to\b|\byou\s+get\b|\byou(?:'re|\s+are)\s+at\b|\bin\s+total\b|\btotal(?:s|ling)?\b|\btop\s+(?:three|3|two|2)\b"
    r"|\b(?:three|two)\s+(?:largest|biggest)\b|\badds?\s+up\b",
    re.IGNORECASE,
)


_MOVED_INTO = re.compile(
    r"\b(?P<verb>redeploy|reinvest|re-invest|put|putting|move|moving|rotate|rotating|recycle|plough|plow|funnel|channel)"
    r"\w*\b[^.;:]{0,50}?\b(?:proceeds|cash|money)\b[^.;:]{0,30}?\binto\s+(?:the\s+|more\s+)?$",
    re.IGNORECASE,
)
_SOME_OF = re.compile(r"\s+(?:some|part|a\s+(?:small\s+|little\s+)?(?:part|portion|bit|slice|piece))\s+of\s+"
                      r"(?:it|them|the\s+position|the\s+holding|the\s+stake)\b", re.IGNORECASE)
_AT_PRICE = re.compile(r"\s+(?:shares\s+)?at\s+(~?\s*[$€£]\s?\d[\d,.]*)")
_TERM_DEFINED = re.compile(r"\s+(?:is|means|refers\s+to|just\s+means)\b", re.IGNORECASE)
_THE_NOUN = re.compile(r"(?<!\bis\s)(?<!\bwas\s)(?<!['’]s\s)\bthe\s+$", re.IGNORECASE)  # not "Apple is the …"
_NOUN_END = re.compile(r"\s*(?:[,;.]|$)")


_FUNDS = re.compile(r"(?:['’]s)?\s+(?:trim\s+|sale\s+)?(?:cash|proceeds|money|funds)\b", re.IGNORECASE)
_ELSEWHERE = re.compile(r"\s+(?:(?:in|at|under)\s+(?:clauses?|sections?|items?|rows?|steps?|paragraphs?|points?)\b|"
                        r"(?:in\s+)?§|in\s{4,}(?=\S)|(?:above|below)\b)",  # ("in      …": a reference, blanked)
                        re.IGNORECASE)

class Relations(Directions, Ranks, Figures):
    """Actions, flags and dates (a part of the Verifier; ranks in :mod:`.ranks`, directions in
    :mod:`.directions`)."""

    def _actions(
        self, text: str, mentions: list[Mention], scope: list[str], row: dict[str, str] | None
    ) -> list[Finding]:
        """Recommended actions (table cells and prose) must be allowed for the entity they name."""
        out = []
        if row is not None:
            action = re.sub(r"[*_`]", "", row.get("action", "")).strip().upper()
            lead = re.match(r"([A-Z]+)\b(?=[\s(:—–-]+(?:[~≈]?\s*[$€£]?\d|ALL\b|PART))", action)
            action = lead.group(1) if lead and lead.group(1) in self.ev.actions else action  # "TRIM 79", "SELL (all)"
            symbol = re.sub(r"[*_`$]", "", row.get("symbol", "")).strip()
            named = self.catalogue.find(row.get("symbol", ""))
            if action in self.ev.actions and named:
                out.append(self._allowed([action], named[0].entity, action))
            elif action in self.ev.actions and symbol.upper() not in _PLACEHOLDERS:
                out.append(
                    Finding(
                        kind="entity",
                        text=symbol,
                        status=Status.CONTRADICTED,
                        note=f"{symbol} is not a holding ({', '.join(self.ev.allowed)})",
                    )
                )
            elif action in self.ev.actions and action not in self.ev.entityless_actions:
                out.append(
                    Finding(
                        kind="action",
                        text=action,
                        status=Status.CONTRADICTED,
                        note=f"{action} needs a holding in the Symbol column",
                    )
                )
            text = row.get("reason", "")
            mentions, scope = self.catalogue.find(text), [named[0].entity] if named else scope
        first_verb = self.action_any.search(text) if self.action_any else None
        denied = _DENIED_LIST.search(text)
        verbs_from = first_verb.start() if first_verb else len(text)  # where the first action word is
        for m in self.action_any.finditer(text) if self.action_any else []:
            if denied and denied.end() <= m.start():
                continue  # listed under "Not allowed:"
            actions = self.action_of[_fold(m.group(0))]
            clause_before = _CLAUSE.split(text[max(0, m.start() - 40) : m.start()])[-1]
            after = text[m.end() : m.end() + 40]
            negation = list(NEGATIONS.finditer(clause_before))
            if (negation and not re.search(r"\bwhy\s+not\s+$", clause_before, re.I)
                    and not _NEGATED_STATE.match(clause_before, negation[-1].end())) or (
                any(n.group(0).lower() not in ("rather than", "instead of") for n in NEGATIONS.finditer(after))
                and not re.search(r"\b(?:allowed|permitted)\b", after)
            ):  # ("add to Google rather than sell": the purchase is what is advised)
                continue
            clause_end = re.search(r"[.;!?]|$", text[m.end() :])
            asked = _ASKED.search(text[: m.end() + (clause_end.end() if clause_end else 0)]) or _ASKED.search(
                text, 0, m.start())
            if (asked and not _ADVISING_QUESTION.search(text, 0, m.start())) or _REPORTED.search(text, 0, m.start()) \
                    or _DISOWNED.search(text, 0, m.start()):
                continue
            if re.fullmatch(r"add(?:ing)?", m.group(0), re.IGNORECASE) and _SUMMED.search(text, m.end(), m.end() + 90):
                continue  # "add Google and IBM and the top three come to 76.28 %": a sum, not a purchase
            if _ELSEWHERE.match(text, m.end()):
                continue  # "once the TRIM and SELL in Clauses 6.1 and 6.2 are done": other items' actions
            owner = next(  # "the Apple trim", "AAPL's sale", "the `AAPL` trim"
                (x for x in mentions if x.end <= m.start() and re.fullmatch(r"[’'s\s*_`]*", text[x.end : m.start()])),
                None,
            )
            target = next(
                (
                    x
                    for x in mentions
                    if m.end() <= x.start <= m.end() + 30 and _OBJECT_GAP.fullmatch(text[m.end() : x.start])
                ),
                None,
            )
            noun_use = re.search(  # "a sale here would …", "before the next rebalance"
                r"\b(?:the|a|an|this|that|any|each)\s+(?:(?:next|last|first|quarterly|annual|planned|coming)\s+)?$",
                text[max(0, m.start() - 20) : m.start()], re.IGNORECASE,
            ) or re.match(r"(?:the|a|an)\s", m.group(0), re.IGNORECASE)
            permitted = _PERMITTED.search(text, max(0, m.start() - 30), m.start())
            if permitted and re.match(r"\W*$", text[m.end() : m.end() + 3]):
                continue  # "the only ones your rules let you buy.": what the rules allow, no recommendation
            entity: str | None
            verbs_first = bool(mentions) and m.start() > mentions[0].start > verbs_from
            if owner is not None and not (verbs_first and target is not None and re.fullmatch(r"\s+", text[
                    owner.end : m.start()])):  # "the Apple trim", "AAPL's sale", "AAPL TRIM 79 sh GOOG REVIEW" —
                # but "trim apple sell microsoft": the sale is Microsoft's
                entity = owner.entity
            elif (
                noun_use
                and target is None
                and not re.search(
                    r"\b(?:worth|consider|suggest|recommend|propose|time for|room for|case for)\b"
                    r"[\w\s]{0,12}$",
                    text[max(0, m.start() - 28) : m.start()],
                    re.IGNORECASE,
                )
            ):
                continue  # "the trim", "a sale": which position it is comes from its owner only
            elif target is not None:
                entity = target.entity
            else:
                obj = re.match(
                    r"\s*(?:\w+ly\s+)?(?:of\s+)?(?:(?:some|more|part|all|half|a\s+bit|a\s+few|a\s+little|a\s+small|"
                    r"a\s+couple\s+of|a\s+handful\s+of|a\s+modest|modestly|selectively|another\s+[\w-]+|"
                    r"[\w-]+\s+more|an?\s+(?:extra|further)\s+[\w-]+)\s+(?:of\s+)?)?(?:the|its|it|"
                    r"our|your|my|this|that|them|back|down)?\s*(\w+)?",
                    text[m.end() : m.end() + 45],
                )
                word = (obj.group(1) or "").lower() if obj else ""
                ends = re.match(
                    r"\s*(?:[.;!?]|$|\s(?:at|on|here|now|again|into|in|if|when|while|once|before|after|"
                    r"as|on weakness|on dips|to (?:bank|lock|take|book|realise|realize|capture|secure))\b)",
                    text[m.end() :],
                )
                # "sell all of it.", "proposes to SELL it at the next meeting" (not "the reason for buying it in 2007")
                pronoun = bool(obj and re.search(r"\b(?:it|them)\s*$", obj.group(0))) or (
                    not re.search(r"ing\b", m.group(0), re.IGNORECASE)  # (a gerund: "stop adding to it")
                    and bool(re.match(r"\s*(?:(?:all|some|part|half)\s+of\s+)?(?:it|them)\b", text[m.end() :])))
                if not pronoun and not ends and (word == "" or (
                    word not in _OBJECT_WORDS and not (self.subject_re and self.subject_re.fullmatch(word))
                )):
                    continue
                # "Trim it, deal with Microsoft": "it" is a holding named before, not after; "put some of the Apple
                # cash to work … the only two the rules let him add to": the money's holding is no purchase's
                before = [x for x in mentions if x.end <= m.start()] if pronoun else mentions
                before = [x for x in before if not _FUNDS.match(text, x.end)]
                entity = self._entity_for(text, m.start(), before, scope)
            if entity is None or entity not in self.ev.allowed:
                continue
            if target is not None and self._paid(text, target.end, entity):
                continue  # "Your best decision (buying Apple at $38.45)": the purchase made, at its price
            tail = text[m.end() : m.end() + 40]
            actions = next(
                (
                    [a]
                    for a, words in self.ev.action_objects.items()
                    if any(re.search(rf"\b{re.escape(w)}\b", tail, re.IGNORECASE) for w in words)
                ),
                actions,
            )
            if target is None and _SOME_OF.match(text, m.end()):  # "so we'll sell a small part of it": a trim
                actions = list(dict.fromkeys(actions + self._partial(m.group(0))))
            if target is not None:  # "sell 79 Apple shares" of 250: a part, as "sell some" is
                gap = text[m.end() : target.start]
                actions = list(dict.fromkeys(actions + self._part_of(gap, entity, m.group(0))))
                if noun_use and not find_quantities(gap) and not re.search(r"\b(?:all|entire|whole|every|remaining)\b",
                                                                              gap, re.IGNORECASE):
                    actions = list(dict.fromkeys(actions + self._partial(m.group(0))))  # "the sale of Apple
                    # shares": some of them, unless it says all
                elif re.match(r"sell|sold", m.group(0), re.IGNORECASE) and not find_quantities(gap) \
                        and not _ALL_OF.search(gap + text[target.end : target.end + 30]):
                    # "before you sell Apple": of a holding the rules let you sell part of, a part, unless it says all
                    actions = list(dict.fromkeys(actions + self._partial(m.group(0))))
            finding = self._allowed(actions, entity, m.group(0))
            if _DENIED.match(tail):  # "Buy more Google — not allowed.": the text says the rules forbid it
                ok = finding.status is not Status.SUPPORTED
                finding = checked("action", m.group(0), ok, [f"rules:{entity}"],
                                  f"written as not allowed; {finding.note}")  # fmt: skip
            out.append(finding)
        return out + self._moved_into(text, mentions)

    def _moved_into(self, text: str, mentions: list[Mention]) -> list[Finding]:
        """ "redeploy part of the trim proceeds into Microsoft", "put the AAPL trim cash straight into GOOG":
        money moved into a holding is a purchase of it."""
        buy = self.action_of.get("buy", [])
        out = []
        for x in mentions:
            moved = _MOVED_INTO.search(text, max(0, x.start - 100), x.start)
            if not buy or moved is None or x.entity not in self.ev.allowed:
                continue
            clause = _CLAUSE.split(text[max(0, moved.start() - 40) : moved.start()])[-1]
            if NEGATIONS.search(clause + moved.group(0)) or _ASKED.search(text, x.end) or text.rstrip().endswith("?"):
                continue  # "don't put the cash into Google", "should we move it into Google?"
            out.append(self._allowed(buy, x.entity, moved.group("verb")))
        return out

    def _paid(self, text: str, at: int, entity: str) -> bool:
        """``text`` at ``at`` gives the price ``entity`` was bought at ("… Apple at $38.45")."""
        price = _AT_PRICE.match(text, at)
        if price is None:
            return False
        bought = {m.name for m in self.ev.metrics if self.ev.price_metric and m.then == self.ev.price_metric}
        paid = [f for f in self._facts(entity) if f.metric in bought]  # the price whose "then" is the close
        return any(matches(q, f.value) for q in find_quantities(price.group(1)) for f in paid)

    def _part_of(self, gap: str, entity: str, verb: str) -> list[str]:
        """The actions "<verb> some" means, when ``gap`` gives an amount smaller than the entity holds."""
        for q in find_quantities(gap):
            unit = "units" if q.unit == "count" else q.unit
            limit = self.ev.proposal_bounds.get(unit)
            held = [f.value for f in self._facts(entity) if f.metric == limit]
            if held and 0 < q.value < held[0]:
                return self._partial(verb)
        return []

    def _partial(self, verb: str) -> list[str]:
        """The actions of a part of a holding: what "<verb> some" or "partial <verb>" means ("sell
        some", "partial sale")."""
        partial = (f"{verb} some", f"partial {verb.removesuffix(' of')}")
        return next((self.action_of[p] for p in map(_fold, partial) if p in self.action_of), [])

    def _allowed(self, actions: list[str], entity: str, written: str) -> Finding:
        allowed = self.ev.allowed.get(entity, [])
        ok = any(a in allowed for a in actions)
        said = "/".join(actions)
        return checked(
            "action",
            written,
            ok,
            [f"rules:{entity}"],
            f"{said} {'is' if ok else 'is not'} allowed for {entity} (allowed: {', '.join(allowed)})",
        )

    def _flags(self, text: str, mentions: list[Mention], scope: list[str], table: bool = False) -> list[Finding]:
        out = []
        words = tokens(text)
        for (flag, rx), first in zip(self.flag_re, self.flag_first, strict=True):
            if rx is None or (first is not None and not first & words):
                continue
            for m in rx.finditer(text):
                lo = text.rfind("|", 0, m.start())
                cell = [x for x in mentions if lo < x.start and x.end <= m.start()]  # a table cell's own, before it
                entity = self._entity_for(text, m.start(), cell if table else mentions, scope)  # else the row's
                if entity != flag.entity:
                    continue
                clause = _CLAUSE.split(text[max(0, m.start() - 60) : m.start()])[-1]
                if (
                    NEAR_WORDS.search(clause)
                    or _ANY_HOLDING_WITH.search(clause)  # "SELL is only for a holding with a stop-loss trigger"
                    or NEAR_WORDS.search(text[m.end() : m.end() + 20])
                    or (
                        re.search(r"\b(?:level|rule|threshold|limit|line|cap|test)s?\b", text[m.end() : m.end() + 12])
                        and not re.search(r"\b(?:hit|breach|trigger|past|through|below|beyond|crossed|tripped)", clause)
                    )
                    or _RULE_PARAMETER.match(text, m.end())  # "Long-held loss: 730+ days", "long held loss days: 730"
                    or (_TERM_DEFINED.match(text, m.end()) and not text[: m.start()].strip(" *_0123456789.)"))
                    # "Overweight is just about size, not performance.": the word defined, no holding's flag
                    or (_THE_NOUN.search(text, max(0, m.start() - 9), m.start()) and _NOUN_END.match(text, m.end()))
                    # "the case asks students to quantify the overweight, …": the notion, not a holding's
                    or _ANY_SUCH.search(text, max(0, m.start() - 30), m.start())
                    # "My rules forbid adding to a long-held loss.": any holding that is one
                ):
                    continue
                under = _UNDER_LIMIT.match(m.group(0))
                if under and (_BROUGHT.search(clause) or not _POINTS_BEFORE.search(clause)):
                    continue  # "trim it back under the cap", "which would take it below the cap": where it goes
                # (a mark ends what a negation before it denies: "✅ not yet at the stop ❌ −19.2% … = long-held loss")
                denial = re.split(r"[,;:(=✅❌✔✖→]", clause)[-1]
                negated = bool(NEGATIONS.search(denial) or _NO_VALUE.match(text, m.end()))
                absent = under or re.search(r"\b(?:no|not|nothing|none|within)\b|-free", m.group(0), re.IGNORECASE)
                said = negated if absent else not negated  # "no trigger" says there is none
                ok = said == flag.value
                out.append(checked("flag", m.group(0), ok, [flag.id], f"{flag.id} = {'yes' if flag.value else 'no'}"))
        return out

    def _dates(self, text: str, dates: list, mentions: list[Mention], scope: list[str], advice: bool) -> list[Finding]:
        out = []
        as_of = next((d.value for d in self.ev.dates if d.metric == "as_of"), None)
        for d in dates:
            if as_of and d.value != "present" and d.value[: len(as_of)] > as_of[: len(d.value)]:
                continue  # a date after the valuation date is a plan, not a fact
            entity = self._entity_for(text, d.start, mentions, scope)
            if _THE_REST.search(text, max(0, d.start - 30), d.start):
                continue  # "msft is from 2000, the rest i bought 2005-2007": the holdings not named
            lo = max((c.end() for c in _STRONG.finditer(text, 0, d.start)), default=0)
            hi = min((c.start() for c in _STRONG.finditer(text, d.end)), default=len(text))
            if entity is not None and entity not in scope and not any(
                m.start < hi for m in mentions if m.entity == entity
            ):  # "the current role (since March 2020); her earlier years were … (Harbourside)": a later clause's
                entity = None
            near = {m.entity for m in mentions if lo <= m.start < hi} | {entity}
            near |= {e for n in list(near) for e in self.catalogue.sharing.get(n or "", ())}
            pool = [x for x in self.ev.dates if x.entity in near] if entity else []
            since = re.search(r"\bsince\s+$", text[max(0, d.start - 8) : d.start], re.IGNORECASE)
            context = [e for e in scope if not any(m.entity == e for m in mentions)]  # (a row's scope: its names)
            if entity is not None and entity not in context and not any(
                lo <= m.start < (d.start if since else hi) for m in mentions
            ):  # no entity in the clause, or none before "since 2015" ("Python since 2015, Go at Brightline")
                # "since 2015; currently at Brightline": the whole record's, from its first start
                starts = [x for x in self.ev.dates if x.metric == "start"]
                pool += [x for x in self.ev.dates if x.entity is None] + sorted(starts, key=lambda x: x.value)[:1]
            own = max((c.end() for c in _CLAUSE_SEP.finditer(text, 0, d.start)), default=0)
            alone = len(d.value) == 4 and not mentions and not _RANGE_ON.match(text, d.end)
            paren = text[d.start - 1 : d.start] == "(" and text[d.end : d.end + 1] == ")"
            if (paren and not any(own <= m.start < d.start for m in mentions)) or alone:
                # "· CKAD (2022)", "Certifications: AWS …, 2021": the year of what the clause names,
                # not of the entry it sits in (a year alone, in a sentence naming no entry)
                pool = [x for x in self.ev.dates if x.entity is None and d.agrees(x.value)] or pool
            if not pool:
                pool = [x for x in self.ev.dates if x.entity is None]
            if not pool:
                continue
            if d.value == "present":
                ended = [x for x in pool if x.metric == "end"]
                running = {x.entity for x in pool if x.metric == "start"} - {x.entity for x in ended}
                if ended and not running:
                    out.append(
                        Finding(
                            kind="date",
                            text=d.text,
                            status=Status.CONTRADICTED,
                            evidence=[ended[0].id],
                            note=f"{ended[0].entity} ended {ended[0].display or ended[0].value}",
                        )
                    )
                continue
            ok = [x for x in pool if d.agrees(x.value)]
            if not ok and entity is None and (
                d.value[:4] in self.source_years or any(d.agrees(x.value) for x in self.ev.dates)
            ):
                continue  # a date the sources state ("prices from 2000 to 2010"), of something the text does not name
            # "2017-06-01" of "Jun 2017": a month stored as a date (its first day) says no more than the month
            finer = [x for x in ok
                     if len(d.value) > len(x.value) and not (len(x.value) == 7 and d.value.endswith("-01"))]
            if ok and len(finer) == len(ok):
                x = finer[0]
                out.append(
                    Finding(
                        kind="date",
                        text=d.text,
                        status=Status.UNVERIFIABLE,
                        evidence=[x.id],
                        note=f"the sources give only {x.display or x.value} ({x.id})",
                    )
                )
                continue
            if not ok and advice:
                continue
            if ok:
                out.append(
                    Finding(
                        kind="date",
                        text=d.text,
                        status=Status.SUPPORTED,
                        evidence=[ok[0].id],
                        note=f"{ok[0].id} = {ok[0].display or ok[0].value}",
                    )
                )
            else:
                shown = ", ".join(f"{x.id} = {x.display or x.value}" for x in pool[:3])
                out.append(
                    Finding(
                        kind="date",
                        text=d.text,
                        status=Status.CONTRADICTED,
                        evidence=[x.id for x in pool[:3]],
                        note=f"{d.text} is not a date of {entity or 'the sources'} ({shown})",
                    )
                )
        return out
