"""portfolio-review's artifact schema: built per run from the prepared data, rendered, checked."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from autogen_pse.artifacts import ArtifactParseError, parse_object, try_render
from autogen_pse.checking import Checker, all_pass
from autogen_pse.config import Settings
from tests.structured_support import PORTFOLIO, as_json, portfolio, valid_object


def _variant_inputs(tmp_path: Path) -> dict[str, str]:
    """Holdings without IBM and a looser position cap (AAPL no longer overweight)."""
    rows = list(csv.reader((PORTFOLIO / "data" / "holdings.csv").read_text().splitlines()))
    holdings = tmp_path / "holdings.csv"
    with holdings.open("w", newline="") as fh:
        csv.writer(fh).writerows([r for r in rows if r[0] != "IBM"])
    prices = tmp_path / "prices.csv"
    prices.write_text("".join(line for line in (PORTFOLIO / "data" / "prices.csv").read_text().splitlines(True)
                              if not line.startswith("IBM,")))
    rules = json.loads((PORTFOLIO / "data" / "rules.json").read_text())
    rules["max_position_weight"] = 0.6
    rules_path = tmp_path / "rules.json"
    rules_path.write_text(json.dumps(rules))
    return {"holdings": str(holdings), "prices": str(prices), "rules": str(rules_path)}


def _action_variants(schema_json: dict, symbol: str) -> dict[str, list[str]]:
    """action → allowed amount ids of ``symbol`` in the JSON schema."""
    defs = schema_json["$defs"]
    ref = defs["Actions"]["properties"][symbol]
    options = ref.get("anyOf", [ref])
    out = {}
    for option in options:
        props = defs[option["$ref"].split("/")[-1]]["properties"]
        amount = props["amount"]
        out[props["action"]["const"]] = amount.get("enum", [amount.get("const")])
    return out


def test_schema_is_built_from_the_prepared_data_and_varies_with_the_inputs(settings: Settings,
                                                                              tmp_path: Path) -> None:
    _task, _prep, schema = portfolio(settings)
    js = schema.json_schema()
    assert set(js["$defs"]["Findings"]["required"]) == {"AAPL", "AMZN", "GOOG", "IBM", "MSFT"}
    assert _action_variants(js, "AAPL") == {"TRIM": ["AAPL.trim_units", "AAPL.excess_value"],
                                            "HOLD": ["none"], "REVIEW": ["none"]}
    assert _action_variants(js, "MSFT") == {"SELL": ["MSFT.quantity"], "HOLD": ["none"], "REVIEW": ["none"]}
    assert set(_action_variants(js, "IBM")) == {"BUY", "HOLD", "REVIEW"}

    _task, _prep, other = portfolio(settings, _variant_inputs(tmp_path))
    js2 = other.json_schema()
    assert set(js2["$defs"]["Findings"]["required"]) == {"AAPL", "AMZN", "GOOG", "MSFT"}  # IBM gone
    assert set(_action_variants(js2, "AAPL")) == {"BUY", "HOLD", "REVIEW"}  # under the 60 % cap: no TRIM
    assert js2["$defs"]["Actions"]["additionalProperties"] is False


def test_only_allowed_actions_amounts_and_symbols_validate(settings: Settings) -> None:
    _task, prep, schema = portfolio(settings)
    good = valid_object(prep)
    assert parse_object(schema, as_json(good))
    assert parse_object(schema, f"```json\n{as_json(good)}\n```")  # one fenced block is accepted
    for mutate, where in [
        (lambda o: o["actions"]["IBM"].update(action="SELL", amount="IBM.quantity"), "actions.IBM"),
        (lambda o: o["actions"]["AAPL"].update(amount="AAPL.quantity"), "actions.AAPL"),
        (lambda o: o["findings"].pop("GOOG"), "findings.GOOG"),
        (lambda o: o["findings"].update(TSLA="Not a holding at all."), "findings.TSLA"),
        (lambda o: o.update(summary="Worth 12,345 dollars now."), "summary"),
    ]:
        bad = valid_object(prep)
        mutate(bad)
        with pytest.raises(ArtifactParseError, match=where.split(".")[0]):
            parse_object(schema, as_json(bad))
    with pytest.raises(ArtifactParseError, match="truncated"):
        parse_object(schema, as_json(good)[:-40])
    with pytest.raises(ArtifactParseError, match="not a JSON object"):
        parse_object(schema, "## Summary\nprose instead of an object")


def test_rendered_review_has_four_sections_and_passes_every_check(settings: Settings, tmp_path: Path) -> None:
    task, prep, schema = portfolio(settings)
    markdown, error = try_render(schema, as_json(valid_object(prep)))
    assert error is None and markdown is not None
    titles = [line for line in markdown.splitlines() if line.startswith("## ")]
    assert titles == ["## Summary", "## Findings", "## Actions", "## Next steps"]
    checker = Checker(task, facts=prep.prepared.facts, data=prep.prepared.data, workspace=tmp_path, vars={})
    rendered, results = checker.run(markdown)
    assert all_pass(results), [r for r in results if not r.ok]
    assert {r.name for r in results} >= {"structure", "coverage", "rules", "claims"}
    assert "{{fact:" not in rendered and "| 1 | SELL | MSFT |" in rendered


def test_json_schema_compiles_to_a_llama_grammar(settings: Settings) -> None:
    llama_cpp = pytest.importorskip("llama_cpp")
    _task, _prep, schema = portfolio(settings)
    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema.json_schema()), verbose=False)
    assert grammar is not None


def test_compact_fix_cycle_carries_few_short_issues_and_no_artifact() -> None:
    from autogen_pse.cycle_text import fix_task_text
    from autogen_pse.verdict import Outcome, Reason, Verdict

    verdict = Verdict(outcome=Outcome.PARTIAL, reason=Reason.DATA_MISMATCH, issues=["x" * 500] * 30)
    text = fix_task_text("Do your part.", "## Summary\nold review", verdict, show_artifact=False)
    assert "old review" not in text and "(and 25 more)" in text
    assert max(len(line) for line in text.splitlines()) < 170
    assert "old review" in fix_task_text("Do your part.", "## Summary\nold review", verdict)
