"""An artifact delivered inside its run's report (a scheduled run's digest e-mail: run id, model,
tokens, timing, cost, a checks list, an automated footer), and artifacts pasted with the typography of
a bot or an editor (a Telegram bot's MarkdownV2 escapes, no-break and thin spaces between thousands,
tab-separated tables, tickers and figures in inline code, a CV pasted into a form's text box). Samples
in the forms of the corpus batches zy and zz: the run's report claims nothing, the artifact inside it is
still checked.
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier
from autogen_pse.claims.escapes import is_escaped, read_escaped
from autogen_pse.claims.runreport import run_report_lines
from autogen_pse.claims.split import caps_lead
from tests.claims_support import assert_clean, assert_pair

DIGEST = """\
From: pse-scheduler <noreply@runs.example.org>
Subject: [Weekly run] portfolio-review — Verdict: PASS after 2 cycles

Run ID:        run-20240304-0600-7f3a9c
Model:         gpt-4o-mini-2024-07-18
Cycles used:   2 of 4
Verdict:       PASS after 2 cycles
Tokens:        prompt 11,482 · completion 1,906 · total 13,388
Timing:        generation 41.7 s · evaluation 6.2 s · wall 52.9 s
Estimated cost: $0.087

Checks
  ✔ weights sum to 100%
  ✔ every triggered holding has an action row

## Summary
The portfolio is worth $127,157.10. Apple is 43.85% of it, above the 30% cap.

-------------------------------------------------------------------
This message was generated automatically by Conductor. Please do not reply.
Trace: https://runs.example.org/trace/run-20240304-0600-7f3a9c
Unsubscribe: https://runs.example.org/unsubscribe
"""


def test_the_reports_fields_checks_and_footer_are_the_runs() -> None:
    lines = run_report_lines(DIGEST)
    assert {4, 5, 6, 7, 8, 9, 10, 12, 13, 14} <= lines  # the fields and the checks list
    assert {19, 20, 21, 22} <= lines  # the rule and the footer
    assert not lines & {16, 17}  # the artifact


@pytest.mark.parametrize(
    "report",
    [
        "run 9d03 | portfolio-review | mistral-large-2411 | cycles 1 | Verdict: PASS after 1 cycle\n"
        "tokens 8,441 in / 1,190 out | 26 s",
        "| Field | Value |\n|---|---|\n| Model | gpt-4o-2024-08-06 |\n| Cycles used | 3 |\n"
        "| Tokens | 27,644 prompt / 4,930 completion |",
        "Run id ............. a7c4d2e9\nModel .............. gpt-4o-2024-11-20\n"
        "Token usage ........ total 29,793\nTiming ............. wall 1 min 31 s",
    ],
)
def test_one_line_reports_tables_and_dot_leaders(report: str) -> None:
    assert run_report_lines(report + "\n\nApple is 43.85% of the portfolio.\n") == set(
        range(1, report.count("\n") + 2)
    )


def test_without_a_reports_fields_nothing_is_the_runs() -> None:
    review = "Model: equal weights would be 20% each.\nStatus: overweight\n\nUnsubscribe from nothing here.\n"
    assert run_report_lines(review) == set()


def test_a_digest_passes_and_its_artifact_is_still_checked(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, DIGEST)
    assert_pair(portfolio_verifier, DIGEST, DIGEST.replace("Apple is 43.85%", "Apple is 48.35%"))


def test_a_cv_digest_claims_no_date_technology_or_entry(resume_checker: Checker) -> None:
    cv = (
        "Run ID:   rt-7f3c21\nModel:    phi-4 (14B, Q6_K, llama.cpp)\nVerdict:  PASS after 2 cycles\n"
        "Tokens:   prompt 6,412 · completion 1,388\n\n"
        "# Elena Marsh\n\n## Certifications\n\n- AWS Certified Solutions Architect – Associate (2021)\n\n"
        "---\n_Sent automatically by the scheduler. Trace: https://traces.example.net/r/rt-7f3c21 · Unsubscribe_\n"
    )
    failed = {r.name: r.detail for r in resume_checker.check(cv) if not r.ok and r.severity == "error"}
    assert set(failed) == {"sections"}, failed  # (a short sample: no Experience, no Skills)


def test_a_bold_label_inside_a_dated_entry_is_no_employer(resume_checker: Checker) -> None:
    cv = (
        "# Elena Marsh\n\n## Experience\n\n### Senior Backend Engineer — Brightline Payments Ltd\n"
        "Mar 2020 – Present · Manchester, UK\n\n**Payments API**\n"
        "- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.\n\n"
        "**People**\n- Mentored a team of 6 engineers.\n"
    )
    failed = {r.name for r in resume_checker.check(cv) if not r.ok and r.severity == "error"}
    assert not failed & {"employers", "entries"}, failed
    moved = cv.replace("Brightline Payments Ltd", "Harbourside Logistics GmbH")  # the role is Brightline's
    assert "entries" in {r.name for r in resume_checker.check(moved) if not r.ok}


TELEGRAM = (
    "*Summary*\nYour 5 holdings are worth *$127,157\\.10* vs $75,890\\.50 invested: *\\+$51,266\\.60* "
    "\\(\\+67\\.55%\\)\\.\n\n"
    "`AAPL` 43\\.85% \\| \\+$46,142\\.50 \\(\\+480\\.03%\\) \\| 1,885 d \\| DD \\-56\\.91% \\| *overweight*\n"
    "`GOOG` 17\\.62% \\| \\-$5,312\\.40 \\(\\-19\\.16%\\) \\| 851 d \\| DD \\-57\\.73% \\| *long\\-held loss*\n"
)


def test_a_telegram_message_is_read_without_its_escapes(portfolio_verifier: Verifier) -> None:
    assert is_escaped(TELEGRAM) and not is_escaped("A LaTeX answer: \\(w_i = 43.85\\%\\) of \\(V\\).")
    reading = read_escaped(TELEGRAM)
    assert "43.85% | +$46,142.50 (+480.03%)" in reading.text
    at = reading.text.index("480.03")
    assert TELEGRAM[reading.original(at) :].startswith("480\\.03")
    assert_clean(portfolio_verifier, TELEGRAM)
    assert_pair(portfolio_verifier, TELEGRAM, TELEGRAM.replace("\\(\\+480\\.03%\\)", "\\(\\+408\\.03%\\)"))
    # each row is its own claim: the flag of one row is not read as the next row's
    assert_pair(portfolio_verifier, TELEGRAM, TELEGRAM.replace("*long\\-held loss*", "*overweight*"))


DOCS = (
    "Summary\nThe portfolio is worth $127\u2009157.10 against a cost of $75\u2009890.50.\n\n"
    "• IBM — weight 14.81\u00a0%; profit +$7\u2009927.50 (+72.70\u00a0%); held 1\u2009339 days; "
    "maximum drawdown \u221236.35\u00a0%.\n\n"
    "Actions\nPriority\tAction\tSymbol\tAmount\tReason\n"
    "1\tSELL\tMSFT\t600 units\tStop\u2011loss hit: \u221227.66\u00a0% vs the \u221220\u00a0% limit (stop\u2011loss "
    "rule 1); also a long\u2011held loss\n"
    "2\tTRIM\tAAPL\t79 units\tOverweight: 43.85\u00a0% vs the 30\u00a0% cap; trim back to the cap\n"
)


def test_thin_and_no_break_spaces_and_a_pasted_tab_table(portfolio_verifier: Verifier) -> None:
    assert_clean(portfolio_verifier, DOCS)
    assert_pair(portfolio_verifier, DOCS, DOCS.replace("7\u2009927.50", "7\u2009297.50"))
    assert_pair(portfolio_verifier, DOCS, DOCS.replace("1\u2009339 days", "1\u2009393 days"))
    assert_pair(portfolio_verifier, DOCS, DOCS.replace("Overweight: 43.85", "Overweight: 48.35"))


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        # the holding's own extreme, with its figure, is no ranking; without one it is
        ("Apple has been held since 2005; the deepest drawdown since purchase is -56.91%.",
         "Apple has been held since 2005; it has the deepest drawdown since purchase."),
        # a period after a figure names its metric only when nothing before it does
        ("MSFT: down 27.66% since purchase.", "MSFT: a maximum drawdown of −27.66% since purchase."),
        ("Apple now weighs 43.85%, over the 30% limit.", "Apple now weighs 48.35%, over the 30% limit."),
        ("Confirm the `MSFT` sale and the 79-unit `AAPL` trim.", "Confirm the `MSFT` sale and the 79-unit `GOOG` trim."),
        ("Hold `IBM` and keep the gain.", "I would sell `IBM` outright and lock in the gain."),
        ("Nothing to add for **IBM** beyond holding it.", "Add to **Google** on weakness."),
        ("MSFT: long-held loss (`3,712` d).", "MSFT: long-held loss (`3,172` d)."),
        ("`AAPL` may be trimmed (`79` units, ≈ `$17.6k`).", "`AAPL` may be trimmed (`97` units, ≈ `$17.6k`)."),
        # a period right after a metric's phrase is that phrase's
        ("By worst fall from a peak since purchase, Microsoft, at roughly 63%.",
         "By worst fall from a peak since purchase, Microsoft, at roughly 45%."),
    ],
)
def test_the_faithful_form_passes_and_its_twin_fails(portfolio_verifier: Verifier, good: str, bad: str) -> None:
    assert_pair(portfolio_verifier, good, bad)


TEXT_BOX = """\
Elena Marsh - Senior Backend Engineer - Manchester, UK
elena.marsh@example.com  +44\u00a07700\u00a0900123  github.com/elena-marsh-example
SUMMARY Backend engineer with 9 years of experience building payment and logistics platforms in Python and Go.
EXPERIENCE
Backend Engineer ? Harbourside Logistics GmbH  06/2017 - 02/2020 ? Nightly batch jobs moved to Kafka streams, \
data delays 24 hours to 15 minutes ? Shipment tracking in Python (Django, Celery), 2\u00a0million events per day \
? Terraform across 80% of the AWS estate
Software Developer ? Copperleaf Studio  09/2015 - 05/2017 ? Jenkins CI, test coverage 40% to 85%
SKILLSLanguages: Python, Go, SQL, JavaScript  Data: PostgreSQL, Redis, Kafka
EDUCATION MSc Computer Science, University of Leeds, 2015  BSc Mathematics, University of York, 2014
CERTIFICATIONSAWS Certified Solutions Architect - Associate, 2021
"""


def test_a_section_label_run_into_its_content() -> None:
    labels = {line: line[: caps_lead(line)] for line in TEXT_BOX.splitlines()}
    assert [label for label in labels.values() if label] == ["SUMMARY", "SKILLS", "EDUCATION", "CERTIFICATIONS"]
    assert caps_lead("CERTIFICATIONS ------------") == 0 and caps_lead("AWS Certified Solutions Architect") == 0


def test_a_cv_pasted_into_a_text_box(resume_checker: Checker, resume_verifier: Verifier) -> None:
    failed = {r.name: r.detail for r in resume_checker.check(TEXT_BOX) if not r.ok and r.severity == "error"}
    assert set(failed) <= {"sections"}, failed  # (a short sample: no Experience entry for Brightline)
    # the lost dashes and bullets ("?") are read again, so each entry's figures stay its own
    assert_pair(resume_verifier, TEXT_BOX, TEXT_BOX.replace("2\u00a0million events", "3\u00a0million events"))
    assert_pair(resume_verifier, TEXT_BOX, TEXT_BOX.replace("across 80% of", "across 85% of"))
    moved = TEXT_BOX.replace("EDUCATION MSc Computer Science, University of Leeds, 2015",
                             "EDUCATION MSc Computer Science, University of Leeds, 2016")
    assert {"dates", "claims"} & {r.name for r in resume_checker.check(moved) if not r.ok}
