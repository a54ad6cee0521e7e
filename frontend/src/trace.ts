// Helpers over the trace document (GET /api/runs/{id}).
import type { Message, Trace } from "./api/client";
import type { AgentRow } from "./components/UsageChart";
import type { TurnData } from "./components/Turn";

export function toTurn(m: Message, i: number): TurnData {
  const seq = m.seq ?? i;
  const source = m.source ?? "system";
  if (m.type === "tool_call") return { type: "tool_call", seq, ts: m.ts, source, calls: m.tool_calls ?? [], usage: m.usage };
  if (m.type === "tool_result") return { type: "tool_result", seq, ts: m.ts, source, results: m.tool_results ?? [] };
  const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content, null, 2);
  return { type: "message", seq, ts: m.ts, source, content, usage: m.usage };
}

const ORDER = ["planner", "specialist", "evaluator"];

export function agentRows(trace: Trace): AgentRow[] {
  const per = trace.usage?.per_agent ?? {};
  return Object.entries(per)
    .map(([agent, u]) => ({ agent, prompt: u.prompt_tokens ?? 0, completion: u.completion_tokens ?? 0, cost: u.cost ?? null, calls: u.model_calls ?? 0 }))
    .sort((a, b) => (ORDER.indexOf(a.agent) + 99) % 99 - (ORDER.indexOf(b.agent) + 99) % 99);
}

export function totalTokens(trace: Trace): number {
  return (trace.usage?.prompt_tokens ?? 0) + (trace.usage?.completion_tokens ?? 0);
}

/** Distinct retrieved sources (file › heading) of the whole run. */
export function citedSources(trace: Trace): string[] {
  const chunks = [...(trace.retrievals ?? []), ...trace.cycles.flatMap((c) => c.retrievals ?? [])].flatMap((r) => r.chunks ?? []);
  const seen = new Set<string>();
  for (const c of chunks) {
    const label = [c.source, c.heading].filter(Boolean).join(" › ");
    if (label) seen.add(label);
  }
  return [...seen];
}

export function durationMs(trace: Trace): number | null {
  if (!trace.started_at || !trace.ended_at) return null;
  return new Date(trace.ended_at).getTime() - new Date(trace.started_at).getTime();
}
