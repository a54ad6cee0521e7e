// One turn of a conversation: a message (labelled and coloured by agent), a tool call or a tool
// result (collapsible). Used by the Live run and Run detail pages.
import { stripVerdict } from "../conversation";
import { fmtTime, fmtTokens } from "../format";
import type { CallUsage, ToolCallItem, ToolResultItem } from "../live/reducer";
import { AgentLabel, agentClass } from "./ui";

export type TurnData =
  | { type: "message"; seq: number; ts?: string | null; source: string; content: string; usage?: CallUsage | null }
  | { type: "tool_call"; seq: number; ts?: string | null; source: string; calls: ToolCallItem[]; usage?: CallUsage | null }
  | { type: "tool_result"; seq: number; ts?: string | null; source: string; results: ToolResultItem[] };

function pretty(value: unknown): string {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}

function parseArgs(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function argSummary(args: unknown): string {
  const obj = parseArgs(args);
  if (!obj || typeof obj !== "object") return "";
  const parts = Object.entries(obj as Record<string, unknown>)
    .filter(([, v]) => typeof v !== "object" || v === null)
    .map(([k, v]) => `${k}=${String(v).split("\n")[0]?.slice(0, 40) ?? ""}`);
  return parts.slice(0, 2).join(", ");
}

/** Arguments as name → value; long or multi-line strings (file contents) as blocks. */
function ArgsView({ args }: { args: unknown }) {
  const obj = parseArgs(args);
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return <pre>{pretty(args)}</pre>;
  const entries = Object.entries(obj as Record<string, unknown>);
  if (!entries.length) return <p className="muted small">no arguments</p>;
  return (
    <dl className="args">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{typeof v === "string" && (v.includes("\n") || v.length > 80) ? <pre>{v}</pre> : <code>{typeof v === "string" ? v : JSON.stringify(v)}</code>}</dd>
        </div>
      ))}
    </dl>
  );
}

function UsageNote({ usage }: { usage?: CallUsage | null }) {
  if (!usage) return null;
  const total = (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
  return (
    <span className="muted small" title={`${usage.prompt_tokens ?? 0} prompt + ${usage.completion_tokens ?? 0} completion tokens`}>
      {fmtTokens(total)} tok
    </span>
  );
}

/** ``hideVerdict``: the cycle shows its verdict in a verdict box, so the raw verdict JSON of the
 * evaluator's message is left out here (a note says so). */
export function Turn({ turn, hideVerdict = false }: { turn: TurnData; hideVerdict?: boolean }) {
  const cls = `turn turn-${turn.type} ${agentClass(turn.source)}`;
  const head = (
    <div className="turn-head">
      <AgentLabel source={turn.source} />
      <span className="muted small">
        #{turn.seq} · {fmtTime(turn.ts)}
      </span>
      {"usage" in turn && <UsageNote usage={turn.usage} />}
    </div>
  );
  if (turn.type === "message") {
    const { text, stripped } = hideVerdict ? stripVerdict(turn.content) : { text: turn.content, stripped: false };
    return (
      <article className={cls} data-seq={turn.seq} data-agent={turn.source} aria-label={`${turn.source} message`}>
        {head}
        {text && <div className="turn-body">{text}</div>}
        {stripped && <p className="muted small verdict-moved">Verdict: see the verdict box of this cycle.</p>}
      </article>
    );
  }
  if (turn.type === "tool_call") {
    return (
      <article className={cls} data-seq={turn.seq} data-agent={turn.source} aria-label={`${turn.source} tool call`}>
        {head}
        {turn.calls.map((call, i) => (
          <details key={call.id ?? i} className="tool">
            <summary>
              <span className="tool-tag">tool call</span> <code>{call.name}</code>
              <span className="muted small"> {argSummary(call.arguments)}</span>
            </summary>
            <ArgsView args={call.arguments} />
          </details>
        ))}
      </article>
    );
  }
  return (
    <article className={cls} data-seq={turn.seq} data-agent={turn.source} aria-label={`${turn.source} tool result`}>
      {head}
      {turn.results.map((r, i) => (
        <details key={r.call_id ?? i} className={`tool ${r.is_error ? "tool-error" : ""}`}>
          <summary>
            <span className={`tool-tag ${r.is_error ? "tool-tag-error" : ""}`}>{r.is_error ? "tool error" : "tool result"}</span>{" "}
            <code>{r.name}</code>
            {r.is_error && <span className="badge badge-fail">error</span>}
          </summary>
          <pre>{typeof r.content === "string" ? r.content : pretty(r.content)}</pre>
        </details>
      ))}
    </article>
  );
}
