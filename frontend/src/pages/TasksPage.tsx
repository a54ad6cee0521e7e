// Tasks: one card per task, each with a Run form (model, max cycles) and its inputs (the CLI's
// --var values), checked by the server field by field; a problem shows next to its field.
import { useState, type FormEvent } from "react";
import { checkVars, getTasks, startRun, varErrors, type TaskOut } from "../api/client";
import { Empty, ErrorBox, Loading } from "../components/ui";
import { navigate } from "../router";
import { useAsync } from "../useAsync";

function TaskCard({ task, defaults }: { task: TaskOut; defaults: { model: string; max_cycles: number } }) {
  const [model, setModel] = useState(defaults.model);
  const [maxCycles, setMaxCycles] = useState(String(defaults.max_cycles));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [showInputs, setShowInputs] = useState(false);
  const [checked, setChecked] = useState<string | null>(null);
  const id = `task-${task.name}`;
  const inputs = task.inputs;
  const vars = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== "").map(([k, v]) => [k, v.trim()]));

  /** A refusal: per-field errors next to their fields (the inputs opened), anything else below. */
  const refused = (err: unknown) => {
    const fields = varErrors(err);
    if (Object.keys(fields).length) {
      setFieldErrors(fields);
      setShowInputs(true);
      setError(null);
    } else {
      setError(err);
    }
  };

  const check = async () => {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    setChecked(null);
    try {
      await checkVars(task.name, vars);
      setChecked("These inputs are valid.");
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    setChecked(null);
    try {
      const cycles = Number.parseInt(maxCycles, 10);
      const accepted = await startRun({
        task: task.name,
        model: model.trim() || null,
        max_cycles: Number.isFinite(cycles) ? cycles : null,
        vars,
      });
      navigate(`/runs/${accepted.run_id}/live`);
    } catch (err) {
      refused(err);
      setBusy(false);
    }
  };
  const general = Object.entries(fieldErrors).filter(([k]) => !inputs.includes(k));

  return (
    <article className="card task-card" aria-labelledby={`${id}-title`} data-task={task.name}>
      <h2 id={`${id}-title`}>{task.title}</h2>
      <p className="muted small">
        <code>{task.name}</code> · artifact: {task.artifact}
        {task.has_prepare && (
          <span className={`badge ${task.needs_prepare ? "badge-partial" : "badge-pass"}`}>
            {task.needs_prepare ? "inputs will be prepared" : "prepared"}
          </span>
        )}
      </p>
      <p>{task.description}</p>
      {task.error ? (
        <ErrorBox error={task.error} />
      ) : (
        <form onSubmit={submit} className="run-form">
          <label htmlFor={`${id}-model`}>Model</label>
          <input id={`${id}-model`} name="model" value={model} onChange={(e) => setModel(e.target.value)} placeholder="local | openai:… | scripted:file.json" autoComplete="off" />
          <label htmlFor={`${id}-cycles`}>Max cycles</label>
          <input id={`${id}-cycles`} name="max_cycles" type="number" min={1} max={50} value={maxCycles} onChange={(e) => setMaxCycles(e.target.value)} />
          {inputs.length > 0 && (
            <details className="vars-form" open={showInputs} onToggle={(e) => setShowInputs((e.target as HTMLDetailsElement).open)}>
              <summary>
                Inputs ({inputs.length}){Object.keys(vars).length > 0 && <span className="muted small"> · {Object.keys(vars).length} set</span>}
              </summary>
              <p className="muted small">Empty fields keep the task's default (shown greyed). Files are relative to the project.</p>
              {general.map(([k, msg]) => (
                <p key={k || "*"} className="field-error" role="alert">
                  {k && <code>{k}</code>} {msg}
                </p>
              ))}
              {inputs.map((name) => {
                const fid = `${id}-var-${name}`;
                const problem = fieldErrors[name];
                return (
                  <div key={name} className={`field ${problem ? "field-invalid" : ""}`} data-var={name}>
                    <label htmlFor={fid}>{name}</label>
                    <input id={fid} name={`var-${name}`} value={values[name] ?? ""} placeholder={task.vars[name] ?? "(required)"}
                      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))} autoComplete="off"
                      aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${fid}-error` : undefined} />
                    {problem && (
                      <p id={`${fid}-error`} className="field-error" role="alert">
                        {problem}
                      </p>
                    )}
                  </div>
                );
              })}
              <button type="button" className="btn btn-small" onClick={() => void check()} disabled={busy}>
                Check inputs
              </button>
              {checked && <p className="check-ok small" role="status">{checked}</p>}
            </details>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Starting…" : "Run"}
          </button>
        </form>
      )}
      {error != null && <ErrorBox error={error} />}
    </article>
  );
}

export function TasksPage() {
  const { data, error, loading, reload } = useAsync(getTasks, []);
  return (
    <div>
      <header className="page-head">
        <h1>Tasks</h1>
      </header>
      {loading && !data && <Loading label="Loading tasks…" />}
      {error != null && <ErrorBox error={error} retry={reload} />}
      {data && data.count === 0 && <Empty>No tasks in the registry (tasks/_registry.json).</Empty>}
      {data && (
        <div className="cards">
          {data.data.map((t) => (
            <TaskCard key={t.name} task={t} defaults={data.defaults} />
          ))}
        </div>
      )}
    </div>
  );
}
