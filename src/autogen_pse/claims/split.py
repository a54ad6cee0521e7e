"""Split a rendered Markdown artifact into claim units: sentences, bullets, table rows, headings.

Every unit keeps its absolute character span in the artifact (so a dashboard can highlight it), its
1-based line, the section it belongs to (the nearest level-1/2 heading) and its *context*: the text
of the headings, bold lead-ins and parent bullets above it, where the entity a sentence is about is
often named ("**Apple (AAPL):** up 480 %"). Code fences and HTML comments are not claims.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .cells import aligned, fixed_cells, grouped, header_like, neighbours, pipe_cells, skipped
from .commentary import commentary
from .sentences import line_groups, sentences
from .yamlblocks import NAMING_KEYS, YAML_KEY, comment_text, item_keys, item_name, traded_amount, yaml_lines

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# a numbered ALL-CAPS line is a section heading of a plain-text document ("1. EDUCATION", "III. EMPLOYMENT")
_NUMBERED_CAPS = re.compile(
    r"^\s*(?P<level>)(?:\d{1,2}|[IVX]{1,4})[.)]\s+(?:\*\*)?([A-Z][A-Z &/,'-]{2,60}?)(?:\*\*)?:?\s*$"
)
_FOOTNOTE_DEFINITION = re.compile(r"^ {0,3}\[\^\w+\]:")
_BULLET = re.compile(r"^(\s*)(?:[-*+•▪◦]|o(?=[ \t]+[A-Za-z0-9(])|\d{1,2}[.)])\s+")  # "o": a Word or plain-text bullet
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BOLD_LEAD = re.compile(r"^\s*(\*\*|__)(.+?)\1\s*[:—–-]?\s*")
# a French letter's closing formula, translated: "Please accept, Madam, our distinguished greetings."
_CLOSING_FORMULA = re.compile(
    r"\b(?:accept|agree|receive)\b[^.]{0,60}\b(?:greetings|salutations|sentiments|consideration|expression of our)\b",
    re.IGNORECASE,
)
_SALUTATION = re.compile(
    r"^(?:(?:with\s+)?(?:best|kind|warm|many)?\s*(?:regards|wishes|thanks)|thanks|thank you|cheers|sincerely|"
    r"yours(?: sincerely| truly)?|all the best|speak soon|talk soon|best|dear|hi|hiya|hey|hello"
    r"|(?:good )?(?:morning|afternoon|evening)|to whom it may concern|to the (?:\w+ ){0,2}(?:committee|team|panel)"
    r"|hola|querid[oa]|estimad[oa]|un abrazo|saludos|atentamente|cordialmente|bonjour|cordialement|hallo|ciao)"
    r"\b[^.!?]{0,40}[,.!]?\s*[A-Z]?[\w.\- ]{0,40}$",
    re.IGNORECASE,
)
_SUBLABEL = re.compile(  # labels of an entry's parts, not sections of their own
    r"(?:key\s+)?(?:responsibilities|achievements|accomplishments|highlights|impact|duties|technical\s+environment|"
    r"tech(?:nology)?\s+stack|stack|tools|environment|results|selected\s+work)$",
    re.IGNORECASE,
)
_MEMO_FIELD = re.compile(  # "**From:** Investment Advisory Desk", "To: the Client", "Re: …"
    r"^[*_]*(?:from|to|cc|bcc|re|subject|date|attn|attention|prepared\s+(?:by|for)|author|classification)[*_]*\s*:",
    re.IGNORECASE,
)
_SECTION_LABEL = re.compile(  # a bold label that opens a section of its own, not an entry's part
    r"(?:certifications?|certificates|licen[cs]es(?: and certifications)?|(?:key |core |technical )?skills|education|"
    r"qualifications|languages|interests|awards|publications|projects|summary|profile|"
    r"(?:work |professional )?experience|employment(?: history)?|work history)",
    re.IGNORECASE,
)
_CAPS_RUN = re.compile(r"\s*[A-Z][A-Z &/]*[A-Z]")


def caps_lead(line: str, is_section: Callable[[str], bool] = lambda t: bool(_SECTION_LABEL.fullmatch(t))) -> int:
    """Where the ALL-CAPS section label that opens ``line`` ends when the line's content runs on after it
    (a CV pasted into a form's text box: "EDUCATION MSc Computer Science …", "SKILLSLanguages: Python",
    "CERTIFICATIONSAWS Certified …"), else 0."""
    run = _CAPS_RUN.match(line)
    if run is None:
        return 0

    def fits(end: int) -> bool:
        return bool(re.match(r"\s*[A-Z][A-Za-z]", line[end:])) and is_section(line[:end].strip())

    # the shortest label a space ends ("CERTIFICATIONS AWS Certified …"), else the longest run into the
    # content ("CERTIFICATIONSAWS Certified …": "CERTIFICATIONS", not "CERTIFICATION")
    ends = range(run.start() + 3, run.end() + 1)
    return next((e for e in ends if line[e : e + 1] in (" ", "\t") and fits(e)), 0) or next(
        (e for e in reversed(ends) if fits(e)), 0
    )


_GREETING = re.compile(
    r"^(?:dear|hi|hiya|hey|hello|(?:good )?(?:morning|afternoon|evening)|to whom it may concern"
    r"|to the (?:\w+ ){0,2}(?:committee|team|panel)\W*$)\b",
    re.IGNORECASE,
)
_BOLD_ONLY = re.compile(r"(\*\*|__)[^*_]{1,80}\1[:.]?")
@dataclass
class Unit:
    """One claim unit. ``start``/``end`` are offsets in the artifact; ``line`` is 1-based."""

    text: str
    start: int
    end: int
    line: int
    kind: str  # sentence | bullet | row | heading | meta (a letter's head: never a claim)
    section: str = ""
    context: list[str] = field(default_factory=list)  # headings / lead-ins / parent bullets, nearest last
    cells: list[tuple[str, int]] = field(default_factory=list)  # table rows: (cell text, offset)
    header: list[str] = field(default_factory=list)  # table rows: the header cells
    paragraph: int = 0  # units of one paragraph or bullet share this number


MAX_UNIT_CHARS = 600  # a longer run-on "sentence" is checked in pieces: the work per claim stays bounded


def _bounded(units: list[Unit]) -> list[Unit]:
    """Units cut into pieces of at most :data:`MAX_UNIT_CHARS` (at a clause mark or a space when
    there is one), so that no input makes the verifier's per-claim work grow without bound."""
    out: list[Unit] = []
    for u in units:
        if len(u.text) <= MAX_UNIT_CHARS:
            out.append(u)
            continue
        pos = 0
        while pos < len(u.text):
            end = min(len(u.text), pos + MAX_UNIT_CHARS)
            if end < len(u.text):
                window = u.text[pos + MAX_UNIT_CHARS // 2:end]
                cut = max(window.rfind("; "), window.rfind(", "), window.rfind(" "))
                if cut >= 0:
                    end = pos + MAX_UNIT_CHARS // 2 + cut + 1
            piece = u.text[pos:end]
            out.append(Unit(piece, u.start + pos, u.start + end, u.line + u.text.count("\n", 0, pos), u.kind,
                            u.section, u.context, u.cells if pos == 0 else [], u.header, u.paragraph))
            pos = end
    return out


def split_units(text: str) -> list[Unit]:
    """The claim units of ``text`` in order (see the module docstring)."""
    return _bounded(commentary(text, _letterhead(text, _split_units(text))))


_TEXT_FENCES = ("markdown", "md", "yaml", "yml", "json", "text", "txt", "plaintext", "latex", "tex", "html", "chart",
                "")  # "chart": a diagram read as text (:mod:`.mermaid`), its lines no table rows
def _letterhead(text: str, units: list[Unit]) -> list[Unit]:
    """A letter's head (firm, address, reference, date before "Dear …") states nothing about the
    subject: its sentences are no claims."""
    lines = text.splitlines()
    greeting = next((i + 1 for i, line in enumerate(lines[:25]) if _GREETING.match(line.strip("*_ "))), None)
    if greeting is None:
        return units
    for u in units:
        if u.line < greeting and u.kind == "sentence":
            u.kind = "meta"
    return units


def _split_units(text: str) -> list[Unit]:
    units: list[Unit] = []
    fixed_header: list[str] = []
    fixed_columns: list[tuple[int, int]] = []
    signed = [-1]  # the line of a sign-off ("Kind regards,"): a few short lines after it are the signature
    lines = text.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    section = ""
    headings: list[tuple[int, str]] = []  # (level, title) stack
    bullets: list[tuple[int, str]] = []  # (indent, lead text) stack
    in_fence, in_comment, charted = "", False, False
    header: list[str] = []
    paragraph = 0
    prev_blank = True
    para_lines: list[int] = []

    lead_line = ""  # the paragraph right before a list ("**Title**, Employer (dates)") is its entry head
    marked = 0  # the level of the last Markdown heading below the title ("## GOOG — Google Inc."), 0 if none
    yaml = yaml_lines(lines)
    keys: list[tuple[int, str]] = []  # (indent, key or list item) stack of a YAML-like block

    def flush_paragraph() -> None:
        nonlocal para_lines, paragraph, lead_line
        if not para_lines:
            return
        nonlocal headings, section
        columns = re.split(r"\s{3,}", lines[para_lines[0]].strip())
        if len(para_lines) > 1 and all(_SECTION_LABEL.fullmatch(c.title()) for c in columns) \
                and lines[para_lines[0]].strip().isupper():  # "SKILLS        EDUCATION" over a page's two columns
            title = " / ".join(c.title() for c in columns)
            headings, section = [(lv, t) for lv, t in headings if lv < 2] + [(2, title)], title.lower()
            para_lines = para_lines[1:]
        head = " ".join(lines[i].strip() for i in para_lines)
        short = len(para_lines) <= 5 and all(len(lines[i].strip()) <= 80 for i in para_lines)  # title/employer/
        prose = len(head) > 150 and len(re.findall(r"[.!?](?:\s+[A-Z]|\s*$)", head)) >= 2  # (a letter's paragraph)
        lead_line = head if (len(para_lines) <= 3 or short) and len(head) <= 300 and not prose else ""  # dates/place
        if len(para_lines) == 1 and (_BOLD_ONLY.fullmatch(head) or re.fullmatch(r"[A-Z][A-Z &/,'-]{2,60}:?", head)):
            # "**Certifications**" or "CERTIFICATIONS" on a line of its own opens a section
            title = head.strip("*_: ")
            if _SUBLABEL.match(title) and headings:  # "**Achievements:**" under a role: still the role's
                headings = [*headings, (headings[-1][0] + 1, title)]
            elif marked and not _SECTION_LABEL.fullmatch(title.rstrip(" .:")):  # "**Pros**" under "## GOOG": GOOG's
                headings = [(lv, t) for lv, t in headings if lv <= marked] + [(marked + 1, title)]
            else:
                headings = [(lv, t) for lv, t in headings if lv < 2] + [(2, title)]
                section = title.lower()
            lead_line = ""
        paragraph += 1
        bold = _BOLD_LEAD.match(lines[para_lines[0]])
        ctx = [t for _l, t in headings] + ([bold.group(2)] if bold else [])  # "**Amazon.** Up 242 % …"
        for first, last in line_groups(lines, para_lines):
            label = _BOLD_LEAD.match(lines[first])
            if label and _SECTION_LABEL.fullmatch(label.group(2).strip(" :.")):  # "**Certifications:** AWS …"
                headings = [(lv, t) for lv, t in headings if lv < 2] + [(2, label.group(2).strip(" :."))]
                ctx = [t for _l, t in headings]
                paragraph += 1  # a new section: nothing carried over from the lines before
            start = offsets[first]
            chunk = text[start : offsets[last] + len(lines[last])]
            for sent, s, e in sentences(chunk.replace("\n", " "), start):
                caps = re.fullmatch(r"[A-Z][A-Z &/,'-]{2,60}:?", re.sub(r"^\W+", "", sent).strip("*_ ")) is not None
                closing = _CLOSING_FORMULA.search(sent)  # "we pray you to accept, Dear Sir, the assurance of …"
                greeting = _SALUTATION.match(sent) or _MEMO_FIELD.match(sent) or closing
                line_no = text.count("\n", 0, s) + 1
                signature = signed[0] >= 0 and line_no - signed[0] <= 4 and len(sent) <= 80
                kind = "heading" if caps or _BOLD_ONLY.fullmatch(sent) or greeting or signature else "sentence"
                # "**Core strengths**" is a heading; "Best regards, Jordan" and "Hi Alex," are not claims,
                # nor is the signature after a sign-off ("Helen Marsh, Private Client Adviser")
                if (_SALUTATION.match(sent) and not _GREETING.match(sent)) or closing:  # a sign-off, not "Hi Tom,"
                    signed[0] = line_no
                units.append(Unit(sent, s, e, line_no, kind, section, ctx, paragraph=paragraph))
        para_lines = []

    for i, line in enumerate(lines):
        base = offsets[i]
        stripped = line.strip()
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        fence = _FENCE.match(line)
        if fence:
            flush_paragraph()
            mark = fence.group(1)
            info = line.strip()[len(mark) :].strip().lower()
            if not in_fence:  # a fence of text or data (YAML, JSON) is content; code is not
                in_fence = "" if info in _TEXT_FENCES else mark[:3]
                charted = info == "chart" and not charted
            elif line.strip().startswith(in_fence):
                in_fence = ""
            continue
        if in_fence:
            continue
        if stripped.startswith("<!--"):
            flush_paragraph()
            in_comment = "-->" not in stripped
            continue
        if yaml[i]:  # "  volatility: 39.6%" under "AMZN:": a line of its own, its parent keys its context
            flush_paragraph()
            indent = len(line) - len(line.lstrip(" -"))
            # a list item ("- symbol: GOOG") ends the one before it, whose name its siblings kept
            keys = [(ind, k) for ind, k in keys if ind < (indent - 1 if stripped.startswith("- ") else indent)]
            item = YAML_KEY.match(line)
            value = (item.group(2) or "").strip() if item else stripped.lstrip("- ")
            if item and not value:
                keys.append((indent, item.group(1)))  # "AMZN:", "work:": opens a block
                continue
            if not stripped:  # a blanked brace of a JSON block
                continue
            siblings = item_keys(lines, yaml, i, indent) if item else {}
            if stripped.startswith("- ") and item:  # "- name: Brightline Payments Ltd": names its list item
                # (and its sibling keys: "  weight: 43.85%"), unless a sibling does ("- action: TRIM / symbol: AAPL")
                keys.append((indent - 1, item_name(siblings) or value))
            elif item and item.group(1).strip().lower() in NAMING_KEYS:  # JSON: "name": "Brightline …"
                keys = [(ind, k) for ind, k in keys if ind != indent - 1] + [(indent - 1, value)]
            paragraph += 1
            start = base + len(line) - len(line.lstrip(" -"))
            body = line[start - base :].rstrip()
            if item and traded_amount(item.group(1), siblings):  # a trade's "est_value: 17607.87": the figure alone
                start, body = base + item.start(2), line[item.start(2) :].rstrip()
            elif comment_text(line):  # "  # the small Cisco position was not priced": the comment's words
                start, body = base + comment_text(line), line[comment_text(line) :].rstrip()
            units.append(Unit(body.replace("_", " ") if item else body, start, start + len(body), i + 1, "sentence",
                              section, [t for _l, t in headings] + [k for _i, k in keys], paragraph=paragraph))
            continue
        keys = keys if yaml[i] or not stripped else []
        if not stripped:
            flush_paragraph()
            prev_blank = True
            header, fixed_header = [], []
            continue
        if _FOOTNOTE_DEFINITION.match(line):  # "[^3]: …": a note of its own, of no entry above it
            flush_paragraph()
            headings, section, bullets, lead_line = [(2, "Notes")], "notes", [], ""
            para_lines.append(i)
            prev_blank = False
            continue
        caps = caps_lead(line)
        if caps:  # "EDUCATION MSc Computer Science …": a section of its own, its content on the label's line
            flush_paragraph()
            label = line[:caps].strip()
            headings, section, bullets, lead_line = [(2, label)], label.lower(), [], ""
        h = _HEADING.match(line) or _NUMBERED_CAPS.match(line)  # "## Summary", "2. SUMMARY"
        if h:
            flush_paragraph()
            lead_line = ""
            level, title = len(h.group(1)) or 2, h.group(2)
            headings = [(lv, t) for lv, t in headings if lv < level] + [(level, title)]
            marked = level if level >= 2 and h.group(1) else 0
            if level <= 2:
                section = re.sub(r"^\d+[.)]\s*|[*_`:]", "", title).strip().lower()
            bullets = []
            start = base + line.find(title) if title else base
            paragraph += 1
            units.append(
                Unit(
                    title,
                    start,
                    start + len(title),
                    i + 1,
                    "heading",
                    section,
                    [t for _l, t in headings[:-1]],
                    paragraph=paragraph,
                )
            )
            prev_blank = False
            continue
        bars = stripped.count("|")
        bare_header = (  # "Sym  | Wt %  | MV" over rows with as many bars: a header with no rule under it
            not header and bars >= 2 and not re.search(r"\d", stripped) and i + 1 < len(lines)
            and lines[i + 1].strip().count("|") == bars and re.search(r"\d", lines[i + 1]) is not None
        )  # fmt: skip
        if bare_header or ("|" in stripped and (i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]))):
            flush_paragraph()
            header = [c for c, _o in pipe_cells(line, base)]
            continue
        if _TABLE_SEP.match(line) and "|" in line:
            continue
        if header and "|" in stripped:
            cells = pipe_cells(line, base)
            paragraph += 1
            start = cells[0][1] if cells else base
            units.append(
                Unit(
                    stripped.strip("|").strip(),
                    start,
                    base + len(line.rstrip()),
                    i + 1,
                    "row",
                    section,
                    [t for _l, t in headings],
                    cells,
                    header,
                    paragraph=paragraph,
                )
            )
            continue
        fixed = fixed_cells(line, base)
        if fixed_header and skipped(lines, i):  # "--------" over a table's total row; a DataFrame's "symbol"
            continue
        near = neighbours(lines, i)
        least = 2 if "\t" in stripped else 3  # (a pasted table of two columns: "Languages\tPython, Go, SQL")
        if not charted and len(fixed) >= least and any(len(fixed_cells(lines[j], 0)) >= least for j in near) and not (
            not fixed_header and near and near[-1] > i and header_like(line) and header_like(lines[near[-1]])
        ):  # (of two lines of names, the one over the figures is the header: " F2 Hold  F3 Perf" is a menu)
            # a plain-text table whose columns are runs of spaces ("Apple    43.9%    +480%")
            flush_paragraph()
            if not fixed_header and header_like(line) and i + 1 < len(lines):
                fixed_columns = [(o - base, o - base + len(c)) for c, o in fixed]
                fixed_header = grouped([c for c, _o in fixed], fixed_columns, lines[i - 1] if i else "")
                if line[:1].isspace():  # "        qty   cost/u …": the first column (the holding) has no name
                    fixed_header = ["", *fixed_header]
                    fixed_columns = [(0, fixed_columns[0][0] - 1), *fixed_columns]
                continue
            paragraph += 1
            if fixed_header and len(fixed) != len(fixed_header) and "\t" not in line:  # "total   127,157.10": blanks
                fixed = aligned(fixed, base, fixed_columns)
            units.append(
                Unit(stripped, fixed[0][1], base + len(line.rstrip()), i + 1, "row", section,
                     [t for _l, t in headings], fixed, fixed_header, paragraph=paragraph)
            )  # fmt: skip
            continue
        fixed_header = []
        b = _BULLET.match(line)
        if b:
            flush_paragraph()
            indent = len(b.group(1).expandtabs(4))
            body_start = b.end()
            body = line[body_start:]
            bullets = [(ind, t) for ind, t in bullets if ind < indent]
            lead = _BOLD_LEAD.match(body)
            ctx = (
                [t for _l, t in headings]
                + ([lead_line] if lead_line and not [b for b in bullets if b[0] < indent] else [])  # top level
                + [t for _i, t in bullets]
            )
            paragraph += 1
            for sent, s, e in sentences(body, base + body_start):
                kind = "heading" if _GREETING.match(sent) and _SALUTATION.match(sent) else "bullet"  # "- Hi Priya!"
                units.append(Unit(sent, s, e, i + 1, kind, section, list(ctx), paragraph=paragraph))
            bullets.append((indent, lead.group(2) if lead else body))
            prev_blank = False
            continue
        # (deeper: a chat's message, its time and sender blanked); unindented, a lazy continuation
        # ("▪ Moved nightly batch jobs to Kafka streams" / "at Brightline, cutting …")
        lazy = line[:1].islower() and units and not re.search(r"[.!?;:]\W*$", units[-1].text)
        if bullets and not prev_blank and units and units[-1].kind == "bullet" and (
            (line.startswith((" ", "\t")) and len(line) - len(line.lstrip()) <= bullets[-1][0] + 10) or lazy
        ):
            # a wrapped bullet line: same paragraph and context; a sentence cut at the line break
            # ("… cutting data delays from 24" / "hours to 15 minutes") goes on across it
            ctx = units[-1].context
            start = base + len(line) - len(line.lstrip())
            if not re.search(r"[.!?;:]\W*$", units[-1].text) and not (
                re.search(r"\d%?$", units[-1].text) and line.lstrip()[:1].isupper()
            ):  # but "~ $22,410, about 17.6%" / "DOWN ~$5,310": a card's lines, each a statement
                start = units.pop().start
            chunk = text[start : base + len(line.rstrip())]
            for sent, s, e in sentences(chunk.replace("\n", " "), start):
                sent = re.sub(r"\s{2,}", " ", sent)  # the wrapped line's indent
                units.append(Unit(sent, s, e, text.count("\n", 0, s) + 1, "bullet", section, list(ctx),
                                  paragraph=paragraph))  # fmt: skip
            continue
        bullets = [] if prev_blank else bullets
        # "`AAPL` 43.85% | +480.03% | 1,885 d": a row with no table; "Backend Engineer, Harbourside …  06/2017 -
        # 02/2020  • Moved …  • Reduced …": an entry and its bullets run together in a form's text box
        row_like = (stripped.count(" | ") >= 2 or len(re.findall(r"\s[•▪]\s", stripped)) >= 2
                    or stripped.count(" - ") >= 3)
        if row_like:
            flush_paragraph()
        para_lines.append(i)
        if charted or row_like or caps:  # a diagram's line says one thing: a node, an edge, a slice
            flush_paragraph()
        prev_blank = False
    flush_paragraph()
    return units
