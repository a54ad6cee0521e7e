"""Same-length clean-ups of the markup other tools leave in a document (used by :func:`.formats.tidy`).

:func:`edits`: a document pasted with its tracked changes (the deleted text and reviewers' notes go,
the inserted text stays), Markdown's escapes, template placeholders and a static site's template
tags. :func:`apparatus`: what points elsewhere or frames the text rather than states a fact —
reference-link targets, cross-references ("see note 3", "Schedule 1"), scholarly citations,
spreadsheet formulas beside their values, chart scales, a web page's furniture. Every line keeps its
length, so claim offsets still point into the artifact as written.
"""

from __future__ import annotations

import re

# a template's field left unfilled: "Phone: {phone}", "joins [EVENT NAME] on [DATE]", "[Adviser name]"; a
# static site's template tags ("{% include cv/work.html %}", "{{ page.title }}")
_PLACEHOLDER = re.compile(
    r"\{[a-z_]{2,30}\}|\{%[^%\n]{0,200}%\}|\{\{[^{}\n]{0,200}\}\}"
    r"|(?<!\[)\[(?:[A-Z]{2,}(?:[ _/][A-Z]{2,})*[ _]+(?:NAME|DATE|TITLE|LINK|URL)|NAME|DATE|EVENT|"
    r"CONFERENCE|MEETUP|PODCAST|COMPANY|CLIENT|FIRM|VENUE|EMAIL|PHONE|CITY|LINK|URL|[A-Z][a-z]+(?: [a-z]+)? name)\]"
    r"(?![(\[:])"
)
# what a compliance step or a model left for a person: "[REDACTED]", "[insert from KYC file]", "[Add metric
# here]", "[confirm dates]"; and an identifier masked but for its last digits ("Account ****4821", "acct
# ending 0466"): no claim
_LEFT_FOR_PERSON = re.compile(
    r"(?:\b(?:institution|university|school|college|employer|company|client|name)\s+)?"  # "institution [REDACTED]"
    r"\[[^\]\[\n]{0,30}\b(?:redacted|removed|withheld|anonymi[sz]ed|confidential|pii)\b[^\]\n]{0,40}\]"
    r"|\[(?:insert|add|enter|fill\s+in|confirm|check|verify|tbc|tbd|todo|to\s+do)\b(?!:)[^\]\n]{0,80}\]"
    r"|(?:[*•●xX#]{4,}|(?:[*•●xX#]{2,4}-){1,3})\d{2,6}(?![\d%]|[.,]\d)"  # "****4821", "***-**-1234", "XXXX-XXXX-4821"
    r"|\b(?:account|acct|a/c|card|policy)\s+(?:ending|ends)\s+(?:in\s+)?\d{3,6}\b",
    re.IGNORECASE,
)
# "_Speaker notes:_ Google is the interesting one": the label of what a presenter says (which is claimed)
_NOTES_LABEL = re.compile(r"(?im)^[ \t>]*(?:[-*+][ \t]+)?[*_]*(?:speaker|presenter)[ \t]+notes?[*_]*[ \t]*[:—–-][*_]*")
_ESCAPE = re.compile(r"\\(?=[$%#*_&])")  # Markdown's escapes: "\$127,157.10", "100\%"
# a document pasted with its tracked changes (Markdown strikethrough, CriticMarkup, a word processor's
# "[inserted: …]" and "[Comment JD: …]"): the deleted text and the reviewers' notes are no claims; the
# inserted text is
_DELETED = re.compile(r"~~[^~\n]+~~|\{--.*?--\}|\{>>.*?<<\}|\{~~(.*?)~>|<(del|s|strike)>.*?</\2>", re.S)
_REVIEW_NOTE = re.compile(r"\[(?:Comment|Reviewer|Review note|Editor's note)\b[^\]\[]{0,600}\]", re.I)
_CHANGE_MARK = re.compile(r"\[(?:inserted|added|insert|new):\s*|\{\+\+|\+\+\}|~~\}|\{==|==\}(?:\{>>.*?<<\})?", re.I)
# "[gh]: https://github.com/…": a reference link's target; "(see note 3)", "footnote 2", "Schedule 1",
# "clause 4.2(b)": a cross-reference
_LINK_DEFINITION = re.compile(r"^[ \t]{0,3}\[[^\]^\n]{1,40}\]:[ \t]*\S+(?:[ \t]+[\"'(][^\n]*)?$", re.M)
_NOTE_REFERENCE = re.compile(
    r"(?:\b(?:[Nn]otes?|[Ff]ootnotes?|[Ss]chedules?|[Aa]nnex(?:es)?|[Aa]ppendix|[Ee]xhibits?|[Cc]lauses?)|§§?)\s*"
    r"(?:\d{1,2}(?:\.\d{1,2})*|[A-H]\b)(?:\s*(?:and|&|,)\s*(?:\d{1,2}(?:\.\d{1,2})*|[A-H]\b))*(?:\([a-z]\)|\b)"
)
# citations of a scholarly text: "(Kaminski & Lo, 2014)", "(Shefrin and Statman, 1985; Odean, 1998)", and in a
# text that has those, "Perold and Sharpe (1988)": who said it, not a fact of the subject
_AUTHORS = (r"[A-Z][a-z][\w'’-]*(?:(?:,\s*[A-Z][a-z][\w'’-]*)*(?:,\s*|\s+)(?:&|and)\s+[A-Z][a-z][\w'’-]*"
            r"|\s+et\s+al\.?)?")  # "Campbell, Lettau, Malkiel, & Xu"
_CITE = rf"{_AUTHORS},?\s+(?:19|20)\d{{2}}[a-z]?(?:,\s*pp?\.\s*\d+(?:[–-]\d+)?)?"
_CITATION = re.compile(rf"\((?:see\s+|e\.g\.,?\s+|cf\.\s+)?{_CITE}(?:\s*;\s*{_CITE})*\)")
_REFERENCES_HEADING = re.compile(r"^[#\s*_]*(?:references|bibliography|works\s+cited|literature)[*_:\s]*$", re.M | re.I)
_NARRATIVE_CITATION = re.compile(rf"\b{_AUTHORS}\s+\((?:19|20)\d{{2}}[a-z]?\)")
# "Jegadeesh and Titman (1993) provide evidence of momentum at horizons of three to twelve months": what a
# study found, to the end of the sentence
_CITED_FINDING = re.compile(
    rf"\b{_AUTHORS}\s+\((?:19|20)\d{{2}}[a-z]?\)\s+(?:also\s+)?(?:show|find|found|document|provide|report|argue"
    rf"|suggest|demonstrate|note|observe|estimate)(?:s|ed|d)?\b[^.\n]*"
)
# a spreadsheet's formulas shown beside their values ("55,755.00 `=B2*D2`", "[=C6-B6]", "⟨=G2/E2⟩", "=D2/$D$7"):
# how a cell is computed, not a figure; and a chart's scale ("(█ = 2%)", an axis "0%  10%  20%  30%")
_FORMULA = re.compile(
    r"`=[^`\n]{1,200}`|\[=[^\]\n]{1,200}\]|⟨=[^⟩\n]{1,200}⟩|(?<![\w=<>!:])=\s*(?:[A-Z]{2,12}\(|\$?[A-Z]{1,3}\$?\d{1,5}\b)"
    r"[^\s|]*"
)
_CHART_SCALE = re.compile(
    r"[\u2580-\u259f]\s*=\s*\$?\d[\d.,]*\s*%?|^[ \t]*(?:[-−]?\d{1,3}(?:[.,]\d+)?\s?[%k]?[ \t]{2,}){3,}[-−]?\d{1,3}"
    r"(?:[.,]\d+)?\s?[%k]?[ \t]*$",
    re.M,
)
# a web page's furniture: "© 2024 Elena Marsh", "View project →", "Read more ›"
_WEB_FURNITURE = re.compile(
    r"(?:©|\(c\)|\bCopyright)\s*(?:\d{4}(?:\s*[–-]\s*\d{2,4})?)?"
    r"|\b(?:View|Read|See|Learn)\s+(?:the\s+)?(?:project|more|case\s+study|details|all|post)\s*(?:→|›|»|->)?",
)
# a Q&A site's furniture: a user card under a post ("— **Hollis Grant** · 9,610", "— *qm_ledger* (3,402)"),
# a post's metadata ("asked 2 days ago · viewed 1,486 times", "answered by **X** · 9,410 rep") and its
# votes ("**21** ✔", "[question] **11** votes · 4 answers · 2.3k views", "**3 Answers** · sorted by votes")
_QA_FURNITURE = re.compile(
    r"^[ \t>]*[—–][ \t]*[*_]{0,2}[^\n*·()]{2,40}?[*_]{0,2}[ \t]*(?:·[ \t]*|\()[\d,.]+k?\)?(?:[ \t]*rep)?"
    r"(?:[ \t]*·[^\n]*)?[ \t]*$"
    r"|^[ \t>]*(?:\[\w+\][ \t]*)?(?:asked|answered|edited|modified)\b(?=[^\n]*(?:·|\(\d|\bago\b|\brep\b))[^\n]*$"
    r"|^[ \t>]*(?:\[\w+\][ \t]*)?[*_]{0,2}\d[\d,.]*k?[*_]{0,2}[ \t]*(?:(?:votes?|answers?|views?)\b|[✔✓])"
    r"[^\n]*$",
    re.M | re.I,
)

# a job platform's or app's controls: buttons ("[ ★ Save to project ]"), a pager ("‹ Previous | 4 of 27 |
# Next ›", "7 of 22" alone), when and how a candidate applied ("Applied 2 days ago via Indeed Apply")
_APP_FURNITURE = re.compile(
    r"\[[ \t]+[^\[\]\n]{1,40}?[ \t]+\]"
    r"|^[^\n]*\b(?:Previous|Prev)\b[^\n]*\b\d+\s+of\s+\d+\b[^\n]*\bNext\b[^\n]*$"
    r"|\bApplied\s+(?:\d+|an?)\s+\w+\s+ago\b(?:\s+via\s+[^·\n]*)?",
    re.M,
)
_PAGER_LEFT = re.compile(r"^[ \t]*\d+\s+of\s+\d+[ \t]*$", re.M)  # what a button row leaves: "7 of 22"


def _blank(m: re.Match[str]) -> str:
    """The match as spaces, its line breaks kept."""
    return re.sub(r"[^\n]", " ", m.group(0))


def _tracked_changes(text: str) -> str:
    """Deleted text and reviewers' notes blanked, the marks of inserted text too (see ``_DELETED``)."""
    if not re.search(r"~~|\{[-+>=~]{2}|\[(?:inserted|added|insert|new|comment)\b|<(?:del|s|strike)>", text, re.I):
        return text
    text = _DELETED.sub(_blank, text)
    text = _REVIEW_NOTE.sub(_blank, text)
    out, at = [], 0
    for m in _CHANGE_MARK.finditer(text):
        out.append(text[at : m.start()] + " " * len(m.group(0)))
        at = m.end()
        if m.group(0).startswith("["):  # "[inserted: 6]": its closing bracket too
            close = text.find("]", at)
            if close != -1 and "\n\n" not in text[at:close]:
                out.append(text[at:close] + " ")
                at = close + 1
    return "".join(out) + text[at:]




_DIFF_FENCE = re.compile(r"^[ \t]*```[ \t]*(diff|patch)[ \t]*\n(.*?)^[ \t]*```", re.M | re.S | re.I)
_DIFF_NOISE = re.compile(r"^(?:-[^\n]*|@@[^\n]*|\+\+\+[^\n]*|diff --git[^\n]*|index [0-9a-f]+\.\.[^\n]*)$", re.M)


def _diffs(text: str) -> str:
    """A fenced unified diff (a pull request's change to a config) read as the text of the file it leaves:
    the removed lines, hunk and file headers blanked, the added lines' "+" a space, the fence "text"
    (a fence of notes marked "diff" with no "+"/"-" lines stays code)."""
    def hunk(m: re.Match[str]) -> str:
        if not re.search(r"^[+-](?![+-])", m.group(2), re.M):
            return m.group(0)
        body = _DIFF_NOISE.sub(lambda x: " " * len(x.group(0)), m.group(2))
        body = re.sub(r"^\+", " ", body, flags=re.M)
        whole, at = m.group(0), m.start()
        head = whole[: m.start(1) - at] + "text".ljust(len(m.group(1))) + whole[m.end(1) - at : m.start(2) - at]
        return head + body + whole[m.end(2) - at :]

    return _DIFF_FENCE.sub(hunk, text) if "```" in text else text


# a transcript's correction in brackets after the words misheard: "Cooper Netties [Kubernetes]"
_CORRECTED = re.compile(r"((?:[\w'’]+[ \t]+){1,3})\[([A-Za-z][\w+#.-]+)\](?![(\[:])")


def _misheard(text: str) -> str:
    """Words a speech-to-text transcript misheard blanked where a bracketed correction follows them
    and sounds like them ("post grass [PostgreSQL]", "Cooper Netties [Kubernetes]"), its brackets too:
    what is left reads as the word meant. A bracketed tag ("AWS [Brightline]") sounds like nothing
    before it and stays."""
    def fix(m: re.Match[str]) -> str:
        head, meant = m.group(1), m.group(2)
        words = head.split()
        k = max(range(1, len(words) + 1), key=lambda n: _sounds(words[-n:], meant))
        if _sounds(words[-k:], meant) < 0.55:
            return m.group(0)
        cut = head.rstrip()
        for w in reversed(words[-k:]):
            cut = cut[: cut.rfind(w)]
        return cut + " " * (len(head) - len(cut)) + " " + meant + " "

    return _CORRECTED.sub(fix, text) if "[" in text else text


def _sounds(words: list[str], meant: str) -> float:
    from difflib import SequenceMatcher

    heard = re.sub(r"[^a-z]", "", "".join(words).lower())
    return SequenceMatcher(None, heard, re.sub(r"[^a-z]", "", meant)).ratio()


# Confluence/Jira macros: "{panel:title=Elena Marsh|titleBGColor=#DEEBFF}", "{column:width=65%}", "{info}"
_MACRO = re.compile(r"\{(?:panel|info|note|tip|warning|expand|section|column|status|toc|quote|color|code|noformat|"
                    r"anchor)(?::([^}\n]*))?\}")


_WIKI_HEADING = re.compile(r"^h([1-6])\.(?=[ \t])", re.M)  # Confluence/Jira: "h2. Experience"


def _macros(text: str) -> str:
    """A Confluence or Jira macro's markup and options blanked, its title kept as a line of text;
    "h2. Experience" read as the Markdown heading "## Experience" (levels past 3 as 3)."""
    if len(_WIKI_HEADING.findall(text)) >= 2:
        text = _WIKI_HEADING.sub(lambda m: "#" * min(int(m.group(1)), 3) + " " * (3 - min(int(m.group(1)), 3)), text)
    def blank(m: re.Match[str]) -> str:
        out = " " * len(m.group(0))
        title = re.search(r"(?:^|\|)title=([^|]*)", m.group(1) or "")
        if title:
            at = m.start(1) + title.start(1) - m.start()
            out = out[:at] + title.group(1) + out[at + len(title.group(1)) :]
        return out
    return _MACRO.sub(blank, text) if "{" in text else text


# a reviewer's or coach's note on the draft: "> **Coach:** …" (and the quote's further lines), a whole-line
# HTML comment ("<!-- Coach checklist … -->")
_NOTE_QUOTE = re.compile(
    r"^[ \t]*>[ \t]*[*_]*(?:Coach|Reviewer|Editor|Review note|Comment|Feedback|Note from [A-Z][\w.]*)[*_]*[ \t]*:"
    r"[^\n]*(?:\n[ \t]*>(?![ \t]*[*_]*[A-Z][\w ]{0,20}[*_]*:)[^\n]*)*",
    re.M | re.I,
)
_COMMENT_LINES = re.compile(r"^[ \t]*<!--.*?-->[ \t]*$", re.M | re.S)
# a draft's note to its author on a line of its own: "TODO: quantify the mentoring", "FIXME: …"; a
# translator's note on the translation ("Translator's note: the original gives years in the Japanese era")
_TODO_LINE = re.compile(
    r"^[ \t>]*(?:[-*+•]|\d{1,2}[.)])?[ \t]*[*_]*(?:TODO|FIXME|TBD|XXX|Translator['’]s\s+note)[*_]*\b[ \t]*"
    r"[:—–-][^\n]*$",
    re.M,
)
# a reasoning model's deliberation left in its answer ("<think> … </think>" before the document): AutoGen's
# client reads it as the model's thought, not its content
_THOUGHT = re.compile(r"^[ \t]*<(think|thinking|reasoning)>.*?</\1>[ \t]*$", re.M | re.S | re.I)


def annotation_lines(text: str) -> set[int]:
    """The 1-based lines of ``text`` that annotate the draft rather than state its facts: a reviewer's or
    coach's quoted note, a comment or a to-do note on lines of their own and a model's leaked deliberation."""
    out: set[int] = set()
    for rx in (_NOTE_QUOTE, _COMMENT_LINES, _THOUGHT, _TODO_LINE):
        for m in rx.finditer(text):
            first = text.count("\n", 0, m.start()) + 1
            out.update(range(first, first + m.group(0).count("\n") + 1))
    return out


def edits(text: str) -> str:
    """Tracked changes resolved, fenced diffs read as what they leave, misheard words a transcript
    corrects in brackets, Confluence macros, Markdown escapes, placeholders and template tags blanked."""
    text = _macros(_misheard(_diffs(_tracked_changes(text))))
    text = _ESCAPE.sub(" ", text)
    text = _LEFT_FOR_PERSON.sub(lambda m: " " * len(m.group(0)), text)
    text = _NOTES_LABEL.sub(lambda m: " " * len(m.group(0)), text)
    return _PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)


def apparatus(text: str) -> str:
    """References, citations (in a scholarly text), formulas, chart scales and web furniture blanked."""
    text = _LINK_DEFINITION.sub(lambda m: " " * len(m.group(0)), text)
    text = _NOTE_REFERENCE.sub(lambda m: " " * len(m.group(0)), text)
    if len(_CITATION.findall(text)) >= 3 or (_CITATION.search(text) and _REFERENCES_HEADING.search(text)):
        text = _CITATION.sub(lambda m: " " * len(m.group(0)), text)
        text = _CITED_FINDING.sub(lambda m: " " * len(m.group(0)), text)
        text = _NARRATIVE_CITATION.sub(lambda m: " " * len(m.group(0)), text)
    text = _FORMULA.sub(lambda m: " " * len(m.group(0)), text)
    text = _CHART_SCALE.sub(lambda m: " " * len(m.group(0)), text)
    text = _QA_FURNITURE.sub(lambda m: " " * len(m.group(0)), text)
    text = _APP_FURNITURE.sub(lambda m: " " * len(m.group(0)), text)
    text = _PAGER_LEFT.sub(lambda m: " " * len(m.group(0)), text)
    return _WEB_FURNITURE.sub(lambda m: " " * len(m.group(0)), text)
