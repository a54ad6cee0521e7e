// Small shared UI pieces: states (loading / empty / error), verdict badge, agent label, checks.
import type { ReactNode } from "react";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

export function ErrorBox({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="state state-error" role="alert">
      <strong>Something went wrong:</strong> {message}
      {retry && (
        <button type="button" className="btn btn-small" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}

const VERDICT_CLASS: Record<string, string> = { PASS: "pass", PARTIAL: "partial", FAIL: "fail", BLOCKED: "blocked" };

export function VerdictBadge({ outcome, title }: { outcome: string | null | undefined; title?: string }) {
  if (!outcome) return <span className="badge badge-none">no verdict</span>;
  return (
    <span className={`badge badge-${VERDICT_CLASS[outcome] ?? "none"}`} title={title} data-verdict={outcome}>
      {outcome}
    </span>
  );
}

const STATUS_CLASS: Record<string, string> = {
  queued: "blocked", running: "running", finished: "pass", error: "fail", cancelled: "blocked", interrupted: "partial",
  connecting: "blocked",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${STATUS_CLASS[status] ?? "none"}`} data-status={status}>
      {status}
    </span>
  );
}

export const AGENTS = ["planner", "specialist", "evaluator"] as const;

export function agentClass(source: string | null | undefined): string {
  return AGENTS.includes((source ?? "") as (typeof AGENTS)[number]) ? `agent-${source}` : "agent-other";
}

export function AgentLabel({ source }: { source: string | null | undefined }) {
  return <span className={`agent-label ${agentClass(source)}`}>{source || "system"}</span>;
}

export interface CheckLike {
  name?: string | null;
  ok?: boolean | null;
  severity?: string | null;
  detail?: string | null;
}

export function CheckList({ checks, title = "Checks" }: { checks: CheckLike[]; title?: string }) {
  if (!checks.length) return null;
  return (
    <div className="checks">
      <h4>{title}</h4>
      <ul>
        {checks.map((c, i) => (
          <li key={`${c.name}-${i}`} className={c.ok ? "check-ok" : c.severity === "warning" ? "check-warn" : "check-fail"}>
            <span aria-hidden="true">{c.ok ? "✔" : c.severity === "warning" ? "!" : "✘"}</span>{" "}
            <span className="visually-hidden">{c.ok ? "passed" : "failed"}:</span>
            <code>{c.name}</code> {c.detail && <span className="muted">— {c.detail}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
