// History: runs newest first with filters (time range, verdict, task), cursor pagination, and rows
// that update live from the run-level event feed (GET /api/events).
import { useCallback, useEffect, useRef, useState } from "react";
import { getTasks, listRuns, type RunFilters, type SeriesQuery, type RunLevelEvent, type RunPage, type RunSummary } from "../api/client";
import { RerunButton } from "../components/RunActions";
import { SeriesCharts } from "../components/SeriesCharts";
import { Empty, ErrorBox, Loading, StatusBadge, VerdictBadge } from "../components/ui";
import { fmtCost, fmtTime, fmtTokens, localInputToIso, shortId } from "../format";
import { Link, navigate, useLocation } from "../router";
import { useAsync } from "../useAsync";

const PAGE_SIZE = 20;
const RANGES: Record<string, { label: string; ms?: number }> = {
  all: { label: "Any time" },
  "1h": { label: "Last hour", ms: 3600e3 },
  "24h": { label: "Last 24 hours", ms: 86400e3 },
  "7d": { label: "Last 7 days", ms: 7 * 86400e3 },
  custom: { label: "Custom…" },
};
const VERDICTS = ["PASS", "PARTIAL", "FAIL", "BLOCKED"];

interface Filters {
  range: string;
  since: string;
  until: string;
  verdict: string;
  task: string;
}

function readFilters(q: URLSearchParams): Filters {
  return { range: q.get("range") ?? "all", since: q.get("since") ?? "", until: q.get("until") ?? "", verdict: q.get("verdict") ?? "", task: q.get("task") ?? "" };
}

function toQuery(f: Filters, cursor: string | null): RunFilters {
  const query: RunFilters = { limit: PAGE_SIZE };
  if (f.verdict) query.verdict = f.verdict;
  if (f.task) query.task = f.task;
  const preset = RANGES[f.range];
  if (preset?.ms) query.since = new Date(Date.now() - preset.ms).toISOString();
  if (f.range === "custom") {
    query.since = localInputToIso(f.since) ?? null;
    query.until = localInputToIso(f.until) ?? null;
  }
  if (cursor) query.cursor = cursor;
  return query;
}

/** The charts follow the task and time filters (a verdict filter would make every pass rate 0 or 1). */
function seriesQuery(f: Filters): SeriesQuery {
  const q = toQuery(f, null);
  const out: SeriesQuery = {};
  if (q.task) out.task = q.task;
  const preset = RANGES[f.range]?.ms;
  if (preset) out.since = new Date(Math.floor(Date.now() / 60e3) * 60e3 - preset).toISOString(); // stable for a minute
  else if (q.since) out.since = q.since;
  if (q.until) out.until = q.until;
  return out;
}

export function HistoryPage() {
  const { query } = useLocation();
  const filters = readFilters(query);
  const key = JSON.stringify(filters);
  // cursor of each visited page, for the current filters only (new filters start at page 1)
  const [pager, setPager] = useState<{ key: string; cursors: (string | null)[] }>({ key, cursors: [null] });
  const cursors = pager.key === key ? pager.cursors : [null];
  const setCursors = (fn: (c: (string | null)[]) => (string | null)[]) => setPager({ key, cursors: fn(cursors) });
  const [page, setPage] = useState<RunPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<string[]>([]);
  const [live, setLive] = useState(false);
  const tasks = useAsync(getTasks, []);
  const cursor = cursors[cursors.length - 1] ?? null;
  const refetchTimer = useRef<number | undefined>(undefined);
  const pageRef = useRef<RunPage | null>(null);
  pageRef.current = page;

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      setPage(await listRuns(toQuery(JSON.parse(key) as Filters, cursor)));
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }, [key, cursor]);

  useEffect(() => {
    void load();
  }, [load]);

  // live rows: patch rows in place; new runs on the first page trigger a (debounced) refetch
  const onFirstPage = cursors.length === 1;
  const ended = page ? `${page.count}:${page.data.filter((r) => r.status !== "running").length}` : "";
  useEffect(() => {
    const source = new EventSource("/api/events");
    source.onopen = () => setLive(true);
    source.onerror = () => setLive(false);
    const handle = (msg: MessageEvent<string>) => {
      const event = JSON.parse(msg.data) as RunLevelEvent;
      const row = event.run;
      if (row && pageRef.current?.data.some((r) => r.run_id === row.run_id)) {
        setPage((p) => (p ? { ...p, data: p.data.map((r) => (r.run_id === row.run_id ? row : r)) } : p));
      } else if (onFirstPage) {
        // a run this page does not show yet may now match the filters: refetch (debounced)
        window.clearTimeout(refetchTimer.current);
        refetchTimer.current = window.setTimeout(() => void load(), 300);
      }
    };
    for (const kind of ["run_started", "cycle_finished", "run_finished", "resync"]) source.addEventListener(kind, handle as EventListener);
    return () => {
      source.close();
      window.clearTimeout(refetchTimer.current);
    };
  }, [load, onFirstPage]);

  const setFilter = (name: keyof Filters, value: string) => {
    const next = new URLSearchParams(query);
    if (value) next.set(name, value);
    else next.delete(name);
    navigate(`/history${next.toString() ? `?${next}` : ""}`, true);
  };
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id].slice(-2)));

  return (
    <div>
      <header className="page-head">
        <h1>History</h1>
        <div className="head-actions">
          <span className={`badge ${live ? "badge-pass" : "badge-none"}`} title="rows update live">
            {live ? "● live" : "○ offline"}
          </span>
          <button type="button" className="btn" disabled={selected.length !== 2} onClick={() => navigate(`/compare?a=${selected[0]}&b=${selected[1]}`)}>
            Compare selected ({selected.length}/2)
          </button>
        </div>
      </header>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter runs">
        <label>
          Time range
          <select value={filters.range} onChange={(e) => setFilter("range", e.target.value === "all" ? "" : e.target.value)} name="range">
            {Object.entries(RANGES).map(([k, v]) => (
              <option key={k} value={k}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
        {filters.range === "custom" && (
          <>
            <label>
              From
              <input type="datetime-local" value={filters.since} onChange={(e) => setFilter("since", e.target.value)} name="since" />
            </label>
            <label>
              To
              <input type="datetime-local" value={filters.until} onChange={(e) => setFilter("until", e.target.value)} name="until" />
            </label>
          </>
        )}
        <label>
          Verdict
          <select value={filters.verdict} onChange={(e) => setFilter("verdict", e.target.value)} name="verdict">
            <option value="">Any verdict</option>
            {VERDICTS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Task
          <select value={filters.task} onChange={(e) => setFilter("task", e.target.value)} name="task">
            <option value="">Any task</option>
            {tasks.data?.data.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      </form>

      <details className="trends" open>
        <summary>
          <h2 id="trends-h">Trends across runs</h2>
        </summary>
        <SeriesCharts query={seriesQuery(filters)} version={ended} />
      </details>

      {error != null && <ErrorBox error={error} retry={() => void load()} />}
      {loading && !page && <Loading label="Loading runs…" />}
      {page && page.count === 0 && <Empty>No runs match these filters. Start one from the Tasks page.</Empty>}
      {page && page.data.length > 0 && (
        <>
          <p className="muted small" aria-live="polite">
            {page.count} run(s){loading && " · refreshing…"}
          </p>
          <div className="table-wrap">
            <table className="runs">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                  <th scope="col">Started</th>
                  <th scope="col">Task</th>
                  <th scope="col">Model</th>
                  <th scope="col">Verdict</th>
                  <th scope="col">Status</th>
                  <th scope="col">Cycles</th>
                  <th scope="col">Tokens</th>
                  <th scope="col">Cost</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((r: RunSummary) => (
                  <tr key={r.run_id} data-run={r.run_id}>
                    <td>
                      <input type="checkbox" aria-label={`select run ${r.run_id} to compare`} checked={selected.includes(r.run_id)} onChange={() => toggle(r.run_id)} />
                    </td>
                    <td data-label="Started">
                      <Link to={r.status === "running" ? `/runs/${r.run_id}/live` : `/runs/${r.run_id}`} title={r.run_id}>
                        {fmtTime(r.started_at)}
                      </Link>
                      <div className="muted small">{shortId(r.run_id)}</div>
                    </td>
                    <td data-label="Task">{r.task}</td>
                    <td data-label="Model" className="model-cell">
                      {r.model}
                    </td>
                    <td data-label="Verdict">
                      <VerdictBadge outcome={r.verdict} />
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={r.status} />
                    </td>
                    <td data-label="Cycles">{r.cycles}</td>
                    <td data-label="Tokens">{fmtTokens(r.total_tokens)}</td>
                    <td data-label="Cost">{fmtCost(r.cost, r.currency)}</td>
                    <td>{r.status !== "running" && <RerunButton runId={r.run_id} model={r.model} compact />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages">
            <button type="button" className="btn" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
              ← Newer
            </button>
            <span className="muted">Page {cursors.length}</span>
            <button type="button" className="btn" disabled={!page.next_cursor} onClick={() => setCursors((c) => [...c, page.next_cursor ?? null])}>
              Older →
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
