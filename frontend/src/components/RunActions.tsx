// Actions on a recorded run: Re-run (same task, vars and model, or another model picked from the
// models seen in History), Resume (an interrupted, cancelled or error run), Replay (a finished run,
// with its recorded replies) and Re-check (the current checks on its artifact).
import { useId, useState, type FormEvent } from "react";
import { listRuns, recheckRun, replayRun, rerunRun, resumeRun, type Recheck } from "../api/client";
import { navigate } from "../router";
import { useAsync } from "../useAsync";
import { ErrorBox } from "./ui";

/** Models of recent runs (for the picker), the given one first. */
function useModels(current: string | null | undefined): string[] {
  const recent = useAsync(() => listRuns({ limit: 200 }), []);
  const seen = new Set<string>(current ? [current] : []);
  for (const r of recent.data?.data ?? []) if (r.model) seen.add(r.model);
  return [...seen];
}

export function RerunButton({ runId, model, compact = false }: { runId: string; model?: string | null; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = useId();
  const models = useModels(open ? model : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const picked = choice.trim();
      const accepted = await rerunRun(runId, picked && picked !== model ? picked : null);
      navigate(`/runs/${accepted.run_id}/live`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <span className={`rerun ${compact ? "rerun-compact" : ""}`}>
      <button type="button" className={`btn ${compact ? "btn-small" : ""}`} aria-expanded={open} onClick={() => setOpen((o) => !o)}
        title="Run this task again with the same vars">
        Re-run…
      </button>
      {open && (
        <form className="rerun-form" onSubmit={submit} aria-label={`Re-run ${runId}`}>
          <label htmlFor={`${id}-model`}>Model</label>
          <input id={`${id}-model`} name="model" list={`${id}-models`} value={choice} placeholder={model ? `same: ${model}` : "same model"}
            onChange={(e) => setChoice(e.target.value)} autoComplete="off" />
          <datalist id={`${id}-models`}>
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Starting…" : "Run again"}
          </button>
          {error != null && <ErrorBox error={error} />}
        </form>
      )}
    </span>
  );
}

const RESUMABLE = ["interrupted", "cancelled", "error"];

export function RunActions({ runId, status, active }: { runId: string; status: string; active: boolean }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [recheck, setRecheck] = useState<Recheck | null>(null);
  if (active) return null;

  const act = async (name: string, fn: () => Promise<unknown>) => {
    setBusy(name);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      {RESUMABLE.includes(status) && (
        <button type="button" className="btn" disabled={busy !== null}
          onClick={() => void act("resume", async () => navigate(`/runs/${(await resumeRun(runId)).run_id}/live`))}>
          {busy === "resume" ? "Resuming…" : "Resume"}
        </button>
      )}
      {status === "finished" && (
        <>
          <button type="button" className="btn" disabled={busy !== null} title="Run again with the recorded replies (no model call)"
            onClick={() => void act("replay", async () => navigate(`/runs/${(await replayRun(runId)).run_id}/live`))}>
            {busy === "replay" ? "Replaying…" : "Replay"}
          </button>
          <button type="button" className="btn" disabled={busy !== null} title="Run the current checks on the recorded artifact"
            onClick={() => void act("recheck", async () => setRecheck(await recheckRun(runId)))}>
            {busy === "recheck" ? "Checking…" : "Re-check"}
          </button>
        </>
      )}
      {error != null && <ErrorBox error={error} />}
      {recheck && (
        <div className="recheck" role="status" data-testid="recheck">
          <strong>{recheck.passed ? "Every error check passes now" : "A check fails now"}</strong>
          {" · "}
          {recheck.changed} changed
          <ul>
            {recheck.checks.map((c) => (
              <li key={c.name} className={c.now ? "check-ok" : c.severity === "warning" ? "check-warn" : "check-fail"}>
                <code>{c.name}</code>: {c.recorded == null ? "—" : c.recorded ? "passed" : "failed"} → {c.now == null ? "gone" : c.now ? "passed" : "failed"}
                {c.recorded !== c.now && <strong> (changed)</strong>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
