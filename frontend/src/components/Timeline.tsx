// Waterfall of a run's model calls, retries, tool calls and checks per cycle, with durations
// (GET /api/runs/{id}/timeline). Each cycle has its own time scale; hover a bar for details.
import type { Span, Timeline as TimelineData } from "../api/client";
import { fmtSeconds, layoutTimeline } from "../timeline";
import { agentClass, Empty } from "./ui";

const KIND_LABEL: Record<string, string> = { setup: "set-up", model: "model", retry: "retry wait", tool: "tool", checks: "checks" };

function title(s: Span): string {
  const tokens = s.tokens ? `, ${s.tokens.toLocaleString()} tokens` : "";
  return `${s.role} ${s.label}: ${fmtSeconds(s.seconds)}${tokens} (at +${fmtSeconds(s.start)}, event #${s.seq})`;
}

export function Timeline({ data }: { data: TimelineData }) {
  const groups = layoutTimeline(data.spans);
  if (!groups.length) return <Empty>No timed events recorded yet.</Empty>;
  return (
    <div className="timeline" data-testid="timeline">
      <p className="muted small">
        Wall time {fmtSeconds(data.seconds)} · bars on each cycle's own scale ·{" "}
        {Object.entries(KIND_LABEL).map(([k, label]) => (
          <span key={k} className={`tl-key tl-${k}`}>
            {label}
          </span>
        ))}
      </p>
      {groups.map((g) => (
        <section key={g.cycle} className="tl-group" data-cycle={g.cycle} aria-label={g.cycle ? `Cycle ${g.cycle} timeline` : "Set-up timeline"}>
          <h4>
            {g.cycle ? `Timeline of cycle ${g.cycle}` : "Before the first turn"}{" "}
            <span className="muted small">
              +{fmtSeconds(g.start)} → +{fmtSeconds(g.end)} ·{" "}
              {Object.entries(g.byKind)
                .map(([k, s]) => `${KIND_LABEL[k] ?? k} ${fmtSeconds(s)}`)
                .join(" · ")}
            </span>
          </h4>
          <ol className="tl-rows">
            {g.bars.map(({ span, left, width }) => (
              <li key={`${span.seq}-${span.kind}`} className={`tl-row ${agentClass(span.role)}`} data-kind={span.kind} title={title(span)}>
                <span className="tl-label">
                  <span className="tl-role">{span.role}</span> {span.label}
                </span>
                <svg className="tl-track" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                  <rect className={`tl-bar tl-${span.kind}${span.error ? " tl-error" : ""}`} x={left} y={1} width={width} height={8} rx={0.5} />
                </svg>
                <span className="tl-dur">{fmtSeconds(span.seconds)}</span>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
