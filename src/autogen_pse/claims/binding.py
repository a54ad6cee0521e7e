"""What a figure, a rank or an action is about: entity, metric, direction, pairs."""

from __future__ import annotations

import itertools
import re

from .asides import aside_before, in_parenthesis
from .catalogue import Mention
from .evidence import Metric
from .lexicon import DOWN_RE, UP_RE, tokens
from .model import Finding, Status
from .patterns import (
    _AFTER_GAP,
    _CELL_GAP,
    _CLAUSE,
    _COMPARED,
    _CONCEDED,
    _LIST_SEP,
    _NEXT_FIGURE,
    _OF_TOTAL,
    _PAREN,
    _POSSESSED,
    _POSSESSIVE_GAP,
    _PRONOUN,
    _RUN_SEP,
    _SHARE_GAP,
    _STRONG,
    _VERSUS,
    _bare,
    _quantity_units,
)
from .quantities import Quantity, matches
from .state import VerifierState

# a metric phrase fronted before a comma ("At its lowest, the position was down 63 %") or a comma before the
# preposition that brings the figure ("a drawdown since purchase, from about 36 per cent")
_BENCHMARK = re.compile(
    r"\b(?:exceed\w*|above|over|below|under|beyond|past|breach\w*|against)\s+(?:the|its|their|our|your|a)\s*$",
    re.IGNORECASE,
)
_FRONTED = re.compile(r"\s*,(?!.*,)|[^,]*,\s*(?:from|of|at|by|to|around|about)\b[^,]*$")

_COPULA_END = re.compile(
    r"\b(?:was|is|were|are|came to|comes to|stands? at|stood at|sits? at|has been|had been)\s+"
    r"(?:only\s+|just\s+|still\s+)?(?:about|around|roughly|approximately|some|nearly|almost|~)?\s*$",
    re.IGNORECASE,
)
_APPOSED = re.compile(r"\s*,\s*(?:about|around|roughly|approximately|some|nearly|almost|just|~)?\s*", re.IGNORECASE)

_HEDGE_END = re.compile(r"\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|just|like|some)\s*$|[~≈]\s*$",
                        re.IGNORECASE)
_PAIR_GAP = re.compile(r"\s*(?:[,/]|\bor\b)\s*(?:about|approx\.?|around|roughly|~|c\.)?\s*", re.IGNORECASE)


_AS_ROLE_AT = re.compile(r"\s+as\s+(?:an?\s+|the\s+)?[A-Za-z][\w /&-]{0,50}?\s+(?:at|with|for)\s+(?:the\s+)?")


# "a short time compared with how long we sat on MSFT": the other side of a comparison, named in a clause
_COMPARED_CLAUSE = re.compile(r"\bcompared\s+(?:with|to)\s+(?:how|what|the\s+time)\b[^,;.()]{0,40}$", re.IGNORECASE)
_IT_START = re.compile(r"\W*(?:it|it['’]s|its)\b", re.IGNORECASE)
_IT_BEFORE = re.compile(r"\b(?:it['’]s|it\s+is|it\s+was)\s+(?:at\s+|down\s+|up\s+|only\s+)?$", re.IGNORECASE)

# "add them up": the whole, not a rise
_WITH_CLAUSE = re.compile(r",\s*with\b", re.IGNORECASE)  # an absolute clause: its figure has its own subject
_FALL_TO = re.compile(
    r"\b(?:falls?|fell|drops?|dropped|declines?|slides?|slips?|sinks?)\s+(?:all\s+the\s+way\s+)?to\s+$", re.IGNORECASE
)
_SUMMED_UP = re.compile(r"\b(?:add|adds|added|adding|sum|sums|summed|summing|tot|tots|totted|totting|tally|tallies|"
                        r"tallied|tallying)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)

class Binding(VerifierState):
    """What a figure, a rank or an action is about (a part of the Verifier)."""

    def _column_sum(self, column: str, q: Quantity) -> Finding | None:
        """A total row's figure under a column of one metric ("| Weight² |" … "| Total | 0.2740 |") that is
        the sum of that metric over the entities, at the precision it is written with, as supported;
        None otherwise, and when the evidence states the whole's own figure ("| Total | 127,157.10 |" is
        checked against it)."""
        for _s, _e, metric in self._metric_spans(column):
            if any(f.entity is None and f.metric == metric.name for f in self.ev.facts):
                continue
            units = _quantity_units(q)
            values = [f.value for f in self.ev.facts if f.entity and f.metric == metric.name and f.unit in units]
            if len(values) < 2:
                continue
            if matches(q, sum(values)):  # (a sum that does not match is checked as any figure: "| Σ | … |"
                # under a "Cost" column may be the total cost, where the column's metric is a price)
                return Finding(kind="figure", text=q.text, status=Status.SUPPORTED,
                               note=f"a total row: the sum of {metric.name} over {len(values)} entities is "
                                    f"{sum(values):g}")
        return None

    def _metric_spans(self, text: str) -> list[tuple[int, int, Metric]]:
        """Metric words in ``text``; one phrase may name several metrics ("cost", "gain")."""
        cached = self._spans.get(text)
        if cached is not None:
            return cached
        if len(self._spans) > 256:
            self._spans.clear()
        spans: list[tuple[int, int, Metric]] = []
        words = tokens(text)
        for metric in self.ev.metrics:
            rx = self.metric_re.get(metric.name)
            first = self.metric_first.get(metric.name)
            if rx is None or (first is not None and not first & words):
                continue  # none of its phrases can start here (a regex of hundreds of phrases is slow)
            spans += [(m.start(), m.end(), metric) for m in rx.finditer(text)
                      if not (m.group(0).lower() == "up" and _SUMMED_UP.search(text, 0, m.start()))]
        spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
        out: list[tuple[int, int, Metric]] = []
        reach, since = -1, -1  # the furthest end of a kept phrase, and the earliest start reaching it
        for span in spans:  # a phrase inside a longer one of another metric is that one's ("annualised
            # volatility"); phrases that only overlap both stand ("beyond the stop-loss level")
            if span[1] < reach or (span[1] == reach and since < span[0]):
                continue  # (spans come by start, longest first: every kept one starts at or before this)
            out.append(span)
            if span[1] > reach:
                reach, since = span[1], span[0]
        self._spans[text] = out
        return out

    @staticmethod
    def _boundaries(text: str, a: int, b: int) -> int:
        lo, hi = min(a, b), max(a, b)
        return len(_CLAUSE.findall(text[lo:hi]))

    @staticmethod
    def _aside(text: str, m: Mention) -> bool:
        """Is ``m`` the other side of a comparison or of a concession ("than Apple", "even though Apple's …",
        "second-best after Apple")?"""
        return bool(_COMPARED.search(text, max(0, m.start - 20), m.start)
                    or _CONCEDED.search(text, max(0, m.start - 60), m.start)
                    or re.search(r"\b(?:after|behind)\s+(?:only\s+)?$", text[max(0, m.start - 16) : m.start]))

    @staticmethod
    def _owner(text: str, pos: int, mentions: list[Mention]) -> str | None:
        """The entity whose possessive the figure at ``pos`` follows ("Apple's ~40.6%"), if any."""
        return next((m.entity for m in reversed(mentions) if m.end <= pos and _POSSESSED.fullmatch(text, m.end, pos)),
                    None)

    @staticmethod
    def _tagged(text: str, pos: int, end: int | None, mentions: list[Mention], *, strict: bool = False) -> str | None:
        """The entity a figure is tagged with right after it: "48 % (the AMZN holding)", "3,712 days (MSFT, …)",
        "$17.6k from Apple", "−$6,606.00 on MSFT", "two years as a Software Developer at Copperleaf" (and,
        unless ``strict``, a name right after it: "79 shares Apple", which in a row may start the next item)."""
        tagged = next(
            (
                m
                for m in mentions
                if re.fullmatch(r"[^\w(]{0,3}\(\s*(?:the\s+)?", text[end or pos : m.start])
                # "48 % (the AMZN Holding)"
                and re.match(r"\s*(?:holding|position|shares|stock)?\s*(?:\)|[,;:])", text[m.end :], re.I)
                # ("3,712 days (MSFT, ~10.2 years)")
            ),
            None,
        )
        tagged = tagged or next(  # "about $17.6k from Apple and $17.3k from Microsoft"
            (
                m
                for m in mentions
                if end is not None
                and re.fullmatch(  # "… for Apple", "47-48% for aapl/amzn" (a range's first end too), "… for `AAPL`"
                    r"(?:(?:\s*[-–]\s*[\d.,]+\s*%?)?\s+(?:from|in|of|for|at|on)\s+"
                    + ("" if strict else r"|[\s-]*(?:units?|shares?|pieces?|pcs)?\s+") + r")[*_`]*",
                    text[end : m.start],
                )
            ),
            None,
        )
        tagged = tagged or next(  # "just under two years as a Software Developer at Copperleaf Studio"
            (m for m in mentions if end is not None and _AS_ROLE_AT.fullmatch(text[end : m.start])), None
        )
        return tagged.entity if tagged is not None else None

    def _entity_for(
        self, text: str, pos: int, mentions: list[Mention], scope: list[str], end: int | None = None
    ) -> str | None:
        """The entity a word at ``pos`` is about: the nearest mention (an earlier one preferred, one
        right before a parenthesis holding ``pos`` wins; after "it"/"its"/"being" the sentence's
        subject), the only one, or the unit's scope."""
        aside = [m for m in mentions if aside_before(text, m, pos)]
        if scope and aside and len(aside) == len(mentions):  # "(…, with Google and IBM), and its squared weight"
            return scope[-1]  # (the subject of the sentences before; with none, "(msft) and its" is msft's)
        inside = [m for m in mentions if m.end <= pos and re.fullmatch(r"\s*\([^()]*", text[m.end : pos])]
        if inside:  # "just ahead of Apple (47.12 %)": the figure in the parenthesis is Apple's
            return inside[-1].entity
        owner = self._owner(text, pos, mentions)
        if owner is not None:  # "against Apple's 40.6%": the figure is Apple's, compared or not
            return owner
        compared = [m for m in mentions if _COMPARED.search(text[max(0, m.start - 16) : m.start])
                    or _COMPARED_CLAUSE.search(text, max(0, m.start - 50), m.start)]
        for a, b in itertools.pairwise(mentions):  # "below AAPL and AMZN": the list after "below" is compared
            gap = re.sub(r"^['’]s\b", "", text[a.end : b.start])  # "than Amazon's and Apple's"
            if a in compared and b not in compared and _LIST_SEP.fullmatch(gap):
                compared.append(b)
        if compared and (len(compared) < len(mentions) or scope):
            mentions = [m for m in mentions if m not in compared]  # "faster than Apple": not the subject
            if not mentions:
                return scope[-1]
        # "It's +72.70% on cost, … (23.50%, against 47.12% for Apple)": "it" is the holding the sentences
        # before were about, a holding named only after the figure is compared with it
        it_first = bool(scope) and bool(_IT_START.match(text) or _IT_BEFORE.search(text, max(0, pos - 30), pos)) \
            and all(m.start >= (end or pos) for m in mentions)
        if scope and mentions and all(m.start >= (end or pos) and self._boundaries(text, pos, m.start)
                                      and self._aside(text, m) for m in mentions):
            return scope[-1]  # "**Amazon.** … 47.52% a year — faster than Apple, even though Apple's …": the entry's
        if len({m.entity for m in mentions}) == 1 and not it_first:
            return mentions[0].entity
        tagged = self._tagged(text, pos, end, mentions)
        if tagged is not None:  # "10.2y (MSFT)"
            return tagged
        if it_first:
            return scope[-1]
        best, best_d, best_m = None, 10**9, None
        for m in mentions:
            if m.end <= pos:
                d = pos - m.end
                if re.fullmatch(r"\s*\([^()]*", text[m.end : pos]):
                    d = 0
                elif in_parenthesis(text, m, pos):  # "A has the highest CAGR (…, B next at …) and the highest
                    d += 200  # vol": B is named in passing, A is the subject
            else:
                d = m.start - pos + 60
            d += 80 * self._boundaries(text, pos, m.end if m.end <= pos else m.start)
            if d < best_d:
                best, best_d, best_m = m.entity, d, m
        if (
            best_m is not None
            and best_m.end <= pos
            and mentions[0] is not best_m
            and _PRONOUN.search(text[best_m.end : pos])
        ):
            return mentions[0].entity  # "A beat B because it rose 242 %": "it" is the subject
        if best is not None and best_d < 240:
            return best
        return scope[-1] if scope else None

    def _pair_lists(self, text: str, mentions: list[Mention], qs: list[Quantity], index: list[int]) -> dict[int, str]:
        """ "A and B are up 5 % and 7 % (respectively)", "A (…) and B (…) are at 10 % and 15 %": a run of
        k figures after a list of k entities pairs with them in order. Keys are the caller's ``index``."""
        out: dict[int, str] = {}
        if len(mentions) < 2 or len(qs) < 2:
            return out
        groups: list[list[Mention]] = [[mentions[0]]]
        for m in mentions[1:]:
            if _LIST_SEP.fullmatch(_PAREN.sub("", text[groups[-1][-1].end : m.start])):
                groups[-1].append(m)
            else:
                groups.append([m])
        runs: list[list[int]] = [[0]]
        for i in range(1, len(qs)):
            if qs[i].unit == qs[runs[-1][-1]].unit and _RUN_SEP.fullmatch(text[qs[i - 1].end : qs[i].start]):
                runs[-1].append(i)
            else:
                runs.append([i])
        distinct: list[Mention] = []
        for m in mentions:
            if all(m.entity != d.entity for d in distinct):
                distinct.append(m)
        for run in runs:
            follow = [
                g
                for g in groups
                if len(g) == len(run) > 1
                and re.fullmatch(r"\s*(?:for|of|at|in|by)\s+", text[qs[run[-1]].end : g[0].start])
            ]
            if follow:
                for m, i in zip(follow[0], run, strict=True):
                    out.setdefault(index[i], m.entity)
            tail = text[qs[run[-1]].end : qs[run[-1]].end + 20]
            if len(run) > 1 and re.match(r"\W*respectively", tail) and len(distinct) >= len(run):
                for m, i in zip(distinct[: len(run)], run, strict=True):
                    out.setdefault(index[i], m.entity)
        for group in groups:
            if len(group) < 2:
                continue
            for run in runs:
                first = qs[run[0]]
                if (
                    len(run) != len(group)
                    or first.start < group[-1].end
                    or (_STRONG.search(text[group[-1].end : first.start]) and "respectively" not in text[first.start :])
                ):
                    continue
                if any(group[-1].end <= x.start < first.start for x in mentions):
                    continue
                for m, i in zip(group, run, strict=True):
                    out[index[i]] = m.entity
        return out

    def _pair_metrics(self, text: str, qs: list[Quantity], spans: list[tuple[int, int, Metric]]) -> dict[int, Metric]:
        """ "the lowest volatility and the mildest drawdown (23.5 % and -36.4 %)": the k figures of a
        parenthesis take the k metrics named just before it, in order."""
        out: dict[int, Metric] = {}
        for paren in re.finditer(r"\(([^()]*)\)", text):
            inside = [i for i, q in enumerate(qs) if paren.start() < q.start and q.end < paren.end()]
            if len(inside) < 2 or not all(
                _RUN_SEP.fullmatch(text[qs[a].end : qs[b].start]) for a, b in itertools.pairwise(inside)
            ):
                continue
            lo = max((c.end() for c in _STRONG.finditer(text, 0, paren.start())), default=0)
            phrases: list[list[Metric]] = []
            last = (-1, -1)
            for s_, e_, m in spans:
                if lo <= s_ < paren.start():
                    if (s_, e_) != last:
                        phrases.append([])
                        last = (s_, e_)
                    phrases[-1].append(m)
            if len(phrases) < len(inside):
                continue
            chosen = []
            for i, group in zip(inside, phrases[-len(inside) :], strict=True):
                fit = [m for m in group if any(u in _quantity_units(qs[i]) for u in m.units)]
                chosen.append(fit[0] if fit else None)
            if all(chosen):
                out.update({i: m for i, m in zip(inside, chosen, strict=True) if m is not None})
        return out

    def _without_mentions(self, text: str, start: int, end: int) -> str:
        """``text[start:end]`` with entity mentions and the separators of a list of them removed."""
        piece = text[start:end]
        for m in reversed(self.catalogue.find(piece)):
            piece = piece[: m.start] + piece[m.end :]
        return re.sub(r"^[\s,/&]*(?:and\s+)?", " ", piece) if piece.strip(" ,/&") == "" else piece

    def _metrics_for(
        self, text: str, q: Quantity, spans: list[tuple[int, int, Metric]], qs: list[Quantity]
    ) -> list[Metric]:
        """Metrics named for ``q``: a word up to 40 characters before it with no other figure in
        between ("weight of 43.85 %"; a parenthesis is skipped), or right after it ("43.85 % wt",
        "14.8 % of the book"). A word right after another figure is that figure's."""
        found: list[tuple[int, Metric]] = []
        periods: list[tuple[int, Metric]] = []
        accepted = ("count", "units") if _bare(q) else _quantity_units(q)
        priced = q.unit == "money" and re.search(r"(?:\bat|@)\s*[~≈]?\s*$", text[max(0, q.start - 6) : q.start])
        for s, e, metric in spans:
            if not any(u in accepted for u in metric.units):
                continue
            if e <= q.start:
                gap = _PAREN.sub("", self._without_mentions(text, e, q.start))
                blocking = [o for o in qs if e <= o.start and o.end <= q.start and not _bare(o)]
                if (len(blocking) == 1 and q.unit in metric.units
                        and _PAIR_GAP.fullmatch(text, blocking[0].end, q.start)
                        and not any(u in _quantity_units(blocking[0]) for u in metric.units)):
                    blocking = []  # "P/L -$6.6k, approx -32%": one word names the amount and the percentage
                owned = any(
                    o.end <= s
                    and _AFTER_GAP.fullmatch(text[o.end : s])
                    and (any(u in _quantity_units(o) for u in metric.units) or o.unit == "multiple")  # "5.8× cost"
                    for o in qs
                    if o is not q
                )
                # "its worst drop while we've owned it was only about 23.5 %": a clause inside the phrase
                resumed = bool(_COPULA_END.search(gap)) and not re.search(r"[;.]|\bbut\b|\bhowever\b", gap)
                if (
                    len(gap) > (70 if resumed else 40)
                    or blocking
                    or owned
                    or (_CLAUSE.search(gap) and not resumed)
                    or _VERSUS.search(gap)  # "at the 1 March close, compared with the $75,891 it cost"
                    or _BENCHMARK.search(gap)  # "its weight exceeds the 30% cap": the figure is what it is held to
                    or ("," in gap and len(gap) > 25 and not _FRONTED.match(gap))
                    or (metric.scope == "global" and self._aside_of_holding(text, e, q.start))
                    or _WITH_CLAUSE.search(gap)  # "… since purchase, with Microsoft's -63.42% the worst"
                ):
                    continue
                found.append((len(_HEDGE_END.sub("", gap)), metric))  # "up like 16 %": as near as "up 16 %"
            elif s >= q.end and not priced:  # ("at $223.02 the gain is …": a price, not the gain)
                # "| **2M/day** | events … |": a row of two cells, the figure, then what it counts
                first_cell = text.strip(" |").count("|") == 1 and "|" not in text[: q.start].lstrip(" |")
                gap_ok = _AFTER_GAP.fullmatch(text[q.end : s]) or (
                    first_cell and _CELL_GAP.fullmatch(text[q.end : s])
                ) or (  # "80% of our AWS estate", not "my own"
                    _POSSESSIVE_GAP.fullmatch(text[q.end : s]) and not text.startswith("own", s)
                ) or (
                    q.kind in ("multiple", "fraction")
                    and re.fullmatch(r"\s*(?:of\s+)?(?:the\s+|its\s+|our\s+)?(?:[\w'’-]+\s+){0,2}", text[q.end : s])
                )
                if not gap_ok or _NEXT_FIGURE.match(text, e) or text[s:e].lower() == "worth":
                    continue  # ("$17,600 worth" of shares: an amount of them, not a holding's value)
                # a word in a parenthesis after the figure names it only if nothing before does:
                # "a market value of USD 127k (cost USD 76k)"; so does a period after it ("a maximum drawdown
                # of −27.66 % since purchase")
                if text.startswith("since", s):
                    periods.append((len(text[q.end : s]) + 1, metric))
                else:
                    found.append((len(text[q.end : s]) + 1 + (100 if "(" in text[q.end : s] else 0), metric))
        for metric in self.ev.metrics:  # words that name a metric only right after a figure ("half the book")
            rx = self.after_re.get(metric.name)
            lead = _AFTER_GAP.match(text, q.end)
            after = rx.match(text, q.end + len(lead.group(0) if lead else "")) if rx else None
            if rx and after is None and lead and re.search(r"\ba\s+$", lead.group(0)):  # "$28.80 a share": the
                # gap's article is the phrase's own
                after = rx.match(text, q.end + len(text[q.end :]) - len(text[q.end :].lstrip()))
            if after and any(u in accepted for u in metric.units):
                found.append((after.start() - q.end + 1, metric))
        found = found or periods
        level = self._level_reached(text, q, spans, qs)
        if level is not None:  # "a fall to -20 % would hit the stop-loss": the level, not the move
            found = [(-1, level)]
        found.sort(key=lambda x: x[0])
        out: list[Metric] = []
        for _d, named in found:
            if all(named.name != o.name for o in out):
                out.append(named)
        return out

    def _level_reached(
        self, text: str, q: Quantity, spans: list[tuple[int, int, Metric]], qs: list[Quantity]
    ) -> Metric | None:
        """ "a further fall to -20.00 % would add a stop-loss trigger": a signed level a fall reaches
        is the level of the rule the clause goes on to name."""
        if q.unit != "pct" or not _FALL_TO.search(text, max(0, q.start - 30), q.start):
            return None
        stop = min((o.start for o in qs if o.start >= q.end), default=len(text))
        clause = re.search(r"[;.](?:\s|$)", text[q.end : stop])
        stop = q.end + clause.start() if clause else stop
        return next((m for s, _e, m in spans if q.end <= s < min(stop, q.end + 60) and m.signed
                     and "pct" in m.units and m.scope == "global"), None)

    def _aside_of_holding(self, text: str, start: int, end: int) -> bool:
        """Does a parenthesis opened in ``text[start:end]`` and still open name a holding ("the three
        largest are AAPL, GOOG and IBM (IBM at 14.81 % …": IBM's figure, not the top three's)?"""
        opened = text.rfind("(", start, end)
        return opened >= 0 and ")" not in text[opened:end] and bool(self.catalogue.find(text[opened:end]))

    def _share_metrics(self, text: str, q: Quantity, spans: list[tuple[int, int, Metric]]) -> list[Metric]:
        """ "its $46.1k gain is roughly 90 % of the total": a share of the total of what the clause
        before the figure names (the metric whose ``share_of`` lists that one), else nothing."""
        if not _OF_TOTAL.match(text, q.end):
            return []
        lo = max((c.end() for c in _STRONG.finditer(text, 0, q.start)), default=0)
        named = {m.name for s, e, m in spans if lo <= s and _SHARE_GAP.fullmatch(text, e, q.start)}
        return [m for m in self.ev.metrics if named & set(m.share_of)]

    def _direction_near(self, text: str, q: Quantity, qs: list[Quantity] | None = None) -> int:
        """+1 / -1 for a direction word written for this figure: before it with no other figure in
        between ("down about 19 %"), or right after it ("27.7 % lower"). Prices in "from X to Y" have none."""
        if re.search(r"\b(?:from|at|to)\s*[~≈]?\s*$", text[max(0, q.start - 6) : q.start]) or (
            re.search(r"\bto\s*[~≈]?\s*$", text[max(0, q.start - 4) : q.start])
            and re.search(r"\bfrom\b", text[max(0, q.start - 60) : q.start])
        ):
            return 0
        others = [o for o in (qs or []) if o is not q]
        best, best_d = 0, 10**9
        # "increasing monthly cloud expenditure by 35 %": a verb, its object, then "by" and the figure
        reach = 60 if re.search(r"\bby\s+(?:about|around|roughly|some|nearly|almost|~)?\s*$", text[: q.start]) else 35
        for rx, sign in ((UP_RE, 1), (DOWN_RE, -1)):
            if rx is None:
                continue
            for m in rx.finditer(text, max(0, q.start - reach), min(len(text), q.end + 24)):
                if "/" in text[max(0, m.start() - 1):m.end() + 1] or re.match(r"\s+and\s+loss", text[m.end():]):
                    continue  # "profit/loss", "gain/loss", "profit and loss" name the metric, not a direction
                if m.group(0).lower() == "up" and (re.match(r"\s+to\b", text[m.end() :])
                                                   or _SUMMED_UP.search(text, 0, m.start())):
                    continue  # "up to a day old": at most, not a rise; "add them up": the whole
                if m.end() <= q.start:
                    gap = text[m.end() : q.start]
                    apposed = _APPOSED.fullmatch(gap)  # "a small positive, about 3 percent a year"
                    if (
                        any(m.end() <= o.start and o.end <= q.start for o in others)
                        or (_CLAUSE.search(gap) and not apposed)
                        or ("," in gap and not apposed)
                    ):
                        continue
                    d = len(gap)
                elif m.start() >= q.end:
                    between = text[q.end : m.start()]
                    named_by = re.fullmatch(  # "$11.9k of unrealised losses" (not "30% of the winner": a part)
                        r"[\s`*_]*of\s+(?!(?:the|a|an|its|your|my|our|their)\b)(?:\w+[\s`*_]+)?", between)
                    if not (re.fullmatch(r"[\s`*_]*(?:\w+[\s`*_]+)?", between) or named_by) or re.search(
                        r"\b(?:against|versus|vs|than|compared|while|whereas|but)\b", between
                    ):
                        continue  # "losses of $11.9k against gains of $63.2k": the word is the next figure's
                    d = 0 if named_by else m.start() - q.end
                else:
                    continue
                if d < best_d:
                    best, best_d = sign, d
        return best

    # --- figures ------------------------------------------------------------------------------
