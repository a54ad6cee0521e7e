"""Which metric a figure is about: the words that name it before or right after it ("weight of 43.85 %",
"43.85 % wt"), the metrics named before a parenthesis of figures, a share of a total, the level a
fall reaches, a total row's sum (a part of the Verifier)."""

from __future__ import annotations

import itertools
import re

from .evidence import Metric
from .lexicon import phrase_matches, token_starts
from .model import Finding, Status
from .patterns import (
    _AFTER_GAP,
    _CELL_GAP,
    _CLAUSE,
    _DASH_GAP,
    _NEXT_FIGURE,
    _OF_TOTAL,
    _PAREN,
    _POSSESSIVE_GAP,
    _RUN_SEP,
    _SHARE_GAP,
    _STRONG,
    _VERSUS,
    _bare,
    _quantity_units,
)
from .quantities import Quantity, matches
from .state import VerifierState

# "three-quarters of your money is in three names": the share of the whole that the words after it place
_WHOLE_IN = re.compile(r"\s+of\s+(?:your|the|our|my)\s+(?:money|portfolio|book|capital|assets)\s+(?:is|are|sits?)\s+",
                       re.IGNORECASE)
# "Google's was close behind, around fifty-eight", "a close second": near, not the closing price
_NEAR_CLOSE = re.compile(r"\s+(?:behind|second|third|call|enough|by)\b", re.IGNORECASE)
# "its weight exceeds the 30 % cap": the figure is what it is held to
_BENCHMARK = re.compile(
    r"\b(?:exceed\w*|above|over|below|under|beyond|past|breach\w*|against)\s+(?:the|its|their|our|your|a)\s*$",
    re.IGNORECASE,
)
# a metric phrase fronted before a comma ("At its lowest, the position was down 63 %") or a comma before the
# preposition that brings the figure ("a drawdown since purchase, from about 36 per cent")
_FRONTED = re.compile(r"\s*,(?!.*,)|[^,]*,\s*(?:from|of|at|by|to|around|about)\b[^,]*$")

_COPULA_END = re.compile(
    r"\b(?:was|is|were|are|came to|comes to|stands? at|stood at|sits? at|has been|had been)\s+"
    r"(?:only\s+|just\s+|still\s+)?(?:about|around|roughly|approximately|some|nearly|almost|~)?\s*$",
    re.IGNORECASE,
)
_HEDGE_END = re.compile(r"\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|just|like|some)\s*$|[~≈]\s*$",
                        re.IGNORECASE)
_PAIR_GAP = re.compile(r"\s*(?:[,/]|\bor\b)\s*(?:about|approx\.?|around|roughly|~|c\.)?\s*", re.IGNORECASE)

# ", and it accounts for": a clause with a subject of its own, which the words before do not name
_NEW_SUBJECT = re.compile(r",\s*and\s+(?:it|they|this|that|he|she|we|you|I)\s+[a-z]+", re.IGNORECASE)
# the holdings' figures listed after a colon, the holdings and figures cut out: ": # (…), #, and at "
_OWN_FIGURE = re.compile(r"\s*(?:to|by|of|at|=|:)?\s*[~≈]?\s*[-+−]?\s*[$€£]?\d")
_LIST_ITEMS = re.compile(r":(?:[\s,;]*(?:and\s+)?(?:at|=|:|of|on)?\s*[~≈]?\s*#(?:\s*\([^()]*\))?)*"
                         r"[\s,;]*(?:and\s+)?(?:at|=|:|of|on)?\s*[~≈]?\s*", re.IGNORECASE)
# "without an attached rule": no rule's level follows
_WITHOUT = re.compile(r"\b(?:without|with\s+no)\s+(?:an?\s+|any\s+)?(?:\w+\s+)?$", re.IGNORECASE)
_WITH_CLAUSE = re.compile(r",\s*with\b", re.IGNORECASE)  # an absolute clause: its figure has its own subject
# "a further fall to -20.00 %": the level a fall reaches
_FALL_TO = re.compile(
    r"\b(?:falls?|fell|drops?|dropped|declines?|slides?|slips?|sinks?)\s+(?:all\s+the\s+way\s+)?to\s+$", re.IGNORECASE
)
# "add them up": the whole, not a rise
_SUMMED_UP = re.compile(r"\b(?:add|adds|added|adding|sum|sums|summed|summing|tot|tots|totted|totting|tally|tallies|"
                        r"tallied|tallying)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


class MetricNaming(VerifierState):
    """Which metric a figure is about (a part of the Verifier)."""

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
        starts = token_starts(text)
        for metric in self.ev.metrics:
            rx = self.metric_re.get(metric.name)
            if rx is None:
                continue
            found = phrase_matches(rx, self.metric_first.get(metric.name), text, starts)
            spans += [(m.start(), m.end(), metric) for m in found
                      if not (m.group(0).lower() == "up" and _SUMMED_UP.search(text, 0, m.start()))
                      and not (m.group(0).lower() == "close" and _NEAR_CLOSE.match(text, m.end()))]
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
            if not any(u in accepted for u in metric.units) or _WITHOUT.search(text, max(0, s - 30), s):
                continue
            if e <= q.start:
                if text.startswith(("since", "under", "below", "above", "over"), s) and any(
                        e2 <= s and not text[e2:s].strip() for _s2, e2, _m in spans):
                    continue  # "worst fall from a peak since purchase": the period of the phrase before it;
                    # "weights under cap: GOOG 17.62": the state of the weights, not the distance to the cap
                # (a field's dot leader, made a comma and spaces or left as " ... ", is as near as a colon)
                gap = re.sub(r",[ \t]{3,}$|\s\.{3}\s+$", ": ", _PAREN.sub("", self._without_mentions(text, e, q.start)))
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
                    or _NEW_SUBJECT.search(gap)  # "six times what you paid, and it accounts for $46,142.50"
                ):
                    continue
                found.append((len(_HEDGE_END.sub("", gap)), metric))  # "up like 16 %": as near as "up 16 %"
            elif s >= q.end and not priced:  # ("at $223.02 the gain is …": a price, not the gain)
                # "| **2M/day** | events … |": a row of two cells, the figure, then what it counts
                first_cell = text.strip(" |").count("|") == 1 and "|" not in text[: q.start].lstrip(" |")
                gap_ok = _AFTER_GAP.fullmatch(text[q.end : s]) or (
                    first_cell and _CELL_GAP.fullmatch(text[q.end : s])
                ) or (not re.search(r"\w", text[: q.start]) and _DASH_GAP.fullmatch(text[q.end : s])) or (
                    # "80% of our AWS estate", not "my own"
                    _POSSESSIVE_GAP.fullmatch(text[q.end : s]) and not text.startswith("own", s)
                ) or (
                    q.kind in ("multiple", "fraction")
                    and re.fullmatch(r"\s*(?:of\s+)?(?:the\s+|its\s+|our\s+)?(?:[\w'’-]+\s+){0,2}", text[q.end : s])
                )
                if _WHOLE_IN.fullmatch(text, q.end, s):  # "three-quarters of your money is in three names"
                    found.append((0, metric))
                    continue
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

    def _list_head(
        self, text: str, q: Quantity, spans: list[tuple[int, int, Metric]], qs: list[Quantity]
    ) -> list[Metric]:
        """ "Annualised volatility, from 36 monthly returns: AMZN 48.04%, AAPL 47.12%, MSFT at 27.66%": the
        metric named just before a colon names every figure of the list of holdings after it."""
        colon = text.rfind(":", 0, q.start)
        lo = max([colon - 60, *(c.end() for c in _STRONG.finditer(text, 0, max(colon, 0)))])
        heads = [(s, e, m) for s, e, m in spans if lo <= s and e <= colon and m.scope != "global"
                 and any(u in _quantity_units(q) for u in m.units)]
        if colon < 0 or not heads:
            return []
        named = [(m.start, m.end, "") for m in self.catalogue.find(text[colon:q.start])]
        listed = [(o.start - colon, o.end - colon, "#") for o in qs if colon < o.start and o.end <= q.start]
        piece = text[colon:q.start]
        for a, b, mark in sorted(named + listed, reverse=True):
            piece = piece[:a] + mark + piece[b:]
        if not listed or len(named) <= len(listed) or not _LIST_ITEMS.fullmatch(piece):
            return []  # (the figure is not the first of the list, and each has its holding)
        # the head noun: not a qualifier with a count of its own ("from up to 36 monthly returns"), not the
        # word of a figure of its own ("up to 36"), not the state of the noun before it ("drawdown since
        # purchase:", "weights under cap:")
        heads = [h for h in heads if not any(0 <= h[0] - o.end <= 15 for o in qs)
                 and not _OWN_FIGURE.match(text, h[1])
                 and not (text.startswith(("since", "under", "below", "above", "over"), h[0])
                          and any(e2 <= h[0] and not text[e2 : h[0]].strip() for _s2, e2, _m2 in heads))] or heads
        last = max(s for s, _e, _m in heads)
        return [m for s, _e, m in heads if s == last]

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
