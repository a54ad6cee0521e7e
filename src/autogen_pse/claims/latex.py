"""LaTeX source read as Markdown (:func:`read_latex`), parsed with pylatexenc's walker so every piece
keeps its position in the source: sections become headings, ``\\item`` a bullet, a moderncv
``\\cventry{dates}{title}{employer}{city}{grade}{text}`` an entry head with its dates and text,
``\\textbf`` bold; the preamble, layout commands and comments are dropped; a macro nobody knows
gives its arguments as the parts of one line (``\\role{Backend Engineer}{Harbourside}`` →
``Backend Engineer | Harbourside``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexSpecialsNode,
    LatexWalker,
)

from .formats import Builder, Reading

_DROP = {  # layout and preamble: dropped with their arguments
    "documentclass", "usepackage", "moderncvstyle", "moderncvcolor", "moderncvtheme", "setlength", "geometry",
    "pagestyle", "thispagestyle", "newcommand", "renewcommand", "providecommand", "definecolor", "setlist",
    "makecvtitle", "maketitle", "hfill", "vspace", "hspace", "smallskip", "medskip", "bigskip", "noindent",
    "centering", "raggedright", "large", "Large", "LARGE", "huge", "Huge", "small", "footnotesize", "normalsize",
    "scriptsize", "tiny", "bfseries", "itshape", "rmfamily", "sffamily", "color", "textcolor", "photo", "vfill",
    "newpage", "clearpage", "pagebreak", "linebreak", "label", "hrule", "hline", "toprule", "midrule",
    "bottomrule", "rule", "titleformat", "titlespacing", "setcounter", "addtolength", "fontsize", "selectfont",
    "extrainfo", "quote", "nopagebreak", "input", "include", "hypersetup", "urlstyle", "pagenumbering",
}  # fmt: skip
_HEADINGS = {"section": "## ", "cvsection": "## ", "chapter": "## ", "part": "## ", "subsection": "### ",
             "cvsubsection": "### ", "subsubsection": "#### ", "paragraph": "**"}  # fmt: skip
_LINES = {"title", "address", "phone", "email", "mobile", "homepage", "social", "position", "location"}
_TEXT = {"textbf", "textit", "emph", "underline", "textsc", "text", "mbox", "textrm", "textsf", "texttt",
         "textnormal", "uline", "hbox", "makebox", "fbox", "small", "textup", "textmd", "textsl"}  # fmt: skip
_SPECIALS = {"--": "–", "---": "—", "~": " ", "``": "“", "''": "”", "&": " | "}
_ESCAPES = {"%": "%", "&": "&", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ", ",": " ", ";": " "}


def read_latex(source: str) -> Reading:
    """The Markdown reading of a LaTeX document (see the module docstring)."""
    walker = LatexWalker(source, tolerant_parsing=True)
    nodes, _pos, _len = walker.get_latex_nodes()
    out = Builder()
    _Writer(out).nodes(nodes or [])
    return out.reading()


class _Writer:
    def __init__(self, out: Builder) -> None:
        self.out = out

    def nodes(self, nodes: Sequence[Any]) -> None:
        i = 0
        while i < len(nodes):
            node = nodes[i]
            if isinstance(node, LatexMacroNode):
                args, i = self._args(node, nodes, i + 1)
                self.macro(node, args)
                continue
            self.node(node)
            i += 1

    def _args(self, node: LatexMacroNode, nodes: Sequence[Any], i: int) -> tuple[list[Any], int]:
        """The macro's arguments: those pylatexenc knows, else the ``{…}``/``[…]`` groups right after it."""
        known = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
        if known:
            return [a for a in known if isinstance(a, LatexGroupNode) or not hasattr(a, "delimiters")], i
        args: list[Any] = []
        if i < len(nodes) and isinstance(nodes[i], LatexCharsNode) and re.fullmatch(r"\[[^\]]*\]", nodes[i].chars):
            i += 1  # "\social[github]{…}": an option, not text
        while i < len(nodes) and isinstance(nodes[i], LatexGroupNode):
            args.append(nodes[i])
            i += 1
        return args, i

    def node(self, node: Any) -> None:
        if isinstance(node, LatexCharsNode):
            text = node.chars
            if "\n\n" in text or (text.strip() == "" and text.count("\n") > 1):
                self.out.block(node.pos)
                text = text.split("\n\n")[-1]
            self.out.emit(" ".join(text.split("\n")) if text.strip() else (" " if text else ""), node.pos)
        elif isinstance(node, LatexGroupNode):
            self.nodes(node.nodelist or [])
        elif isinstance(node, LatexSpecialsNode):
            self.out.emit(_SPECIALS.get(node.specials_chars, node.specials_chars), node.pos)
        elif isinstance(node, LatexMathNode):
            self.out.emit(node.latex_verbatim().strip("$").replace("\\%", "%").replace("\\", ""), node.pos)
        elif isinstance(node, LatexEnvironmentNode):
            self.environment(node)
        elif isinstance(node, LatexCommentNode):
            return

    def environment(self, node: LatexEnvironmentNode) -> None:
        name = node.environmentname.rstrip("*")
        if name in ("itemize", "enumerate", "description", "cvitems", "highlights"):
            self.out.block(node.pos)
            self.nodes(node.nodelist or [])
            self.out.block(node.pos + node.len)
        elif name in ("tabular", "tabularx", "tabular*", "longtable"):
            self.out.block(node.pos)
            self.nodes([n for n in node.nodelist or [] if not _is_colspec(n)])
            self.out.block(node.pos + node.len)
        else:  # document, center, minipage, flushleft …: their content
            self.nodes(node.nodelist or [])

    def text_of(self, arg: Any) -> None:
        if isinstance(arg, LatexGroupNode):
            self.nodes(arg.nodelist or [])
        elif arg is not None:
            self.nodes([arg])

    def macro(self, node: LatexMacroNode, args: list[Any]) -> None:
        name, pos = node.macroname, node.pos
        if name in _ESCAPES:
            self.out.emit(_ESCAPES[name], pos)
        elif name in ("\\", "newline", "par", "cr"):
            self.out.block(pos, 1)
        elif name in _DROP:
            return
        elif name.rstrip("*") in _HEADINGS:
            mark = _HEADINGS[name.rstrip("*")]
            self.out.block(pos)
            self.out.emit(mark, pos)
            for a in args[-1:]:
                self.text_of(a)
            if mark == "**":
                self.out.emit("**", pos)
            self.out.block(pos)
        elif name == "item":
            self.out.block(pos, 1)
            self.out.emit("- ", pos)
            for a in args:  # \item[label]
                self.text_of(a)
                self.out.emit(" ", pos)
        elif name == "cventry" and len(args) >= 4:
            dates, title, employer, city = args[:4]
            self.out.block(pos)
            self.out.emit("### ", pos)
            self.text_of(title)
            self.out.emit(" — ", pos)
            self.text_of(employer)
            if _has_text(city):
                self.out.emit(", ", pos)
                self.text_of(city)
            self.out.block(pos, 1)
            self.text_of(dates)
            for a in args[4:]:
                if _has_text(a):
                    self.out.block(pos, 1)
                    self.text_of(a)
            self.out.block(pos)
        elif name in ("cvitem", "cvitemwithcomment", "cvdoubleitem", "cvcolumn") and len(args) >= 2:
            self.out.block(pos, 1)
            self.out.emit("- ", pos)
            if _has_text(args[0]):
                self.out.emit("**", pos)
                self.text_of(args[0])
                self.out.emit(":** ", pos)
            for k, a in enumerate(args[1:]):
                self.out.emit(" " if k else "", pos)
                self.text_of(a)
        elif name in ("cvlistitem", "cvlistdoubleitem"):
            self.out.block(pos, 1)
            self.out.emit("- ", pos)
            for a in args:
                self.text_of(a)
                self.out.emit(" ", pos)
        elif name == "textbf":
            self.out.emit("**", pos)
            for a in args[-1:]:
                self.text_of(a)
            self.out.emit("**", pos)
        elif name in _TEXT:
            for a in args[-1:]:
                self.text_of(a)
        elif name in ("href",) and len(args) >= 2:
            self.text_of(args[-1])
        elif name in ("name", "author"):
            self.out.block(pos)
            self.out.emit("# ", pos)
            for k, a in enumerate(args):
                self.out.emit(" " if k else "", pos)
                self.text_of(a)
            self.out.block(pos)
        elif name in _LINES:
            self.out.block(pos, 1)
            for k, a in enumerate(a for a in args if _has_text(a)):
                self.out.emit(" · " if k else "", pos)
                self.text_of(a)
            self.out.block(pos, 1)
        else:  # a macro of the author's: its arguments as the parts of a line
            texty = [a for a in args if _has_text(a)]
            if len(texty) > 1:
                self.out.block(pos, 1)
            for k, a in enumerate(texty):
                self.out.emit(" | " if k else "", pos)
                self.text_of(a)
            if len(texty) > 1:
                self.out.block(pos, 1)


def _has_text(node: Any) -> bool:
    return node is not None and bool(node.latex_verbatim().strip("{}[] \n"))


def _is_colspec(node: Any) -> bool:
    return isinstance(node, LatexGroupNode) and node.latex_verbatim().strip("{}").replace("|", "").isalpha()
