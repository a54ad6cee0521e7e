"""Formulas with powers and brackets written out: "5.80^(1/5.16) ≈ 1.406", "(17,280/23,886)^(1/10.16)
and got something like 0.9686 → −3.1%", "(28.80 / 39.81)^(1/10.16) - 1 ≈ -3.14%".

A model that shows how it got an annualised return writes a root of a ratio. Its figures are
operands, not claims about the metric the sentence names; the formula is worked out (a parse of the
written expression, never an ``eval``) and its written result checked against it: right at the
precision written, the result is the formula's (supported when every operand is a fact or a
constant); clearly different, it is contradicted. The figure after an arrow ("→ −3.1%") is left to
the figure checks.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Sequence

from .evidence import FactValue
from .model import Finding, Status
from .quantities import Quantity, matches

_FORMULA_CHARS = frozenset("0123456789., \t()^+-−–×*/÷·")  # what a run of numbers, brackets and operators holds
_RESULT = re.compile(
    r"\s*(?:≈|=|~=|→|->|\band\s+got(?:\s+something\s+like)?|\bgives|\bcomes\s+to)\s*[~≈]?\s*", re.IGNORECASE
)
_SYMBOLS = str.maketrans({"^": "**", "×": "*", "·": "*", "÷": "/", "−": "-", "–": "-"})
_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}  # fmt: skip
_CONSTANTS = {1.0, 12.0, 365.0, 365.25, 100.0}
_WRONG_BY = 0.02


def _value(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _value(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        x = _value(node.operand)
        return -x if isinstance(node.op, ast.USub) else x
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        a, b = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and (abs(b) > 12 or abs(a) > 1e6 or (a < 0 and not b.is_integer())):
            raise ValueError("not a formula of this kind")
        return _BINARY[type(node.op)](a, b)
    raise ValueError("not arithmetic")


def evaluate(expression: str) -> float | None:
    """The value of a written formula ("(17,280/23,886)^(1/10.16)"), or None when it is not one."""
    written = re.sub(r"(?<=\d),(?=\d{3}\b)", "", expression).translate(_SYMBOLS)
    try:
        value = _value(ast.parse(written, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def _formulas(text: str) -> list[tuple[int, int]]:
    """The spans of the runs of numbers, brackets and operators that hold a power ("^"), each from a
    number or bracket to a number or bracket (a scan out from each caret: linear in the text)."""
    spans: list[tuple[int, int]] = []
    for caret in (i for i, ch in enumerate(text) if ch == "^"):
        if spans and spans[-1][0] <= caret < spans[-1][1]:
            continue
        start, end = caret, caret + 1
        while start > 0 and text[start - 1] in _FORMULA_CHARS:
            start -= 1
        while end < len(text) and text[end] in _FORMULA_CHARS:
            end += 1
        while start < caret and not (text[start].isdigit() or text[start] == "("):
            start += 1
        while end > caret + 1 and not (text[end - 1].isdigit() or text[end - 1] == ")"):
            end -= 1
        spans.append((start, end))
    return spans


def check_formulas(text: str, qs: Sequence[Quantity], facts: Sequence[FactValue], used: set[int]) -> list[Finding]:
    """Findings for the operands and results of the formulas with powers in ``text``; their indexes
    are added to ``used``."""
    out: list[Finding] = []
    for start, end in _formulas(text):
        expression = text[start:end]
        while expression.count(")") > expression.count("(") and expression.endswith(")"):
            expression = expression[:-1]  # "(CAGR: 5.80^(1/5.16))": the sentence's bracket closes after it
        value = evaluate(expression)
        if value is None:
            continue
        inside = [i for i, q in enumerate(qs) if start <= q.start < end and i not in used]
        for i in inside:
            used.add(i)
            out.append(Finding(kind="figure", text=qs[i].text, status=Status.NONE, note="an operand of a formula"))
        after = _RESULT.match(text, end)
        result = next((i for i, q in enumerate(qs) if after and q.start == after.end() and i not in used), None)
        if result is None:
            continue
        r = qs[result]
        candidates = [value, value * 100, (value - 1) * 100] if r.unit == "pct" else [value]
        used.add(result)
        if any(matches(r, v, signed=False) or abs(abs(v) - abs(r.value)) <= abs(r.value) * 0.005 for v in candidates):
            sourced = [f for i in inside for f in facts if matches(qs[i], f.value, signed=False)]
            whole = all(abs(qs[i].value) in _CONSTANTS or any(matches(qs[i], f.value, signed=False) for f in facts)
                        for i in inside)
            out.append(Finding(kind="figure", text=r.text, status=Status.SUPPORTED if whole else Status.NONE,
                               evidence=[f.id for f in sourced][:3], note=f"{expression} ≈ {value:.4g}"))  # fmt: skip
        elif all(abs(abs(v) - abs(r.value)) > abs(v) * _WRONG_BY for v in candidates):
            out.append(Finding(kind="figure", text=r.text, status=Status.CONTRADICTED,
                               note=f"{expression}: the formula gives {value:.4g}"))  # fmt: skip
    return out
