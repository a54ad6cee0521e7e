"""Directions checked against the evidence: "Apple is up", "the losing positions in Microsoft and
Google", "the others are in profit" — a gain called a loss, or a rise a fall, is contradicted (a part
of the Verifier)."""

from __future__ import annotations

import re

from .binding import Binding
from .catalogue import Mention
from .model import Finding
from .patterns import _GLOBAL_NEAR, _LIST_SEP, _PERF_DOWN, _PERF_UP, checked

_THE_REST = re.compile(r"\b(?:the\s+rest|the\s+others|the\s+other\s+(?:\w+\s+)?(?:holdings|positions|stocks|names))\b"
                       r"[^.;]*$", re.IGNORECASE)
# "the losing positions in Microsoft and Google": the holdings a direction word names after it
_NAMED_AFTER = re.compile(
    r"(?:\s+(?:positions?|holdings?|stakes?|names?|lines?|bets?))?\s+(?:in|at|of|on|for)\s+(?:the\s+)?", re.IGNORECASE
)
# "a huge, profitable company": the business's earnings, not the holding's gain
_BUSINESS = re.compile(r"\s+(?:company|companies|business|businesses|firm|firms|enterprise|corporation|franchise)\b",
                       re.IGNORECASE)
# an indirect question ("how far things fell") and a rule named by what it watches ("a loss trigger")
_NOT_MOVED = re.compile(r"\bhow\s+(?:far|much|fast|hard)\s+(?:\w+\s+){1,3}$", re.IGNORECASE)
# "the trim is about concentration rather than a loss": the direction set aside, said of nothing
_SET_ASIDE = re.compile(r"\b(?:rather\s+than|instead\s+of)\s+(?:an?\s+|the\s+|any\s+)?$", re.IGNORECASE)
_LOSS_RULE = re.compile(r"[\s-]+(?:triggers?|rules?|thresholds?|limits?|levels?|lines?|tests?|flags?)\b", re.IGNORECASE)


class Directions(Binding):
    """Directions said of holdings (a part of the Verifier)."""

    def _directions(self, text: str, mentions: list[Mention], scope: list[str], advice: bool) -> list[Finding]:
        if advice:
            return []
        out = []
        for rx, sign in ((_PERF_UP, 1), (_PERF_DOWN, -1)):
            for m in rx.finditer(text) if rx else []:
                if sign < 0 and re.match(r"\s+to\s+(?![-−~≈$€£\d])", text[m.end() :]):
                    continue  # "most of that is down to Apple": owed to it, not a fall
                if _NOT_MOVED.search(text[: m.start()]) or _SET_ASIDE.search(text, 0, m.start()) \
                        or _LOSS_RULE.match(text, m.end()) \
                        or _BUSINESS.match(text, m.end()):
                    continue  # "how far things fell", "a holding with a loss trigger": no holding is said to move
                clause = [x for x in mentions if not self._boundaries(text, x.start, m.start())]
                before = [x for x in clause if x.end <= m.start()]
                named = self._named_after(text, m.end(), mentions)
                if named:  # "the losing positions in Microsoft and Google": the holdings it goes on to name
                    clause = named
                elif before:  # "Apple is huge, and MSFT/GOOG are both underwater": the list nearest the word
                    run = [before[-1]]
                    for x in reversed(before[:-1]):
                        if not _LIST_SEP.fullmatch(text[x.end : run[0].start]):
                            break
                        run.insert(0, x)
                    clause = run
                clause_ents = [x.entity for x in clause]
                plural = re.search(r"\b(?:positions|holdings|stocks|names|shares|companies)\b", text, re.IGNORECASE)
                rest = _THE_REST.search(text[: m.start()])  # "The others are in profit": not the last named
                guessed = [self._entity_for(text, m.start(), mentions, scope)] \
                    if not mentions and not plural and not rest else []
                if guessed == [None] and not _GLOBAL_NEAR.search(text):
                    guessed = []  # "the worst hole you fell into": no holding, nor the whole, is said to fall
                ents = clause_ents or guessed  # "Positions showing a loss": some of them, none named
                for entity in ents:
                    facts = [
                        f
                        for f in self._facts(entity)
                        if (metric := self.ev.metric(f.metric)) and metric.direction_default
                    ]
                    if not facts:
                        continue
                    f = facts[0]
                    ok = self._sign_of(f) == sign
                    out.append(
                        checked(
                            "direction",
                            m.group(0),
                            ok,
                            [f.id],
                            f"{f.id} = {f.shown()}",
                        )
                    )
        return out

    @staticmethod
    def _named_after(text: str, end: int, mentions: list[Mention]) -> list[Mention]:
        """The holdings a phrase names right after it ("losing positions in Microsoft and Google",
        "losses at MSFT/GOOG"): a run of mentions after "in", "at", "of", "on" or "for"."""
        lead = _NAMED_AFTER.match(text, end)
        run = [x for x in mentions if lead and x.start == lead.end()]
        for x in mentions:
            if run and x.start > run[-1].end and _LIST_SEP.fullmatch(text[run[-1].end : x.start]):
                run.append(x)
        return run
