"""Durations ("held for ten years", "3,712 days", "two years longer than Amazon") checked against the
periods the evidence gives (a part of the Verifier)."""

from __future__ import annotations

import re

from .model import Finding, Status
from .patterns import _GLOSS_YEARS, checked
from .periods import completed_years
from .quantities import Quantity, matches
from .state import VerifierState

_LONGER_THAN = re.compile(r"\s+(?:longer|shorter|more|less)\s+than\s+(?:the\s+)?", re.IGNORECASE)
_LONGER = re.compile(r"\s+(?:longer|shorter|less|more)\b(?!\s+than)", re.IGNORECASE)  # "two years less"
_RELATIVE_TIME = re.compile(r"\s+(?:later|earlier|before|afterwards|after\s+that|apart)\b", re.IGNORECASE)


class Durations(VerifierState):
    """A period written in years, months, weeks or days, against the entity's periods."""

    def _duration(self, q: Quantity, entity: str | None, text: str) -> Finding:
        per_year = {"days": 365.25, "weeks": 52.18, "months": 12}.get(q.unit, 1)
        years = q.value / per_year
        own = [d for d in self.ev.durations if entity and d.entity == entity]
        worded = [
            d
            for d in self.ev.durations
            if d.words and any(re.search(rf"\b{re.escape(w)}", text, re.IGNORECASE) for w in d.words)
        ]
        pool = own + [d for d in worded if d not in own]
        pool += [d for d in self.ev.durations if d.entity is None and d not in pool and (not own or d.default)]
        if not pool or _RELATIVE_TIME.match(text, q.end):  # "bought two years later": a gap, not a period held
            return Finding(kind="duration", text=q.text, status=Status.NONE)
        gloss = _GLOSS_YEARS.match(text, q.end)
        if q.hedge and gloss and abs(float(gloss.group(1)) - years) <= 0.15 * years:
            # "roughly a decade (9 years)": the rounding of the figure it glosses, which is checked itself
            return Finding(kind="duration", text=q.text, status=Status.NONE,
                           note=f"{q.text}: rounds the {gloss.group(1)} years written after it")
        scaled = Quantity(years, "years", q.text, q.start, q.end, q.tol / per_year, q.hedge, q.sign, q.kind)
        longer = _LONGER_THAN.match(text, q.end)
        if longer:  # "held two years longer than Amazon": the difference of two periods held
            other = next(iter(self.catalogue.find(text[longer.end() : longer.end() + 40])), None)
            mine = [d for d in own if d.default] or own
            theirs = [d for d in self.ev.durations if other and d.entity == other.entity]
            if not mine or not theirs or other is None or other.start > 0:
                return Finding(kind="duration", text=q.text, status=Status.NONE, note=f"{q.text}: a difference")
            gap = abs(mine[0].years - theirs[0].years)
            agrees = matches(scaled, gap) or completed_years(scaled, gap)
            return checked("duration", q.text, agrees, [mine[0].id, theirs[0].id],
                           f"{mine[0].id} − {theirs[0].id} = {round(gap, 1)} years")
        if _LONGER.match(text, q.end):  # "… because it has been held two years longer": of the two named
            named = list(dict.fromkeys(m.entity for m in self.catalogue.find(text)))
            held = [min((d for d in self.ev.durations if d.entity == e), key=lambda d: not d.default, default=None)
                    for e in named]
            if len(held) == 2 and held[0] is not None and held[1] is not None:
                gap = abs(held[0].years - held[1].years)
                return checked("duration", q.text, matches(scaled, gap) or completed_years(scaled, gap),
                               [held[0].id, held[1].id], f"{held[0].id} − {held[1].id} = {round(gap, 1)} years")
        ok = [
            d
            for d in pool
            if (q.hedge == "over" and d.years >= years - scaled.tol)
            or (d.open_ended and years >= d.years - 0.5 and q.hedge not in ("under", "nearly"))
            or (completed_years(scaled, d.years) if q.unit == "years" else matches(scaled, d.years))
        ]
        if ok:
            return Finding(
                kind="duration",
                text=q.text,
                status=Status.SUPPORTED,
                evidence=[d.id for d in ok[:2]],
                note=f"{ok[0].id} = {ok[0].display or round(ok[0].years, 2)}",
            )
        if entity is None and any(
            matches(scaled, d.years) or (q.unit == "years" and completed_years(scaled, d.years))
            for d in self.ev.durations if d.entity is not None
        ):  # "Ten years, man.": a reply about a holding the sentence does not name
            return Finding(kind="duration", text=q.text, status=Status.NONE, note=f"{q.text}: of something not named")
        d = pool[0]
        return Finding(
            kind="duration",
            text=q.text,
            status=Status.CONTRADICTED,
            evidence=[d.id],
            note=f"{q.text} does not match {d.id} = {d.display or f'{d.years:.2f} years'}",
        )
