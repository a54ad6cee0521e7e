"""Documents that are not Markdown (HTML, LaTeX, notes-app exports, footnoted and PDF-pasted text)
read as Markdown by the claim ledger, with every claim still pointing into the document as written."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier, build_ledger
from autogen_pse.claims.formats import read_document, tidy

HTML_EMAIL = """<!DOCTYPE html>
<html><head><style>td { padding: 4px; } .x { color: #333 }</style></head>
<body>
<table width="100%"><tr><td>
<p style="font-size:14px">Hi Tom,</p>
<p>Your account is worth <b>$127,157</b>, up <b>67.6</b>% on cost.</p>
<table cellpadding="4">
<tr><th>Holding</th><th>Weight</th><th>P&amp;L</th></tr>
<tr><td><b>AAPL</b></td><td>43.85%</td><td>+480.03%</td></tr>
<tr><td>MSFT</td><td>13.59%</td><td>&minus;27.66%</td></tr>
</table>
<p>Apple&rsquo;s weight is 43.9% of the portfolio.</p>
</td></tr></table>
</body></html>
"""

LATEX_CV = r"""\documentclass[11pt,a4paper]{moderncv}
\moderncvstyle{classic}
\name{Elena}{Marsh}
\title{Senior Backend Engineer}
\begin{document}
\makecvtitle
\section{Experience}
\cventry{Mar 2020--Present}{Senior Backend Engineer}{Brightline Payments Ltd}{Manchester, UK}{}{%
\begin{itemize}
  \item Cut monthly cloud spend by \textbf{35\%} (\$420,000 a year). % the headline figure
  \item Mentored 6 engineers.
\end{itemize}}
\section{Certifications}
\cvitem{2021}{AWS Certified Solutions Architect -- Associate}
\end{document}
"""


def test_markdown_comes_back_as_it_is() -> None:
    text = "## Summary\n\nApple is 43.85 % of the portfolio.\n\n| Symbol | Weight |\n|---|---|\n| AAPL | 43.85% |\n"
    reading = read_document(text)
    assert reading.text == text
    assert not reading.converted


def test_html_is_read_as_markdown_with_its_data_table() -> None:
    reading = read_document(HTML_EMAIL)
    text = reading.text
    assert "td {" not in text and "<" not in text  # the style sheet and the tags are gone
    assert "| Holding | Weight | P&L |\n|---|---|---|" in text  # the <th> row is the header
    assert "| MSFT | 13.59% | −27.66% |" in text
    assert "Apple’s weight is 43.9% of the portfolio." in text
    assert "|   |" not in text.split("| Holding")[0]  # the e-mail's layout table is no table


def test_html_claims_point_into_the_source(portfolio_verifier: Verifier) -> None:
    ledger = build_ledger(HTML_EMAIL, portfolio_verifier)
    weight = next(c for c in ledger.claims if "43.9%" in c.text)
    assert weight.status is Status.SUPPORTED
    assert HTML_EMAIL[weight.start : weight.end].startswith("Apple&rsquo;s weight")
    assert weight.line == HTML_EMAIL[: weight.start].count("\n") + 1
    row = next(c for c in ledger.claims if c.kind == "row" and "MSFT" in c.text)
    assert row.status is Status.SUPPORTED  # −27.66 % under the P&L header: MSFT's loss


def test_html_table_without_a_header_row_gets_an_empty_one(portfolio_verifier: Verifier) -> None:
    html = (
        "<p>Three items:</p><table><tr><td>AAPL</td><td>43.85% weight, over 30% cap</td></tr>"
        "<tr><td>MSFT</td><td>&minus;27.66%, stop-loss hit</td></tr></table><p>Done.</p><p>Thanks</p>"
    )
    text = read_document(html).text
    assert "|   |   |\n|---|---|\n| AAPL | 43.85% weight, over 30% cap |\n| MSFT | −27.66%, stop-loss hit |" in text
    ledger = build_ledger(html, portfolio_verifier)
    assert not ledger.contradicted  # MSFT's loss is not read against the first row as a "weight" header


def test_html_fabrication_is_still_caught(portfolio_verifier: Verifier) -> None:
    ledger = build_ledger(HTML_EMAIL.replace("43.9% of the portfolio", "53.9% of the portfolio"), portfolio_verifier)
    assert [c for c in ledger.contradicted if "53.9%" in c.text]


def test_latex_cv_is_read_as_markdown() -> None:
    text = read_document(LATEX_CV).text
    assert "\\" not in text and "documentclass" not in text and "headline figure" not in text
    assert "# Elena Marsh" in text
    assert "## Experience" in text
    assert "### Senior Backend Engineer — Brightline Payments Ltd, Manchester, UK\nMar 2020–Present" in text
    assert "- Cut monthly cloud spend by **35%** ($420,000 a year)." in text
    assert "- **2021:** AWS Certified Solutions Architect – Associate" in text


def test_latex_cv_claims_and_checks(resume_verifier: Verifier) -> None:
    ledger = build_ledger(LATEX_CV, resume_verifier)
    spend = next(c for c in ledger.claims if "cloud spend" in c.text)
    assert spend.status is Status.SUPPORTED
    assert LATEX_CV[spend.start :].startswith("Cut monthly cloud spend")
    wrong = build_ledger(LATEX_CV.replace("Mentored 6 engineers", "Mentored 16 engineers"), resume_verifier)
    assert [c for c in wrong.contradicted if "16 engineers" in c.text]


def test_latex_inside_a_chat_reply_fence(resume_verifier: Verifier) -> None:
    reply = "Replace the block with:\n\n```latex\n" + LATEX_CV.split("\\begin{document}")[1] + "```\n\nThat's all."
    ledger = build_ledger(reply, resume_verifier)
    assert any("cloud spend" in c.text and c.status is Status.SUPPORTED for c in ledger.claims)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("The book is up 67.55%[1] on cost.", "The book is up 67.55%    on cost."),
        ("CAGR¹ of 40.58%², see [^3].", "CAGR  of 40.58% , see     ."),
        ("- [x] Mentored 6 engineers", "-     Mentored 6 engineers"),
        ("> [!tip] 🎯 Tailoring notes", " " * 9 + "🎯 Tailoring notes"),
        ("▸ Brightline Payments Ltd", "- Brightline Payments Ltd"),
        ("Role:: Senior Backend Engineer", "Role:  Senior Backend Engineer"),
        ("                 Page 2 of 3 — Confidential", " " * 43),
        ("Page 1/2", "        "),
    ],
)
def test_same_length_clean_ups(written: str, read: str) -> None:
    assert tidy(written) == read
    assert len(tidy(written)) == len(written)


def test_page_footer_blanking_keeps_lines() -> None:
    text = "EDUCATION\n\nPage 1 of 2\n\nBSc Mathematics, University of York   2014\n"
    out = tidy(text)
    assert out.count("\n") == text.count("\n")
    assert "BSc Mathematics" in out.split("\n")[4]


TWO_COLUMNS = """ELENA MARSH
EXPERIENCE                                           SKILLS
Senior Backend Engineer                              Languages
Brightline Payments Ltd, Manchester, UK              Python · Go · SQL
Mar 2020 – Present                                   Data
• Designed an idempotent payments API in Go          PostgreSQL · Redis · Kafka
handling 1,200 requests per second at peak.          Infrastructure
• Mentored a team of 6 engineers.                    AWS · Kubernetes · Docker
Backend Engineer                                     CERTIFICATIONS
Harbourside Logistics GmbH, Hamburg, Germany         AWS Certified Solutions
Jun 2017 – Feb 2020                                  Architect – Associate (2021)
"""


def test_two_column_pdf_text_is_read_column_by_column(resume_verifier: Verifier) -> None:
    reading = read_document(TWO_COLUMNS)
    text = reading.text
    assert "• Designed an idempotent payments API in Go\nhandling 1,200 requests per second at peak." in text
    assert text.index("Jun 2017 – Feb 2020") < text.index("SKILLS")  # the left column first
    ledger = build_ledger(TWO_COLUMNS, resume_verifier)
    api = next(c for c in ledger.claims if "1,200 requests" in c.text)
    assert api.status is Status.SUPPORTED
    first = api.text.split()[0]
    assert TWO_COLUMNS[api.start : api.start + len(first)] == first  # the claim points into the page as pasted


def test_a_plain_text_table_is_not_two_columns() -> None:
    table = "\n".join(f"{s}      {w}      {p}" for s, w, p in [("Symbol", "Weight", "P&L")] + [("AAPL", "43.85%", "+480.03%")] * 8)
    assert not read_document(table).converted


def test_task_checks_name_the_lines_of_the_document_as_written(resume_checker: Checker) -> None:
    wrong = LATEX_CV.replace("{Senior Backend Engineer}{Brightline", "{Staff Backend Engineer}{Brightline")
    titles = next(r for r in resume_checker.check(wrong) if r.name == "titles")
    line = wrong[: wrong.index("{Staff Backend")].count("\n") + 1
    assert not titles.ok and f"(line {line}" in titles.detail, titles.detail
