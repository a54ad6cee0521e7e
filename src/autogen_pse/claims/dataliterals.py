"""Data written as code, read as the YAML it spells: a fenced JSON block (a JSON Resume, a report
object), the object literals of a fenced TypeScript, JavaScript or Python block ("a résumé as
code": ``const resume: Resume = { experience: [{ org: "Brightline", highlights: ["…"] }] }``) and
TOML, fenced or the document itself (``[[work]]``, ``position = "…"``, ``highlights = [ … ]``).

Structural characters, the quotes of strings and the code around a literal (type declarations,
functions, imports, comments) are blanked; a string alone on its line becomes a list item. Every
line keeps its length, so a claim keeps its place in the document as written.
"""

from __future__ import annotations

import re
import tomllib

_FENCE = re.compile(r"^([ \t]*```[ \t]*)(\w*)([ \t]*\n)(.*?)^[ \t]*```", re.M | re.S)
_JSON = ("json", "json5")
_CODE = {"ts": "//", "typescript": "//", "js": "//", "javascript": "//", "tsx": "//", "jsx": "//",
         "python": "#", "py": "#"}  # fmt: skip
# "const resume: Resume = {", "export default [", "RESUME = {": where a data literal starts
_ASSIGNED = re.compile(r"(?:(?<![=!<>])=(?![=>])|\bexport\s+default\b|\breturn\b)\s*([{\[])")
_TARGET = re.compile(r"[ \t]*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]*)?$")
_TYPE_LINE = re.compile(r"[ \t]*(?:export\s+)?(?:type|interface)\b")
_STRUCTURE = set("{}[](),;+")
_ONE_LINE_OBJECT = re.compile(r"\s*\{(?:\s*[\w$]+\s*:\s*[^,{}]*,?)+\s*\},?\s*")  # the line's code only
_KEY = re.compile(r"([A-Za-z_$][\w$]*)\s*:")
_TOML = ("toml",)
_TOML_TABLE = re.compile(r"^([ \t]*)\[\[?[ \t]*(?:[\w-]+\.)*([\w-]+)[ \t]*\]\]?", re.M)  # "[[work]]", "[skills.data]"
_TOML_KEY = re.compile(r"^([ \t]*)([\w.-]+)([ \t]*)=", re.M)  # "position = …": "position:"
_TOML_INNER_KEY = re.compile(r"(?<=[{,])[ \t]*[\w-]+[ \t]*=")  # "{ city = …, github = … }": the values only
_TOML_END = re.compile(r"^(?:---+|\*\*\*+|```)[ \t]*$", re.M)  # a Markdown note after a bare TOML file


def data_as_yaml(text: str) -> str:
    """``text`` with its fenced JSON blocks, code blocks' data literals and TOML read as YAML (see above)."""
    end = _toml_file_end(text)
    if end:
        return _toml_as_yaml(text[:end]) + text[end:]
    return _FENCE.sub(_read_fence, text)


def _toml_file_end(text: str) -> int:
    """The end of a TOML file that is the document itself (a Markdown note may follow it), else 0."""
    end = next((m.start() for m in _TOML_END.finditer(text)), len(text))
    if not _TOML_TABLE.search(text, 0, end):
        return 0
    try:
        tomllib.loads(text[:end])
    except tomllib.TOMLDecodeError:
        return 0
    return end


def _read_fence(m: re.Match[str]) -> str:
    info, body = m.group(2).lower(), m.group(4)
    if info in _JSON:
        read = _as_yaml(body, _kinds(body, None), [(0, 0, len(body))])
    elif info in _TOML:
        read = _toml_as_yaml(body)
        info = " " * len(info)
    elif info == "mermaid":  # a chart: its labels and data read as text
        from .mermaid import mermaid_as_text

        read = mermaid_as_text(body)
        info = "chart  "  # a fence of text whose lines are no table rows (see split)
    elif info in _CODE:
        kinds = _kinds(body, _CODE[info])
        regions = _literals(body, kinds)
        if not regions:
            return m.group(0)
        read = _as_yaml(body, kinds, regions)
        info = " " * len(info)  # now a fence of text: its lines are read
    else:
        return m.group(0)
    return m.group(1) + info + m.group(3) + read + m.group(0)[m.end(4) - m.start() :]


def _kinds(body: str, comment: str | None) -> str:
    """One letter per character of ``body``: ``c`` code, ``q`` a string's quote, ``s`` a string's
    content, ``m`` a comment (``comment`` opens a line comment; ``/* … */`` is one in JS and TS)."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if comment and body.startswith(comment, i):
            end = body.find("\n", i)
            end = n if end < 0 else end
            out += "m" * (end - i)
            i = end
        elif comment == "//" and body.startswith("/*", i):
            end = body.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out += "".join("\n" if c == "\n" else "m" for c in body[i:end])
            i = end
        elif ch in "\"'`":
            j = i + 1
            while j < n and body[j] != ch and (ch == "`" or body[j] != "\n"):
                j += 2 if body[j] == "\\" else 1
            j = min(j, n - 1)
            out += "q" + "s" * (j - i - 1) + ("q" if body[j] == ch else "s")
            i = j + 1
        else:
            out.append(" " if ch == "\n" else "c")
            i += 1
    return "".join(out)


def _toml_kinds(body: str) -> str:
    """:func:`_kinds` for TOML: ``#`` comments, basic and literal strings, multi-line ones too (the
    backslash that continues a line is marked a quote, so it is blanked)."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "#":
            end = body.find("\n", i)
            end = n if end < 0 else end
            out += "m" * (end - i)
            i = end
        elif ch in "\"'":
            quote = ch * 3 if body.startswith(ch * 3, i) else ch
            j = i + len(quote)
            out += "q" * len(quote)
            while j < n and not body.startswith(quote, j) and (len(quote) == 3 or body[j] != "\n"):
                if ch == '"' and body[j] == "\\":
                    out += "q" if body[j + 1 : j + 2] in ("\n", "") else "ss"
                    j += 1 if body[j + 1 : j + 2] in ("\n", "") else 2
                    continue
                out.append("s")
                j += 1
            closed = min(len(quote), n - j) if body.startswith(quote, j) else 0
            out += "q" * closed
            i = j + closed
        else:
            out.append(" " if ch == "\n" else "c")
            i += 1
    return "".join(out)[:n]


def _toml_as_yaml(body: str) -> str:
    """TOML read as YAML: a table header is a key ("[[work]]" reads "work:"), ``key = value`` reads
    ``key: value``, an inline table's keys are blanked, and a string alone on its line is a list item."""
    kinds = _toml_kinds(body)
    code = "".join(ch if k == "c" else "\n" if ch == "\n" else " " for ch, k in zip(body, kinds, strict=True))
    chars = list(_as_yaml(body, kinds, [(0, 0, len(body))]))
    for m in _TOML_TABLE.finditer(code):
        label = m.group(2) + ":"
        chars[m.start() : m.end()] = m.group(1) + label + " " * (m.end() - m.start() - len(m.group(1)) - len(label))
    for m in _TOML_KEY.finditer(code):
        chars[m.start(3) : m.end()] = ":" + " " * (m.end() - m.start(3) - 1)
    for m in _TOML_INNER_KEY.finditer(code):
        chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(chars)


def _literals(body: str, kinds: str) -> list[tuple[int, int, int]]:
    """``(start, opening bracket, end)`` of each object or array literal assigned (or exported) at the
    top level; one assigned to a name starts at that name ("const certifications: Cert[] = [")."""
    skeleton = "".join(ch if k == "c" else "\n" if ch == "\n" else "x" for ch, k in zip(body, kinds, strict=True))
    out: list[tuple[int, int, int]] = []
    for m in _ASSIGNED.finditer(skeleton):
        start = m.start(1)
        line_start = skeleton.rfind("\n", 0, start) + 1
        if (out and start < out[-1][2]) or _TYPE_LINE.match(skeleton, line_start):
            continue
        target = _TARGET.match(skeleton[line_start : m.start()])
        depth = 0
        for k in range(start, len(skeleton)):
            depth += (skeleton[k] in "{[(") - (skeleton[k] in "}])")
            if depth == 0:
                out.append((line_start + target.start(1) if target else start, start, k + 1))
                break
    return out


def _as_yaml(body: str, kinds: str, regions: list[tuple[int, int, int]]) -> str:
    inside = [False] * len(body)
    for a, _o, b in regions:
        inside[a:b] = [True] * (b - a)
    chars = [
        ch if ch == "\n" or (inside[i] and (k == "s" or (k == "c" and ch not in _STRUCTURE))) else " "
        for i, (ch, k) in enumerate(zip(body, kinds, strict=True))
    ]
    for a, opening, _b in regions:  # "const certifications: Cert[] = [" reads "certifications:", a key
        name = re.match(r"[A-Za-z_$][\w$]*", body[a:opening])
        line_start = body.rfind("\n", 0, a) + 1
        if name and a + name.end() < opening:
            label = name.group(0) + ":"
            chars[line_start:opening] = label + " " * (opening - line_start - len(label))
    lines, pos = "".join(chars).split("\n"), 0
    for k, raw in enumerate(body.split("\n")):  # a string alone on its line: a list item
        marks, at = kinds[pos : pos + len(raw)], pos
        pos += len(raw) + 1
        cut = len(raw) - len(raw.lstrip())
        code = "".join(ch for ch, kind in zip(raw, marks, strict=True) if kind == "c")
        if 0 < cut < len(raw) and marks[cut] == "q" and inside[at + cut] and ":" not in code:
            lines[k] = lines[k][: cut - 1] + "- " + lines[k][cut + 1 :]
        elif inside[at + cut : at + cut + 1] == [True] and _ONE_LINE_OBJECT.fullmatch(code):
            # "{ name: "CKAD", year: "2022" }," in a list: an item of its values, keys blanked
            line = lines[k]
            for key in _KEY.finditer(raw):
                if marks[key.start(1)] == "c":
                    line = line[: key.start(1)] + " " * (key.end() - key.start(1)) + line[key.end() :]
            lines[k] = line[:cut] + "-" + line[cut + 1 :]
    return "\n".join(lines)
