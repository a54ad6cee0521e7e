// Live run: turns stream in by agent, cycle separators with verdicts and checks, running
// token/cost counters per agent, elapsed time, Cancel.
import { useState } from "react";
import { cancelRun, getTimeline } from "../api/client";
import { groupRetrievals } from "../conversation";
import { Elapsed } from "../components/Elapsed";
import { PromptPanels, RetrievalGroups, type RetrievalView } from "../components/RolePanels";
import { Timeline } from "../components/Timeline";
import { Turn, type TurnData } from "../components/Turn";
import { AgentLabel, CheckList, ErrorBox, Loading, StatusBadge, VerdictBadge } from "../components/ui";
import { fmtCost, fmtTokens, shortId } from "../format";
import { totalTokens, totals, type LiveCycle, type LiveItem } from "../live/reducer";
import { useRunStream } from "../live/useRunStream";
import { Link } from "../router";
import { useAsync } from "../useAsync";

/** Retrieval notes as one collapsible line per role; the other items in order. */
function split(items: LiveItem[]): { groups: { role: string; items: RetrievalView[] }[]; rest: LiveItem[] } {
  const { groups, rest } = groupRetrievals(items);
  return {
    groups: groups.map((g) => ({ role: g.role, items: g.items.flatMap((i) => (i.type === "retrieval" ? [i] : [])) })),
    rest,
  };
}

function ItemView({ item, hideVerdict = false }: { item: LiveItem; hideVerdict?: boolean }) {
  if (item.type === "retrieval")
    return (
      <p className="note">
        <AgentLabel source={item.role} /> retrieved {item.sources.length} passage(s) for “{item.query}”
        {item.sources.length > 0 && <span className="muted small"> — {item.sources.join("; ")}</span>}
      </p>
    );
  if (item.type === "warning") return <p className="note note-warn" role="note"><strong>Warning:</strong> {item.message}</p>;
  if (item.type === "model_call")
    return (
      <p className="note muted small">
        <AgentLabel source={item.role} /> model call: {item.tokens} tokens in {item.seconds.toFixed(1)} s
        {item.rate !== null && <> ({item.rate.toFixed(1)} tokens/s)</>}
      </p>
    );
  if (item.type === "retry")
    return (
      <p className="note note-warn small" role="note">
        <AgentLabel source={item.role} /> model call attempt {item.attempt} failed ({item.errorKind}); retrying in{" "}
        {item.wait.toFixed(1)} s
      </p>
    );
  return <Turn turn={item as TurnData} hideVerdict={hideVerdict && "source" in item && item.source === "evaluator"} />;
}

function CycleView({ cycle }: { cycle: LiveCycle }) {
  const { groups, rest } = split(cycle.items);
  return (
    <section className="cycle" aria-labelledby={`cycle-${cycle.index}`} data-cycle={cycle.index}>
      <h3 className="cycle-sep" id={`cycle-${cycle.index}`}>
        <span>
          Cycle {cycle.index}
          {cycle.kind && <span className="muted"> · {cycle.kind}</span>}
        </span>
        {cycle.verdict ? (
          <VerdictBadge outcome={cycle.verdict.outcome} title={cycle.verdict.summary ?? undefined} />
        ) : (
          !cycle.finished && <span className="badge badge-running">in progress</span>
        )}
      </h3>
      <PromptPanels prompts={cycle.prompts} cycle={cycle.index} />
      <RetrievalGroups groups={groups} where={`in cycle ${cycle.index}`} />
      <div className="turns">
        {rest.map((item) => (
          <ItemView key={item.seq} item={item} hideVerdict={cycle.verdict !== null} />
        ))}
      </div>
      {cycle.verdict && (
        <div className="verdict-box">
          <p>
            <VerdictBadge outcome={cycle.verdict.outcome} /> <strong>{cycle.verdict.reason}</strong>
            {cycle.verdict.origin && <span className="muted small"> (from {cycle.verdict.origin})</span>}
            {cycle.verdict.summary && <span> — {cycle.verdict.summary}</span>}
          </p>
          {cycle.verdict.issues.length > 0 && (
            <ul className="issues">
              {cycle.verdict.issues.map((issue, i) => (
                <li key={i}>{issue}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <CheckList checks={cycle.checks} title={`Checks of cycle ${cycle.index}`} />
    </section>
  );
}

export function LiveRunPage({ runId }: { runId: string }) {
  const { state, connection, error } = useRunStream(runId);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const active = ["connecting", "queued", "running"].includes(state.status);
  const sum = totals(state.agents);
  const preamble = split(state.preamble);
  const finishedCycles = state.cycles.filter((c) => c.finished).length;
  const timeline = useAsync(() => getTimeline(runId), [runId, finishedCycles, active]);

  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await cancelRun(runId);
    } catch (err) {
      setCancelError(err instanceof Error ? err.message : String(err));
      setCancelling(false);
    }
  };

  return (
    <div className="live">
      <header className="page-head">
        <div>
          <h1>
            Live run <code title={runId}>{shortId(runId)}</code>
          </h1>
          <p className="muted">
            {state.task ?? "…"} · {state.model ?? "…"} · <StatusBadge status={state.status} />{" "}
            {connection === "reconnecting" && <span className="badge badge-partial">reconnecting…</span>}
          </p>
        </div>
        <div className="head-actions">
          <span className="elapsed" aria-label="elapsed time">
            <span className="muted">Elapsed</span> <Elapsed start={state.startedAt} end={state.endedAt} />
          </span>
          {active && (
            <button type="button" className="btn btn-danger" onClick={cancel} disabled={cancelling}>
              {cancelling ? "Cancelling…" : "Cancel run"}
            </button>
          )}
          {!active && (
            <Link className="btn" to={`/runs/${runId}`}>
              Open run detail
            </Link>
          )}
        </div>
      </header>
      {error && <ErrorBox error={error} />}
      {cancelError && <ErrorBox error={cancelError} />}
      {state.status === "queued" && <Loading label="Queued: waiting for a free run slot…" />}
      {state.status === "connecting" && <Loading label="Connecting to the run…" />}
      {state.prepared && (
        <p className="note" data-testid="prepared">
          {state.prepared.reprepared ? "Inputs changed: the task was prepared again" : "Prepared facts are up to date"} (
          {state.prepared.facts} facts).
        </p>
      )}

      <div className="live-grid">
        <div className="live-stream" aria-live="polite" aria-relevant="additions" aria-label="Run transcript">
          <RetrievalGroups groups={preamble.groups} where="before the first turn" />
          {preamble.rest.map((item) => (
            <ItemView key={item.seq} item={item} />
          ))}
          {state.cycles.map((cycle) => (
            <CycleView key={cycle.index} cycle={cycle} />
          ))}
          {state.status === "running" && state.cycles.length > 0 && <Loading label="Waiting for the next turn…" />}
          {state.final && (
            <section className="final" aria-label="Run result" data-testid="final">
              <h2>
                Result: <VerdictBadge outcome={state.final.verdict} /> <StatusBadge status={state.status} />
              </h2>
              {state.final.reason && <p>Reason: {state.final.reason}</p>}
              {state.final.limit && <p>Stopped by limit: {state.final.limit}</p>}
              {state.final.error && <p className="state-error">{state.final.error}</p>}
              {state.artifact && (
                <p>
                  Artifact: {state.artifact.verified ? "verified ✔" : "unverified"}
                  {" · grounding "}
                  <span data-testid="live-grounding">
                    {state.artifact.grounding?.score != null ? `${(state.artifact.grounding.score * 100).toFixed(0)}%` : "no claims"}
                  </span>{" "}
                  — <Link to={`/runs/${runId}`}>open run detail and artifact</Link>
                </p>
              )}
              <CheckList checks={state.finalChecks} title="Final checks" />
            </section>
          )}
        </div>
        <aside className="live-side" aria-label="Usage so far">
          <h2>Usage</h2>
          <table className="counters">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Calls</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(state.agents).map(([agent, a]) => (
                <tr key={agent} data-agent={agent}>
                  <th scope="row">
                    <AgentLabel source={agent} />
                  </th>
                  <td>{a.calls}</td>
                  <td>{fmtTokens(totalTokens(a))}</td>
                  <td>{fmtCost(a.cost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td>{sum.calls}</td>
                <td data-testid="total-tokens">{fmtTokens(totalTokens(sum))}</td>
                <td>{fmtCost(sum.cost)}</td>
              </tr>
            </tfoot>
          </table>
        </aside>
      </div>
      {timeline.data && timeline.data.spans.length > 0 && (
        <section className="live-timeline" aria-labelledby="live-tl-h">
          <h2 id="live-tl-h">Timeline</h2>
          <Timeline data={timeline.data} />
        </section>
      )}
    </div>
  );
}
