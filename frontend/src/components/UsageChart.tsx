// Per-agent tokens (prompt + completion, stacked) and cost as a plain SVG bar chart.
import { fmtCost, fmtTokens } from "../format";
import { agentClass } from "./ui";

export interface AgentRow {
  agent: string;
  prompt: number;
  completion: number;
  cost: number | null;
  calls: number;
}

export function UsageChart({ rows, currency, title = "Tokens and cost per agent" }: { rows: AgentRow[]; currency?: string | null; title?: string }) {
  if (!rows.length) return <p className="muted">No model calls recorded.</p>;
  const max = Math.max(1, ...rows.map((r) => r.prompt + r.completion));
  const barH = 22;
  const gap = 14;
  const labelW = 90;
  const width = 560;
  const chartW = width - labelW - 150;
  const height = rows.length * (barH + gap) + 24;
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="usage-chart-title" preserveAspectRatio="xMinYMin meet">
        <title id="usage-chart-title">{title}</title>
        {rows.map((r, i) => {
          const y = i * (barH + gap) + 4;
          const pw = (r.prompt / max) * chartW;
          const cw = (r.completion / max) * chartW;
          return (
            <g key={r.agent} className={agentClass(r.agent)}>
              <text x={0} y={y + barH * 0.7} className="chart-label">
                {r.agent}
              </text>
              <rect x={labelW} y={y} width={Math.max(pw, 0)} height={barH} className="bar-prompt">
                <title>{`${r.agent}: ${r.prompt} prompt tokens`}</title>
              </rect>
              <rect x={labelW + pw} y={y} width={Math.max(cw, 0)} height={barH} className="bar-completion">
                <title>{`${r.agent}: ${r.completion} completion tokens`}</title>
              </rect>
              <text x={labelW + pw + cw + 6} y={y + barH * 0.7} className="chart-value">
                {fmtTokens(r.prompt + r.completion)} tok · {fmtCost(r.cost, currency)}
              </text>
            </g>
          );
        })}
        <text x={labelW} y={height - 4} className="chart-legend">
          solid: prompt tokens · light: completion tokens
        </text>
      </svg>
      <div className="visually-hidden">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th>Agent</th>
            <th>Calls</th>
            <th>Prompt tokens</th>
            <th>Completion tokens</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent}>
              <td>{r.agent}</td>
              <td>{r.calls}</td>
              <td>{r.prompt}</td>
              <td>{r.completion}</td>
              <td>{fmtCost(r.cost, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
