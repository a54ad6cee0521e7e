import { describe, expect, it } from "vitest";
import type { RunEvent } from "../api/client";
import { EVENT_KINDS, initialLive, reduce, totals, type LiveState } from "./reducer";

const RUN = "01JAAAAAAAAAAAAAAAAAAAAAAA";
let seq = 0;
// Loose on purpose: the reducer must also cope with partial payloads of old traces.
const ev = (kind: string, payload: Record<string, unknown>, cycle = 0): RunEvent => ({
  run_id: RUN, seq: ++seq, cycle, ts: `2026-01-01T00:00:${String(seq).padStart(2, "0")}.000Z`, kind, payload,
}) as unknown as RunEvent;
const play = (events: RunEvent[], from: LiveState = initialLive()) => events.reduce(reduce, from);

describe("live reducer", () => {
  it("builds cycles, items, verdicts and per-agent totals", () => {
    seq = 0;
    const events = [
      ev("run_started", { task: "demo", model: "scripted:x" }),
      ev("prepared", { facts: 3, reprepared: true }),
      ev("cycle_started", { index: 1, kind: "initial" }, 1),
      ev("message", { source: "planner", content: "plan", usage: { prompt_tokens: 10, completion_tokens: 2, cost: 0.5 } }, 1),
      ev("tool_call", { source: "specialist", calls: [{ id: "c1", name: "write_file", arguments: "{}" }], usage: { prompt_tokens: 5, completion_tokens: 1, cost: null } }, 1),
      ev("tool_result", { source: "specialist", results: [{ call_id: "c1", name: "write_file", content: "ok", is_error: false }] }, 1),
      ev("check", { name: "tests", ok: false, severity: "error", detail: "1 failed", phase: "cycle" }, 1),
      ev("verdict", { outcome: "PARTIAL", reason: "TEST_FAILURE", issues: ["fix it"], summary: "s", origin: "checks" }, 1),
      ev("cycle_finished", { index: 1, verdict: { outcome: "PARTIAL" } }, 1),
      ev("check", { name: "tests", ok: true, severity: "error", detail: "", phase: "final" }),
      ev("artifact", { verified: false, issues: ["x"], grounding: { score: 0.5 } }),
      ev("run_finished", { status: "finished", verdict: "PARTIAL", reason: "TEST_FAILURE", limit: "max_cycles" }),
    ];
    const s = play(events);
    expect(s.status).toBe("finished");
    expect(s.task).toBe("demo");
    expect(s.prepared).toEqual({ facts: 3, reprepared: true });
    expect(s.cycles).toHaveLength(1);
    const c = s.cycles[0]!;
    expect(c.items.map((i) => i.type)).toEqual(["message", "tool_call", "tool_result"]);
    expect(c.verdict?.outcome).toBe("PARTIAL");
    expect(c.verdict?.origin).toBe("checks");
    expect(c.checks).toHaveLength(1);
    expect(c.finished).toBe(true);
    expect(s.finalChecks).toHaveLength(1);
    expect(s.agents.planner).toEqual({ calls: 1, prompt: 10, completion: 2, cost: 0.5 });
    expect(s.agents.specialist?.cost).toBeNull();
    expect(totals(s.agents)).toEqual({ calls: 2, prompt: 15, completion: 3, cost: null });
    expect(s.final?.limit).toBe("max_cycles");
    expect(s.artifact?.grounding?.score).toBe(0.5);
  });

  it("shows a progress line per model call and listens for every progress kind", () => {
    seq = 0;
    const s = play([
      ev("cycle_started", { index: 1, kind: "initial" }, 1),
      ev("model_call", { role: "specialist", prompt_tokens: 600, completion_tokens: 120, seconds: 15.2, tokens_per_s: 7.9 }, 1),
    ]);
    expect(s.cycles[0]?.items).toEqual([
      expect.objectContaining({ type: "model_call", role: "specialist", tokens: 120, seconds: 15.2, rate: 7.9 }),
    ]);
    expect(EVENT_KINDS).toEqual(expect.arrayContaining(["model_call", "model_wait", "ledger"]));
  });

  it("shows every retry of a model call inline (attempt, error kind, wait)", () => {
    seq = 0;
    const s = play([
      ev("cycle_started", { index: 1, kind: "initial" }, 1),
      ev("retry", { role: "planner", attempt: 1, error_kind: "rate limit (HTTP 429)", wait: 2.5 }, 1),
    ]);
    expect(s.cycles[0]?.items).toEqual([
      expect.objectContaining({ type: "retry", role: "planner", attempt: 1, errorKind: "rate limit (HTTP 429)", wait: 2.5 }),
    ]);
    expect(EVENT_KINDS).toEqual(expect.arrayContaining(["retry", "prompt", "ingested", "resumed"]));
  });

  it("ignores replayed and duplicate events", () => {
    seq = 0;
    const events = [ev("run_started", { task: "demo" }), ev("cycle_started", { index: 1 }, 1), ev("message", { source: "planner", content: "a" }, 1)];
    const once = play(events);
    const twice = play(events, once);
    expect(twice).toBe(once);
    expect(once.cycles[0]!.items).toHaveLength(1);
  });

  it("marks a cancelled run", () => {
    seq = 0;
    const s = play([ev("run_started", {}), ev("run_finished", { status: "cancelled", error: "cancelled by request" })]);
    expect(s.status).toBe("cancelled");
    expect(s.final?.error).toBe("cancelled by request");
  });
});

describe("prompts", () => {
  it("keeps the system prompt each role received per cycle", () => {
    const ev = (seq: number, kind: string, payload: Record<string, unknown>, cycle = 1) =>
      ({ run_id: "r", seq, cycle, ts: "2026-01-01T00:00:00Z", kind, payload }) as unknown as RunEvent;
    let s = initialLive();
    s = reduce(s, ev(1, "run_started", { task: "demo", model: "m" }, 0));
    s = reduce(s, ev(2, "cycle_started", { index: 1, kind: "initial" }));
    s = reduce(s, ev(3, "prompt", { role: "planner", sha256: "abc", chars: 5, text: "Plan!" }));
    s = reduce(s, ev(4, "prompt", { role: "evaluator", sha256: "def", chars: 6, text: "Judge!" }));
    expect(Object.keys(s.cycles[0]!.prompts)).toEqual(["planner", "evaluator"]);
    expect(s.cycles[0]!.prompts.planner).toEqual({ text: "Plan!", chars: 5, sha256: "abc" });
    expect(s.cycles[0]!.items).toEqual([]);
  });
});
