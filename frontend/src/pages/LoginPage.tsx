import { useState, type FormEvent } from "react";
import { login } from "../api/client";
import { ErrorBox } from "../components/ui";

export function LoginPage({ onDone }: { onDone: () => void }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(token);
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="login card">
      <h1>Log in</h1>
      <p>This dashboard is protected by a token (PSE_WEB_TOKEN). It is kept in an HttpOnly cookie.</p>
      <form onSubmit={submit}>
        <label htmlFor="token">Token</label>
        <input id="token" type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="current-password" required />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Checking…" : "Log in"}
        </button>
      </form>
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}
