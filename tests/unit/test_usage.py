"""Pricing from data and the USAGE accumulator of docs/CONTRACTS.md."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import InputFileError, UserError
from autogen_pse.usage import SHIPPED_PRICING, PriceTable, UsageTotals, price


def test_shipped_prices_are_data() -> None:
    data = json.loads(SHIPPED_PRICING.read_text())
    assert data["currency"] == "USD"
    assert data["models"]["gpt-4o-mini"] == {"input_per_million": 0.15, "output_per_million": 0.6}
    for name in ("gpt-4o", "gpt-4.1-mini", "deepseek-chat"):
        assert name in data["models"]


def test_price_of_known_model() -> None:
    cost, currency = price("openai:gpt-4o-mini", 1_000_000, 1_000_000)
    assert (cost, currency) == (pytest.approx(0.75), "USD")
    cost, _ = price("openai:gpt-4o-mini", 1200, 300)
    assert cost == pytest.approx((1200 * 0.15 + 300 * 0.6) / 1e6)
    assert price("gpt-4o-mini-2024-07-18", 1_000_000, 0)[0] == pytest.approx(0.15)  # dated snapshot


def test_local_and_scripted_are_free() -> None:
    assert price("local:SmolLM2-135M-Instruct", 10_000, 5_000) == (0.0, "USD")
    assert price("scripted:demo_pass.json", 10, 5) == (0.0, "USD")


def test_unknown_model_is_none_and_warned_once(caplog: pytest.LogCaptureFixture) -> None:
    table = PriceTable.load()
    with caplog.at_level(logging.WARNING, logger="autogen_pse.usage"):
        assert table.price("openai:my-private-model", 100, 10) == (None, "USD")
        assert table.price("openai:my-private-model", 100, 10) == (None, "USD")
    warnings = [r for r in caplog.records if "my-private-model" in r.getMessage()]
    assert len(warnings) == 1
    assert "PSE_PRICING_FILE" in warnings[0].getMessage()
    assert table.warning_for("openai:my-private-model") is not None
    assert table.warning_for("openai:gpt-4o") is None
    assert table.warn_once("openai:my-private-model") is None  # already warned
    assert table.price("openai:gpt-4o-mini-search", 1, 1)[0] is None  # no loose prefix matching


def test_override_file_merges_over_shipped(tmp_path: Path) -> None:
    override = tmp_path / "prices.json"
    override.write_text(
        json.dumps(
            {
                "currency": "EUR",
                "models": {
                    "my-private-model": {"input_per_million": 1, "output_per_million": 2},
                    "gpt-4o-mini": {"input_per_million": 0.0, "output_per_million": 0.0},
                },
            }
        )
    )
    table = PriceTable.from_settings(Settings(_env_file=None, pricing_file=override))  # type: ignore[call-arg]
    assert table.price("openai:my-private-model", 1_000_000, 1_000_000) == (pytest.approx(3.0), "EUR")
    assert table.price("openai:gpt-4o-mini", 1000, 1000)[0] == 0.0  # overridden
    assert table.price("openai:gpt-4o", 1_000_000, 0) == (pytest.approx(2.5), "USD")  # kept


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ("{oops", "not valid JSON"),
        ('{"models": []}', "'models'"),
        ('{"models": {"m": {"input_per_million": 1}}}', "missing output_per_million"),
        (
            '{"models": {"m": {"input_per_million": -1, "output_per_million": 1}}}',
            "'models.m.input_per_million'",
        ),
        ('{"currency": 5, "models": {}}', "'currency'"),
    ],
)
def test_bad_override_files_name_file_and_field(tmp_path: Path, content: str, where: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InputFileError) as info:
        PriceTable.load(path)
    assert str(path) in str(info.value) and where in str(info.value)
    with pytest.raises(UserError, match="pricing file not found"):
        PriceTable.load(tmp_path / "absent.json")


def test_usage_totals_produce_the_contract_dict() -> None:
    totals = UsageTotals("openai:gpt-4o-mini")
    call = totals.add("planner", 1000, 200)
    assert call == {"prompt_tokens": 1000, "completion_tokens": 200, "cost": pytest.approx(0.00027)}
    totals.add("evaluator", 500, 100)
    totals.add("planner", 0, 0)
    usage = totals.to_dict()
    assert set(usage) == {
        "model_calls",
        "prompt_tokens",
        "completion_tokens",
        "cost",
        "currency",
        "per_agent",
    }
    assert usage["model_calls"] == 3
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (1500, 300)
    assert usage["cost"] == pytest.approx((1500 * 0.15 + 300 * 0.6) / 1e6)
    assert usage["currency"] == "USD"
    assert usage["per_agent"]["planner"] == {
        "model_calls": 2,
        "prompt_tokens": 1000,
        "completion_tokens": 200,
        "cost": pytest.approx(0.00027),
    }
    assert set(usage["per_agent"]["planner"]) == {"model_calls", "prompt_tokens", "completion_tokens", "cost"}
    assert totals.total_tokens == 1800
    json.dumps(usage)  # serialisable as an event payload


def test_unknown_cost_propagates_as_null_and_warns_once() -> None:
    totals = UsageTotals("openai:mystery-1", prices=PriceTable.load())
    assert totals.add("planner", 10, 1)["cost"] is None
    totals.add("specialist", 10, 1)
    assert totals.to_dict()["cost"] is None
    assert totals.to_dict()["per_agent"]["specialist"]["cost"] is None
    assert len(totals.pop_warnings()) == 1 and totals.pop_warnings() == []


def test_merge_cycle_into_run_and_null_mixing() -> None:
    table = PriceTable.load()
    run, cycle = UsageTotals("scripted:x.json", table), UsageTotals("scripted:x.json", table)
    assert run.to_dict()["cost"] == 0.0 and run.to_dict()["model_calls"] == 0
    cycle.add("planner", 5, 5)
    cycle.add("evaluator", 7, 3)
    run.merge(cycle)
    run.merge(cycle)
    assert run.to_dict()["model_calls"] == 4 and run.prompt_tokens == 24 and run.cost == 0.0
    unknown = UsageTotals("openai:mystery-2", table)
    unknown.add("planner", 1, 1)
    run.merge(unknown)
    assert run.cost is None and run.to_dict()["per_agent"]["evaluator"]["cost"] == 0.0
    with pytest.raises(ValueError):
        run.add("planner", -1, 0)
