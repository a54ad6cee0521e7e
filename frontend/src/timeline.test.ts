import { describe, expect, it } from "vitest";
import { fmtSeconds, layoutTimeline, MIN_WIDTH } from "./timeline";

const span = (over: Partial<Parameters<typeof layoutTimeline>[0][number]>) => ({
  kind: "model", cycle: 1, role: "planner", label: "model call", start: 0, seconds: 1, seq: 1, ...over,
});

describe("layoutTimeline", () => {
  it("groups spans per cycle on each cycle's own scale", () => {
    const groups = layoutTimeline([
      span({ cycle: 2, start: 10, seconds: 2, seq: 9 }),
      span({ cycle: 1, start: 1, seconds: 1, seq: 2 }),
      span({ cycle: 1, start: 2, seconds: 2, kind: "tool", seq: 3 }),
      span({ cycle: 0, start: 0, seconds: 0.5, kind: "setup", seq: 1 }),
    ]);
    expect(groups.map((g) => g.cycle)).toEqual([0, 1, 2]);
    const one = groups[1]!;
    expect([one.start, one.end]).toEqual([1, 4]);
    expect(one.bars.map((b) => [Math.round(b.left), Math.round(b.width)])).toEqual([[0, 33], [33, 67]]);
    expect(one.byKind).toEqual({ model: 1, tool: 2 });
    expect(groups[2]!.bars[0]).toMatchObject({ left: 0, width: 100 });
  });

  it("keeps zero-length spans visible and inside the track", () => {
    const [g] = layoutTimeline([span({ start: 0, seconds: 10 }), span({ start: 10, seconds: 0, seq: 2 })]);
    const last = g!.bars[1]!;
    expect(last.width).toBeGreaterThanOrEqual(MIN_WIDTH);
    expect(last.left + last.width).toBeLessThanOrEqual(100);
  });

  it("is empty without spans", () => {
    expect(layoutTimeline([])).toEqual([]);
  });
});

describe("fmtSeconds", () => {
  it("picks a unit", () => {
    expect(fmtSeconds(0.004)).toBe("4 ms");
    expect(fmtSeconds(2.5)).toBe("2.50 s");
    expect(fmtSeconds(42)).toBe("42.0 s");
    expect(fmtSeconds(125)).toBe("2m 05s");
    expect(fmtSeconds(-1)).toBe("—");
  });
});
