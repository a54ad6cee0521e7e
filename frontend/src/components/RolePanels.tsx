// Collapsible per-role panels: the retrieved passages of each role (one line per role, opened on
// demand) and the system prompt each role received in a cycle.
import { AgentLabel, agentClass } from "./ui";

export interface RetrievalView {
  seq: number;
  role: string;
  query: string;
  sources: string[];
}

export function RetrievalGroups({ groups, where }: { groups: { role: string; items: RetrievalView[] }[]; where: string }) {
  if (!groups.length) return null;
  return (
    <div className="role-panels" aria-label={`Retrieved passages ${where}`}>
      {groups.map((g) => {
        const passages = g.items.reduce((n, r) => n + r.sources.length, 0);
        return (
          <details key={g.role} className={`role-panel ${agentClass(g.role)}`} data-testid="retrievals" data-role={g.role}>
            <summary>
              <AgentLabel source={g.role} /> retrieved {passages} passage(s) for {g.items.length} quer{g.items.length === 1 ? "y" : "ies"}
            </summary>
            <ul className="retrievals">
              {g.items.map((r) => (
                <li key={r.seq}>
                  “{r.query}”
                  {r.sources.length > 0 ? (
                    <ul>
                      {r.sources.map((s, i) => (
                        <li key={i} className="muted small">
                          {s}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <span className="muted small"> — nothing found</span>
                  )}
                </li>
              ))}
            </ul>
          </details>
        );
      })}
    </div>
  );
}

export function PromptPanels({ prompts, cycle }: { prompts: Record<string, { text?: string | null; chars?: number | null }>; cycle: number }) {
  const roles = Object.keys(prompts);
  if (!roles.length) return null;
  return (
    <details className="role-panel prompts" data-testid="prompts">
      <summary>System prompts of cycle {cycle} ({roles.join(", ")})</summary>
      {roles.map((role) => (
        <details key={role} className={`role-panel ${agentClass(role)}`} data-role={role}>
          <summary>
            <AgentLabel source={role} /> <span className="muted small">{(prompts[role]?.chars ?? 0).toLocaleString()} characters</span>
          </summary>
          <pre className="prompt-text">{prompts[role]?.text ?? ""}</pre>
        </details>
      ))}
    </details>
  );
}
