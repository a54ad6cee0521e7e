"""A Mermaid diagram fenced in Markdown (```` ```mermaid ````), read as the text it shows: a pie chart's
slices ("AAPL" : 43.85), a flowchart's node and edge labels (``AAPL["AAPL · 43.85%"] -->|over cap|
TRIM``), a Gantt chart's tasks with their dates (``IBM :ibm, 2006-07-01, 2010-03-01``; a month's first or last day
stands for the month, a task's length is no claim), a mind map's
or a timeline's lines as list items.

Keywords, node ids, shapes, arrows and styling are blanked; an arrow or a line break in a label
becomes a clause break, so each node says its own thing. Every line keeps its length, so a claim keeps
its place in the document as written; the fence is marked ``chart``, so its lines, gaps and all, read
as sentences, not as a plain-text table's rows. A chart whose data are columns of numbers
(``xychart-beta``'s ``bar [46142.5, 9115, …]``) keeps only its title: its numbers say nothing on
their own.
"""

from __future__ import annotations

import calendar
import re

_DIAGRAM = re.compile(r"^\s*(\w[\w-]*)")  # the first word: the diagram's type
_KEYWORD_LINE = re.compile(  # a line of settings, no content
    r"^[ \t]*(?:%%.*|(?:dateFormat|axisFormat|tickInterval|todayMarker|excludes|includes|weekday|classDef|class|"
    r"style|linkStyle|click|direction|accTitle|accDescr|x-axis|y-axis|bar|line|quadrant-\d|[xy]-axis)\b.*)$",
    re.M,
)
_TYPE_WORDS = re.compile(
    r"^[ \t]*(?:(?:flowchart|graph)(?:[ \t]+(?:TB|TD|BT|RL|LR))?|pie(?:[ \t]+showData)?|gantt|timeline|mindmap|"
    r"xychart-beta|quadrantChart|sequenceDiagram|journey|stateDiagram(?:-v2)?|subgraph|section|end)\b|"
    r"\btitle\b",
    re.M,
)
_ARROW = re.compile(r"[ \t]*(?:<?[-=.]{2,}[->ox]?|~~~)[ \t]*(?:\|[^|\n]*\|)?[ \t]*")  # "-->", "==>", "-.->", "-->|yes|"
_EDGE_LABEL = re.compile(r"\|([^|\n]*)\|")
_NODE_ID = re.compile(r"(?<![\w\"'])[A-Za-z_][\w-]*(?=[\[({>])")  # "AAPL[" , "Q1{", "START(["
_DECISION = re.compile(r"(?<=[\w\]])\{(?!\{)[^{}\n]*\}(?!\})")  # "Q1{Weight above 30%?}": a question, no claim
_SHAPE = re.compile(r"[\[\](){}<>\"]|\|")
_ITEM = re.compile(r"^((?:  )+)(?=\S)", re.M)  # an indented line of a mind map or a timeline
_BREAK = re.compile(r"<br\s*/?>", re.I)
_GANTT_TASK = re.compile(  # "IBM :done, ibm, 2006-07-01, …": the task's name, then its flags and id
    r"^([^:\n]*?)[ \t]*:[ \t]*(?:(?:done|active|crit|milestone)[ \t]*,[ \t]*)*(?:[A-Za-z_][\w-]*[ \t]*,)?", re.M
)

_GANTT_DURATION = re.compile(r"(?<=,)[ \t]*\d+(?:ms|[smhdwMy])[ \t]*$", re.M)  # a task's length ("0d", "3w")
_GANTT_DAY = re.compile(r"\b((?:19|20)\d{2})-(0[1-9]|1[0-2])-(\d{2})\b")


def _month_of(m: re.Match[str]) -> str:
    """A Gantt bar's first or last day of a month as the month it stands for ("2020-02-29": Feb 2020)."""
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if day == 1 or day == calendar.monthrange(year, month)[1]:
        return f"{m.group(1)}-{m.group(2)}   "
    return m.group(0)


def mermaid_as_text(body: str) -> str:
    """``body`` of a Mermaid block read as text (see the module docstring); the same length."""
    diagram = _DIAGRAM.match(body)
    kind = diagram.group(1).lower() if diagram else ""
    text = _BREAK.sub(lambda m: ";" + " " * (len(m.group(0)) - 1), body)
    text = _KEYWORD_LINE.sub(lambda m: " " * len(m.group(0)), text)
    if kind == "gantt":
        text = _GANTT_TASK.sub(lambda m: m.group(1) + ":" + " " * (m.end() - m.end(1) - 1), text)
        text = _GANTT_DURATION.sub(lambda m: " " * len(m.group(0)), text)  # "…, 2020-03-01, 0d": a milestone
        text = _GANTT_DAY.sub(_month_of, text)
    elif kind in ("flowchart", "graph", "statediagram", "statediagram-v2"):
        text = _edges(text)
    elif kind in ("mindmap", "timeline"):  # a node per line: a list item ("root((Portfolio))": its label)
        text = _NODE_ID.sub(lambda m: " " * len(m.group(0)), text)
        text = _ITEM.sub(lambda m: m.group(1)[:-2] + "- ", text)
    text = _TYPE_WORDS.sub(lambda m: " " * len(m.group(0)), text)
    return _SHAPE.sub(" ", text)


def _edges(text: str) -> str:
    """A flowchart with its arrows as clause breaks (an edge's label kept as a clause of its own), a
    decision's question blanked (it claims nothing; the answer on its edges leads to what is so), and
    the ids of nodes that show a label blanked wherever they stand ("Q1{Weight above 30%?}", "Q1 -->"),
    unless the label starts with the id ("AAPL["AAPL · 43.85%"]")."""

    def arrow(m: re.Match[str]) -> str:
        label = _EDGE_LABEL.search(m.group(0))
        out = [" "] * len(m.group(0))
        out[0] = ";"
        if label:
            a, b = label.span(1)
            out[a:b] = label.group(1)
            if b + 1 < len(out):
                out[b + 1] = ";"
        return "".join(out)

    labelled = {m.group(0) for m in _NODE_ID.finditer(text)  # "Q1{Weight above 30%?}", not "AAPL["AAPL · …"]"
                if not re.match(rf"\W*{re.escape(m.group(0))}\b", text[m.end() : m.end() + 40], re.I)}
    text = _DECISION.sub(lambda m: " " * len(m.group(0)), text)
    inside = _labels(text)
    chars = list(text)
    for m in re.finditer(r"[A-Za-z_][\w-]*", text):
        if m.group(0) in labelled and not inside[m.start()]:
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return _ARROW.sub(arrow, "".join(chars))


def _labels(text: str) -> list[bool]:
    """For each character: is it inside a node's label (brackets, braces, parentheses, quotes) or an
    edge's (between bars)?"""
    out, depth, quoted, barred = [], 0, False, False
    for ch in text:
        if ch == "\n":
            depth, quoted, barred = 0, False, False
        elif ch == '"':
            quoted = not quoted
        elif ch == "|" and not quoted and not depth:
            barred = not barred
        elif not quoted and not barred and ch in "[({":
            depth += 1
        elif not quoted and not barred and ch in "])}":
            depth = max(0, depth - 1)
        out.append(depth > 0 or quoted or barred)
    return out
