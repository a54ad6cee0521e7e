// Typed API client generated from the OpenAPI schema (src/api/schema.d.ts).
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Trace = Schemas["Trace"];
export type Cycle = Schemas["Cycle"];
export type Message = Schemas["Message"];
export type Check = Schemas["Check"];
export type Usage = Schemas["Usage"];
export type AgentUsage = Schemas["AgentUsage"];
export type RunSummary = Schemas["RunSummary"];
export type RunPage = Schemas["RunPageOut"];
export type TaskOut = Schemas["TaskOut"];
export type TaskList = Schemas["TaskList"];
export type RunEvent = Schemas["RunEventOut"];
export type RunLevelEvent = Schemas["RunLevelEventOut"];
export type Health = Schemas["Health"];
export type Ledger = Schemas["LedgerOut"];
export type Claim = Schemas["ClaimOut"];
export type ClaimFinding = Schemas["ClaimFinding"];
export type CheckIn = Schemas["CheckIn"];
export type DocumentReport = Schemas["DocumentReportOut"];
export type RunFilters = NonNullable<paths["/api/runs"]["get"]["parameters"]["query"]>;
export type Timeline = Schemas["TimelineOut"];
export type Span = Schemas["SpanOut"];
export type SeriesPage = Schemas["SeriesPage"];
export type SeriesQuery = NonNullable<paths["/api/stats/runs"]["get"]["parameters"]["query"]>;
export type Recheck = Schemas["RecheckOut"];

export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });

/** An API failure with the server's `detail` message. */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public detail: unknown = null,
  ) {
    super(message);
  }
}

/** Per-field messages of a 422 whose detail is a list of `{loc: ["body", "vars", KEY], msg}`
 * (`KEY` → message; `""` for a problem with the vars as a whole). */
export function varErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(err instanceof ApiError) || !Array.isArray(err.detail)) return out;
  for (const d of err.detail as { loc?: unknown[]; msg?: unknown }[]) {
    const loc = Array.isArray(d?.loc) ? d.loc.map(String) : [];
    if (loc[1] !== "vars") continue;
    let msg = String(d.msg ?? "invalid");
    let key = loc[2] ?? "";
    const named = /^(?:Value error, )?vars\.([A-Za-z_][A-Za-z0-9_]*): (.*)$/s.exec(msg); // pydantic's own check
    if (!key && named) [key, msg] = [named[1] as string, named[2] as string];
    out[key] = out[key] ? `${out[key]}; ${msg}` : msg;
  }
  return out;
}

type Listener = () => void;
const unauthorized = new Set<Listener>();
/** Called whenever the API answers 401 (the app shows the login page). */
export function onUnauthorized(fn: Listener): () => void {
  unauthorized.add(fn);
  return () => unauthorized.delete(fn);
}

function detailOf(error: unknown, status: number): string {
  if (error && typeof error === "object" && "detail" in error) {
    const detail = (error as { detail: unknown }).detail;
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail))
      return detail
        .map((d) => (d && typeof d === "object" && "msg" in d ? String((d as { msg: unknown }).msg) : String(d)))
        .join("; ");
    return JSON.stringify(detail);
  }
  return `HTTP ${status}`;
}

/** Unwrap an openapi-fetch result: the data, or an ApiError (401 also notifies listeners). */
export async function unwrap<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await pending;
  } catch (err) {
    throw new ApiError(0, `network error: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { data, error, response } = result;
  if (response.status === 401) unauthorized.forEach((fn) => fn());
  if (!response.ok || data === undefined) {
    const detail = error && typeof error === "object" && "detail" in error ? (error as { detail: unknown }).detail : null;
    throw new ApiError(response.status, detailOf(error, response.status), detail);
  }
  return data;
}

export const getTasks = () => unwrap(api.GET("/api/tasks"));
export const getHealth = () => unwrap(api.GET("/api/health"));
export const listRuns = (query: RunFilters) => unwrap(api.GET("/api/runs", { params: { query } }));
export const getRun = (runId: string) => unwrap(api.GET("/api/runs/{run_id}", { params: { path: { run_id: runId } } }));
export const startRun = (body: Schemas["RunCreate"]) => unwrap(api.POST("/api/runs", { body }));
export const cancelRun = (runId: string) =>
  unwrap(api.POST("/api/runs/{run_id}/cancel", { params: { path: { run_id: runId } }, body: {} }));
const run = (runId: string) => ({ params: { path: { run_id: runId } } });
export const getTimeline = (runId: string) => unwrap(api.GET("/api/runs/{run_id}/timeline", run(runId)));
export const rerunRun = (runId: string, model: string | null) =>
  unwrap(api.POST("/api/runs/{run_id}/rerun", { ...run(runId), body: { model } }));
export const resumeRun = (runId: string, model: string | null = null) =>
  unwrap(api.POST("/api/runs/{run_id}/resume", { ...run(runId), body: { model } }));
export const replayRun = (runId: string) => unwrap(api.POST("/api/runs/{run_id}/replay", { ...run(runId), body: {} }));
export const recheckRun = (runId: string) => unwrap(api.POST("/api/runs/{run_id}/recheck", { ...run(runId), body: {} }));
export const checkVars = (task: string, vars: Record<string, string>) =>
  unwrap(api.POST("/api/tasks/{name}/vars", { params: { path: { name: task } }, body: { vars } }));
export const getSeries = (query: SeriesQuery) => unwrap(api.GET("/api/stats/runs", { params: { query } }));
export const traceUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/trace`;
export const checkDocument = (body: CheckIn) => unwrap(api.POST("/api/check", { body }));
export const login = (token: string) => unwrap(api.POST("/api/login", { body: { token } }));
export const logout = () => unwrap(api.POST("/api/logout", { body: {} }));

export const artifactUrl = (runId: string, download = false) =>
  `/api/runs/${encodeURIComponent(runId)}/artifact${download ? "?download=true" : ""}`;

/** The artifact's Markdown text, or null when the run has none (404). */
export async function getArtifact(runId: string): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(artifactUrl(runId), { credentials: "same-origin" });
  } catch (err) {
    throw new ApiError(0, `network error: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (response.status === 404) return null;
  if (response.status === 401) unauthorized.forEach((fn) => fn());
  if (!response.ok) throw new ApiError(response.status, `HTTP ${response.status}`);
  return response.text();
}

export type EvalRow = Schemas["EvalRow"];
export type EvalReport = Schemas["EvalReport"];
export type EvalCaseRun = Schemas["CaseRun"];
export type EvalModelSummary = Schemas["ModelSummary"];
export const listEvals = (query: { task?: string; limit?: number } = {}) =>
  unwrap(api.GET("/api/evals", { params: { query } }));
export const getEval = (evalId: string) => unwrap(api.GET("/api/evals/{eval_id}", { params: { path: { eval_id: evalId } } }));
