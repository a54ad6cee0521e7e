"""An XML export read as the YAML-like Markdown the splitter knows: a reporting tool's review
(``<holding symbol="AAPL"><weight unit="pct">43.85</weight>…``) or an XML block fenced in Markdown.

Every element becomes a line: an element named by an attribute (``symbol``, ``name``, ``company``…)
a list item that names what is under it ("- symbol: AAPL; opened: 2005-01-01"), a leaf its tag and
text ("weight: 43.85; unit: pct", "commentary: Up 480 % on cost."), text over several lines (a CDATA
block) a paragraph of its own. Tag and
attribute names are read as words ("weightPct" → "weight pct", "market-value" → "market value").
Each piece keeps where it came from (:class:`~.formats.Reading`), so a claim points at its line.
Malformed XML is left as it is.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from xml.parsers import expat

from .formats import Builder, Reading

_DECLARATION = re.compile(r"<\?xml[^>]*\?>")
# a block fenced as ```xml, or fenced bare and opening with the XML declaration
_FENCE = re.compile(r"^[ \t]*```[ \t]*(?:xml[ \t]*\n|\n(?=[ \t]*<\?xml))(.*?)^[ \t]*```[ \t]*$", re.M | re.S | re.I)
_RAW = re.compile(r"^[ \t]*<\?xml\b", re.M)  # a document pasted under a line of its own ("File: cv.xml")
_LAST_CLOSE = re.compile(r"</[\w:.-]+>[ \t]*$", re.M)
# how the file is to be shown, what produced it: "<PrintingPreferences>", "<DocumentInfo>", "<Logo>"
_FURNITURE = re.compile(r"^(?:document info|printing preferences|rendering information|preferences|metadata|"
                        r"comment|design|[\w ]*logo|page numbers|[\w ]*(?:dialing|phone|fax))$")  # and how to call
_CAPTION = re.compile(r"[A-Z]+(?:[ /][A-Z]+)+")  # a form's caption as a value: "JOB APPLIED FOR"
# who or what produced the file ("generatedBy", "producer", "reportId", "xmlns:xsi"): no claim of the review
_METADATA = re.compile(r"^(?:xmlns|xsi)|schema|version|generat|producer|^tool|export|author|encoding|(?:^|[a-z])I[dD]$"
                       r"|^id$|^ref$|^scheme|^creation|^last ?update", re.I)
NAMING_KEYS = ("symbol", "sym", "ticker", "name", "company", "employer", "organisation", "organization", "holding",
           "school")
_YES, _NO = ("yes", "y", "true"), ("no", "n", "false")


@dataclass
class _Node:
    tag: str
    attrs: list[tuple[str, str]]
    pos: int
    text: list[tuple[str, int]] = field(default_factory=list)
    children: list[_Node] = field(default_factory=list)


def is_xml(text: str) -> bool:
    """An XML document, or Markdown holding a fenced XML block (or one pasted under a line of its own)."""
    return bool(_RAW.search(text)) or bool(_FENCE.search(text))


def read_xml(text: str) -> Reading | None:
    """``text`` with its XML (the whole of it, each fenced block, or the one pasted after a line of
    its own, up to its last closing tag) read as YAML-like lines."""
    whole = text.lstrip().startswith("<?xml")
    # (the fence lines go with the block: what is left is no code fence for the splitter to skip)
    regions = [(0, 0, len(text), len(text))] if whole else [
        (m.start(), m.start(1), m.end(1), m.end()) for m in _FENCE.finditer(text)
    ]
    raw = _RAW.search(text)
    if not regions and raw is not None:
        close = [m.end() for m in _LAST_CLOSE.finditer(text, raw.start())]
        if close:
            regions = [(raw.start(), raw.start(), close[-1], close[-1])]
    out, done = Builder(), 0
    for fence, a, b, end in regions:
        root = _parse(text[a:b], a)
        if root is None:
            return None
        out.emit(text[done:fence], done)
        out.block(a, 1)
        _render(root, 0, out)
        out.block(b, 1)
        done = end
    out.emit(text[done:], done)
    return out.reading()


def _parse(xml: str, base: int) -> _Node | None:
    xml = _DECLARATION.sub(lambda m: " " * len(m.group(0)), xml)  # its encoding: the text is already decoded
    data = xml.encode("utf-8")
    starts = [0]  # byte offset of each character
    for ch in xml:
        starts.append(starts[-1] + len(ch.encode("utf-8")))
    parser = expat.ParserCreate(encoding="utf-8")
    parser.ordered_attributes = True
    stack: list[_Node] = []
    top: list[_Node] = []

    def where() -> int:
        return base + bisect.bisect_left(starts, parser.CurrentByteIndex)

    def start(tag: str, attrs: list[str]) -> None:
        node = _Node(tag, list(zip(attrs[::2], attrs[1::2], strict=True)), where())
        (stack[-1].children if stack else top).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data_: str) -> None:
        if stack:
            stack[-1].text.append((data_, where()))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return None
    return top[0] if len(top) == 1 else None


def key_words(name: str) -> str:
    """ "weightPct" → "weight pct", "market-value" → "market value", "ns2:line" → "line"."""
    name = name.rsplit(":", 1)[-1]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("-", " ").replace("_", " ").lower()


def key_value(key: str, value: str) -> str:
    """ "weightPct", "43.85" → "weight pct: 43.85"; a flag's yes or no → "overweight", "no stop loss"."""
    if value.strip().lower() in _YES:
        return key_words(key)
    if value.strip().lower() in _NO:
        return f"no {key_words(key)}"
    return f"{key_words(key)}: {value}"


def _render(node: _Node, depth: int, out: Builder) -> None:
    indent = "  " * depth
    text = " ".join("".join(t for t, _ in node.text).split())
    if _FURNITURE.match(key_words(node.tag)) or (not node.children and (
            _CAPTION.fullmatch(text) or _METADATA.search(node.tag.rsplit(":", 1)[-1]))):
        return  # how the file is shown, a form's caption: no claim
    text_pos = next((p for t, p in node.text if t.strip()), node.pos)
    attrs = [(k, v) for k, v in node.attrs if v.strip() and not _METADATA.search(k)]
    pairs = [key_value(k, v) for k, v in attrs]
    named = next((i for i, (k, _v) in enumerate(attrs) if key_words(k) in NAMING_KEYS), None)
    prose = "\n" in "".join(t for t, _ in node.text).strip()  # a CDATA block, a commentary over lines
    if named is not None:  # "- symbol: AAPL; weight pct: 43.85": names the item and what is under it
        first = pairs.pop(named)
        line = f"{indent}- {'; '.join([first, *pairs])}"
        if text and not prose:
            line += f"; {key_words(node.tag)}: {text}"
    elif text and not prose and not node.children:
        line = f"{indent}{key_words(node.tag)}: {'; '.join([text, *pairs])}"
    else:
        line = f"{indent}{key_words(node.tag)}:"
        if pairs:
            out.emit(line + "\n", node.pos)
            line = f"{indent}  {'; '.join(pairs)}"
    out.emit(line + "\n", node.pos)
    if prose:  # a commentary: a paragraph of its own, its lines as written
        out.block(text_pos)
        for chunk, pos in node.text:
            at = 0
            for piece in chunk.split("\n"):
                if piece.strip():
                    lead = len(piece) - len(piece.lstrip())
                    out.emit(piece.strip() + "\n", pos + at + lead)
                at += len(piece) + 1
        out.block(text_pos)
    for child in node.children:
        _render(child, depth + 1, out)
