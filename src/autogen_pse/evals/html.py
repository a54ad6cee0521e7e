"""The eval's self-contained HTML report: inline CSS and SVG charts, no script, no network.

Sections: the comparison table per model, bar charts per model (pass rate, verified rate, cost,
p50/p95 wall time) and every case run with its run id (``pse trace show RUN_ID``; the dashboard's
Evals page links them). Every text taken from the report is escaped.
"""

from __future__ import annotations

from html import escape

from .report import CaseRun, EvalReport, ModelSummary

__all__ = ["bar_chart", "render_html"]

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1320px;padding:16px;color:#1b1f24}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{color:#57606a;overflow-wrap:anywhere}
.warn{background:#fff4d6;border:1px solid #d4a72c;padding:8px;border-radius:6px}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:right;white-space:nowrap}
th:first-child,td:first-child,td.l,th.l{text-align:left}td.l{white-space:normal;overflow-wrap:break-word;min-width:8em}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{flex:0 1 480px;min-width:0}.chart svg{width:100%;height:auto}
.ok{color:#1a7f37}.bad{color:#cf222e}code{font-size:12px}
"""
_COLOURS = ("#0969da", "#8250df", "#bf3989", "#1a7f37", "#9a6700", "#cf222e")


def _num(value: float | None, digits: int = 2, suffix: str = "") -> str:
    return "—" if value is None else f"{value:,.{digits}f}{suffix}"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def bar_chart(title: str, bars: list[tuple[str, float | None]], *, unit: str = "", max_value: float | None = None,
              digits: int = 2) -> str:
    """A horizontal bar chart as inline SVG: one bar per ``(label, value)``; ``None`` draws no bar."""
    width, label_w, row_h = 480, 170, 26
    height = 28 + row_h * max(1, len(bars))
    top = max_value if max_value else max([v for _, v in bars if v is not None] or [0]) or 1.0
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
             f'xmlns="http://www.w3.org/2000/svg">',
             f'<text x="0" y="16" font-size="13" font-weight="600">{escape(title)}</text>']
    for i, (label, value) in enumerate(bars):
        y = 26 + i * row_h
        shown = label if len(label) <= 26 else label[:25] + "…"
        parts.append(f'<text x="0" y="{y + 15}" font-size="12"><title>{escape(label)}</title>{escape(shown)}</text>')
        if value is not None:
            w = max(1.0, (width - label_w - 70) * min(value, top) / top)
            colour = _COLOURS[i % len(_COLOURS)]
            parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="16" fill="{colour}" rx="2"/>')
            parts.append(f'<text x="{label_w + w + 6:.1f}" y="{y + 15}" font-size="12">'
                         f'{escape(_num(value, digits))}{escape(unit)}</text>')
        else:
            parts.append(f'<text x="{label_w}" y="{y + 15}" font-size="12" fill="#57606a">no data</text>')
    parts.append("</svg>")
    return "".join(parts)


def _summary_table(rows: list[ModelSummary]) -> str:
    head = ("model", "runs", "pass rate", "verified", "mean cycles", "grounding", "contradicted", "unverifiable",
            "tokens", "cost", "p50 s", "p95 s", "expected")
    body = []
    for s in rows:
        expected = f"{s.expected_met}/{s.expected_total}" if s.expected_total else "—"
        cells = (f"{s.done}/{s.runs}", _pct(s.pass_rate), _pct(s.verified_rate), _num(s.mean_cycles),
                 _num(s.mean_grounding, 3), str(s.contradicted), str(s.unverifiable), f"{s.tokens:,}",
                 _num(s.cost, 4), _num(s.p50_seconds), _num(s.p95_seconds), expected)
        body.append(f'<tr><td class="l">{escape(s.model)}</td>' + "".join(f"<td>{escape(c)}</td>" for c in cells)
                    + "</tr>")
    return ('<div class="scroll"><table><thead><tr>' + "".join(f"<th>{h}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


def _runs_table(runs: list[CaseRun]) -> str:
    head = ("case", "model", "#", "status", "verdict", "verified", "cycles", "grounding", "contra.", "unverif.",
            "tokens", "cost", "seconds", "expected", "run id")
    left = {"case", "model", "run id"}
    body = []
    for r in runs:
        expected = "—" if r.expected is None else ('<span class="ok">met</span>' if r.expected
                                                     else '<span class="bad">missed</span>')
        verified = '<span class="ok">yes</span>' if r.verified else "no"
        cells = [escape(str(v)) for v in (r.repeat, r.status, r.verdict or "—")] + [verified] + [
            escape(str(v)) for v in (r.cycles, _num(r.grounding, 3), r.contradicted, r.unverifiable,
                                     f"{r.tokens:,}", _num(r.cost, 4), _num(r.seconds))] + [expected]
        run = f'<code style="white-space:nowrap">{escape(r.run_id)}</code>' if r.run_id else "—"
        title = f' title="{escape(r.error)}"' if r.error else ""
        body.append(f'<tr{title}><td class="l">{escape(r.case)}</td><td class="l">{escape(r.model)}</td>'
                    + "".join(f"<td>{c}</td>" for c in cells) + f'<td class="l">{run}</td></tr>')
    return ('<div class="scroll"><table><thead><tr>'
            + "".join(f'<th class="l">{h}</th>' if h in left else f"<th>{h}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


def render_html(report: EvalReport) -> str:
    """The whole page for ``report`` (a running or cancelled eval says so at the top)."""
    s = report.summary
    charts = [
        bar_chart("Pass rate", [(m.model, None if m.pass_rate is None else m.pass_rate * 100) for m in s],
                  unit="%", max_value=100, digits=0),
        bar_chart("Verified rate", [(m.model, None if m.verified_rate is None else m.verified_rate * 100) for m in s],
                  unit="%", max_value=100, digits=0),
        bar_chart("Cost", [(m.model, m.cost) for m in s], digits=4),
        bar_chart("Wall time p50 (s)", [(m.model, m.p50_seconds) for m in s], unit=" s"),
        bar_chart("Wall time p95 (s)", [(m.model, m.p95_seconds) for m in s], unit=" s"),
    ]
    note = ""
    if not report.complete:
        note = (f'<p class="warn">This eval is <b>{escape(report.status)}</b>: {report.done} of {len(report.runs)} '
                "runs ended; the figures cover those runs only.</p>")
    meta = (f"task <b>{escape(report.task)}</b> · inputs <code>{escape(report.inputs)}</code> · "
            f"{len(report.cases)} cases × {len(report.models)} models × {report.repeat} repeat(s) · concurrency "
            f"{report.concurrency} · started {escape(report.started_at)}"
            + (f" · {report.seconds:,.1f} s" if report.seconds is not None else ""))
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Eval {escape(report.eval_id)} — {escape(report.task)}</title><style>{_CSS}</style></head><body>"
            f"<h1>Eval {escape(report.eval_id)}</h1><p class=\"meta\">{meta}</p>{note}"
            f"<h2>Per model</h2>{_summary_table(s)}"
            f"<h2>Charts</h2><div class=\"charts\">{''.join(f'<div class=chart>{c}</div>' for c in charts)}</div>"
            f"<h2>Runs</h2>{_runs_table(report.runs)}</body></html>\n")
