// Compare two runs side by side: verdicts per cycle, cycles, tokens, cost, and an artifact diff.
import { diffLines } from "diff";
import { useState, type FormEvent } from "react";
import { getArtifact, getRun, listRuns, type Trace } from "../api/client";
import { Empty, ErrorBox, Loading, StatusBadge, VerdictBadge } from "../components/ui";
import { fmtCost, fmtDuration, fmtTime, fmtTokens, shortId } from "../format";
import { Link, navigate, useLocation } from "../router";
import { durationMs, totalTokens } from "../trace";
import { useAsync } from "../useAsync";

interface Side {
  trace: Trace;
  artifact: string | null;
}

async function loadSide(runId: string): Promise<Side> {
  const [trace, artifact] = await Promise.all([getRun(runId), getArtifact(runId)]);
  return { trace, artifact };
}

function Picker({ a, b }: { a: string; b: string }) {
  const recent = useAsync(() => listRuns({ limit: 50 }), []);
  const [left, setLeft] = useState(a);
  const [right, setRight] = useState(b);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(`/compare?a=${encodeURIComponent(left)}&b=${encodeURIComponent(right)}`);
  };
  const options = recent.data?.data ?? [];
  return (
    <form className="filters" onSubmit={submit} aria-label="Choose runs to compare">
      {[
        ["Run A", left, setLeft],
        ["Run B", right, setRight],
      ].map(([label, value, set]) => (
        <label key={label as string}>
          {label as string}
          <select value={value as string} onChange={(e) => (set as (v: string) => void)(e.target.value)} required>
            <option value="">Choose a run…</option>
            {options.map((r) => (
              <option key={r.run_id} value={r.run_id}>
                {fmtTime(r.started_at)} · {r.task} · {r.verdict ?? r.status} · {shortId(r.run_id)}
              </option>
            ))}
          </select>
        </label>
      ))}
      <button type="submit" className="btn btn-primary" disabled={!left || !right}>
        Compare
      </button>
      {recent.error != null && <ErrorBox error={recent.error} />}
    </form>
  );
}

function ArtifactDiff({ a, b }: { a: string | null; b: string | null }) {
  if (a == null && b == null) return <Empty>Neither run has an artifact.</Empty>;
  const parts = diffLines(a ?? "", b ?? "");
  const changed = parts.some((p) => p.added || p.removed);
  if (!changed) return <p>The artifacts are identical.</p>;
  return (
    <pre className="diff" aria-label="Artifact diff: lines only in A are marked -, lines only in B are marked +">
      {parts.map((p, i) => {
        const mark = p.added ? "+" : p.removed ? "-" : " ";
        const lines = p.value.replace(/\n$/, "").split("\n");
        return (
          <span key={i} className={p.added ? "diff-add" : p.removed ? "diff-del" : "diff-same"}>
            {lines.map((l) => `${mark} ${l}`).join("\n")}
            {"\n"}
          </span>
        );
      })}
    </pre>
  );
}

export function ComparePage() {
  const { query } = useLocation();
  const a = query.get("a") ?? "";
  const b = query.get("b") ?? "";
  const both = useAsync(async () => (a && b ? Promise.all([loadSide(a), loadSide(b)]) : null), [a, b]);

  return (
    <div>
      <header className="page-head">
        <h1>Compare runs</h1>
      </header>
      <Picker a={a} b={b} key={`${a}|${b}`} />
      {!(a && b) && <Empty>Choose two runs (or tick two rows in History).</Empty>}
      {a && b && both.loading && <Loading label="Loading both runs…" />}
      {both.error != null && <ErrorBox error={both.error} retry={both.reload} />}
      {both.data && <Comparison left={both.data[0]} right={both.data[1]} />}
    </div>
  );
}

function Comparison({ left, right }: { left: Side; right: Side }) {
  const rows: [string, (t: Trace) => React.ReactNode][] = [
    ["Run", (t) => <Link to={`/runs/${t.run_id}`}>{shortId(t.run_id)}</Link>],
    ["Task", (t) => t.task],
    ["Model", (t) => t.model],
    ["Started", (t) => fmtTime(t.started_at)],
    ["Status", (t) => <StatusBadge status={t.status} />],
    ["Verdict", (t) => <VerdictBadge outcome={t.verdict} />],
    ["Cycles", (t) => t.cycles.length],
    ["Tokens", (t) => fmtTokens(totalTokens(t))],
    ["Cost", (t) => fmtCost(t.usage?.cost, t.usage?.currency)],
    ["Duration", (t) => {
      const ms = durationMs(t);
      return ms == null ? "—" : fmtDuration(ms);
    }],
  ];
  const cycles = Math.max(left.trace.cycles.length, right.trace.cycles.length);
  return (
    <>
      <div className="table-wrap">
        <table className="compare">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">A</th>
              <th scope="col">B</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, cell]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{cell(left.trace)}</td>
                <td>{cell(right.trace)}</td>
              </tr>
            ))}
            {Array.from({ length: cycles }, (_, i) => (
              <tr key={`c${i}`} className="cycle-row">
                <th scope="row">Cycle {i + 1} verdict</th>
                {[left, right].map((side, j) => {
                  const c = side.trace.cycles[i];
                  return <td key={j}>{c ? <VerdictBadge outcome={c.verdict?.outcome} title={c.verdict?.summary ?? undefined} /> : "—"}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="diff-h">
        <h2 id="diff-h">Artifact diff (A → B)</h2>
        <ArtifactDiff a={left.artifact} b={right.artifact} />
      </section>
    </>
  );
}
