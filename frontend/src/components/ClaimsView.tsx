// The claim ledger over a text: the counts, the text with every factual claim highlighted by its
// status (the evidence in the title on hover; a click or Enter opens the claim's findings) and the
// claims that could not be found in the text. Where each claim is: ../claims.ts.
import { useMemo, useState, type KeyboardEvent } from "react";
import type { Claim } from "../api/client";
import { claimSegments, claimTitle, isHighlighted, ledgerCounts, type LedgerLike } from "../claims";
import { Empty } from "./ui";

const STATUS_BADGE: Record<string, string> = {
  supported: "badge-pass", contradicted: "badge-fail", unverifiable: "badge-partial",
};

export function ClaimStatus({ status }: { status: string | null | undefined }) {
  const s = status ?? "none";
  return (
    <span className={`badge ${STATUS_BADGE[s] ?? "badge-none"}`} data-claim-status={s}>
      {s}
    </span>
  );
}

export function LedgerSummary({ ledger }: { ledger: LedgerLike }) {
  const n = ledgerCounts(ledger);
  return (
    <p className="ledger-counts" data-testid="ledger-counts">
      <span className="count count-supported" data-count="supported">{n.supported} supported</span>
      <span className="count count-contradicted" data-count="contradicted">{n.contradicted} contradicted</span>
      <span className="count count-unverifiable" data-count="unverifiable">{n.unverifiable} unverifiable</span>
      <span className="muted">
        of {n.factual} factual claim{n.factual === 1 ? "" : "s"} ({n.claims} in all)
      </span>
      <span className="count" data-count="grounding">
        grounding {n.grounding == null ? "—" : `${Math.round(n.grounding * 100)}%`}
      </span>
    </p>
  );
}

function ClaimPanel({ claim, onClose }: { claim: Claim; onClose: () => void }) {
  const head = `claim-${claim.id}-h`;
  return (
    <aside className="claim-panel" data-testid="claim-panel" data-claim={claim.id} aria-labelledby={head}>
      <div className="claim-panel-head">
        <h3 id={head}>
          Claim {claim.id} <ClaimStatus status={claim.status} />
        </h3>
        <button type="button" className="btn btn-small" onClick={onClose}>
          Close
        </button>
      </div>
      <blockquote className="claim-quote">{claim.text}</blockquote>
      <p className="muted small">
        line {claim.line}
        {claim.kind && ` · ${claim.kind}`}
        {claim.section && ` · section “${claim.section}”`}
        {claim.entities.length > 0 && ` · about ${claim.entities.join(", ")}`}
      </p>
      {claim.findings.length === 0 ? (
        <p className="muted">No findings: nothing in this claim was checked against the evidence.</p>
      ) : (
        <ul className="findings">
          {claim.findings.map((f, i) => (
            <li key={i} data-status={f.status ?? "none"}>
              <div>
                <ClaimStatus status={f.status} /> <span className="finding-kind">{f.kind}</span>{" "}
                {f.text && <q>{f.text}</q>}
              </div>
              {f.note && <p className="finding-note">{f.note}</p>}
              {f.evidence.length > 0 && (
                <p className="finding-evidence">
                  evidence:{" "}
                  {f.evidence.map((e) => (
                    <code key={e}>{e}</code>
                  ))}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {claim.judge && (
        <p className="small">
          <strong>Judge:</strong> {Object.entries(claim.judge).map(([k, v]) => `${k}: ${String(v)}`).join(" · ")}
        </p>
      )}
    </aside>
  );
}

function Legend() {
  return (
    <p className="claims-legend small" aria-hidden="true">
      <span className="claim claim-supported">supported</span>
      <span className="claim claim-contradicted">contradicted</span>
      <span className="claim claim-unverifiable">unverifiable</span>
      <span className="muted">click a claim for its evidence</span>
    </p>
  );
}

export function ClaimsView({ text, ledger, label = "Claims" }: { text: string; ledger: LedgerLike<Claim>; label?: string }) {
  const [selected, setSelected] = useState<number | null>(null);
  const placed = useMemo(() => claimSegments(text, ledger.claims), [text, ledger]);
  const current = ledger.claims.find((c) => c.id === selected) ?? null;
  const toggle = (id: number) => setSelected((s) => (s === id ? null : id));
  const onKey = (e: KeyboardEvent<HTMLElement>, id: number) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      toggle(id);
    } else if (e.key === "Escape") setSelected(null);
  };

  if (ledger.claims.length === 0)
    return (
      <div className="claims-view">
        <Empty>
          <span data-testid="no-claims">No claims</span> in this text: nothing to check.
        </Empty>
      </div>
    );
  return (
    <div className="claims-view">
      <LedgerSummary ledger={ledger} />
      <Legend />
      <div className={`claims-layout${current ? " claims-layout-panel" : ""}`}>
        <pre className="claims-text" data-testid="claims-text" aria-label={label}>
          {placed.segments.map((seg) => {
            const c = seg.claim;
            if (!c || !isHighlighted(c.status)) return <span key={seg.start}>{seg.text}</span>;
            return (
              <mark
                key={seg.start}
                className={`claim claim-${c.status}${c.id === selected ? " claim-selected" : ""}`}
                data-claim={c.id}
                data-status={c.status}
                title={claimTitle(c)}
                role="button"
                tabIndex={0}
                aria-pressed={c.id === selected}
                aria-label={`${c.status} claim: ${seg.text}`}
                onClick={() => toggle(c.id)}
                onKeyDown={(e) => onKey(e, c.id)}
              >
                {seg.text}
              </mark>
            );
          })}
        </pre>
        {current && <ClaimPanel claim={current} onClose={() => setSelected(null)} />}
      </div>
      {placed.unplaced.some((c) => isHighlighted(c.status)) && (
        <details className="claims-unplaced">
          <summary>{placed.unplaced.filter((c) => isHighlighted(c.status)).length} claim(s) not found in this text</summary>
          <ul>
            {placed.unplaced
              .filter((c) => isHighlighted(c.status))
              .map((c) => (
                <li key={c.id} title={claimTitle(c)}>
                  <ClaimStatus status={c.status} /> {c.text}
                </li>
              ))}
          </ul>
        </details>
      )}
    </div>
  );
}
