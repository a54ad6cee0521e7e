// Check a document: a Markdown text (pasted or from a .md file) checked claim by claim against a
// task's evidence (POST /api/check), shown with its claims highlighted and the counts.
import { useState, type ChangeEvent, type FormEvent } from "react";
import { ApiError, checkDocument, getTasks, type DocumentReport, type TaskOut } from "../api/client";
import { ClaimsView } from "../components/ClaimsView";
import { ErrorBox, Loading } from "../components/ui";
import { useAsync } from "../useAsync";
import { parseVars } from "../vars";

const DEFAULT_NAME = "document.md";

interface Checked {
  report: DocumentReport;
  text: string;
  seq: number;
}

function messageOf(err: unknown): string {
  if (err instanceof ApiError && err.status === 413) return `${err.message} (the document is too large to send)`;
  return err instanceof Error ? err.message : String(err);
}

function TaskSelect({ tasks, value, onChange }: { tasks: TaskOut[]; value: string; onChange: (v: string) => void }) {
  return (
    <select id="check-task" name="task" value={value} onChange={(e) => onChange(e.target.value)} required>
      {tasks.map((t) => (
        <option key={t.name} value={t.name}>
          {t.title} ({t.name}){t.has_evidence ? "" : " — no evidence to check against"}
        </option>
      ))}
    </select>
  );
}

function CheckForm({ tasks, onChecked }: { tasks: TaskOut[]; onChecked: (c: Omit<Checked, "seq">) => void }) {
  const [task, setTask] = useState(() => (tasks.find((t) => t.has_evidence) ?? tasks[0])?.name ?? "");
  const [text, setText] = useState("");
  const [name, setName] = useState(DEFAULT_NAME);
  const [varsText, setVarsText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    try {
      setText(await file.text());
      setName(file.name || DEFAULT_NAME);
      setError(null);
    } catch (err) {
      setError(`could not read ${file.name}: ${messageOf(err)}`);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseVars(varsText);
    if (parsed.errors.length) {
      setError(`Vars: ${parsed.errors.join("; ")}`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const report = await checkDocument({ task, text, name: name || DEFAULT_NAME, vars: parsed.vars });
      onChecked({ report, text });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card check-form" onSubmit={submit} aria-describedby={error ? "check-error" : undefined}>
      <label htmlFor="check-task">Task</label>
      <TaskSelect tasks={tasks} value={task} onChange={setTask} />
      <label htmlFor="check-text">Markdown document</label>
      <textarea
        id="check-text"
        name="text"
        rows={12}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (name !== DEFAULT_NAME && !e.target.value) setName(DEFAULT_NAME);
        }}
        placeholder={"## Summary\nIBM is up 72.7% on cost."}
        spellCheck={false}
      />
      <label htmlFor="check-file">Or upload a .md file</label>
      <input id="check-file" name="file" type="file" accept=".md,.markdown,text/markdown,text/plain" onChange={(e) => void onFile(e)} />
      <label htmlFor="check-vars">
        Vars <span className="muted small">(optional, KEY=VALUE per line)</span>
      </label>
      <textarea
        id="check-vars"
        name="vars"
        rows={3}
        value={varsText}
        onChange={(e) => setVarsText(e.target.value)}
        placeholder="holdings=tasks/portfolio-review/data/holdings.csv"
        spellCheck={false}
      />
      <div className="check-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || !task}>
          {busy ? "Checking…" : "Check"}
        </button>
        {name !== DEFAULT_NAME && <span className="muted small">file: {name}</span>}
      </div>
      {error && (
        <p className="state state-error" role="alert" id="check-error" data-testid="check-error">
          {error}
        </p>
      )}
    </form>
  );
}

export function CheckPage() {
  const { data, error, loading, reload } = useAsync(getTasks, []);
  const [checked, setChecked] = useState<Checked | null>(null);
  return (
    <div>
      <header className="page-head">
        <div>
          <h1>Check a document</h1>
          <p className="muted">
            Every sentence, bullet and table row is checked against the task's evidence: supported, contradicted or
            unverifiable.
          </p>
        </div>
      </header>
      {loading && !data && <Loading label="Loading tasks…" />}
      {error != null && <ErrorBox error={error} retry={reload} />}
      {data && (
        <CheckForm tasks={data.data} onChecked={(c) => setChecked((prev) => ({ ...c, seq: (prev?.seq ?? 0) + 1 }))} />
      )}
      {checked && (
        <section aria-labelledby="check-result-h" className="check-result">
          <h2 id="check-result-h">
            Claims of <code>{checked.report.file}</code>
          </h2>
          <ClaimsView key={checked.seq} text={checked.text} ledger={checked.report} label="Document claims" />
        </section>
      )}
    </div>
  );
}
