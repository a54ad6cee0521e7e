// Evals (`pse eval`): the list of evals, and one eval with its table per model, charts per model
// (pass rate, cost, latency), every case run linked to its Run detail page, and live progress
// (the report is polled while the eval runs).
import { useEffect, useState } from "react";
import { getEval, listEvals, type EvalCaseRun, type EvalModelSummary, type EvalReport } from "../api/client";
import { ModelBars } from "../components/ModelBars";
import { Empty, ErrorBox, Loading, StatusBadge, VerdictBadge } from "../components/ui";
import { fmtCost, fmtTime, fmtTokens, shortId } from "../format";
import { Link } from "../router";
import { useAsync } from "../useAsync";

const POLL_MS = 1500;

const pct = (v: number | null | undefined) => (v == null ? "—" : `${Math.round(v * 100)}%`);
const num = (v: number | null | undefined, digits = 2) => (v == null ? "—" : v.toFixed(digits));

export function EvalsPage() {
  const evals = useAsync(() => listEvals({ limit: 50 }), []);
  const running = evals.data?.data.some((e) => e.status === "running") ?? false;
  const { reload } = evals;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(reload, POLL_MS * 2);
    return () => window.clearInterval(timer);
  }, [running, reload]);
  return (
    <div>
      <div className="page-head">
        <h1>Evals</h1>
      </div>
      <p className="muted">
        Datasets of cases run on one or more models with <code>pse eval TASK --inputs FILE|DIR --model A --model B</code>; every
        case is a normal run, listed in History.
      </p>
      {evals.error != null && <ErrorBox error={evals.error} retry={evals.reload} />}
      {evals.loading && !evals.data && <Loading label="Loading evals…" />}
      {evals.data && evals.data.count === 0 && <Empty>No evals yet. Run one with pse eval (see docs/eval.md).</Empty>}
      {evals.data && evals.data.data.length > 0 && (
        <div className="table-wrap">
          <table className="runs evals">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Task</th>
                <th scope="col">Models</th>
                <th scope="col">Status</th>
                <th scope="col">Runs</th>
                <th scope="col">PASS</th>
                <th scope="col">Verified</th>
              </tr>
            </thead>
            <tbody>
              {evals.data.data.map((e) => (
                <tr key={e.eval_id} data-eval={e.eval_id}>
                  <td data-label="Started">
                    <Link to={`/evals/${e.eval_id}`} title={e.eval_id}>
                      {fmtTime(e.started_at)}
                    </Link>
                    <div className="muted small">{shortId(e.eval_id)}</div>
                  </td>
                  <td data-label="Task">{e.task}</td>
                  <td data-label="Models" className="model-cell">
                    {e.models.join(", ")}
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={e.status} />
                  </td>
                  <td data-label="Runs">
                    {e.done}/{e.runs}
                  </td>
                  <td data-label="PASS">{e.passed}</td>
                  <td data-label="Verified">{e.verified}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function useEvalReport(evalId: string) {
  const [report, setReport] = useState<EvalReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    let timer: number | undefined;
    const load = () => {
      getEval(evalId)
        .then((r) => {
          if (!live) return;
          setReport(r);
          setError(null);
          if (r.status === "running") timer = window.setTimeout(load, POLL_MS);
        })
        .catch((err: unknown) => live && setError(err));
    };
    load();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [evalId]);
  return { report, error };
}

function SummaryTable({ rows, currency }: { rows: EvalModelSummary[]; currency: string | null }) {
  return (
    <div className="table-wrap">
      <table className="runs eval-summary">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Runs</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Verified</th>
            <th scope="col">Mean cycles</th>
            <th scope="col">Grounding</th>
            <th scope="col">Contradicted</th>
            <th scope="col">Unverifiable</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">p50 s</th>
            <th scope="col">p95 s</th>
            <th scope="col">Expected</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.model} data-model={s.model}>
              <td data-label="Model" className="model-cell">
                {s.model}
              </td>
              <td data-label="Runs">
                {s.done}/{s.runs}
              </td>
              <td data-label="Pass rate">{pct(s.pass_rate)}</td>
              <td data-label="Verified">{pct(s.verified_rate)}</td>
              <td data-label="Mean cycles">{num(s.mean_cycles)}</td>
              <td data-label="Grounding">{num(s.mean_grounding, 3)}</td>
              <td data-label="Contradicted">{s.contradicted}</td>
              <td data-label="Unverifiable">{s.unverifiable}</td>
              <td data-label="Tokens">{fmtTokens(s.tokens)}</td>
              <td data-label="Cost">{fmtCost(s.cost, currency)}</td>
              <td data-label="p50 s">{num(s.p50_seconds)}</td>
              <td data-label="p95 s">{num(s.p95_seconds)}</td>
              <td data-label="Expected">{s.expected_total ? `${s.expected_met}/${s.expected_total}` : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RunsTable({ runs }: { runs: EvalCaseRun[] }) {
  return (
    <div className="table-wrap">
      <table className="runs eval-runs">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Model</th>
            <th scope="col">Verdict</th>
            <th scope="col">Verified</th>
            <th scope="col">Cycles</th>
            <th scope="col">Grounding</th>
            <th scope="col">Claims ✗ / ?</th>
            <th scope="col">Tokens</th>
            <th scope="col">Seconds</th>
            <th scope="col">Expected</th>
            <th scope="col">Run</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={`${r.case}-${r.model}-${r.repeat}`} data-case={r.case}>
              <td data-label="Case" className="model-cell">
                {r.case}
                {r.repeat > 1 && <span className="muted small"> #{r.repeat}</span>}
              </td>
              <td data-label="Model" className="model-cell">
                {r.model}
              </td>
              <td data-label="Verdict">{r.verdict ? <VerdictBadge outcome={r.verdict} /> : <StatusBadge status={r.status ?? "pending"} />}</td>
              <td data-label="Verified">{r.verified ? "yes" : "no"}</td>
              <td data-label="Cycles">{r.cycles}</td>
              <td data-label="Grounding">{num(r.grounding, 3)}</td>
              <td data-label="Claims ✗ / ?">
                {r.contradicted} / {r.unverifiable}
              </td>
              <td data-label="Tokens">{fmtTokens((r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0))}</td>
              <td data-label="Seconds">{num(r.seconds)}</td>
              <td data-label="Expected">{r.expected == null ? "—" : r.expected ? "met" : "missed"}</td>
              <td data-label="Run">
                {r.run_id ? (
                  <Link to={r.status === "running" ? `/runs/${r.run_id}/live` : `/runs/${r.run_id}`} title={r.run_id}>
                    {shortId(r.run_id)}
                  </Link>
                ) : (
                  <span className="muted">{r.status}</span>
                )}
                {r.error && <div className="muted small error-text">{r.error}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function EvalDetailPage({ evalId }: { evalId: string }) {
  const { report, error } = useEvalReport(evalId);
  if (error != null && !report) return <ErrorBox error={error} />;
  if (!report) return <Loading label="Loading eval…" />;
  const summary = report.summary ?? [];
  const done = report.runs.filter((r) => ["finished", "cancelled", "error"].includes(r.status ?? "")).length;
  const cost = (v: number) => fmtCost(v, "USD");
  return (
    <div>
      <div className="page-head">
        <h1>
          Eval <code>{report.eval_id}</code>
        </h1>
      </div>
      <p className="muted eval-meta">
        <b>{report.task}</b> · {report.cases.length} case(s) × {report.models.length} model(s) × {report.repeat} · concurrency{" "}
        {report.concurrency} · started {fmtTime(report.started_at)} · <StatusBadge status={report.status} /> ·{" "}
        <a href={`/api/evals/${report.eval_id}/report.html`}>HTML report</a>
      </p>
      <div className="eval-progress" aria-live="polite">
        <progress max={report.runs.length} value={done} aria-label="runs ended" /> {done} of {report.runs.length} runs ended
        {report.status === "running" && " · updating…"}
        {!report.complete && report.status !== "running" && <span className="note note-warn"> incomplete: {report.status}</span>}
      </div>
      {error != null && <ErrorBox error={error} />}
      <h2>Per model</h2>
      <SummaryTable rows={summary} currency="USD" />
      <h2>Charts</h2>
      <div className="eval-charts">
        <ModelBars title="Pass rate" bars={summary.map((s) => ({ model: s.model, value: s.pass_rate == null ? null : s.pass_rate * 100 }))} max={100} format={(v) => `${Math.round(v)}%`} />
        <ModelBars title="Cost" bars={summary.map((s) => ({ model: s.model, value: s.cost }))} format={cost} />
        <ModelBars title="Wall time p50 (s)" bars={summary.map((s) => ({ model: s.model, value: s.p50_seconds }))} format={(v) => `${v.toFixed(2)} s`} />
        <ModelBars title="Wall time p95 (s)" bars={summary.map((s) => ({ model: s.model, value: s.p95_seconds }))} format={(v) => `${v.toFixed(2)} s`} />
      </div>
      <h2>Runs</h2>
      <RunsTable runs={report.runs} />
    </div>
  );
}
