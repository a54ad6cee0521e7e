// Series across runs (GET /api/stats/runs) as chart lines: one line per task · model, x = time,
// y = the chosen metric. Pure: no DOM, no React.

export interface PointLike {
  t: string;
  runs: number;
  pass_rate: number;
  tokens: number;
  cost: number | null;
  seconds: number | null;
  run_id?: string | null;
}

export interface SeriesLike<P extends PointLike = PointLike> {
  task: string;
  model: string;
  runs: number;
  points: P[];
}

export type Metric = "pass_rate" | "tokens" | "cost" | "seconds";

export const METRICS: { metric: Metric; label: string }[] = [
  { metric: "pass_rate", label: "Pass rate" },
  { metric: "tokens", label: "Tokens per run" },
  { metric: "cost", label: "Cost per run" },
  { metric: "seconds", label: "Wall time per run" },
];

export interface LinePoint {
  x: number; // ms since epoch
  y: number;
  runs: number;
  runId: string | null;
}

export interface Line {
  key: string;
  task: string;
  model: string;
  points: LinePoint[]; // points without a value (an unpriced run's cost) are left out
}

export interface Chart {
  lines: Line[];
  x: [number, number];
  y: [number, number];
}

export function chartOf(series: SeriesLike[], metric: Metric): Chart {
  const lines = series.map((s) => ({
    key: `${s.task} · ${s.model}`,
    task: s.task,
    model: s.model,
    points: s.points
      .map((p) => ({ x: Date.parse(p.t), y: p[metric], runs: p.runs, runId: p.run_id ?? null }))
      .filter((p): p is LinePoint => typeof p.y === "number" && Number.isFinite(p.y) && Number.isFinite(p.x))
      .sort((a, b) => a.x - b.x),
  }));
  const xs = lines.flatMap((l) => l.points.map((p) => p.x));
  const ys = lines.flatMap((l) => l.points.map((p) => p.y));
  const x: [number, number] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  const top = metric === "pass_rate" ? 1 : ys.length ? Math.max(...ys) : 1;
  return { lines, x, y: [0, top > 0 ? top : 1] };
}

/** A value mapped onto [0, size]; a zero-width domain maps to the middle. */
export function scale(v: number, [lo, hi]: [number, number], size: number): number {
  return hi > lo ? ((v - lo) / (hi - lo)) * size : size / 2;
}

export function fmtMetric(metric: Metric, v: number, currency = "USD"): string {
  if (metric === "pass_rate") return `${Math.round(v * 100)}%`;
  if (metric === "tokens") return Math.round(v).toLocaleString();
  if (metric === "cost") return `${v < 0.01 && v !== 0 ? v.toFixed(4) : v.toFixed(2)} ${currency}`;
  return v < 60 ? `${v.toFixed(1)} s` : `${Math.floor(v / 60)}m ${String(Math.round(v % 60)).padStart(2, "0")}s`;
}
