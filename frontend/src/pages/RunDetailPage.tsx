// Run detail: cycles with messages, verdicts, issues and checks; per-agent usage chart; the
// artifact rendered as sanitized Markdown, as source, or with its claims highlighted (the claim
// ledger), with a download button; grounding and cited sources.
import { useState } from "react";
import { artifactUrl, getArtifact, getRun, getTimeline, traceUrl, type Cycle, type Ledger, type Trace } from "../api/client";
import { runLedger } from "../claims";
import { groupRetrievals } from "../conversation";
import { ClaimsView } from "../components/ClaimsView";
import { Markdown } from "../components/Markdown";
import { PromptPanels, RetrievalGroups, type RetrievalView } from "../components/RolePanels";
import { RerunButton, RunActions } from "../components/RunActions";
import { Timeline } from "../components/Timeline";
import { Turn } from "../components/Turn";
import { AgentLabel, CheckList, Empty, ErrorBox, Loading, StatusBadge, VerdictBadge } from "../components/ui";
import { UsageChart } from "../components/UsageChart";
import { fmtCost, fmtDuration, fmtTime, fmtTokens } from "../format";
import { Link } from "../router";
import { agentRows, citedSources, durationMs, toTurn, totalTokens } from "../trace";
import { useAsync } from "../useAsync";

function retrievalViews(cycle: Pick<Cycle, "retrievals">): { role: string; items: RetrievalView[] }[] {
  const items = (cycle.retrievals ?? []).map((r, i) => ({
    type: "retrieval", seq: r.seq ?? i, role: r.role ?? "system", query: r.query ?? "",
    sources: (r.chunks ?? []).map((c) => [c.source, c.heading].filter(Boolean).join(" › ") + (c.score != null ? ` (score ${c.score.toFixed(2)})` : "")),
  }));
  return groupRetrievals(items).groups;
}

interface WarningEntry {
  seq?: number;
  cycle?: number;
  message?: unknown;
}

function CycleSection({ cycle, warnings }: { cycle: Cycle; warnings: WarningEntry[] }) {
  const v = cycle.verdict;
  // messages, retries and warnings in event order: a retry shows where the run waited
  const entries = [
    ...cycle.messages.map((m, i) => ({ seq: m.seq ?? i, message: m, index: i })),
    ...cycle.retries.map((r, i) => ({ seq: r.seq ?? i, retry: r })),
    ...warnings.map((w, i) => ({ seq: w.seq ?? i, warning: String(w.message ?? "") })),
  ].sort((a, b) => a.seq - b.seq);
  return (
    <section className="cycle" aria-labelledby={`dcycle-${cycle.index}`} data-cycle={cycle.index}>
      <h3 className="cycle-sep" id={`dcycle-${cycle.index}`}>
        <span>
          Cycle {cycle.index}
          {cycle.kind && <span className="muted"> · {cycle.kind}</span>}
        </span>
        <VerdictBadge outcome={v?.outcome} />
      </h3>
      {v && (
        <div className="verdict-box">
          <p>
            <strong>{v.reason}</strong>
            {cycle.verdict_origin && <span className="muted small"> (from {cycle.verdict_origin})</span>}
            {v.summary && <span> — {v.summary}</span>}
          </p>
          {v.issues.length > 0 && (
            <ul className="issues" aria-label={`Issues of cycle ${cycle.index}`}>
              {v.issues.map((issue, i) => (
                <li key={i}>{issue}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <CheckList checks={cycle.checks} title={`Checks of cycle ${cycle.index}`} />
      <PromptPanels prompts={cycle.prompts} cycle={cycle.index} />
      <RetrievalGroups groups={retrievalViews(cycle)} where={`in cycle ${cycle.index}`} />
      <details className="messages">
        <summary>
          {cycle.messages.length} message(s) · {fmtTokens((cycle.usage?.prompt_tokens ?? 0) + (cycle.usage?.completion_tokens ?? 0))} tokens
          {cycle.retries.length > 0 && ` · ${cycle.retries.length} retried model call(s)`}
        </summary>
        <div className="turns">
          {entries.map((e) =>
            "message" in e && e.message ? (
              <Turn key={`m${e.seq}`} turn={toTurn(e.message, e.index ?? 0)} hideVerdict={v != null && e.message.source === "evaluator"} />
            ) : "retry" in e && e.retry ? (
              <p key={`r${e.seq}`} className="note note-warn small" role="note" data-testid="retry">
                <AgentLabel source={e.retry.role} /> model call attempt {e.retry.attempt} failed ({e.retry.error_kind}); retried after{" "}
                {(e.retry.wait ?? 0).toFixed(1)} s
              </p>
            ) : "warning" in e ? (
              <p key={`w${e.seq}`} className="note note-warn" role="note">
                <strong>Warning:</strong> {e.warning}
              </p>
            ) : null,
          )}
        </div>
      </details>
    </section>
  );
}

type ArtifactMode = "rendered" | "source" | "claims";
const MODES: { mode: ArtifactMode; label: string }[] = [
  { mode: "rendered", label: "Rendered" },
  { mode: "source", label: "Markdown source" },
  { mode: "claims", label: "Claims" },
];

function Artifact({ runId, ledger }: { runId: string; ledger: Ledger | null }) {
  const { data, error, loading, reload } = useAsync(() => getArtifact(runId), [runId]);
  const [mode, setMode] = useState<ArtifactMode>("rendered");
  if (loading) return <Loading label="Loading artifact…" />;
  if (error != null) return <ErrorBox error={error} retry={reload} />;
  if (data == null) return <Empty>This run has no artifact.</Empty>;
  return (
    <div className="artifact">
      <div className="artifact-actions">
        <a className="btn" href={artifactUrl(runId, true)} download={`${runId}.md`}>
          Download artifact (.md)
        </a>
        <div className="segmented" role="group" aria-label="Artifact view">
          {MODES.map((m) => (
            <button key={m.mode} type="button" className="btn" aria-pressed={mode === m.mode} onClick={() => setMode(m.mode)}>
              {m.label}
            </button>
          ))}
        </div>
      </div>
      {mode === "source" && <pre className="artifact-source">{data}</pre>}
      {mode === "rendered" && <Markdown text={data} className="artifact-body" />}
      {mode === "claims" &&
        (ledger ? (
          <ClaimsView text={data} ledger={ledger} label="Artifact claims" />
        ) : (
          <Empty>No claim ledger: this run's task has no evidence to check claims against (or the run wrote none).</Empty>
        ))}
    </div>
  );
}

function Summary({ trace }: { trace: Trace }) {
  const ms = durationMs(trace);
  return (
    <dl className="summary">
      <div>
        <dt>Verdict</dt>
        <dd>
          <VerdictBadge outcome={trace.verdict} /> {trace.reason}
        </dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={trace.status} /> {trace.limit && <span className="muted">limit {trace.limit}</span>}
        </dd>
      </div>
      <div>
        <dt>Cycles</dt>
        <dd>{trace.cycles.length}</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd>{fmtTokens(totalTokens(trace))}</dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>{fmtCost(trace.usage?.cost, trace.usage?.currency)}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>{ms == null ? "—" : fmtDuration(ms)}</dd>
      </div>
      <div>
        <dt>Artifact</dt>
        <dd>{trace.artifact ? (trace.artifact.verified ? "verified ✔" : "unverified") : "none"}</dd>
      </div>
      {(trace.grounding || trace.artifact) && (
        <div>
          <dt>Grounding</dt>
          <dd data-testid="grounding">
            {trace.grounding?.score != null ? (
              <>
                {(trace.grounding.score * 100).toFixed(0)}%{" "}
                <span className="muted small">
                  ({trace.grounding.supported}/{trace.grounding.checked} claims supported)
                </span>
              </>
            ) : (
              <span title="the artifact states no checkable factual claim">no claims</span>
            )}
          </dd>
        </div>
      )}
    </dl>
  );
}

export function RunDetailPage({ runId }: { runId: string }) {
  const { data: trace, error, loading, reload } = useAsync(() => getRun(runId), [runId]);
  const timeline = useAsync(() => getTimeline(runId), [runId, trace?.last_seq]);
  if (loading && !trace) return <Loading label="Loading run…" />;
  if (error != null) return <ErrorBox error={error} retry={reload} />;
  if (!trace) return null;
  const sources = citedSources(trace);
  const cycleIndexes = new Set(trace.cycles.map((c) => c.index));
  const runWarnings = (trace.warnings as WarningEntry[]).filter((w) => !cycleIndexes.has(w.cycle ?? 0)); // the rest are inline
  const unsupported = trace.grounding?.unsupported ?? [];
  return (
    <div className="detail">
      <header className="page-head">
        <div>
          <h1>
            Run <code>{runId}</code>
          </h1>
          <p className="muted">
            {trace.task} · {trace.model} · started {fmtTime(trace.started_at)}
          </p>
        </div>
        <div className="head-actions">
          {trace.active && (
            <Link className="btn btn-primary" to={`/runs/${runId}/live`}>
              Follow live
            </Link>
          )}
          <Link className="btn" to={`/compare?a=${runId}`}>
            Compare…
          </Link>
          <a className="btn" href={traceUrl(runId)} download={`${runId}.trace.json`}>
            Download trace (.json)
          </a>
          {!trace.active && trace.status !== "queued" && <RerunButton runId={runId} model={trace.model} />}
          <RunActions runId={runId} status={trace.status} active={trace.active} />
          <button type="button" className="btn" onClick={reload}>
            Refresh
          </button>
        </div>
      </header>
      {trace.status === "queued" && <Loading label="Queued: waiting for a free run slot…" />}
      {trace.error && <p className="state state-error" role="alert">{trace.error}</p>}
      <Summary trace={trace} />

      <section aria-labelledby="usage-h">
        <h2 id="usage-h">Usage per agent</h2>
        <UsageChart rows={agentRows(trace)} currency={trace.usage?.currency} />
      </section>

      <section aria-labelledby="timeline-h">
        <h2 id="timeline-h">Timeline</h2>
        {timeline.error != null ? <ErrorBox error={timeline.error} retry={timeline.reload} /> : timeline.data ? <Timeline data={timeline.data} /> : <Loading label="Loading timeline…" />}
      </section>

      <section aria-labelledby="cycles-h">
        <h2 id="cycles-h">Cycles</h2>
        <RetrievalGroups groups={retrievalViews(trace)} where="before the first turn" />
        {trace.cycles.length === 0 ? <Empty>No cycle recorded.</Empty> : trace.cycles.map((c) => (
          <CycleSection key={c.index} cycle={c} warnings={(trace.warnings as WarningEntry[]).filter((w) => w.cycle === c.index)} />
        ))}
        <CheckList checks={trace.final_checks} title="Final checks (after sanitizing)" />
        {trace.sanitize_changes.length > 0 && (
          <details>
            <summary>{trace.sanitize_changes.length} sanitize change(s)</summary>
            <ul>
              {trace.sanitize_changes.map((c, i) => (
                <li key={i}>
                  <code>{String(c.rule)}</code>: “{String(c.before)}” → “{String(c.after)}”
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>

      {(trace.grounding || sources.length > 0) && (
        <section aria-labelledby="sources-h">
          <h2 id="sources-h">Grounding and sources</h2>
          {unsupported.length > 0 && (
            <>
              <h3>Unsupported claims</h3>
              <ul className="issues">
                {unsupported.map((u, i) => (
                  <li key={i}>{typeof u === "string" ? u : JSON.stringify(u)}</li>
                ))}
              </ul>
            </>
          )}
          {sources.length > 0 && (
            <>
              <h3>Cited sources</h3>
              <ul data-testid="sources">
                {sources.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}

      <section aria-labelledby="artifact-h">
        <h2 id="artifact-h">Artifact</h2>
        {trace.artifact?.issues && trace.artifact.issues.length > 0 && (
          <ul className="issues" aria-label="Open issues of the artifact">
            {trace.artifact.issues.map((i, n) => (
              <li key={n}>{i}</li>
            ))}
          </ul>
        )}
        <Artifact runId={runId} ledger={runLedger(trace)} />
      </section>
      {runWarnings.length > 0 && (
        <section aria-labelledby="warn-h">
          <h2 id="warn-h">Warnings</h2>
          <ul>
            {runWarnings.map((w, i) => (
              <li key={i}>{String(w.message)}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
