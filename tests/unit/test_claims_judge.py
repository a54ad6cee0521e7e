"""The optional judge on a scripted model: its answers about unverifiable claims are recorded and
decide only what they may (NOT_ENOUGH_INFO keeps a claim unverifiable; CONTRADICTED contradicts it).

The scripted file's "evaluator" replies are the judge's answers, one per unverifiable claim, in
document order. No network is used (tests/conftest.py refuses it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims.judge import Judge, parse, passages
from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.verification import check_document
from tests.claims_support import claim, failing
from tests.scripting import save

BUYBACK = "Microsoft announced a buyback."
DIVIDEND = "Apple also pays a generous dividend."

REVIEW = """\
# Portfolio review — 1 March 2010

## Summary

The portfolio is worth $127,157.10, up 67.55% on cost. Apple is 43.85% of it, above the 30% cap.

## Findings

- **AAPL:** up 480.03%, overweight.
- **MSFT:** down 27.66%, through the -20% stop-loss.

{EXTRA}

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit |
| 2 | TRIM | AAPL | 79 units | overweight |

## Next steps

- Place both orders this week.
"""


def _judge(tmp_path: Path, settings: Settings, *answers: str) -> Judge:
    path = save({"evaluator": list(answers)}, tmp_path / "judge.json")
    return Judge.open(f"scripted:{path}", settings)


def test_without_a_judge_the_buyback_is_unverifiable(portfolio_checker: Checker) -> None:
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", BUYBACK))
    c = claim(report, BUYBACK)
    assert c["status"] == "unverifiable" and c["judge"] is None
    assert report.unverifiable == 1 and report.contradicted == 0, failing(report)


def test_not_enough_info_leaves_the_claim_unverifiable_and_records_the_answer(
        portfolio_checker: Checker, settings: Settings, tmp_path: Path) -> None:
    judge = _judge(tmp_path, settings, "VERDICT: NOT_ENOUGH_INFO\nQUOTE:")
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", BUYBACK), judge=judge)
    c = claim(report, BUYBACK)
    assert c["status"] == "unverifiable"
    assert c["judge"] is not None
    assert c["judge"]["verdict"] == "NOT_ENOUGH_INFO"
    assert c["judge"]["quote"] == ""
    assert c["judge"]["model"] == "scripted:judge.json"
    assert "holdings#1" in c["judge"]["passages"]  # the passage naming Microsoft was shown to the judge
    assert not [f for f in c["findings"] if f["kind"] == "judge"]
    assert (report.unverifiable, report.contradicted) == (1, 0)


def test_contradicted_makes_the_claim_contradicted_with_a_judge_finding(
        portfolio_checker: Checker, settings: Settings, tmp_path: Path) -> None:
    quote = "MSFT Microsoft Corp. equity USD"
    judge = _judge(tmp_path, settings, f"VERDICT: CONTRADICTED\nQUOTE: {quote}")
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", BUYBACK), judge=judge)
    c = claim(report, BUYBACK)
    assert c["status"] == "contradicted"
    assert c["judge"]["verdict"] == "CONTRADICTED" and c["judge"]["quote"] == quote
    [finding] = [f for f in c["findings"] if f["kind"] == "judge"]
    assert finding["status"] == "contradicted"
    assert quote in finding["note"] and "scripted:judge.json" in finding["note"]
    assert "holdings#1" in finding["evidence"]
    assert (report.contradicted, report.unverifiable) == (1, 0)
    assert report.fails


def test_supported_needs_a_quote(portfolio_checker: Checker, settings: Settings, tmp_path: Path) -> None:
    judge = _judge(tmp_path, settings, "VERDICT: SUPPORTED\nQUOTE:")
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", BUYBACK), judge=judge)
    c = claim(report, BUYBACK)
    assert c["judge"]["verdict"] == "SUPPORTED"
    assert c["status"] == "unverifiable"  # a SUPPORTED without the passage words proves nothing


def test_a_reply_without_a_verdict_is_not_enough_info(portfolio_checker: Checker, settings: Settings, tmp_path: Path) -> None:
    judge = _judge(tmp_path, settings, "I could not find anything about a buyback in these passages.")
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", BUYBACK), judge=judge)
    c = claim(report, BUYBACK)
    assert c["status"] == "unverifiable" and c["judge"]["verdict"] == "NOT_ENOUGH_INFO"


def test_one_answer_per_unverifiable_claim_in_document_order(
        portfolio_checker: Checker, settings: Settings, tmp_path: Path) -> None:
    judge = _judge(tmp_path, settings, "VERDICT: NOT_ENOUGH_INFO\nQUOTE:",
                   "VERDICT: CONTRADICTED\nQUOTE: Apple Inc. equity USD")
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", f"{BUYBACK} {DIVIDEND}"), judge=judge)
    buyback, dividend = claim(report, BUYBACK), claim(report, DIVIDEND)
    assert (buyback["status"], buyback["judge"]["verdict"]) == ("unverifiable", "NOT_ENOUGH_INFO")
    assert (dividend["status"], dividend["judge"]["verdict"]) == ("contradicted", "CONTRADICTED")


def test_the_judge_is_not_asked_when_nothing_is_unverifiable(
        portfolio_checker: Checker, settings: Settings, tmp_path: Path) -> None:
    judge = _judge(tmp_path, settings)  # no answers: any call would fail
    report = check_document(portfolio_checker, "review.md", REVIEW.replace("{EXTRA}", "Microsoft has hit the stop-loss."),
                            judge=judge)
    assert (report.contradicted, report.unverifiable) == (0, 0), failing(report)
    assert all(c["judge"] is None for c in report.claims)


def test_a_bad_judge_spec_is_a_user_error(settings: Settings) -> None:
    with pytest.raises(UserError):
        Judge.open("gpt", settings)


def test_passages_share_the_claims_words(portfolio_checker: Checker) -> None:
    verifier = portfolio_checker.verifier()
    assert verifier is not None
    ev = verifier.ev
    found = passages(BUYBACK, ev)
    assert found and found[0][0] == "holdings#1"
    assert "Microsoft" in found[0][1]

    stop = passages("Microsoft has hit its stop-loss and should be sold.", ev)
    assert 1 <= len(stop) <= 3
    assert any(pid.startswith("data/stop_loss_rules.md#") for pid, _t in stop)
    for _pid, text in stop:
        assert any(w in text.lower() for w in ("stop", "sold", "sell", "microsoft", "hit"))

    cap = passages("A position above the cap must be trimmed back.", ev)
    assert cap and cap[0][0] == "data/investment_rules.md#2"
    assert all("cap" in text.lower() for _pid, text in cap[:2])

    assert passages("Zebras quietly graze.", ev) == []


@pytest.mark.parametrize(("reply", "expected"), [
    ("VERDICT: CONTRADICTED\nQUOTE: Apple Inc. equity USD", ("CONTRADICTED", "Apple Inc. equity USD")),
    ("VERDICT: SUPPORTED\nQUOTE: held 730 days", ("SUPPORTED", "held 730 days")),
    ("VERDICT: NOT_ENOUGH_INFO", ("NOT_ENOUGH_INFO", "")),
    ("No idea.", ("NOT_ENOUGH_INFO", "")),
    ("", ("NOT_ENOUGH_INFO", "")),
])
def test_parse(reply: str, expected: tuple[str, str]) -> None:
    assert parse(reply) == expected


def test_a_remote_judge_sees_no_email_or_phone(resume_checker: Checker, settings: Settings) -> None:
    """A CV's contact line may be an unverifiable claim: a remote judge (a real loopback server that
    speaks the OpenAI API) receives placeholders, and its quote comes back restored."""
    from pydantic import SecretStr

    from tests.hardening.helpers import FakeOpenAI, completion

    doc = "# Elena Marsh\n\nReach me at elena.marsh@example.com or +44 7700 900123: I was promoted to tech lead.\n"
    with FakeOpenAI(lambda body: (200, completion("VERDICT: NOT_ENOUGH_INFO\nQUOTE: none"))) as fake:
        s = settings.model_copy(update={"openai_base_url": fake.url, "openai_api_key": SecretStr("sk-test")})
        report = check_document(resume_checker, "cv.md", doc, judge=Judge.open("openai:gpt-4o-mini", s))
    sent = b"".join(r["raw"] for r in fake.requests)
    assert fake.requests, "the judge was asked"
    assert b"elena.marsh@example.com" not in sent and b"7700 900123" not in sent
    assert b"[[EMAIL_1]]" in sent
    assert any(c["judge"] for c in report.claims)
