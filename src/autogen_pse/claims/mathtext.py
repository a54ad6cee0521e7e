"""TeX math in a Markdown artifact read as the plain text it stands for.

Models that show their working write it in TeX between ``$…$``, ``$$…$$``, ``\\(…\\)`` or ``\\[…\\]``:
``$w_{\\text{AAPL}} = \\frac{55{,}755.00}{127{,}157.10} \\approx 0.4385$``. Read as it is, the dollar
signs are currencies, ``{,}`` splits a figure in two and ``\\Rightarrow`` is a name. Here every math
span becomes plain text — "w AAPL = 55,755.00 / 127,157.10 ≈ 0.4385" — with the map back to where
it was written (:class:`.formats.Reading`), so the arithmetic and figure checks read it as prose.
"""

from __future__ import annotations

import re

from .formats import Builder, Reading

# display math first; inline "$…$" only when it reads as math (a TeX command, a sub- or superscript,
# braces, or a figure alone: "$223.02$"), so that "$5 and $10" stays two amounts
_SPAN = re.compile(
    r"\$\$(?P<display>.+?)\$\$|\\\[(?P<bracket>.+?)\\\]|\\\((?P<paren>.+?)\\\)"
    r"|(?<![\\$\w])\$(?=[^\s$\d]|\d[^$\n]*?\\|[\d.,{}]+\$)(?P<inline>(?:[^$\n\\]|\\.)+?)(?<=[^\s\\])\$(?![\w$])",
    re.S,
)
_INLINE_MATH = re.compile(r"\\[a-zA-Z%$]|[\^_{}]|^[\d.,{}]+$")
_SYMBOLS = {
    "times": "×", "cdot": "·", "div": "÷", "approx": "≈", "sim": "~", "simeq": "≃", "le": "≤", "leq": "≤",
    "leqslant": "≤", "ge": "≥", "geq": "≥", "geqslant": "≥", "ne": "≠", "neq": "≠", "lt": "<", "gt": ">",
    "to": "→", "rightarrow": "→", "Rightarrow": "⇒", "implies": "⇒", "longrightarrow": "→", "mapsto": "→",
    "pm": "±", "ldots": "…", "dots": "…", "cdots": "…", "infty": "∞", "percent": "%",
    "sigma": "σ", "mu": "μ", "Delta": "Δ", "delta": "δ", "alpha": "α", "beta": "β", "lceil": "⌈", "rceil": "⌉",
    "lfloor": "⌊", "rfloor": "⌋", "in": "∈", "cap": "∩", "cup": "∪", "land": "and", "lor": "or", "neg": "not",
}  # fmt: skip
_SPACES = {",", ";", ":", "!", " ", "quad", "qquad", "enspace", "thinspace", "medspace", "thickspace"}
_ESCAPED = {"%": "%", "$": "$", "&": "&", "#": "#", "_": "_", "{": "{", "}": "}"}
_TEXT = {"text", "textrm", "textbf", "textit", "texttt", "mathrm", "mathbf", "mathit", "mathsf", "mathtt",
         "operatorname", "boldsymbol", "mbox", "textnormal", "underline", "overline", "bar", "hat",
         "tilde"}  # fmt: skip
_FRACTIONS = {"frac", "tfrac", "dfrac", "cfrac"}
_BRACES = {"underbrace", "overbrace"}
_VULGAR = {("1", "2"): "½", ("1", "3"): "⅓", ("2", "3"): "⅔", ("1", "4"): "¼", ("3", "4"): "¾", ("1", "5"): "⅕",
           ("1", "8"): "⅛"}
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_COMMAND = re.compile(r"\\([a-zA-Z]+|.)")


def has_math(text: str) -> bool:
    return "$" in text or "\\(" in text or "\\[" in text


def read_math(text: str) -> Reading | None:
    """The reading of ``text`` with its math spans as plain text, or None when it has none."""
    out, at, found = Builder(), 0, False
    for m in _SPAN.finditer(text):
        inline = m.group("inline")
        if inline is not None and not _INLINE_MATH.search(inline):
            continue
        found = True
        out.emit(text[at : m.start()], at)
        body = next(g for g in m.groups() if g is not None)
        plain = " ".join(plain_math(body).split())
        out.emit(f" {plain} " if m.group("display") or m.group("bracket") else plain, m.start())
        at = m.end()
    if not found:
        return None
    out.emit(text[at:], at)
    return Reading("".join(out.parts), out.pieces)


def plain_math(tex: str) -> str:
    """``tex`` (the inside of a math span) as plain text."""
    return _Reader(tex).read()


class _Reader:
    """A small reader of TeX math: commands, groups, sub- and superscripts."""

    def __init__(self, tex: str) -> None:
        self.tex = tex
        self.at = 0

    def read(self, stop: str = "") -> str:
        parts: list[str] = []
        while self.at < len(self.tex):
            c = self.tex[self.at]
            if c == stop:
                self.at += 1
                break
            if c == "{":
                self.at += 1
                inner = self.read("}")
                parts.append("," if inner == "," else inner)  # "127{,}157.10"
            elif c == "\\":
                parts.append(self.command())
            elif c in "^_":
                self.at += 1
                arg = self.argument()
                if c == "^":
                    parts.append(arg.translate(_SUPERSCRIPTS) if arg.isdigit() else f"^({arg})")
                elif len(arg) > 1 and not arg.isdigit() and "=" not in arg:
                    parts.append(f" {arg}")  # "w_{\text{AAPL}}": whose w; "x_i", "\sum_{i=1}": an index
            elif c == "&":
                parts.append(" ")
                self.at += 1
            elif c == "}":
                self.at += 1
            else:
                parts.append(c)
                self.at += 1
        return "".join(parts)

    def argument(self) -> str:
        """The next argument: a group, a command or one character."""
        while self.at < len(self.tex) and self.tex[self.at] == " ":
            self.at += 1
        if self.at >= len(self.tex):
            return ""
        c = self.tex[self.at]
        if c == "{":
            self.at += 1
            return self.read("}")
        if c == "\\":
            return self.command()
        self.at += 1
        return c

    def command(self) -> str:
        m = _COMMAND.match(self.tex, self.at)
        if m is None:
            self.at += 1
            return ""
        name = m.group(1)
        self.at = m.end()
        if name == "\\":
            return "; "
        if name in _ESCAPED:
            return _ESCAPED[name]
        if name in _SPACES:
            return " "
        if name in _SYMBOLS:
            return f" {_SYMBOLS[name]} "
        if name in _TEXT:
            return self.argument()
        if name in _FRACTIONS:
            whole = self.tex[: m.start()].rstrip()[-1:].isdigit()
            top, bottom = self.argument(), self.argument()
            if whole and (top.strip(), bottom.strip()) in _VULGAR:  # "2\tfrac{1}{3} years": a mixed number, 2⅓
                return _VULGAR[top.strip(), bottom.strip()]
            return f"{_grouped(top)} / {_grouped(bottom)}"
        if name == "sqrt":
            return f"√({self.argument()})"
        if name in _BRACES:
            body = self.argument()
            if self.tex.startswith("_", self.at) or self.tex.startswith("^", self.at):
                self.at += 1
                return f"{body} ({self.argument()})"  # "\underbrace{79 \times 223.02}_{\text{AAPL trim}}"
            return body
        if name in ("sum", "prod"):  # "\sum_{i=1}^{5}": its bounds are no figures ("Σ" would read as a σ)
            while self.tex.startswith(("_", "^"), self.at):
                self.at += 1
                self.argument()
            return " ∑ " if name == "sum" else " ∏ "
        if name in ("begin", "end"):
            self.argument()  # "\begin{aligned}": its name
            return " "
        return ""  # "\left", "\displaystyle", "\big": layout


def _grouped(part: str) -> str:
    """A fraction's part, bracketed when it is a computation of its own ("(28.80 / 39.81)")."""
    part = part.strip()
    return f"({part})" if re.search(r"\S\s*[-+×·/−]\s*\S", part) and not re.fullmatch(r"\(.*\)", part) else part
