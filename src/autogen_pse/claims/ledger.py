"""Build the claim ledger of an artifact and turn it into check results.

``build_ledger(artifact, verifier)`` splits the artifact into units (:mod:`.split`), gives each unit
the entities its context names (table row, bold lead-in, heading, previous sentence of the
paragraph) and verifies it (:mod:`.verify`). :func:`ledger_checks` turns the ledger into two check
results: ``claims`` (every contradicted claim, with its sentence and the evidence — an error) and
``unverifiable`` (claims no evidence covers — a warning, or an error when the task's policy says so).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..hooks import CheckResult
from .conversation import question_lines, quoted_lines, user_turn_lines
from .formats import read_document
from .markup import annotation_lines
from .model import Claim, Ledger, Status
from .number_formats import mend, normaliser
from .revisions import retracted, revision_lines
from .runreport import run_report_lines
from .scenarios import table_is_projection
from .split import Unit, split_units
from .verify import Verifier

MAX_LISTED = 8
_COLUMN_ALIASES = {
    "holding": "symbol", "ticker": "symbol", "stock": "symbol", "position": "symbol", "security": "symbol",
    "company": "symbol", "name": "symbol", "asset": "symbol", "sym": "symbol", "sym.": "symbol", "tkr": "symbol",
    "trade": "action", "recommendation": "action",
    "verdict": "action",
    "proposed action": "action", "quantity": "amount", "size": "amount", "units": "amount", "shares": "amount",
}  # fmt: skip
# a short line (or two) with no sentence end is an entry's head ("**3.1 Brightline Payments Ltd, Manchester**
# *Senior Backend Engineer, Mar. 2020 – present*") whose entity the lines below it are about
# "Total 127,157.10 100.00% …" under the rows: the whole's line, not the last row's holding
_WHOLE_LEAD = re.compile(r"\W*(?:totals?|grand total|sum|overall|all holdings)\b\W*[-+−$€£(]?\d", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?:](?:\s+[A-Z]|\W*$)")  # not "Sept. 2015", "Univ. of Leeds"
_BOLD_LEAD = re.compile(r"\W*(?:\*\*|__)\w")
# a column whose header gives its figures' unit of time ("Held (years)", "t, yrs"): its bare figures are spans
_SPAN_COLUMN = re.compile(r"(?:\(|,\s*|\bin\s+)(years|yrs|months)\)?$")
_BARE_FIGURE = re.compile(r"[~≈]?\s*\d+(?:\.\d+)?")
# a table of the writer's scores ("Decision matrix (scores out of 10)", "| Total /40 |", "Rating (1–5)")
_SCORE_TABLE = re.compile(
    r"\b(?:scores?|scoring|scorecard|ratings?|matrix)\b|\(\s*1\s*[–-]\s*(?:5|10)\b|/\s*(?:5|10|20|40|50|100)\b"
    r"|\bout\s+of\s+(?:5|10)\b",
    re.IGNORECASE,
)
_SCORE = re.compile(r"[\d.]{1,4}(?:\s*/\s*\d{1,3})?|[★☆✪⭐]+")
_REFERENCE_LIST = re.compile(r"(?:\d+\.?\s*)?(?:references|bibliography|works\s+cited|literature|further\s+reading|"
                             r"sources(?:\s+(?:cited|used))?|retrieved\s+sources|citations)", re.IGNORECASE)
_NOT_CLAIM_COLUMNS = {"priority", "#", "rank", "no", "no.", "step", "order", "n"}


def build_ledger(artifact: str, verifier: Verifier) -> Ledger:
    """The ledger of ``artifact`` (see the module docstring)."""
    claims: list[Claim] = []
    last_paragraph, last_entities = -1, list[str]()
    original = artifact
    reading = read_document(artifact)  # HTML, LaTeX, notes-app exports: read as Markdown
    artifact = mend(reading.text)  # words broken across lines, page footers (offsets kept)
    rewrite = normaliser(artifact)  # "43,85 %" in a decimal-comma document is 43.85 %
    entry: list[str] = []  # the entity of the last entry head of the section ("3.1 Brightline Payments Ltd")
    section = ""
    # a chat's user turns, an e-mail's quotes, a Q&A page's question, the run's report around the artifact
    asked = user_turn_lines(artifact) | quoted_lines(artifact) | question_lines(artifact) | run_report_lines(artifact) \
        | annotation_lines(artifact if reading.converted else original)  # (and a reviewer's notes on the draft)
    revised = revision_lines(artifact)  # notes on what changed since the evaluator's verdict
    for n, unit in enumerate(split_units(artifact), start=1):
        if unit.line in asked or _REFERENCE_LIST.fullmatch(unit.section):
            unit.kind = "meta"  # a chat's user turns, an e-mail's quotes, a run's report; a reference list's entries
        scope = _context_entities(unit, verifier)
        if unit.section != section or unit.kind == "heading":
            section, entry = unit.section, []
        head = unit.text.strip()
        if unit.kind == "sentence" and 3 <= len(head) <= 160 and not _SENTENCE_END.search(head) \
                and _whole_lines(artifact, unit):  # (not "GOOG: long-held-loss;" inside a sentence)
            entry = verifier.owner_mentions(unit.text)[:1]  # a head names its entry (or closes the last one)
        elif not _BOLD_LEAD.match(unit.text):  # "**Education** MSc …": a label of its own
            scope = scope or entry
        carried = last_entities if unit.paragraph == last_paragraph and not _WHOLE_LEAD.match(unit.text) else []
        claim = Claim(
            id=n, text=unit.text, line=unit.line, start=unit.start, end=unit.end, kind=unit.kind, section=unit.section
        )
        row: dict[str, str] | None = None
        columns: list[tuple[str, int, int]] | None = None
        scored = unit.kind == "row" and bool(_SCORE_TABLE.search(" ".join([*unit.header, *unit.context[-1:]])))
        by_column = _entity_columns(unit, verifier, rewrite)
        if scored and by_column is not None:
            unit.kind, text = "meta", unit.text  # "| Return | 10 | 9 |" under "Decision matrix (scores out of 10)"
        elif by_column is not None:  # "| | IBM | AMZN |" over "| Weight | 14.81% | 10.13% |": one entity a column
            text = by_column
        elif unit.kind == "row":
            pairs = [(h.strip().strip("*_").lower(), c) for h, (c, _o) in zip(unit.header, unit.cells, strict=False)]
            row = dict(pairs)
            if pairs and not pairs[0][0] and pairs[0][1] and "symbol" not in row:
                row["symbol"] = pairs[0][1]  # "| | Action | Quantity |": the unnamed first column (not a later one)
            for alias, name in _COLUMN_ALIASES.items():  # "Holding" is the Symbol column, "Trade" the Action
                if alias in row and name not in row:
                    row[name] = row[alias]
            text, columns = "", []
            for h, (c, _o) in zip([*unit.header, *[""] * len(unit.cells)], unit.cells, strict=False):
                name = h.strip().strip("*_").lower()
                if name in _NOT_CLAIM_COLUMNS or (scored and _SCORE.fullmatch(c.strip(" *_"))):
                    continue  # a score table's scores are judgements; its names, evidence and verdicts are claims
                text += " | " if text else ""
                columns.append((name, len(text), len(text) + len(c)))
                text += rewrite(c)
                span = _SPAN_COLUMN.search(name)
                if span and _BARE_FIGURE.fullmatch(c.strip(" *_")):  # "| Held (years) | 5.16 |": 5.16 years
                    text += f" {span.group(1)}"
            owners = verifier.owner_mentions(row.get("symbol", "") or text)
            scope = owners[:1] or scope
        else:
            text = rewrite(unit.text)
        if unit.line in revised:
            subjects = [(m.start, m.end) for m in verifier.catalogue.find(text) if m.entity in verifier.owners]
            text = retracted(text, subjects)  # the quoted issue, the old value, the removed item
        if unit.kind == "meta" or (unit.kind == "heading" and not re.search(r"\d", text)):
            claim.entities = [m.entity for m in verifier.catalogue.find(text)]
        else:
            verifier.verify(
                claim,
                text,
                scope,
                row=row,
                columns=columns,
                # the paragraph's last subject, unless it is the context's own ("**Apple.** … Apple's
                # success … The rules allow trimming …": Apple, not a holding named before it)
                carried=[e for e in carried if e not in scope] if not (carried and carried[-1] in scope) else [],
                projected=unit.kind == "row" and table_is_projection(artifact, unit.start),
            )
        claims.append(claim)
        if unit.paragraph != last_paragraph:
            last_paragraph, last_entities = unit.paragraph, []
        own = verifier.subject_mentions(unit.text)
        if own:  # the paragraph's entities so far, the most recent last
            last_entities = [e for e in last_entities if e not in own] + list(dict.fromkeys(own))
        elif not last_entities and scope:
            last_entities = scope[-1:]
    if reading.converted:  # offsets and lines of the document as written
        for made in claims:
            made.start, made.end = reading.original(made.start), reading.original(made.end)
            made.line = original.count("\n", 0, made.start) + 1
    return Ledger(claims=claims, policy=verifier.ev.unverifiable)


def _whole_lines(artifact: str, unit: Unit) -> bool:
    """Does ``unit`` take its lines whole (an entry's head), rather than part of a longer line?"""
    before = artifact[: unit.start].rstrip(" \t*_#>•-")
    after = artifact[unit.end :].lstrip(" \t*_")
    return (not before or before.endswith("\n")) and (not after or after.startswith("\n"))


def _entity_columns(unit: Unit, verifier: Verifier, rewrite: Callable[[str], str]) -> str | None:
    """A row of a table whose columns are entities, read as one sentence per cell ("IBM Weight 14.81%;
    AMZN Weight 10.13%"); ``None`` for any other unit."""
    heads = [h.strip().strip("*_ ") for h in unit.header]
    if unit.kind != "row" or len(heads) < 3 or len(unit.cells) != len(heads) or verifier.owner_mentions(heads[0]):
        return None
    if not all(len(h) <= 30 and verifier.owner_mentions(h) for h in heads[1:]):
        return None
    label = unit.cells[0][0].strip().strip("*_ ")
    out = "; ".join(f"{h} {label} {rewrite(c.strip())}" for h, (c, _o) in zip(heads[1:], unit.cells[1:], strict=True))

    return out


def _context_entities(unit: Unit, verifier: Verifier) -> list[str]:
    out: list[str] = []
    for ctx in unit.context:
        found = verifier.owner_mentions(ctx)
        if found and not (ctx.rstrip(" *_#").endswith("?") and len(set(found)) > 1):
            out.append(found[0])  # (a question weighing two, "Should I sell IBM to buy more Apple?": neither)
    return out


def ledger_checks(ledger: Ledger) -> list[CheckResult]:
    """``claims`` and ``unverifiable`` check results of ``ledger`` (see the module docstring)."""
    bad = ledger.contradicted
    factual, supported = ledger.factual, len(ledger.supported)
    if bad:
        listed = "; ".join(f"line {c.line}: {_quote(c.text)} — {c.why()}" for c in bad[:MAX_LISTED])
        more = f"; … and {len(bad) - MAX_LISTED} more" if len(bad) > MAX_LISTED else ""
        claims = CheckResult(
            name="claims",
            ok=False,
            claims_checked=factual,
            claims_supported=supported,
            unsupported=[f"line {c.line}: {c.text}" for c in bad],
            detail=f"{len(bad)} of {factual} factual claim(s) contradicted by the evidence: "
            f"{listed}{more}. Correct them or write {{{{fact:<id>}}}}",
        )
    else:
        claims = CheckResult(
            name="claims",
            ok=True,
            claims_checked=factual,
            claims_supported=supported,
            detail=f"no claim contradicted; {supported} of {factual} factual claim(s) supported",
        )
    unver = ledger.unverifiable
    severity = "error" if ledger.policy == "error" else "warning"
    if unver:
        listed = "; ".join(f"line {c.line}: {_quote(c.text)} — {c.why()}" for c in unver[:MAX_LISTED])
        more = f"; … and {len(unver) - MAX_LISTED} more" if len(unver) > MAX_LISTED else ""
        check = CheckResult(
            name="unverifiable",
            ok=False,
            severity=severity,
            unsupported=[f"line {c.line}: {c.text}" for c in unver],
            detail=f"{len(unver)} claim(s) no source supports: {listed}{more}. "
            "Remove them or keep to what the sources say",
        )
    else:
        check = CheckResult(
            name="unverifiable", ok=True, severity=severity, detail="every factual claim is covered by the evidence"
        )
    return [claims, check]


def _quote(text: str, limit: int = 140) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0]
        text = cut + "…"
    return f"“{text}”"


__all__ = ["Status", "build_ledger", "ledger_checks"]
