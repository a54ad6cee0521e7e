import { describe, expect, it } from "vitest";
import { chartOf, fmtMetric, scale } from "./series";

const point = (t: string, over: Record<string, unknown> = {}) => ({
  t, runs: 1, pass_rate: 1, tokens: 100, cost: 0.5, seconds: 4, run_id: null, ...over,
});

describe("chartOf", () => {
  const series = [
    { task: "demo", model: "a", runs: 2, points: [point("2026-01-02T00:00:00Z", { pass_rate: 0 }), point("2026-01-01T00:00:00Z")] },
    { task: "demo", model: "b", runs: 1, points: [point("2026-01-03T00:00:00Z", { cost: null, tokens: 300 })] },
  ];

  it("makes one line per task and model, oldest point first", () => {
    const c = chartOf(series, "pass_rate");
    expect(c.lines.map((l) => l.key)).toEqual(["demo · a", "demo · b"]);
    expect(c.lines[0]!.points.map((p) => p.y)).toEqual([1, 0]);
    expect(c.y).toEqual([0, 1]);
    expect(c.x).toEqual([Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-03T00:00:00Z")]);
  });

  it("leaves out points without a value and scales to the largest", () => {
    const cost = chartOf(series, "cost");
    expect(cost.lines[1]!.points).toEqual([]);
    expect(chartOf(series, "tokens").y).toEqual([0, 300]);
  });

  it("has a usable domain without data", () => {
    expect(chartOf([], "seconds")).toEqual({ lines: [], x: [0, 1], y: [0, 1] });
  });
});

describe("scale and fmtMetric", () => {
  it("maps a value, a flat domain to the middle", () => {
    expect(scale(5, [0, 10], 200)).toBe(100);
    expect(scale(3, [3, 3], 200)).toBe(100);
  });
  it("formats each metric", () => {
    expect(fmtMetric("pass_rate", 0.667)).toBe("67%");
    expect(fmtMetric("tokens", 12345.4)).toBe((12345).toLocaleString());
    expect(fmtMetric("cost", 0.0012)).toBe("0.0012 USD");
    expect(fmtMetric("seconds", 75)).toBe("1m 15s");
  });
});
