"""What a waiting user sees: the forecast before the run, a line per model call, the ending."""

from __future__ import annotations

from rich.console import Console

from autogen_pse.console import ConsoleSink, forecast_lines, print_summary
from autogen_pse.events import EventKind, RunEvent
from autogen_pse.models import call_seconds_hint
from autogen_pse.runner import RunResult


def _console() -> Console:
    return Console(record=True, width=200, highlight=False, color_system=None)


def test_forecast_names_the_steps_and_a_time_range() -> None:
    lines = forecast_lines("portfolio-review", "local", 2, (10, 40))
    assert "up to 2 cycle(s)" in lines[0] and "3 model calls each" in lines[0]
    assert "about 10–40 s" in lines[1] and "expect 1–4 min" in lines[1]
    assert forecast_lines("demo", "scripted:x.json", 1, None)[1:] == []
    low, high = call_seconds_hint("local") or (0, 0)
    assert 0 < low < high and call_seconds_hint("openai:gpt-4o-mini") is None


def test_a_line_per_model_call_and_a_heartbeat() -> None:
    console = _console()
    sink = ConsoleSink(console)
    sink(RunEvent(run_id="r", seq=1, cycle=1, kind=EventKind.MODEL_WAIT, payload={"role": "specialist",
                                                                                  "elapsed": 20.0}))
    sink(RunEvent(run_id="r", seq=2, cycle=1, kind=EventKind.MODEL_CALL, payload={
        "role": "specialist", "prompt_tokens": 650, "completion_tokens": 415, "seconds": 26.3, "tokens_per_s": 15.8}))
    text = console.export_text()
    assert "specialist still generating (20 s)" in text
    assert "specialist: 650 prompt + 415 completion tokens in 26.3 s (15.8 tok/s)" in text


def test_summary_lists_every_final_check_and_why_the_run_ended() -> None:
    console = _console()
    result = RunResult(run_id="r", task="portfolio-review", status="finished", verdict="BLOCKED",
                       reason="LIMIT_REACHED", limit="max_cycles", cycles=2,
                       usage={"prompt_tokens": 1, "completion_tokens": 1, "model_calls": 6, "cost": 0.0,
                              "currency": "USD"},
                       trace_dir="/t", artifact_path="/t/artifact.md", verified=False, artifact_mode="structured",
                       checks=[{"name": "structure", "ok": True, "severity": "error", "detail": "4 sections"},
                               {"name": "claims", "ok": False, "severity": "error", "detail": "1 contradicted"}])
    print_summary(console, result)
    text = console.export_text()
    assert "check structure" in text and "✓ passed" in text and "✗ failed" in text
    assert "the max_cycles limit was reached without a PASS (2 cycle(s))" in text
    assert "structured" in text


def test_summary_prints_paths_whole_at_80_columns() -> None:
    console = Console(record=True, width=80, force_terminal=False)
    path = "/home/someone/projects/autogen-pse/traces/01M8SJVDWEDESVPYP3P5NCMPH4/artifact.md"
    result = RunResult(run_id="r", task="portfolio-review", status="finished", verdict="PASS", reason="OK", cycles=1,
                       usage={"prompt_tokens": 1, "completion_tokens": 1, "model_calls": 3, "cost": 0.0,
                              "currency": "USD"}, trace_dir=path.rsplit("/", 1)[0], artifact_path=path, verified=True)
    print_summary(console, result)
    lines = console.export_text().splitlines()
    assert f"artifact  {path}" in lines and f"trace     {path.rsplit('/', 1)[0]}" in lines
