"""The claim ledger inside a run: a lenient evaluator cannot pass a review with a fabricated claim.

The specialist's review is complete and structurally valid (four sections, an Actions table that
obeys the rules, every holding covered), written with typed figures as a person would; one
sentence gives Amazon IBM's 72.7 % gain. The evaluator says PASS. The ledger contradicts the
sentence, so the run never ends verified, and the trace, the events and the grounding score say
why. The faithful version of the same review ends PASS, verified, fully grounded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autogen_pse.config import Settings
from autogen_pse.runner import RunRequest, RunResult, run_task
from tests.scripting import save, verdict

FAITHFUL_SENTENCE = "Amazon is up 242% on cost and triggers no rule."
PLANTED_SENTENCE = "Amazon is up 72.7% on cost and triggers no rule."

REVIEW = """\
# Portfolio review — Alex Example, as of 1 March 2010

## Summary

The portfolio is worth $127,157.10 against a cost of $75,890.50, an unrealised profit of $51,266.60 (67.55%). It is concentrated: the top three holdings make up 76.28% of the value and Apple alone is 43.85%, above the 30% position cap. The main risks are that concentration and two holdings below cost, Microsoft past its stop-loss.

## Findings

- **AAPL** (Apple): 43.85% of the portfolio, up 480.03% after 1,885 days; volatility 47.12%, max drawdown -56.91%. Overweight.
- **AMZN** (Amazon): 10.13% of the portfolio, held 1,155 days; volatility 48.04%, max drawdown -54.16%. No trigger.
- **GOOG** (Google): 17.62% of the portfolio, down 19.16% after 851 days; volatility 36.91%, max drawdown -57.73%. Long-held loss.
- **IBM**: 14.81% of the portfolio, up 72.70% after 1,339 days; volatility 23.50%, max drawdown -36.35%. No trigger.
- **MSFT** (Microsoft): 13.59% of the portfolio, down 27.66% after 3,712 days; volatility 29.11%, max drawdown -63.42%. Stop-loss hit and long-held loss.

{SENTENCE}

## Actions

| Priority | Action | Symbol | Amount | Reason |
|---|---|---|---|---|
| 1 | SELL | MSFT | 600 units | stop-loss hit: -27.66% vs the -20% stop |
| 2 | TRIM | AAPL | 79 units ($17,607.87) | overweight: 43.85% vs the 30% cap |
| 3 | REVIEW | GOOG | — | long-held loss: -19.16% after 851 days |
| 4 | HOLD | AMZN | — | no rule trigger; within the limits |
| 5 | HOLD | IBM | — | no rule trigger; within the limits |

## Next steps

- Place the SELL and TRIM orders and keep the proceeds in cash until the next review.
- Review Google again after the next monthly close.
"""

PLAN = ("1. Summary: value, profit, concentration, main risks.\n2. Findings: one bullet per holding.\n"
        "3. Actions table: SELL MSFT, TRIM AAPL, REVIEW GOOG, HOLD AMZN and IBM.\n4. Next steps.")
LENIENT = ("I read the review against the facts; it looks complete and correct.\n\n"
           + verdict("PASS", "OK", [], "All holdings covered, actions obey the rules."))
CYCLES = 2


def _script(tmp_path: Path, sentence: str, name: str) -> Path:
    review = REVIEW.replace("{SENTENCE}", sentence)
    return save({"planner": [PLAN] * CYCLES, "specialist": [review] * CYCLES, "evaluator": [LENIENT] * CYCLES},
                tmp_path / name)


def _trace(result: RunResult) -> dict[str, Any]:
    return json.loads((Path(result.trace_dir) / "trace.json").read_text())


def _events(result: RunResult) -> list[dict[str, Any]]:
    lines = (Path(result.trace_dir) / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _claim(ledger: dict[str, Any], sentence: str) -> dict[str, Any]:
    [found] = [c for c in ledger["claims"] if c["text"] == sentence]
    return found


async def test_lenient_pass_on_a_fabricated_claim_never_ends_verified(settings: Settings, tmp_path: Path) -> None:
    path = _script(tmp_path, PLANTED_SENTENCE, "planted.json")
    result = await run_task(RunRequest(task="portfolio-review", model=f"scripted:{path}", max_cycles=CYCLES),
                            settings)
    assert result.status == "finished"
    assert result.verdict != "PASS" or not result.verified
    assert not result.verified

    trace = _trace(result)
    ledger = trace["ledger"]
    assert ledger is not None and ledger["phase"] == "final"
    planted = _claim(ledger, PLANTED_SENTENCE)
    assert planted["status"] == "contradicted"
    bad = [f for f in planted["findings"] if f["status"] == "contradicted"]
    assert any("AMZN.pnl_pct" in f["evidence"] for f in bad), bad
    assert ledger["contradicted"] >= 1
    # each cycle recorded its own ledger, and each caught the sentence
    assert trace["cycles"] and all(c["ledger"] is not None for c in trace["cycles"])
    for cycle in trace["cycles"]:
        assert _claim(cycle["ledger"], PLANTED_SENTENCE)["status"] == "contradicted"
        assert cycle["verdict"]["outcome"] != "PASS"  # the evaluator's PASS was overruled by the checks
        assert any(c["name"] == "claims" and not c["ok"] for c in cycle["checks"])

    events = _events(result)
    ledger_events = [e for e in events if e["kind"] == "ledger"]
    assert ledger_events and ledger_events[-1]["payload"]["phase"] == "final"
    assert {e["payload"]["phase"] for e in ledger_events} == {"cycle", "final"}

    artifact = next(e for e in events if e["kind"] == "artifact")
    g = artifact["payload"]["grounding"]
    assert artifact["payload"]["verified"] is False
    assert g["score"] < 1.0
    assert g["score"] == round(ledger["supported"] / ledger["factual"], 4)  # from the ledger, not the checks
    assert g["checked"] == ledger["factual"] and g["contradicted"] == ledger["contradicted"]
    assert any(PLANTED_SENTENCE in u for u in g["unsupported"])
    assert trace["grounding"] == g


async def test_faithful_review_passes_verified_and_fully_grounded(settings: Settings, tmp_path: Path) -> None:
    path = _script(tmp_path, FAITHFUL_SENTENCE, "faithful.json")
    result = await run_task(RunRequest(task="portfolio-review", model=f"scripted:{path}", max_cycles=CYCLES),
                            settings)
    assert (result.verdict, result.verified, result.cycles) == ("PASS", True, 1)

    trace = _trace(result)
    ledger = trace["ledger"]
    assert ledger["contradicted"] == 0 and ledger["unverifiable"] == 0
    assert _claim(ledger, FAITHFUL_SENTENCE)["status"] == "supported"
    assert ledger["factual"] >= 15  # the review was read claim by claim

    events = _events(result)
    assert any(e["kind"] == "ledger" for e in events)
    artifact = next(e for e in events if e["kind"] == "artifact")
    assert artifact["payload"]["verified"] is True
    assert artifact["payload"]["grounding"]["score"] == 1.0
    assert artifact["payload"]["grounding"]["unsupported"] == []
