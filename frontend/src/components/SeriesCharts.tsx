// History charts: pass rate, tokens, cost and wall time over time, one line per task · model
// (GET /api/stats/runs), as small inline SVG line charts with a shared legend.
import { getSeries, type SeriesQuery } from "../api/client";
import { fmtTime } from "../format";
import { chartOf, fmtMetric, METRICS, scale, type Metric, type SeriesLike } from "../series";
import { useAsync } from "../useAsync";
import { Empty, ErrorBox, Loading } from "./ui";

const W = 320;
const H = 140;
const PAD = { left: 8, right: 8, top: 10, bottom: 8 };

function LineChart({ series, metric, label }: { series: SeriesLike[]; metric: Metric; label: string }) {
  const chart = chartOf(series, metric);
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const px = (x: number) => PAD.left + scale(x, chart.x, iw);
  const py = (y: number) => PAD.top + ih - scale(y, chart.y, ih);
  const id = `chart-${metric}`;
  const empty = chart.lines.every((l) => l.points.length === 0);
  return (
    <figure className="series-chart" data-metric={metric}>
      <figcaption id={id}>
        {label} <span className="muted small">(max {fmtMetric(metric, chart.y[1])})</span>
      </figcaption>
      {empty ? (
        <p className="muted small">no values (e.g. unpriced model)</p>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={id} preserveAspectRatio="xMidYMid meet">
          <line x1={PAD.left} y1={PAD.top + ih} x2={W - PAD.right} y2={PAD.top + ih} className="axis" />
          <line x1={PAD.left} y1={PAD.top} x2={W - PAD.right} y2={PAD.top} className="grid" />
          {chart.lines.map((line, i) => (
            <g key={line.key} className={`series-${i % 6}`}>
              {line.points.length > 1 && (
                <polyline fill="none" points={line.points.map((p) => `${px(p.x)},${py(p.y)}`).join(" ")} className="series-line" />
              )}
              {line.points.map((p, j) => (
                <circle key={j} cx={px(p.x)} cy={py(p.y)} r={3} className="series-dot">
                  <title>{`${line.key}: ${fmtMetric(metric, p.y)} · ${fmtTime(new Date(p.x).toISOString())} · ${p.runs} run(s)`}</title>
                </circle>
              ))}
            </g>
          ))}
        </svg>
      )}
      {!empty && (
        <p className="series-x muted small" aria-hidden="true">
          <span>{fmtTime(new Date(chart.x[0]).toISOString())}</span>
          {chart.x[1] !== chart.x[0] && <span>{fmtTime(new Date(chart.x[1]).toISOString())}</span>}
        </p>
      )}
    </figure>
  );
}

/** ``version``: refetch when it changes (e.g. when a run of the listed page ends). */
export function SeriesCharts({ query, version = "" }: { query: SeriesQuery; version?: string }) {
  const key = JSON.stringify(query);
  const { data, error, loading, reload } = useAsync(() => getSeries(JSON.parse(key) as SeriesQuery), [key, version]);
  if (loading && !data) return <Loading label="Loading charts…" />;
  if (error != null) return <ErrorBox error={error} retry={reload} />;
  if (!data) return null;
  if (!data.series.length) return <Empty>No ended runs to chart for these filters.</Empty>;
  const first = data.series[0]?.points[0]?.t;
  const last = data.series.flatMap((s) => s.points.map((p) => p.t)).sort().at(-1);
  return (
    <div className="series" data-testid="series-charts">
      <p className="muted small">
        {data.runs} ended run(s), {data.bucket === "run" ? "one point per run" : `per ${data.bucket}`} · {fmtTime(first)} → {fmtTime(last)}
      </p>
      <ul className="series-legend" aria-label="Series">
        {data.series.map((s, i) => (
          <li key={`${s.task}-${s.model}`} className={`series-${i % 6}`}>
            <span className="series-swatch" aria-hidden="true" /> {s.task} · <span className="model-name">{s.model}</span>{" "}
            <span className="muted small">({s.runs})</span>
          </li>
        ))}
      </ul>
      <div className="series-grid">
        {METRICS.map((m) => (
          <LineChart key={m.metric} series={data.series} metric={m.metric} label={m.label} />
        ))}
      </div>
    </div>
  );
}
