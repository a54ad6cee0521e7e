"""A psql session pasted into a document (a developer's "CV as a database", a report run in SQL), read
as the tables it printed: the queries are code and claim nothing, the results are claims.

- a line at the prompt (``cv=# SELECT …``, its continuations ``cv-#``, ``cv(#``), a meta-command's
  answer ("Expanded display is on.", "Border style is 2.", "Time: 0.41 ms"), a row count ("(4 rows)")
  and an SQL comment (``-- tailored for Tidewater``) are blanked;
- a result's rule (``-----+-----``, ``+-----+-----+``) becomes a Markdown table's separator, so the
  header and rows above and under it read as a table;
- an expanded record (``-[ RECORD 1 ]+----``, then ``company | Brightline …``) reads as YAML: the
  record line opens an item (``record:``), each ``field | value`` line is ``field: value``;
- an array value (``{Python,Go,"GitHub Actions"}``) loses its braces and quotes, its items kept apart.

Every line keeps its length, so a claim keeps its place in the document as written.
"""

from __future__ import annotations

import re

_PROMPT = re.compile(r"^[ \t]*[\w.-]{1,40}[=\-(\"'][#>][^\n]*$", re.M)  # "cv=# …", "cv-# …", "elena(# …"
_ANSWER = re.compile(
    r"^[ \t]*(?:(?:Expanded display|Border style|Null display|Output format|Pager usage|Timing|Title|Tuples only|"
    r"Field separator|Record separator)\b[^\n]*|Time: [\d.]+ ms[^\n]*|\(\d+ rows?\))[ \t]*$",
    re.M,
)
_COMMENT = re.compile(r"^[ \t]*--(?=[ \t=]|$)[^\n]*$", re.M)  # "-- tailored for Tidewater": SQL, not a result
_RULE = re.compile(r"^[ \t]*\+?-{2,}(?:\+-+)*\+?[ \t]*$", re.M)  # "------+------", "+----+----+"
_RECORD = re.compile(r"^-\[ RECORD \d+ \][-+]*$", re.M)
_FIELD = re.compile(r"^([a-z_][\w ]{0,40}?)([ \t]*)\|", re.M)  # "company    | Brightline"
_ARRAY = re.compile(r"(?<=[|\s]){([^{}\n]*)}")


def is_psql(text: str) -> bool:
    """A pasted psql session: two prompt lines, or a prompt and a row count."""
    return len(_PROMPT.findall(text)) >= 2 and bool(_ANSWER.search(text) or _RULE.search(text))


def psql_as_text(text: str) -> str:
    """``text`` with its psql session read as tables and records (see the module docstring)."""
    if not is_psql(text):
        return text
    text = _PROMPT.sub(lambda m: " " * len(m.group(0)), text)
    text = _ANSWER.sub(lambda m: " " * len(m.group(0)), text)
    text = _COMMENT.sub(lambda m: " " * len(m.group(0)), text)
    text = _RULE.sub(lambda m: m.group(0).replace("+", "|"), text)
    records = list(_RECORD.finditer(text))
    for m in records:
        text = text[: m.start()] + "record:".ljust(len(m.group(0))) + text[m.end() :]
    if records:  # the field lines of expanded records: "field: value"
        text = _FIELD.sub(lambda m: m.group(1) + ":" + m.group(2), text)
    return _ARRAY.sub(_items, text)


def _items(m: re.Match[str]) -> str:
    """``{"a, b",c}`` read as ``" a, b ; c "``: braces and quotes blanked, items kept apart."""
    body = re.sub(r'"\s*,\s*"|"\s*,|,\s*"', lambda s: ";" + " " * (len(s.group(0)) - 1), m.group(1))
    body = re.sub(r",(?=\S)", ";", body) if '"' not in m.group(1) else body
    return " " + body.replace('"', " ") + " "
