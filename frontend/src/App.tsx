import { useEffect, useState } from "react";
import { getHealth, logout, onUnauthorized } from "./api/client";
import { CheckPage } from "./pages/CheckPage";
import { ComparePage } from "./pages/ComparePage";
import { EvalDetailPage, EvalsPage } from "./pages/EvalsPage";
import { HistoryPage } from "./pages/HistoryPage";
import { LiveRunPage } from "./pages/LiveRunPage";
import { LoginPage } from "./pages/LoginPage";
import { RunDetailPage } from "./pages/RunDetailPage";
import { TasksPage } from "./pages/TasksPage";
import { Link, match, useLocation } from "./router";

function Page({ path }: { path: string }) {
  let m = match("/runs/:id/live", path);
  if (m?.id) return <LiveRunPage runId={m.id} key={`live-${m.id}`} />;
  m = match("/runs/:id", path);
  if (m?.id) return <RunDetailPage runId={m.id} key={`run-${m.id}`} />;
  m = match("/evals/:id", path);
  if (m?.id) return <EvalDetailPage evalId={m.id} key={`eval-${m.id}`} />;
  if (path === "/evals") return <EvalsPage />;
  if (path === "/history") return <HistoryPage />;
  if (path === "/compare") return <ComparePage />;
  if (path === "/check") return <CheckPage />;
  if (path === "/" || path === "/tasks") return <TasksPage />;
  return (
    <div>
      <h1>Not found</h1>
      <p>
        No page at <code>{path}</code>. <Link to="/">Go to the tasks</Link>.
      </p>
    </div>
  );
}

const NAV = [
  { to: "/", label: "Tasks", active: (p: string) => p === "/" || p === "/tasks" },
  { to: "/history", label: "History", active: (p: string) => p === "/history" || p.startsWith("/runs/") },
  { to: "/compare", label: "Compare", active: (p: string) => p === "/compare" },
  { to: "/evals", label: "Evals", active: (p: string) => p === "/evals" || p.startsWith("/evals/") },
  { to: "/check", label: "Check", active: (p: string) => p === "/check" },
];

export function App() {
  const { path } = useLocation();
  const [needLogin, setNeedLogin] = useState(false);
  const [authRequired, setAuthRequired] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => onUnauthorized(() => setNeedLogin(true)), []);
  useEffect(() => {
    getHealth()
      .then((h) => setAuthRequired(h.auth_required))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    const titles: Record<string, string> = { "/history": "History", "/compare": "Compare", "/check": "Check", "/evals": "Evals" };
    const fallback = path.startsWith("/runs/") ? "Run" : path.startsWith("/evals/") ? "Eval" : "Tasks";
    document.title = `${titles[path] ?? fallback} · autogen-pse`;
  }, [path]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">autogen-pse</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={n.active(path) ? "page" : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {authRequired && !needLogin && (
          <button type="button" className="btn btn-small" onClick={() => void logout().then(() => setNeedLogin(true))}>
            Log out
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {needLogin ? (
          <LoginPage
            onDone={() => {
              setNeedLogin(false);
              setGeneration((g) => g + 1);
            }}
          />
        ) : (
          <Page path={path} key={generation} />
        )}
      </main>
    </>
  );
}
