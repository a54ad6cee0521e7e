// Pure reducer: RunEvents (in seq order; replays are ignored) → what the Live run page shows.
// Payload shapes follow docs/CONTRACTS.md.
import type { RunEvent } from "../api/client";

export type Role = "planner" | "specialist" | "evaluator" | string;

export interface ToolCallItem {
  id?: string | null;
  name?: string | null;
  arguments?: unknown;
}
export interface ToolResultItem {
  call_id?: string | null;
  name?: string | null;
  content?: unknown;
  is_error?: boolean | null;
}
export interface CallUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cost?: number | null;
}

export type LiveItem =
  | { type: "message"; seq: number; ts: string; source: Role; content: string; usage: CallUsage | null }
  | { type: "tool_call"; seq: number; ts: string; source: Role; calls: ToolCallItem[] }
  | { type: "tool_result"; seq: number; ts: string; source: Role; results: ToolResultItem[] }
  | { type: "retrieval"; seq: number; ts: string; role: Role; query: string; sources: string[] }
  | { type: "warning"; seq: number; ts: string; message: string }
  | { type: "model_call"; seq: number; ts: string; role: Role; tokens: number; seconds: number; rate: number | null }
  | { type: "retry"; seq: number; ts: string; role: Role; attempt: number; errorKind: string; wait: number };

export interface LiveCheck {
  name: string;
  ok: boolean;
  severity: string;
  detail: string;
  phase: string;
}

export interface LiveVerdict {
  outcome: string;
  reason?: string | null;
  issues: string[];
  summary?: string | null;
  origin?: string | null;
}

export interface LivePrompt {
  text: string;
  chars: number;
  sha256: string;
}

export interface LiveCycle {
  index: number;
  kind: string | null;
  prompts: Record<string, LivePrompt>; // role → the system prompt it received this cycle
  items: LiveItem[];
  checks: LiveCheck[];
  verdict: LiveVerdict | null;
  finished: boolean;
}

export interface AgentTotals {
  calls: number;
  prompt: number;
  completion: number;
  cost: number | null; // null: some priced part is unknown
}

export type LiveStatus = "connecting" | "queued" | "running" | "finished" | "error" | "cancelled" | "interrupted";

export interface LiveState {
  lastSeq: number;
  status: LiveStatus;
  task: string | null;
  model: string | null;
  startedAt: string | null;
  endedAt: string | null;
  prepared: { facts: number; reprepared: boolean } | null;
  preamble: LiveItem[]; // run-level items before the first cycle (retrievals, warnings)
  cycles: LiveCycle[];
  agents: Record<string, AgentTotals>;
  finalChecks: LiveCheck[];
  artifact: { verified: boolean; issues: string[]; grounding: { score?: number | null } | null } | null;
  final: { verdict: string | null; reason: string | null; limit: string | null; error: string | null } | null;
}

export const initialLive = (status: LiveStatus = "connecting"): LiveState => ({
  lastSeq: 0,
  status,
  task: null,
  model: null,
  startedAt: null,
  endedAt: null,
  prepared: null,
  preamble: [],
  cycles: [],
  agents: {},
  finalChecks: [],
  artifact: null,
  final: null,
});

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : JSON.stringify(v, null, 2));
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function addUsage(agents: Record<string, AgentTotals>, source: string, usage: unknown): Record<string, AgentTotals> {
  if (!usage || typeof usage !== "object") return agents;
  const u = usage as CallUsage;
  const prev = agents[source] ?? { calls: 0, prompt: 0, completion: 0, cost: 0 };
  const cost = prev.cost === null || typeof u.cost !== "number" ? null : prev.cost + u.cost;
  return {
    ...agents,
    [source]: { calls: prev.calls + 1, prompt: prev.prompt + num(u.prompt_tokens), completion: prev.completion + num(u.completion_tokens), cost },
  };
}

function toCheck(p: P): LiveCheck {
  return { name: str(p.name), ok: p.ok === true, severity: str(p.severity) || "error", detail: str(p.detail), phase: str(p.phase) };
}

function toVerdict(p: unknown, origin?: unknown): LiveVerdict | null {
  if (!p || typeof p !== "object") return null;
  const v = p as P;
  return {
    outcome: str(v.outcome),
    reason: typeof v.reason === "string" ? v.reason : null,
    issues: arr<unknown>(v.issues).map(str),
    summary: typeof v.summary === "string" ? v.summary : null,
    origin: typeof origin === "string" ? origin : null,
  };
}

/** The state after `event`; events with seq ≤ lastSeq (replays, duplicates) change nothing. */
export function reduce(state: LiveState, event: RunEvent): LiveState {
  if (event.seq <= state.lastSeq) return state;
  const p = (event.payload ?? {}) as P;
  let s: LiveState = { ...state, lastSeq: event.seq };
  if (s.status === "connecting" || s.status === "queued") s.status = "running";
  const cycleIndex = event.cycle;

  const withCycle = (index: number, fn: (c: LiveCycle) => LiveCycle): LiveState => {
    const cycles = [...s.cycles];
    let pos = cycles.findIndex((c) => c.index === index);
    if (pos < 0) {
      cycles.push({ index, kind: null, prompts: {}, items: [], checks: [], verdict: null, finished: false });
      cycles.sort((a, b) => a.index - b.index);
      pos = cycles.findIndex((c) => c.index === index);
    }
    cycles[pos] = fn(cycles[pos] as LiveCycle);
    return { ...s, cycles };
  };
  const addItem = (item: LiveItem): LiveState =>
    cycleIndex > 0 ? withCycle(cycleIndex, (c) => ({ ...c, items: [...c.items, item] })) : { ...s, preamble: [...s.preamble, item] };

  const base = { seq: event.seq, ts: event.ts };
  switch (event.kind) {
    case "run_started":
      return { ...s, task: str(p.task) || null, model: str(p.model) || null, startedAt: event.ts };
    case "prepared":
      return { ...s, prepared: { facts: num(p.facts), reprepared: p.reprepared === true } };
    case "retrieval":
      return addItem({
        type: "retrieval", ...base, role: str(p.role), query: str(p.query),
        sources: arr<P>(p.chunks).map((c) => [str(c.source), str(c.heading)].filter(Boolean).join(" › ")),
      });
    case "cycle_started":
      return withCycle(num(p.index) || cycleIndex, (c) => ({ ...c, kind: str(p.kind) || null }));
    case "message":
      s = addItem({ type: "message", ...base, source: str(p.source), content: str(p.content), usage: (p.usage as CallUsage) ?? null });
      return { ...s, agents: addUsage(s.agents, str(p.source), p.usage) };
    case "tool_call":
      s = addItem({ type: "tool_call", ...base, source: str(p.source), calls: arr<ToolCallItem>(p.calls) });
      return { ...s, agents: addUsage(s.agents, str(p.source), p.usage) };
    case "tool_result":
      return addItem({ type: "tool_result", ...base, source: str(p.source), results: arr<ToolResultItem>(p.results) });
    case "warning":
      return addItem({ type: "warning", ...base, message: str(p.message) });
    case "model_call":  // a progress line per finished model call (tokens, seconds, tokens/s)
      return addItem({
        type: "model_call", ...base, role: str(p.role) as Role, tokens: num(p.completion_tokens),
        seconds: num(p.seconds), rate: typeof p.tokens_per_s === "number" ? p.tokens_per_s : null,
      });
    case "retry":  // a failed model call about to be retried: attempt, error kind, wait
      return addItem({
        type: "retry", ...base, role: str(p.role) as Role, attempt: num(p.attempt),
        errorKind: str(p.error_kind), wait: num(p.wait),
      });
    case "check": {
      const check = toCheck(p);
      if (check.phase === "final" || cycleIndex < 1) return { ...s, finalChecks: [...s.finalChecks, check] };
      return withCycle(cycleIndex, (c) => ({ ...c, checks: [...c.checks, check] }));
    }
    case "verdict":
      return withCycle(cycleIndex, (c) => ({ ...c, verdict: toVerdict(p, p.origin) }));
    case "cycle_finished":
      return withCycle(num(p.index) || cycleIndex, (c) => ({
        ...c, finished: true, verdict: c.verdict ?? toVerdict(p.verdict),
      }));
    case "artifact":
      return {
        ...s,
        artifact: {
          verified: p.verified === true,
          issues: arr<unknown>(p.issues).map(str),
          grounding: (p.grounding as { score?: number | null } | null) ?? null,
        },
      };
    case "run_finished": {
      const status = str(p.status);
      const verdict = p.verdict && typeof p.verdict === "object" ? str((p.verdict as P).outcome) : str(p.verdict);
      return {
        ...s,
        status: (["finished", "error", "cancelled"].includes(status) ? status : "error") as LiveStatus,
        endedAt: event.ts,
        final: { verdict: verdict || null, reason: str(p.reason) || null, limit: str(p.limit) || null, error: str(p.error) || null },
      };
    }
    case "prompt":  // the system prompt a role received this cycle (rules, retrieved passages included)
      if (cycleIndex < 1) return s;
      return withCycle(cycleIndex, (c) => ({
        ...c, prompts: { ...c.prompts, [str(p.role)]: { text: str(p.text), chars: num(p.chars), sha256: str(p.sha256) } },
      }));
    case "resumed":  // `pse run --resume`: the ended run goes on in the same trace (fresh agents, next cycle)
      return {
        ...s, status: "running", endedAt: null, final: null, artifact: null, finalChecks: [],
        task: str(p.task) || s.task, model: str(p.model) || s.model,
      };
    // Shown elsewhere (usage: the agents panel; sanitized/ledger: the run page after the run;
    // model_wait: a heartbeat the console shows; ingested: knowledge-base ingestion, in the trace): nothing changes on the live page.
    case "usage":
    case "sanitized":
    case "ledger":
    case "model_wait":
    case "ingested":
      return s;
    default:
      // Every kind of the generated RunEvent union must have a case above: a kind added to
      // autogen_pse.events (and so to schema.d.ts) without one fails `tsc`, hence the build.
      return unhandled(event, s);
  }
}

function unhandled(event: never, s: LiveState): LiveState {
  void event;
  return s;
}

export const totalTokens = (a: AgentTotals): number => a.prompt + a.completion;

/** Sum of all agents (cost null when any agent's cost is unknown). */
export function totals(agents: Record<string, AgentTotals>): AgentTotals {
  return Object.values(agents).reduce<AgentTotals>(
    (t, a) => ({
      calls: t.calls + a.calls,
      prompt: t.prompt + a.prompt,
      completion: t.completion + a.completion,
      cost: t.cost === null || a.cost === null ? null : t.cost + a.cost,
    }),
    { calls: 0, prompt: 0, completion: 0, cost: 0 },
  );
}

/** Every named SSE event the run stream sends (EventSource needs one listener per name). */
export const EVENT_KINDS = [
  "run_started", "prepared", "retrieval", "cycle_started", "message", "tool_call", "tool_result",
  "verdict", "check", "usage", "cycle_finished", "sanitized", "artifact", "warning", "run_finished",
  "ledger", "model_call", "model_wait", "retry", "prompt", "ingested", "resumed",
] as const satisfies readonly RunEvent["kind"][];

// A kind of the generated union missing from EVENT_KINDS would never be listened to: a type error.
type UnlistenedKind = Exclude<RunEvent["kind"], (typeof EVENT_KINDS)[number]>;
export const EVERY_KIND_LISTENED: [UnlistenedKind] extends [never] ? true : UnlistenedKind = true;
