// The claim ledger over a displayed text: where each claim is, as segments to highlight.
//
// Claim offsets refer to the text that was checked; the text on screen may differ slightly (e-mail
// and phone placeholders restored, fact references rendered or not, paragraph lines joined), so a
// claim is located by its words, searching forward from the end of the previous claim:
//  1. its text, any run of whitespace matching any other, `[[EMAIL_1]]`-style placeholders matching
//     whatever stands in their place;
//  2. its first and last words (both found, close to where the offsets say);
//  3. its offsets, shifted by how far the end of the previous located claim was from its own offset.
// A claim found by none of these is returned in `unplaced`. Pure: no DOM, no React.

export interface FindingLike {
  kind?: string | null;
  text?: string | null;
  status?: string | null;
  note?: string | null;
  evidence?: string[];
}

export interface ClaimLike {
  id: number;
  text: string;
  start: number;
  end: number;
  status: string;
  findings?: FindingLike[];
}

export interface LedgerLike<C extends ClaimLike = ClaimLike> {
  claims: C[];
  factual?: number | null;
  supported?: number | null;
  contradicted?: number | null;
  unverifiable?: number | null;
  grounding?: number | null;
}

export type Located = "text" | "anchors" | "offsets";

export interface Segment<C extends ClaimLike = ClaimLike> {
  text: string;
  start: number;
  end: number;
  claim: C | null;
  located?: Located;
}

export interface Placement<C extends ClaimLike = ClaimLike> {
  segments: Segment<C>[];
  unplaced: C[];
}

export const HIGHLIGHTED = ["supported", "contradicted", "unverifiable"] as const;

/** Statuses shown highlighted ("none" — no factual content — is not). */
export function isHighlighted(status: string): boolean {
  return (HIGHLIGHTED as readonly string[]).includes(status);
}

// `[[EMAIL_1]]` / `[[PHONE_2]]` (see autogen_pse.redact): the value restored in its place, or the placeholder
const PLACEHOLDER = /(\[\[\s*(?:EMAIL|PHONE)_\d+\s*\]\])/;
const RESTORED: Record<string, string> = { EMAIL: "[^\\s@]+@[\\w.-]*\\w", PHONE: "\\+?[\\d(][\\d ().-]*\\d" };
const ANCHOR_WORDS = 3;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A regex source for `words`: whitespace runs match any whitespace, placeholders what replaced them. */
function pattern(words: string): string {
  return words
    .trim()
    .split(PLACEHOLDER)
    .map((part, i) => {
      if (i % 2 === 1) return `(?:${escape(part)}|${RESTORED[part.includes("EMAIL") ? "EMAIL" : "PHONE"]})`;
      return part
        .split(/(\s+)/)
        .map((piece) => (/^\s+$/.test(piece) ? "\\s+" : escape(piece)))
        .join("");
    })
    .join("");
}

/** `[start, end)` of the first match of `words` in `text` at or after `from`, or null. */
export function findWords(text: string, words: string, from = 0): [number, number] | null {
  if (!words.trim()) return null;
  const re = new RegExp(pattern(words), "g");
  re.lastIndex = Math.max(0, from);
  const m = re.exec(text);
  return m && m[0].length > 0 ? [m.index, m.index + m[0].length] : null;
}

function anchors(words: string): [string, string] | null {
  const parts = words.trim().split(/\s+/);
  if (parts.length < 2 * ANCHOR_WORDS) return null;
  return [parts.slice(0, ANCHOR_WORDS).join(" "), parts.slice(-ANCHOR_WORDS).join(" ")];
}

/** Locate one claim at or after `cursor`; `drift` is (screen position − offset) of the previous claim's end. */
function locate(text: string, claim: ClaimLike, cursor: number, drift: number): [number, number, Located] | null {
  const expected = claim.start + drift;
  const slack = 2 * claim.text.length + 80;
  const whole = findWords(text, claim.text, cursor);
  if (whole) return [whole[0], whole[1], "text"];
  const ends = anchors(claim.text);
  if (ends) {
    const head = findWords(text, ends[0], Math.max(cursor, expected - slack));
    if (head && head[0] <= expected + slack) {
      const tail = findWords(text, ends[1], head[1]);
      if (tail && tail[1] - head[0] <= slack) return [head[0], tail[1], "anchors"];
    }
  }
  const start = Math.max(cursor, expected);
  const end = Math.min(text.length, claim.end + drift);
  if (claim.end > claim.start && start < end) return [start, end, "offsets"];
  return null;
}

/** Split `text` into plain and claim segments (claims in document order, never overlapping). */
export function claimSegments<C extends ClaimLike>(text: string, claims: readonly C[]): Placement<C> {
  const ordered = [...claims].sort((a, b) => a.start - b.start || a.id - b.id);
  const segments: Segment<C>[] = [];
  const unplaced: C[] = [];
  let cursor = 0;
  let drift = 0;
  for (const claim of ordered) {
    const found = locate(text, claim, cursor, drift);
    if (!found) {
      unplaced.push(claim);
      continue;
    }
    const [start, end, located] = found;
    if (start > cursor) segments.push({ text: text.slice(cursor, start), start: cursor, end: start, claim: null });
    segments.push({ text: text.slice(start, end), start, end, claim, located });
    cursor = end;
    drift = end - claim.end;
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor), start: cursor, end: text.length, claim: null });
  return { segments, unplaced };
}

/** The hover text of a claim: its status, then each finding's note (or words) with its evidence ids. */
export function claimTitle(claim: ClaimLike): string {
  const lines = (claim.findings ?? []).map((f) => {
    const what = f.note || f.text || f.kind || "";
    const ids = f.evidence && f.evidence.length ? ` [${f.evidence.join(", ")}]` : "";
    return `${f.status ?? "?"}: ${what}${ids}`;
  });
  return [claim.status, ...lines].join("\n");
}

/** The ledger to show for a run: the final one, else the last cycle's that has one. */
export function runLedger<L>(trace: { ledger?: L | null; cycles: { ledger?: L | null }[] }): L | null {
  if (trace.ledger) return trace.ledger;
  for (let i = trace.cycles.length - 1; i >= 0; i--) {
    const ledger = trace.cycles[i]?.ledger;
    if (ledger) return ledger;
  }
  return null;
}

export interface LedgerCounts {
  claims: number;
  factual: number;
  supported: number;
  contradicted: number;
  unverifiable: number;
  grounding: number | null;
}

/** Counts of a ledger, from its own fields where present, else counted from its claims. */
export function ledgerCounts(ledger: LedgerLike): LedgerCounts {
  const count = (status: string) => ledger.claims.filter((c) => c.status === status).length;
  const supported = ledger.supported ?? count("supported");
  const contradicted = ledger.contradicted ?? count("contradicted");
  const unverifiable = ledger.unverifiable ?? count("unverifiable");
  const factual = ledger.factual ?? supported + contradicted + unverifiable;
  const grounding = ledger.grounding !== undefined ? ledger.grounding : factual ? supported / factual : null;
  return { claims: ledger.claims.length, factual, supported, contradicted, unverifiable, grounding };
}
