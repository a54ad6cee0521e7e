"""Turn one knowledge file into :class:`~autogen_pse.knowledge.chunking.Chunk` objects.

==========  ================================================================================
extension   how it is read
==========  ================================================================================
.md         Markdown; chunks respect headings and paragraphs
.txt        plain text; paragraphs
.csv        rows grouped into chunks, the header row repeated in each (delimiter sniffed)
.json       pretty-printed (2-space indent) then split like text
.html .htm  visible text via :mod:`html.parser` (script/style/template skipped), h1–h6 kept
            as Markdown headings, then split like Markdown
.pdf        text of each page (pypdf); heading ``"page N"``
==========  ================================================================================

Text files must be UTF-8 (a BOM is accepted). Every error is a :class:`UserError` naming the file.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

from ..errors import UserError
from ..jsonfile import parse_json
from .chunking import Chunk, split_markdown, split_rows, split_text

SUPPORTED_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".csv", ".json", ".html", ".htm", ".pdf"})


def is_supported(path: Path) -> bool:
    """True for a file name the loaders can read (by extension, case-insensitive)."""
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def load_chunks(path: Path, data: bytes | None = None) -> list[Chunk]:
    """Read ``path`` (or its already-read bytes ``data``) and split it into chunks.

    Raises:
        UserError: unsupported extension, non-UTF-8 text, invalid JSON, unreadable PDF.
    """
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        known = ", ".join(sorted(SUPPORTED_SUFFIXES))
        raise UserError(f"{path}: unsupported file type {suffix or '(none)'}; supported: {known}")
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if suffix == ".pdf":
        return _pdf_chunks(path, data)
    text = decode_text(path, data)
    if suffix in (".md", ".markdown"):
        return split_markdown(text)
    if suffix == ".csv":
        return _csv_chunks(path, text)
    if suffix == ".json":
        return split_text(_pretty_json(path, text))
    if suffix in (".html", ".htm"):
        return split_markdown(html_to_text(text))
    return split_text(text)


def decode_text(path: Path, data: bytes) -> str:
    """UTF-8 bytes → str (BOM stripped).

    Raises:
        UserError: the bytes are not UTF-8; names the file and the byte offset.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None


def _pretty_json(path: Path, text: str) -> str:
    return json.dumps(parse_json(path, text), indent=2, ensure_ascii=False)


def _csv_chunks(path: Path, text: str) -> list[Chunk]:
    sample = text[:8192]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        parsed = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), dialect)]
    except csv.Error as exc:
        raise UserError(f"{path}: not valid CSV ({exc})") from None
    rows = [row for row in parsed if any(row)]
    if not rows:
        return []

    def line(row: list[str]) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(row)
        return out.getvalue()

    return split_rows(line(rows[0]), [line(r) for r in rows[1:]])


def _pdf_chunks(path: Path, data: bytes) -> list[Chunk]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UserError(f"{path}: PDF is encrypted; save an unencrypted copy")
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"{path}: unreadable PDF ({exc})") from None
    chunks: list[Chunk] = []
    for number, page_text in enumerate(pages, start=1):
        chunks.extend(split_text(page_text, heading=f"page {number}"))
    return chunks


_SKIP = frozenset({"script", "style", "template", "noscript", "svg"})
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "nav",
        "aside",
        "ul",
        "ol",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "pre",
        "blockquote",
        "dl",
        "dt",
        "dd",
        "figure",
        "figcaption",
        "hr",
        "form",
        "fieldset",
        "details",
        "summary",
        "caption",
        "address",
    }
)


class _HtmlText(HTMLParser):
    """Collect visible text as Markdown-ish paragraphs; headings become ``#`` lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.current: list[str] = []
        self.skip_depth = 0
        self.heading_level = 0
        self.pre_depth = 0
        self.title: list[str] = []
        self.in_title = False
        self.in_head = False
        self.saw_h1 = False

    def flush(self) -> None:
        raw = "".join(self.current)
        text = raw.strip("\n") if self.pre_depth else re.sub(r"[ \t\r\f\v]+", " ", raw).strip()
        text = re.sub(r" *\n *", "\n", text) if not self.pre_depth else text
        if text:
            if self.heading_level:
                text = "#" * self.heading_level + " " + " ".join(text.split())
            self.blocks.append(text)
        self.current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "head":
            self.in_head = True
        elif tag == "body":
            self.in_head = False  # also ends a <head> whose end tag was omitted
        if tag in _SKIP:
            self.skip_depth += 1
            return
        if self.skip_depth:
            return
        if tag == "title":
            self.in_title = True
        elif tag == "br":
            self.current.append("\n")
        elif tag in _HEADINGS:
            self.flush()
            self.heading_level = _HEADINGS[tag]
            self.saw_h1 = self.saw_h1 or tag == "h1"
        elif tag in _BLOCKS:
            self.flush()
            if tag == "pre":
                self.pre_depth += 1
            if tag == "li":
                self.current.append("- ")
        elif tag in ("td", "th") and self.current:
            self.current.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        elif tag == "head":
            self.in_head = False
        if tag in _SKIP:
            self.skip_depth = max(0, self.skip_depth - 1)
            return
        if self.skip_depth:
            return
        if tag in _HEADINGS:
            self.flush()
            self.heading_level = 0
        elif tag in _BLOCKS:
            self.flush()
            if tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        elif not self.skip_depth and not self.in_head:
            self.current.append(data if self.pre_depth else data.replace("\n", " "))


def html_to_text(html: str) -> str:
    """Visible text of an HTML document as Markdown-ish text (headings as ``#`` lines).

    ``<title>`` becomes a level-1 heading when the body has no ``<h1>``.
    """
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    parser.flush()
    title = " ".join("".join(parser.title).split())
    blocks = parser.blocks
    if title and not parser.saw_h1:
        blocks = [f"# {title}", *blocks]
    return "\n\n".join(blocks)
