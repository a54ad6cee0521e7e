"""The eval report's figures (rates, means, percentiles, expectations) and its HTML (escaped, no script)."""

from __future__ import annotations

from autogen_pse.cli_eval import exit_code
from autogen_pse.evals.html import bar_chart, render_html
from autogen_pse.evals.report import CaseRun, EvalReport, percentile, summarise


def _run(model: str, verdict: str | None, **kw: object) -> CaseRun:
    values: dict[str, object] = {"case": "c", "model": model, "status": "finished", "verdict": verdict,
                                 "verified": verdict == "PASS", **kw}
    return CaseRun.model_validate(values)


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([], 0.5) is None
    assert percentile([3.0], 0.95) == 3.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert abs(percentile([float(i) for i in range(1, 21)], 0.95) - 19.05) < 1e-9  # type: ignore[operator]


def test_summarise_per_model() -> None:
    runs = [
        _run("a", "PASS", cycles=1, grounding=1.0, seconds=1.0, prompt_tokens=10, completion_tokens=5, cost=0.5,
             expected=True),
        _run("a", "PARTIAL", cycles=3, grounding=0.5, contradicted=2, unverifiable=1, seconds=3.0, cost=0.25,
             expected=False),
        CaseRun(case="c", model="a", status="not_run"),
        _run("b", None, status="error", error="model failed", seconds=None),
    ]
    a, b = summarise(["a", "b"], runs)
    assert (a.runs, a.done, a.passed, a.verified) == (3, 2, 1, 1)
    assert a.pass_rate == 0.5 and a.mean_cycles == 2.0 and a.mean_grounding == 0.75
    assert (a.contradicted, a.unverifiable, a.tokens, a.cost) == (2, 1, 15, 0.75)
    assert a.p50_seconds == 2.0 and a.p95_seconds == 2.9 and (a.expected_met, a.expected_total) == (1, 2)
    assert b.pass_rate == 0.0 and b.errors == 1 and b.p50_seconds is None and b.mean_grounding is None


def _report(**kw: object) -> EvalReport:
    runs = [_run('<b onmouseover="x">m</b>', "PASS", run_id="01J0000000000000000000000A", seconds=1.0)]
    values: dict[str, object] = {"eval_id": "01J0000000000000000000000E", "task": "t<script>", "inputs": "in.jsonl",
                                 "layout": "jsonl", "models": [runs[0].model], "repeat": 1, "concurrency": 1,
                                 "status": "completed", "complete": True, "started_at": "2026-01-01T00:00:00.000Z",
                                 "cases": ["c"], "runs": runs, "summary": summarise([runs[0].model], runs), **kw}
    return EvalReport.model_validate(values)


def test_html_is_escaped_static_and_marks_incomplete() -> None:
    html = render_html(_report())
    assert "<script" not in html and "onmouseover=\"x\"" not in html and "&lt;b onmouseover" in html
    assert html.count("<svg") == 5 and "01J0000000000000000000000A" in html and "is <b>" not in html
    partial = render_html(_report(status="cancelled", complete=False))
    assert "This eval is <b>cancelled</b>" in partial
    assert "no data" in bar_chart("x", [("m", None)])


def test_exit_codes() -> None:
    assert exit_code(_report()) == 0
    missed = _report()
    missed.runs[0].expected = False
    assert exit_code(missed) == 1
    errored = _report()
    errored.runs[0].status = "error"
    assert exit_code(errored) == 3
    assert exit_code(_report(status="cancelled", complete=False)) == 130
