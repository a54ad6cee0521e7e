// Tasks: one card per task, each with a Run form (model, max cycles).
import { useState, type FormEvent } from "react";
import { getTasks, startRun, type TaskOut } from "../api/client";
import { Empty, ErrorBox, Loading } from "../components/ui";
import { navigate } from "../router";
import { useAsync } from "../useAsync";

function TaskCard({ task, defaults }: { task: TaskOut; defaults: { model: string; max_cycles: number } }) {
  const [model, setModel] = useState(defaults.model);
  const [maxCycles, setMaxCycles] = useState(String(defaults.max_cycles));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = `task-${task.name}`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const cycles = Number.parseInt(maxCycles, 10);
      const accepted = await startRun({
        task: task.name,
        model: model.trim() || null,
        max_cycles: Number.isFinite(cycles) ? cycles : null,
        vars: {},
      });
      navigate(`/runs/${accepted.run_id}/live`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

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
