"""An R console session pasted into a report: what the analyst typed is code, not a claim, and so are
``summary()``'s quartiles (statistics of the facts, not facts). Printed data frames, ``[1] …``
results and the analyst's commentary stay, every line keeping its length.

- ``> pf <- load_portfolio("2010-03-01")`` and its ``+ …`` continuation lines: blanked;
- ``$value`` (a list element's name over its ``[1] 127157.1``): blanked, and the ``[1]`` index too;
- ``   Min. 1st Qu.  Median    Mean 3rd Qu.    Max.`` and the line of values under it, and a column
  summary's ``Min.   :0.2350``… lines: blanked;
- R's start-up banner and ``str()``'s lines (`` $ quantity : num  250 100 …``): blanked.

A Markdown quote ("> I'd hold Apple") is not code: only a session with R's own signs (assignments,
calls, ``[1]`` results) is read this way, and only prompt lines that hold code.
"""

from __future__ import annotations

import re

_PROMPT = re.compile(r"^[ \t]*> (?=\S)(.*)$", re.M)
_CODE = re.compile(r"<-|[()\[\]$]|==|^\w+$")  # an assignment, a call, an index, a bare name ("> tot")
_RESULT = re.compile(r"^\s*\[\d+\] ", re.M)
_QUARTILES = re.compile(r"^[ \t]*Min\.[ \t]+1st Qu\.[ \t]+Median[ \t]+Mean[ \t]+3rd Qu\.[ \t]+Max\.[ \t]*\n[^\n]*$",
                        re.M)
_COLUMN_SUMMARY = re.compile(r"^(?=[^\n]*\b(?:Min\.|1st Qu\.|Median|Mean|3rd Qu\.|Max\.)[ \t]*:)[^\n]*$", re.M)
_ELEMENT = re.compile(r"^\$[\w.]+[ \t]*$", re.M)
# R's start-up banner ("R version 2.10.1 (2009-12-14)", "(C) 2009 The R Foundation …") and str()'s lines
# ("'data.frame':	5 obs. of  9 variables:", " $ quantity : num  250 100 40 150 600")
_BANNER = re.compile(r"^[ \t]*(?:R version \d|Copyright \(C\)|\(C\) \d{4} The R Foundation|Platform: |R is (?:free|a "
                     r"collaborative)|You are welcome to|Type '|Natural language support|ISBN|'data\.frame':|"
                     r"\$ [\w.]+ *: *(?:num|int|chr|logi|Date|Factor|POSIXct)\b)[^\n]*$", re.M)


def is_r_session(text: str) -> bool:
    """Three or more prompt lines holding code and at least one ``[1]`` result."""
    code = sum(1 for m in _PROMPT.finditer(text) if _CODE.search(m.group(1)))
    return code >= 3 and _RESULT.search(text) is not None


def r_console(text: str) -> str:
    """``text`` with an R session's code, element names and quartiles blanked (see the module docstring)."""
    if ">" not in text or not is_r_session(text):
        return text
    lines = text.split("\n")
    typed = False
    for i, line in enumerate(lines):
        prompt = _PROMPT.match(line)
        if prompt and _CODE.search(prompt.group(1)):
            typed = True
        elif not (typed and line.startswith("+ ")):
            typed = False
            continue
        lines[i] = " " * len(line)
    text = "\n".join(lines)
    text = _RESULT.sub(lambda m: " " * len(m.group(0)), text)
    for rx in (_QUARTILES, _COLUMN_SUMMARY, _ELEMENT, _BANNER):
        text = rx.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return text
