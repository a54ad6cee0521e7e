"""A paragraph's sentences (abbreviations and decimals end none) and the runs of its lines that belong
together (a wrapped sentence, or a record of its own: a dashboard's row, a role's dates)."""

from __future__ import annotations

import re

_ABBREV = re.compile(
    r"(?:\b(?:Inc|Corp|Ltd|Co|Mr|Ms|Mrs|Dr|St|Sr|Sra|Srta|vs|etc|approx|est|incl|e\.g|i\.e|No|NO|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|"
    r"Sept|Oct|Nov|Dec|U\.S|U\.K|a\.m|p\.m|c|ca|excl|avg|yrs|mos|wks|hrs|mins|qtr|qtrs|pts|resp|esp|cf|Sc|Univ|Dept)\.|\b[A-Z]\.)$"
)
_LEADER_DOTS = re.compile(r"\s\.{3,}$")
_SENTENCE_END = re.compile(
    r"[.!?][\"')\]*_]*(?=\s+[\"'(\[*_]*[A-Z0-9$€£~≈])|[.!?]$|;(?=\s+[A-Z])"
    r"|(?:(?<=[\d%)])|(?<=[a-z]{4}))[.!?](?=\s+[a-z])"  # "it's down ~28%. that's …": a writer who never capitalises
)


def sentences(text: str, base: int) -> list[tuple[str, int, int]]:
    """``(sentence, start, end)`` with absolute offsets; abbreviations and decimals do not end one."""
    out: list[tuple[str, int, int]] = []
    begin = 0
    for m in _SENTENCE_END.finditer(text):
        end = m.end()
        head = text[begin : m.start() + 1]
        if text[m.start()] == "." and _ABBREV.search(head.rstrip(".") + "."):
            continue
        if _LEADER_DOTS.search(head) and re.match(r"\s+[-−+~$€£]?\d", text[m.end() :]):
            continue  # "shipment-tracking events processed ... 2M/day": dots leading to the figure, no ellipsis
        piece = text[begin:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append((piece.strip(), base + begin + lead, base + begin + lead + len(piece.strip())))
        begin = end
    piece = text[begin:]
    if piece.strip():
        lead = len(piece) - len(piece.lstrip())
        out.append((piece.strip(), base + begin + lead, base + begin + lead + len(piece.strip())))
    return out


def line_groups(lines: list[str], numbers: list[int]) -> list[tuple[int, int]]:
    """Runs of a paragraph's lines that belong together: a wrapped sentence continues on the next
    line, but a line that ends without punctuation followed by one that starts like a new record
    ("AMZN — wt 10.1 % | …", "**Google** …") is a row of its own (dashboards, memo headers)."""
    groups: list[list[int]] = [[numbers[0]]]
    for i in numbers[1:]:
        prev, cur = lines[groups[-1][-1]].rstrip(), lines[i].lstrip()
        starts_record = bool(
            re.match(
                r"(?:\*\*|__|[A-Z]{2,6}\b|[A-Z][a-z]+\s*[:—–|]|[A-Z][a-z]+(?: [a-z]+){1,2}:\s|:[A-Z][\w ]{1,30}:\s"
                r"|(?:\d{1,2}|[IVX]{1,4})(?:\.\d{1,2})+\.?\s+[A-Z]|(?:19|20)\d\d\s*[–—:-]\s*[A-Z]"
                r"|[\u2190-\u2bff\U0001f000-\U0001faff]|`(?:19|20)\d\d`|`[A-Z][A-Z.]{0,5}`\s"
                r"|`?(?:19|20)\d\d\s*[–—-]\s*(?:$|(?:(?:19|20)?\d\d|now|present|today|current)\b(?![-/.]\d)))",
                cur,
            )
        )  # "4.2 Certified Kubernetes …" (an outline number), "2014 – B.Sc. …" (a year), "💡 Tip: …" (an icon),
        # "`2015–2017` **Copperleaf**", "`2015` MSc …", "2015 –" (a PDF's date column): a role's dates
        # open a record; so does a symbol in code ("`AAPL` $55,755.00 · 43.85 %")
        # "MSc Computer Science, Leeds ........ 2015", "POSITIONS READ ....... 5" (its leader made a comma),
        # "p95 API latency ... -60%": a row
        leader = re.search(r"\.{4,}\s*\S+$|\s\.{3}\s+[^.]{1,30}$|[,:][ \t]{3,}\S+$", prev)
        message = len(lines[i]) - len(cur) >= 8  # a chat's message, its time and sender blanked
        joined = re.search(r"[,;(\-–—]$|\b(?:and|or|the|a|of|to|in|by|at|with|is|are|was|were|than|from)$", prev)
        # "MSFT 28.80 17,280.00 13.59%" / "Total 127,157.10 100.00%": a PDF table's rows, each its own record
        row = re.search(r"\d%?$", prev) and re.match(r"[A-Z][a-z]+(?: [A-Za-z]+){0,2}\s+[-+−$€£(]?\d", cur)
        if leader or message or row or (starts_record and not joined):
            groups.append([i])
        else:
            groups[-1].append(i)
    return [(g[0], g[-1]) for g in groups]
