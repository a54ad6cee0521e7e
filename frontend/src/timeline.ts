// The timeline of a run (GET /api/runs/{id}/timeline) laid out as a waterfall: one group per
// cycle (0 = set-up before the first turn), one row per span, bars placed on the group's own time
// scale. Pure: no DOM, no React.

export interface SpanLike {
  kind: string;
  cycle: number;
  role: string;
  label: string;
  start: number;
  seconds: number;
  seq: number;
  tokens?: number | null;
  error?: boolean;
}

export interface Bar<S extends SpanLike = SpanLike> {
  span: S;
  left: number; // % of the group's width
  width: number; // % (at least MIN_WIDTH, so a 5 ms call stays visible)
}

export interface Group<S extends SpanLike = SpanLike> {
  cycle: number;
  start: number; // seconds after the run started
  end: number;
  bars: Bar<S>[];
  byKind: Record<string, number>; // seconds per kind (model, tool, retry, checks, setup)
}

export const MIN_WIDTH = 0.6;

export function layoutTimeline<S extends SpanLike>(spans: S[]): Group<S>[] {
  const cycles = [...new Set(spans.map((s) => s.cycle))].sort((a, b) => a - b);
  return cycles.map((cycle) => {
    const own = spans.filter((s) => s.cycle === cycle).sort((a, b) => a.start - b.start || a.seq - b.seq);
    const start = Math.min(...own.map((s) => s.start));
    const end = Math.max(...own.map((s) => s.start + s.seconds));
    const range = Math.max(end - start, 1e-6);
    const byKind: Record<string, number> = {};
    const bars = own.map((span) => {
      byKind[span.kind] = (byKind[span.kind] ?? 0) + span.seconds;
      const left = ((span.start - start) / range) * 100;
      const width = Math.min(Math.max((span.seconds / range) * 100, MIN_WIDTH), 100);
      return { span, left: Math.max(0, Math.min(left, 100 - width)), width };
    });
    return { cycle, start, end, bars, byKind };
  });
}

/** `0.004` → "4 ms", `2.5` → "2.5 s", `125` → "2m 05s". */
export function fmtSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return "—";
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const m = Math.floor(s / 60);
  return `${m}m ${String(Math.round(s - m * 60)).padStart(2, "0")}s`;
}
