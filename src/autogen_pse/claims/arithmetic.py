"""Computations written out: "Cost 250 × 38.45 = 9,612.50", "1 / 0.274 ≈ 3.65", "55,755 − 38,147.13 = 17,607.87".

Models that show their working (and analysts) write the inputs of a figure next to it. The
inputs are operands, not claims about what the sentence's metric word names ("250" is not a cost).
A computation is checked as arithmetic: when its operands are figures of the sources and it gives
its result at the precision written, the result is supported by the computation; when it gives a
clearly different result, the result is contradicted. Anything else is left to the figure checks.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .evidence import FactValue
from .model import Finding, Status
from .quantities import Quantity, as_percent, matches

_OPS: dict[str, Callable[[float, float], float]] = {
    "×": operator.mul, "x": operator.mul, "*": operator.mul, "·": operator.mul,
    "/": operator.truediv, "÷": operator.truediv,
    "+": operator.add, "-": operator.sub, "−": operator.sub, "–": operator.sub, "minus": lambda a, b: a - abs(b),
}  # fmt: skip
_OPERATOR = re.compile(r"\s*([×x*·/÷+−–-]|minus|plus|times|divided\s+by)\s*")
# "$55,755.00 minus $38,147.13" (the figure read as signed: "minus" subtracts its size)
_OPERATOR_OPEN = re.compile(r"\s*[×x*·/÷+−–-]\s*\(\s*$")
_WORD_OPERATORS = {"plus": "+", "times": "×", "divided by": "/"}
_ADDITIVE = ("+", "-", "−", "–", "minus")
# "⌈17,607.87 / 223.02⌉ = 79", "… minus $38,147.13 leaves $17,607.87"
_EQUALS = re.compile(r"\s*[)⌉⌋]?\s*(?:=|≈|~=|≃|\b(?:leaves|leaving|gives|giving|equals|makes)\b)\s*[(⌈⌊]?\s*")
_POWER = re.compile(r"[²³]|\^[23]\b")
# a variable of a formula beside the figure: one letter or a short capitalised symbol ("MV", "HHI")
_SYMBOL = r"(?:\b[a-zA-Z]|\b[A-Z]{2,4}|[σμπ])"
# "0.30·MV" multiplies; "AAPL · 43.85%", a dot spaced on both sides, only separates
_TIMES = r"(?:[×*/÷]|(?<!\s)·|·(?!\s))"
_SYMBOL_BEFORE = re.compile(rf"(?:{_SYMBOL}\s*{_TIMES}|√|\^)\s*\(?\s*$")
_SYMBOL_AFTER = re.compile(rf"\s*{_TIMES}\s*\(?\s*{_SYMBOL}(?![\w.,])")
_LEADING_OPERATOR = re.compile(r"[×*·/÷]\s*$")
_WORKING = re.compile(
    r"\b(?:let me|let's|estimate|estimating|try|trying|guess|sanity|too (?:high|low)|close enough|wait|hmm|"
    r"recompute)\b",
    re.IGNORECASE,
)
# "31% (17.62% + 13.59%)", "31% of the portfolio (= …)": the working in brackets right after its result
_OPENS = re.compile(r"[^\S\n]*(?:[A-Za-z][A-Za-z' ]{0,30})?\([^\S\n]*(?:=[^\S\n]*)?")
_CLOSES = re.compile(r"[^\S\n]*\)")
# "≈ 78.95 → 79", "= 78.95 → round **up** to **79**", "78.95, rounded up to 79"
_ROUNDED = re.compile(
    r"\s*(?:(?:→|->|≈|~|, or|, i\.e\.|[⌉⌋]\s*=)\s*(?:round(?:ed|s|ing)?\s+[*_]*(?:up|down)?[*_]*\s*to\s*)?"
    r"|,?\s*(?:so\s+)?round(?:ed|s|ing)?\s+[*_]*(?:up|down)?[*_]*\s*to\s*)[*_]*"
)
_CONSTANTS = {1, 100, 12, 52, 365, 365.25}  # one, per cent, months, weeks and days of a year
_WRONG_BY = 0.02  # a result this far (relative) from the computation is wrong, not rounded


@dataclass
class Computation:
    operands: list[int]  # indexes into the sentence's quantities
    operators: list[str]
    result: int | None  # the written result ("= 9,612.50"), if any
    powers: dict[int, int] = field(default_factory=dict)  # "0.4385² = 0.1923": operands squared
    restated: int | None = None  # "~31% (17.62 + 13.59 = 31.21%)": the figure the bracketed working gives

    def value(self, qs: Sequence[Quantity]) -> float | None:
        """The computation's value (× and / before + and −), or None (division by zero)."""
        terms: list[float] = [_operand(qs[self.operands[0]]) ** self.powers.get(self.operands[0], 1)]
        signs: list[str] = []
        try:
            for op, i in zip(self.operators, self.operands[1:], strict=True):
                x = _operand(qs[i]) ** self.powers.get(i, 1)
                if op in _ADDITIVE:
                    signs.append(op)
                    terms.append(x)
                else:
                    terms[-1] = _OPS[op](terms[-1], x)
        except ZeroDivisionError:
            return None
        total = terms[0]
        for op, x in zip(signs, terms[1:], strict=True):
            total = _OPS[op](total, x)
        return total


def _operand(q: Quantity) -> float:
    return q.value / 100 if q.unit == "pct" else q.value  # "30% of …" / "× 30 %": a fraction


def find_computations(text: str, qs: Sequence[Quantity]) -> list[Computation]:
    """The computations of ``text``: two or more figures joined by operators, with an optional
    ``=``/``≈`` result. A chain that starts with an operator ("× 0.4385 = 55,758": the left operand
    written earlier) is one too, its operands unknown."""
    out: list[Computation] = []
    powers = {k: 3 if m.group(0)[-1] in "³3" else 2 for k, q in enumerate(qs) for m in [_POWER.match(text, q.end)] if m}
    i = 0
    while i < len(qs) - 1:
        operands, operators = [i], []
        j = i
        while j + 1 < len(qs):
            gap = _after_power(text, qs[j], j in powers, qs[j + 1].start)
            m = _OPERATOR.fullmatch(gap)
            if m is None and _OPERATOR_OPEN.fullmatch(gap):
                break  # "250 × (223.02 − 38.45)": the bracket is worked out first
            if m is None or (m.group(1) in "x-–" and not (gap[:1].isspace() and gap[-1:].isspace())):
                break  # "2-10 years", "5.8x": a range, a multiple
            operators.append(_WORD_OPERATORS.get(" ".join(m.group(1).split()), m.group(1)))
            operands.append(j + 1)
            j += 1
        result = None
        if _OPERATOR_OPEN.fullmatch(_after_power(text, qs[j], j in powers, qs[j + 1].start) if j + 1 < len(qs) else ""):
            out.append(Computation(operands, operators, None))  # its operands, not checked
            i = j + 1
            continue
        # "× (223.02 − 38.45) = 250 × …": what the bracket gives is an operand, not the chain's result
        inner = _OPERATOR_OPEN.search(text, max(0, qs[i].start - 6), qs[i].start) is not None
        if not inner and j + 1 < len(qs) and _EQUALS.fullmatch(_after_power(text, qs[j], j in powers, qs[j + 1].start)):
            result = j + 1
        led = bool(_LEADING_OPERATOR.search(text[max(0, qs[i].start - 3) : qs[i].start]))
        last = result if result is not None else j
        bracketed = operators and i > 0 and _OPENS.fullmatch(text, qs[i - 1].end, qs[i].start) and _CLOSES.match(
            text, qs[last].end)
        restated = i - 1 if bracketed else None  # "about 31% (17.62% + 13.59%)": the working after its result
        if result is None and restated is not None:
            result, restated = restated, None
        if result is None and (any(op in "-–" for op in operators) or any(qs[k].unit != "count" for k in operands)):
            # "10 – 15 %": a range; "$14.9k / 10% / +$9.1k": a list; unless a result follows
            operators, operands, j = [], [i], i
        squared = {k: powers[k] for k in operands if k in powers}
        if operators and result is not None and result + 1 < len(qs) and _OPERATOR.fullmatch(
            _after_power(text, qs[result], result in powers, qs[result + 1].start)
        ):  # "0.4385² + … ≈ 0.192 + 0.031 + … ≈ 0.274": the next expression, checked on its own
            out.append(Computation(operands, operators, None, squared))
            i = result
            continue
        if operators or (result is not None and (led or squared)):
            out.append(Computation(operands, operators if not led else [], result, squared, restated))
            i = (max(result, j) if result is not None else j) + 1
        else:
            i += 1
    return out


def _source(q: Quantity, facts: Sequence[FactValue]) -> FactValue | Quantity | None:
    """The fact an operand is: its value, or the percentage a printed fraction is ("0.4385" of 43.85 %);
    the operand itself when it is a constant ("28.80 / 39.81 - 1", "3,712 / 365.25")."""
    if q.unit == "count" and q.value in _CONSTANTS:
        return q
    ratio = as_percent(q)
    return next(
        (
            f
            for f in facts
            if matches(q, f.value, signed=False)
            or (ratio is not None and f.unit == "pct" and matches(ratio, f.value, signed=False))
        ),
        None,
    )


def _after_power(text: str, q: Quantity, powered: bool, end: int) -> str:
    """The text between ``q`` and ``end``, without the power written right after ``q``."""
    return _POWER.sub("", text[q.end : end], count=1) if powered else text[q.end : end]


def check_computations(
    text: str, qs: Sequence[Quantity], facts: Sequence[FactValue], used: set[int], entities: Sequence[str] = ()
) -> list[Finding]:
    """Findings for the operands and results of the computations in ``text``; their indexes are
    added to ``used`` (the figure checks skip them). Operands are looked up among the facts of
    ``entities`` (the sentence's) first."""
    out: list[Finding] = []
    taken = set(used)  # (a formula's operands, read before)
    for i, q in enumerate(qs):
        end = q.start + len(q.text.rstrip("×* ")) if q.unit == "multiple" else q.end  # "0.30 ×" read as a multiple
        symbol = _SYMBOL_BEFORE.search(text, max(0, q.start - 12), q.start) or _SYMBOL_AFTER.match(text, end)
        if i not in used and symbol:
            used.add(i)  # "t = d / 365.25", "0.30 × MV", "σ × √(12)": a constant of a formula
            out.append(Finding(kind="figure", text=q.text, status=Status.NONE, note="a constant of a formula"))
    for i in _percents_of(text, qs, used):
        used.add(i)
        out.append(Finding(kind="figure", text=qs[i].text, status=Status.NONE, note="a percentage of a figure"))
    computations = find_computations(text, qs)
    if computations:
        facts = sorted(facts, key=lambda f: f.entity not in entities)
    working = bool(_WORKING.search(text))
    for c in computations:
        if all(i in taken for i in c.operands):
            continue
        sourced = [_source(qs[i], facts) for i in c.operands]
        for i in c.operands:
            used.add(i)
            out.append(Finding(kind="figure", text=qs[i].text, status=Status.NONE, note="an operand of a computation"))
        if c.result is not None and working and (not (c.operators or c.powers) or None in sourced):
            used.add(c.result)  # "let me estimate: 127,157 × 0.44 = 55,949, a bit too high": working, not a claim
            out.append(Finding(kind="figure", text=qs[c.result].text, status=Status.NONE, note="a trial computation"))
        if c.result is None or not (c.operators or c.powers) or c.result in used:
            continue
        value = c.value(qs)
        r = qs[c.result]
        if value is None:
            continue
        steps = text[qs[c.operands[0]].start : qs[c.operands[-1]].end]
        expression = f"{steps} = {r.text}" if c.result < c.operands[0] else text[qs[c.operands[0]].start : r.end]
        candidates = [value, value * 100] if r.unit == "pct" else [value]
        if any(matches(r, v, signed=False) or abs(abs(v) - abs(r.value)) <= abs(r.value) * 0.005 for v in candidates):
            if all(f is not None for f in sourced):
                used.add(c.result)
                ids = [f.id for f in sourced if isinstance(f, FactValue)]
                out.append(Finding(kind="figure", text=r.text, status=Status.SUPPORTED, evidence=ids[:3],
                                   note=f"computed from {', '.join(ids[:3])}"))  # fmt: skip
                if c.restated is not None and matches(qs[c.restated], r.value, signed=False):
                    used.add(c.restated)  # "~31% (… = 31.21%)"
                    out.append(Finding(kind="figure", text=qs[c.restated].text, status=Status.SUPPORTED,
                                       evidence=ids[:3], note=f"{r.text} rounded"))  # fmt: skip
                after = c.result + 1  # "≈ 78.95 → 79 whole shares": the result rounded
                rounded = c.result > c.operands[-1] and after < len(qs) and \
                    _ROUNDED.fullmatch(text, r.end, qs[after].start)
                if rounded and abs(qs[after].value - r.value) <= max(0.5, abs(r.value) * 0.005):
                    used.add(after)
                    out.append(Finding(kind="figure", text=qs[after].text, status=Status.SUPPORTED, evidence=ids[:3],
                                       note=f"{r.text} rounded"))  # fmt: skip
        elif all(abs(abs(v) - abs(r.value)) > abs(v) * _WRONG_BY for v in candidates):
            used.add(c.result)
            out.append(Finding(kind="figure", text=r.text, status=Status.CONTRADICTED,
                               note=f"{expression}: the computation gives {_shown(value, r.unit)}"))  # fmt: skip
    return out


_OF = re.compile(r"\s+of\s+(?:the\s+|its\s+|a\s+)?(?:[$€£]\s?)?")


def _percents_of(text: str, qs: Sequence[Quantity], used: set[int]) -> list[int]:
    """The percentages written as a factor of the figure after them whose product the sentence
    states ("554.40 USD (80 % of 693.00 USD)"): operands of a computation, not a metric's value.
    The other two figures are left to the figure checks."""
    out = []
    for i in range(len(qs) - 1):
        p, base = qs[i], qs[i + 1]
        if p.unit != "pct" or i in used or base.unit == "pct" or not _OF.fullmatch(text[p.end : base.start]):
            continue
        product = p.value / 100 * base.value
        if any(k not in (i, i + 1) and qs[k].unit != "pct" and matches(qs[k], product, signed=False)
               for k in range(len(qs))):
            out.append(i)
    return out


def _shown(value: float, unit: str = "") -> str:
    if unit == "pct" and abs(value) <= 1:  # "17.62% + 13.59%" gives 0.3121: 31.21 %
        return f"{value * 100:.2f} %"
    return f"{value:,.2f}" if abs(value) >= 1 else f"{value:.4g}"


def worked_at(text: str, computed: Sequence[Finding], owner: dict[str, str | None]) -> list[tuple[int, str]]:
    """Where each entity's working is in ``text``: (position, entity) of each computed result that one
    entity's facts support (``owner``: fact id → entity). A figure after it is that entity's rather
    than the paragraph's holding ("600 x 28.80 = 17,280 vs cost 600 x 39.81 = 23,886, loss 6,606")."""
    out = []
    for f in computed:
        owners = {owner.get(e) for e in f.evidence}
        if f.status is Status.SUPPORTED and len(owners) == 1 and (entity := owners.pop()):
            out.append((text.find(f.text), entity))
    return sorted(out)
