import { describe, expect, it } from "vitest";
import { groupRetrievals, stripVerdict } from "./conversation";

describe("stripVerdict", () => {
  it("removes a fenced verdict block", () => {
    const text = 'pytest passed.\n\n```verdict\n{"outcome": "PASS", "reason": "OK", "issues": []}\n```';
    expect(stripVerdict(text)).toEqual({ text: "pytest passed.", stripped: true });
  });
  it("removes a trailing bare verdict object", () => {
    expect(stripVerdict('Looks fine.\n{"outcome": "FAIL", "reason": "X", "issues": ["a {b}"]}')).toEqual({ text: "Looks fine.", stripped: true });
  });
  it("keeps other JSON and plain text", () => {
    const other = 'Here:\n```json\n{"rows": 3}\n```';
    expect(stripVerdict(other)).toEqual({ text: other, stripped: false });
    expect(stripVerdict("no verdict here")).toEqual({ text: "no verdict here", stripped: false });
    expect(stripVerdict('broken {"outcome": ')).toEqual({ text: 'broken {"outcome": ', stripped: false });
  });
});

describe("groupRetrievals", () => {
  it("groups retrievals per role and keeps the rest in order", () => {
    const items = [
      { type: "retrieval", role: "planner", seq: 1 },
      { type: "warning", seq: 2 },
      { type: "retrieval", role: "specialist", seq: 3 },
      { type: "retrieval", role: "planner", seq: 4 },
    ];
    const { groups, rest } = groupRetrievals(items);
    expect(groups.map((g) => [g.role, g.items.map((i) => i.seq)])).toEqual([["planner", [1, 4]], ["specialist", [3]]]);
    expect(rest.map((i) => i.seq)).toEqual([2]);
  });
});
