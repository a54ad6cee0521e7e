"""Documents that are not Markdown, read as Markdown: HTML (an e-mail's or a web CV's source), LaTeX
(a CV's or a report's source), notes apps' exports (Notion, Obsidian) and footnoted text.

:func:`read_document` returns a :class:`Reading`: the document as the Markdown the splitter knows
(headings, bullets, tables with a header row, paragraphs) and a map from every position of that
text back to the document as written, so a claim still points at its place in the original. A
Markdown document comes back as it is, apart from same-length clean-ups (footnote markers, checkbox
and callout syntax, property lines, blockquote marks, fenced JSON and code's data read as YAML, box-drawing art,
speaker labels), which every document gets.
"""

from __future__ import annotations

import bisect
import html
import itertools
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..hooks import CheckResult
from .cards import figure_cards, post_numbers
from .conversation import agent_names, chat_messages, is_email_thread, people, speaker_labels, tool_io
from .dataliterals import data_as_yaml
from .markup import apparatus, edits
from .orgmode import is_org, read_org
from .psql import is_psql, psql_as_text
from .rconsole import r_console

# ("<br>" is not one: Markdown table cells break their lines with it)
_HTML_BLOCK = re.compile(r"<(?:p|div|table|tr|td|li|ul|ol|h[1-6]|section|article|span|body|html)\b[^>]*>", re.I)
_LATEX = re.compile(r"\\(?:documentclass|begin\{|section\*?\{|cventry|cvitem|item\b|textbf\{|subsection\*?\{)")


@dataclass
class Reading:
    """``text``: the document as Markdown; ``pieces``: ``(position in text, position in the original)``
    at the start of every piece of text, in order."""

    text: str
    pieces: list[tuple[int, int]] = field(default_factory=lambda: [(0, 0)])

    def original(self, pos: int) -> int:
        """The position in the original document of position ``pos`` of :attr:`text`."""
        k = bisect.bisect_right(self.pieces, (pos, 1 << 62)) - 1
        if k < 0:
            return 0
        out, orig = self.pieces[k]
        limit = self.pieces[k + 1][1] if k + 1 < len(self.pieces) else orig + (pos - out)
        return min(orig + (pos - out), max(orig, limit))

    @property
    def converted(self) -> bool:
        return self.pieces != [(0, 0)]


def line_starts(lines: list[str]) -> list[int]:
    """The offset of each line of ``lines`` (a text split at "\n"), and the text's end."""
    return [0, *itertools.accumulate(len(line) + 1 for line in lines)]


class Builder:
    """Markdown written piece by piece, each piece remembering where it came from."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pieces: list[tuple[int, int]] = []
        self.size = 0

    def emit(self, text: str, orig: int) -> None:
        if not text:
            return
        self.pieces.append((self.size, orig))
        self.parts.append(text)
        self.size += len(text)

    def ends_with_newlines(self) -> int:
        tail = "".join(self.parts[-3:])
        return len(tail) - len(tail.rstrip("\n")) if tail.strip() or self.size else 2

    def block(self, orig: int, lines: int = 2) -> None:
        """Start a new block (``lines`` = 2: a paragraph break; 1: a new line)."""
        have = self.ends_with_newlines()
        if have < lines:
            self.emit("\n" * (lines - have), orig)

    def reading(self) -> Reading:
        text = "".join(self.parts)
        return Reading(re.sub(r"[ \t]+\n", lambda m: " " * (len(m.group(0)) - 1) + "\n", text), self.pieces or [(0, 0)])


_LINE_REF = re.compile(r"\b(line )(\d+)\b")


def relined(result: CheckResult, reading: Reading, original: str) -> CheckResult:
    """``result`` of a check that read the Markdown reading, its "line N" references turned into the
    lines of the document as written."""
    if not reading.converted:
        return result
    starts = [0] + [m.end() for m in re.finditer("\n", reading.text)]

    def fix(m: re.Match[str]) -> str:
        n = int(m.group(2))
        if not 1 <= n <= len(starts):
            return m.group(0)
        return f"{m.group(1)}{original.count(chr(10), 0, reading.original(starts[n - 1])) + 1}"

    return result.model_copy(
        update={
            "detail": _LINE_REF.sub(fix, result.detail),
            "unsupported": [_LINE_REF.sub(fix, u) for u in result.unsupported],
        }
    )


_MARKDOWN_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S", re.M)


def is_html(text: str) -> bool:
    """A web page, not Markdown with some HTML in it (GitHub's "<details>" blocks under "## Experience")."""
    head = text.lstrip()[:200].lower()
    if head.startswith(("<!doctype", "<html")):
        return True
    return len(_HTML_BLOCK.findall(text)) >= 4 and len(_MARKDOWN_HEADING.findall(text)) < 2


def is_latex(text: str) -> bool:
    return "\\documentclass" in text or len(_LATEX.findall(text)) >= 3


def _data(text: str) -> Reading | None:
    """An XML export (or a fenced XML block) read as YAML-like lines, if it parses; a MediaWiki page as
    Markdown; subtitles (SRT, WebVTT) as their transcript; a program's log as list items (each module
    imported only for its kind)."""
    from .logs import is_log, read_logs
    from .mediawiki import is_wiki, read_wiki
    from .subtitles import is_subtitles, read_subtitles
    from .xmldoc import is_xml, read_xml  # expat: only for XML

    if is_xml(text) and (xml := read_xml(text)) is not None:
        return xml
    if is_wiki(text):
        return read_wiki(text)
    return read_subtitles(text) if is_subtitles(text) else read_logs(text) if is_log(text) else None


def read_document(text: str) -> Reading:
    """The document as Markdown, with the map back to it (see the module docstring)."""
    from .pdfcolumns import two_columns  # (here: it builds on this module's Builder)

    columns = two_columns(text)
    if columns is not None:
        return Reading(tidy(columns.text), columns.pieces)
    if is_html(text):
        reading = _Html(text).read()
    elif (data := _data(text)) is not None:
        reading = data
    elif is_latex(text):
        from .latex import read_latex  # pylatexenc: only for LaTeX documents

        reading = read_latex(text)
    else:
        from .escapes import is_escaped, read_escaped
        from .gridtables import has_grid_table, read_grid_tables
        from .mathtext import has_math, read_math

        text = read_org(text) if is_org(text) else text  # same length: positions stay
        if is_escaped(text):  # a Telegram bot's MarkdownV2 ("43\.85%"), not LaTeX's "\(" math
            reading = read_escaped(text)
        elif has_grid_table(text) and not is_psql(text):  # (psql's "+---+" tables have a row a line)
            reading = read_grid_tables(text)
        else:
            reading = (read_math(text) if has_math(text) else None) or Reading(text)
    return Reading(tidy(reading.text), reading.pieces)


# --- same-length clean-ups of any document ----------------------------------------------------------

_FOOTNOTE = re.compile(
    r"(?<=[\w%)\].,*])(?:\[\d{1,2}\]|(?<![Ww]eight)(?<![Ww]eights)(?<!\bw)[¹²³⁴⁵⁶⁷⁸⁹⁰]+(?![ \t]*[=≈+−×-]))"
    r"(?=[ \t\n.,;:)*|]|$)|\[\^\w+\](?!:)"  # ("Weight²", "w²": a square, no footnote)
    r"|(?<=[\w%)])[ \t]\[\d{1,2}\](?=[ \t]*(?:[.,;]|$))"  # "… 1,200 requests per second at peak [1]"
    , re.M)
_CHECKBOX = re.compile(r"^([ \t]*(?:[-*+][ \t]+)?)\[[ xX✓]\](?=[ \t])", re.M)
_CALLOUT = re.compile(r"^([ \t]*>[ \t]*)\[![\w-]+\][+-]?", re.M)
_QUOTE_MARK = re.compile(r"^([ \t]*)((?:>[ \t]?)+)", re.M)
_TOGGLE = re.compile(r"^([ \t]*)[▸▾►▶](?=[ \t])", re.M)
_PROPERTY = re.compile(r"^([ \t]*[\w ]{2,30})::(?=[ \t])", re.M)
_PAGE_LINE = re.compile(  # "Page 2 of 3 — Confidential", "— 1/2 —": a header or footer line
    r"^[ \t]*[^\n\d]{0,40}\bPage[ \t]+\d+[ \t]*(?:of|/)[ \t]*\d+\b[^\n\d]{0,40}$"
    r"|^[ \t]*[-—–]?[ \t]*\d+[ \t]*(?:of|/)[ \t]*\d+[ \t]*[-—–]?[ \t]*$",
    re.M | re.I,
)


_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{2,6}|#[xX][0-9a-fA-F]{2,5});")  # "Senior Backend Engineer &middot; …"
_TAG = re.compile(r"</?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>")  # inline HTML in Markdown ("<p align=\"center\">", "<br>")
_LINK_TARGET = re.compile(r"(?<=\])\([^)\s]+(?:\s+\"[^\"]*\")?\)")  # "[![AWS](https://img.shields.io/…)](…)"
# reStructuredText: a directive (".. list-table:: Experience") and its options (":widths: 22 18 60")
_RST_DIRECTIVE = re.compile(
    r"^[ \t]*\.\. [a-z-]+::[^\n]*$|^[ \t]+:(?:widths|header-rows|stub-columns|align|class|name|width):[^\n]*$", re.M
)
_ADOC_ATTRIBUTES = re.compile(r"^[ \t]*\[[\w%.#\"', -]*=[^\]\n]*\][ \t]*$", re.M)  # AsciiDoc's '[cols="4,1"]'
# 'The draft says "Amazon has been the best performer"': words reported, not stated by the document
_REPORTED = re.compile(
    r"(\b(?:says?|said|wrote|writes|claims?|reads?|told me|tells me)[:,]?\s+)(“[^”\n]{3,240}”|\"[^\"\n]{3,240}\")",
    re.IGNORECASE,
)
# "(max 200 words)" in a form's question; "Heisei 27 (2015)": a Japanese era year beside the western one
_FORM_LIMIT = re.compile(
    r"\((?:max(?:imum)?|min(?:imum)?|up to|at most|at least)\.?\s+\d+(?:\s+(?:words|characters|chars))?\)", re.I
)
_ERA_YEAR = re.compile(r"\b(?:Heisei|Reiwa|Showa|Shōwa)\s+\d{1,2}\b")
_FILE_NAME = re.compile(r"\b[\w-]+\.(?:csv|json|md|txt|ya?ml|xlsx?|pdf|docx?|py)\b")


# "├─ Designed …", "● Designed …" opening a line: a list item
_BOX_BULLET = re.compile(r"(?<![^\s│┃║|])[├└┣┗╠╚╟╙][─━═]*(?=\s)|(?m:^[ \t]*)[●○◦■□►](?=[ \t])")
_BOX = re.compile(r"[\u2500-\u257f●○◦▶◀►◄■□]")  # rules, frames, timeline dots and arrow heads (not → ▲ ▼)
_LEADER = re.compile(r"(?<=\S) ?\.{4,} ?(?=\S)")  # "MSc Computer Science ........ University of Leeds"
_LABEL_LEADER = re.compile(r"(?m)^([ \t]*[A-Z][\w-]*(?: [\w-]+){0,2})( ?\.{4,} ?)(?=\S)")  # "Name ....... Elena Marsh"


# "│ (a) Trim Apple by 79 units?   │": a line of a framed box is an item of its own
_FRAMED_LINE = re.compile(r"(?m)^([ \t]*)[│║┃](?=[ \t])([^│║┃\n]*)[│║┃][ \t]*$")
# "├────────┼─────┼───┤": a table's rule between rows (a box's frame has no column junctions); it is
# kept as a rule, so the rows above and below it stay one table ("│ TOTAL │ … │" under the holdings)
_RULE_CHARS = "─━═┌┐└┘├┤┬┴┼╞╡╪╤╧╔╗╚╝╠╣╦╩╬"
_TABLE_RULE = re.compile(rf"(?m)^[ \t]*(?=[{_RULE_CHARS} \t]*[┼┬┴╪╤╧╦╩╬])[{_RULE_CHARS}]+[ \t]*$")
_TIMELINE_SPAN = re.compile(r"(?<=\d{4})[ \t]*[─━═●○◦▶►]+[ \t]*(?=(?:\d{4}|now|present|today|current)\b)", re.I)


def _centred_dash(width: int) -> str:
    return " " * (width // 2) + "–" + " " * (width - width // 2 - 1)


def _plain_text_art(text: str) -> str:
    """Box-drawing frames and timelines of a plain-text document blanked (bullets kept as "-") and dot
    leaders made a comma (a colon after a line's label): what is left reads as the lines of text they framed."""
    if not _BOX.search(text) and not _LEADER.search(text):
        return text
    text = _TABLE_RULE.sub(lambda m: re.sub(r"\S", "-", m.group(0)), text)
    text = _TIMELINE_SPAN.sub(lambda m: _centred_dash(len(m.group(0))), text)  # "2020 ──●── now": "2020 – now"
    text = _BOX_BULLET.sub(lambda m: m.group(0)[:-1] + "-" if m.group(0)[-1] in "●○◦■□►"
                           else "-" + " " * (len(m.group(0)) - 1), text)
    text = _LABEL_LEADER.sub(lambda m: m.group(1) + ":" + " " * (len(m.group(2)) - 1), text)  # a field's label
    text = _LEADER.sub(lambda m: "," + " " * (len(m.group(0)) - 1), text)
    text = _FRAMED_LINE.sub(lambda m: m.group(0).replace(m.group(0)[len(m.group(1))], "-", 1), text)
    return _BOX.sub(lambda m: " " * len(m.group(0)), text)


def tidy(text: str) -> str:
    """An R session's code (:mod:`.rconsole`), a psql session's queries and tables (:mod:`.psql`),
    JSON blocks and code blocks' data literals (:mod:`.dataliterals`), the people a thread or
    transcript names, a multi-agent log's agents, an agent trace's tool calls and results
    (:mod:`.conversation`), blockquote
    marks, inline HTML tags, character references ("&middot;") and link targets in Markdown, other
    tools' markup (:mod:`.markup`: tracked changes, placeholders, references, citations, formulas,
    web furniture), reStructuredText directives and their options, AsciiDoc block attributes, words
    reported in quotes ('the draft says "…"'), a form's length limits, Japanese era years beside
    western ones, footnote markers ("67.55 %[1]", "CAGR¹"), file names ("holdings.csv"), checkboxes
    ("- [x] …"), a thread's post numbers ("🧵 1/8"), callout and toggle marks and property lines
    ("Role:: …") of notes apps, cards of figures ("Paid       $75,890.50"), page headers and footers
    of text pasted from a PDF — blanked or made plain, every line keeping its length."""
    text = _plain_text_art(data_as_yaml(psql_as_text(r_console(text))))
    text = tool_io(people(speaker_labels(agent_names(chat_messages(text)))))
    text = _TAG.sub(lambda m: " " * len(m.group(0)), text)
    text = _ENTITY.sub(lambda m: html.unescape(m.group(0)).ljust(len(m.group(0))), text)
    text = _LINK_TARGET.sub(lambda m: " " * len(m.group(0)), text)
    text = edits(text)  # tracked changes, Markdown escapes, placeholders and template tags
    text = _RST_DIRECTIVE.sub(lambda m: " " * len(m.group(0)), text)
    text = _ADOC_ATTRIBUTES.sub(lambda m: " " * len(m.group(0)), text)
    text = _REPORTED.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    text = _FORM_LIMIT.sub(lambda m: " " * len(m.group(0)), text)
    text = _ERA_YEAR.sub(lambda m: " " * len(m.group(0)), text)
    text = _FOOTNOTE.sub(lambda m: " " * len(m.group(0)), text)
    text = apparatus(text)  # references, citations, formulas, chart scales, a web page's furniture
    text = _FILE_NAME.sub(lambda m: " " * len(m.group(0)), text)  # "stop_loss_rules.md" names a file, not a rule
    text = _CHECKBOX.sub(lambda m: m.group(1) + "   ", text)
    text = post_numbers(text)
    text = _CALLOUT.sub(lambda m: " " * len(m.group(0)), text)
    text = _TOGGLE.sub(lambda m: m.group(1) + "-", text)
    text = _PROPERTY.sub(lambda m: m.group(1) + ": ", text)
    text = figure_cards(text)
    if not is_email_thread(text):  # "> - Apple: …" is a bullet; an e-mail's quotes stay quotes
        text = _QUOTE_MARK.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    return _PAGE_LINE.sub(lambda m: " " * len(m.group(0)), text)


# --- HTML ---------------------------------------------------------------------------------------------

_SKIP = {"style", "script", "head", "title", "noscript", "template"}
_BLOCKS = {"p", "div", "section", "article", "header", "footer", "main", "ul", "ol", "blockquote", "address",
           "aside", "nav", "body", "html", "dl", "dt", "dd", "hr", "center", "figure", "table", "tbody",
           "thead"}  # fmt: skip
_CELL_BLOCKS = {"p", "div", "table", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"}


class _Tables(HTMLParser):
    """First pass: which tables hold data (rows of at least two cells, no blocks inside their cells)
    and which only lay a page out (an e-mail's frame)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[list[int]] = []  # per open table: [index, max cells in a row, cells in this row, blocky]
        self.data: dict[int, int] = {}  # table index → its number of columns (0: a layout table)
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            if self.stack:
                self.stack[-1][3] = 1
            self.stack.append([self.count, 0, 0, 0])
            self.count += 1
        elif self.stack and tag == "tr":
            self.stack[-1][2] = 0
        elif self.stack and tag in ("td", "th"):
            self.stack[-1][2] += 1
            self.stack[-1][1] = max(self.stack[-1][1], self.stack[-1][2])
        elif self.stack and tag in _CELL_BLOCKS:
            self.stack[-1][3] = 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.stack:
            index, cols, _n, blocky = self.stack.pop()
            self.data[index] = cols if cols >= 2 and not blocky else 0


class _Html(HTMLParser):
    """Second pass: the Markdown reading of an HTML document."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.starts = [0] + [m.end() for m in re.finditer("\n", source)]
        tables = _Tables()
        tables.feed(source)
        tables.close()
        self.data_tables = tables.data
        self.out = Builder()
        self.skipping = 0
        self.tables: list[tuple[int, int]] = []  # open tables: (columns, 0 for a layout table; rows so far)
        self.table_count = 0
        self.row_cells = 0
        self.in_cell = False
        self.cell_text = ""

    def read(self) -> Reading:
        self.feed(self.source)
        self.close()
        return self.out.reading()

    def _pos(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def _data_table(self) -> bool:
        return bool(self.tables) and self.tables[-1][0] > 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pos = self._pos()
        if tag in _SKIP:
            self.skipping += 1
            return
        if self.skipping:
            return
        if tag == "table":
            self.tables.append((self.data_tables.get(self.table_count, 0), 0))
            self.table_count += 1
            self.out.block(pos)
        elif tag == "tr" and self._data_table():
            self.out.block(pos, 1)
            self.row_cells = 0
        elif tag in ("td", "th") and self._data_table():
            cols, rows = self.tables[-1]
            if rows == 0 and self.row_cells == 0 and tag == "td":  # no header row: an empty one
                self.out.emit("|" + "   |" * cols + "\n" + "|---" * cols + "|\n", pos)
                self.tables[-1] = (cols, -1)
            self.out.emit("| " if self.row_cells == 0 else " | ", pos)
            self.row_cells += 1
        elif tag in ("td", "th", "tr"):
            self.out.block(pos, 1)
        elif len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
            self.out.block(pos)
            self.out.emit("#" * int(tag[1]) + " ", pos)
        elif tag == "li":
            self.out.block(pos, 1)
            self.out.emit("- ", pos)
        elif tag == "br":
            self.out.block(pos, 1)
        elif tag in _BLOCKS:
            self.out.block(pos)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "hr") and not self.skipping:
            self.out.block(self._pos(), 1 if tag == "br" else 2)

    def handle_endtag(self, tag: str) -> None:
        pos = self._pos()
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
            return
        if self.skipping:
            return
        if tag == "tr" and self._data_table():
            cols, rows = self.tables[-1]
            self.out.emit(" |", pos)
            if rows == 0:  # the first row, of <th> cells, is the header
                self.out.emit("\n" + "|---" * max(1, self.row_cells) + "|", pos)
            self.tables[-1] = (cols, rows + 1 if rows >= 0 else 1)
        elif tag == "table" and self.tables:
            self.tables.pop()
            self.out.block(pos)
        elif (len(tag) == 2 and tag[0] == "h" and tag[1].isdigit()) or tag in _BLOCKS or tag == "li":
            self.out.block(pos, 1 if tag == "li" else 2)

    def handle_data(self, data: str) -> None:
        if self.skipping or (not data.strip() and "\n" in data):
            return
        text = re.sub(r"\s+", " ", data)
        if self._data_table():
            text = text.replace("|", "/")
        if self.out.ends_with_newlines():
            text = text.lstrip()
        self.out.emit(text, self._pos())


__all__ = ["Reading", "read_document", "relined", "tidy"]
