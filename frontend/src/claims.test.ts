import { describe, expect, it } from "vitest";
import { claimSegments, claimTitle, findWords, isHighlighted, ledgerCounts, runLedger, type ClaimLike } from "./claims";

let nextId = 0;
/** A claim of `checked` (the text as the checker saw it) over `words`, at their first occurrence after `from`. */
function claimOf(checked: string, words: string, status = "supported", from = 0): ClaimLike {
  const start = checked.indexOf(words, from);
  if (start < 0) throw new Error(`${words} not in ${checked}`);
  return { id: ++nextId, text: words, start, end: start + words.length, status, findings: [] };
}

/** The segments as [text, claim id | null] pairs (plain text as null). */
const shape = (text: string, claims: ClaimLike[]) =>
  claimSegments(text, claims).segments.map((s) => [s.text, s.claim?.id ?? null] as const);

describe("findWords", () => {
  it("matches any whitespace for whitespace and starts at `from`", () => {
    expect(findWords("IBM is\nup 3%. IBM is up 3%.", "IBM is up 3%.")).toEqual([0, 13]);
    expect(findWords("IBM is\nup 3%. IBM is up 3%.", "IBM is up 3%.", 1)).toEqual([14, 27]);
    expect(findWords("abc", "")).toBeNull();
    expect(findWords("abc", "x")).toBeNull();
  });

  it("escapes regex characters", () => {
    expect(findWords("Up (12.3%) [sic] $5 a+b?", "(12.3%) [sic] $5 a+b?")).toEqual([3, 24]);
    expect(findWords("Up 1203%", "12.3%")).toBeNull();
  });

  it("lets a placeholder match the restored e-mail address or phone number", () => {
    const shown = "Mail jane.doe@example.org or call +44 7700 900123 today.";
    expect(findWords(shown, "Mail [[EMAIL_1]] or call [[PHONE_2]] today.")).toEqual([0, shown.length]);
    expect(findWords("Mail [[EMAIL_1]].", "Mail [[EMAIL_1]].")).toEqual([0, 17]);
  });
});

describe("claimSegments", () => {
  it("covers the whole text with plain and claim segments, in order", () => {
    const text = "## Summary\nIBM is up 12.3% since 2006. Hold it.\n";
    const heading = claimOf(text, "Summary", "none");
    const ibm = claimOf(text, "IBM is up 12.3% since 2006.", "contradicted");
    const hold = claimOf(text, "Hold it.", "none");
    const placed = claimSegments(text, [hold, ibm, heading]); // any order in, document order out
    expect(placed.unplaced).toEqual([]);
    expect(placed.segments.map((s) => s.text).join("")).toBe(text);
    expect(shape(text, [hold, ibm, heading])).toEqual([
      ["## ", null], ["Summary", heading.id], ["\n", null], ["IBM is up 12.3% since 2006.", ibm.id], [" ", null],
      ["Hold it.", hold.id], ["\n", null],
    ]);
    expect(placed.segments.every((s) => text.slice(s.start, s.end) === s.text)).toBe(true);
  });

  it("finds a repeated sentence at its own place, searching on from the previous claim", () => {
    const text = "- Cut risk.\n- IBM is up.\n- Cut risk.\n";
    const first = claimOf(text, "Cut risk.");
    const mid = claimOf(text, "IBM is up.");
    const second = claimOf(text, "Cut risk.", "unverifiable", first.end);
    const segs = claimSegments(text, [first, mid, second]).segments.filter((s) => s.claim);
    expect(segs.map((s) => [s.start, s.claim?.id])).toEqual([[2, first.id], [14, mid.id], [27, second.id]]);
  });

  it("locates claims by text when the displayed text is longer (placeholders restored)", () => {
    const checked = "Contact: [[EMAIL_1]]. IBM is up 72.7% on cost.";
    const shown = "Contact: jane.doe@example.org. IBM is up 72.7% on cost.";
    const contact = claimOf(checked, "Contact: [[EMAIL_1]].", "none");
    const ibm = claimOf(checked, "IBM is up 72.7% on cost.");
    const segs = claimSegments(shown, [contact, ibm]).segments.filter((s) => s.claim);
    expect(segs.map((s) => [s.text, s.located])).toEqual([
      ["Contact: jane.doe@example.org.", "text"],
      ["IBM is up 72.7% on cost.", "text"],
    ]);
  });

  it("joins a paragraph's lines like the splitter did", () => {
    const text = "IBM is up\n72.7% on cost.";
    const claim = { id: 1, text: "IBM is up 72.7% on cost.", start: 0, end: 24, status: "supported" };
    expect(shape(text, [claim])).toEqual([[text, 1]]);
  });

  it("falls back to first and last words, then to offsets shifted by the previous claim's drift", () => {
    const checked = "Intro line here. IBM is up 72.70% on cost basis today. Trim GOOG now.";
    // the display has the fact reference instead of its value, and one more word before everything
    const shown = "Hello. Intro line here. IBM is up {{fact:IBM.pnl_pct}} on cost basis today. Trim GOOGL now.";
    const intro = claimOf(checked, "Intro line here.");
    const ibm = claimOf(checked, "IBM is up 72.70% on cost basis today.", "supported");
    const trim = claimOf(checked, "Trim GOOG now.", "contradicted");
    const placed = claimSegments(shown, [intro, ibm, trim]);
    const segs = placed.segments.filter((s) => s.claim);
    expect(segs.map((s) => [s.text, s.located])).toEqual([
      ["Intro line here.", "text"],
      ["IBM is up {{fact:IBM.pnl_pct}} on cost basis today.", "anchors"],
      // the IBM claim ends 7 ("Hello. ") + 14 (the reference is longer than its value) characters later
      // than its offset: shifted as much, the offsets of "Trim GOOG now." cover "Trim GOOGL now"
      ["Trim GOOGL now", "offsets"],
    ]);
    expect(placed.unplaced).toEqual([]);
    expect(placed.segments.map((s) => s.text).join("")).toBe(shown);
  });

  it("never overlaps or goes past the text; claims it cannot place are returned", () => {
    const text = "Short text.";
    const a = { id: 1, text: "Short text.", start: 0, end: 11, status: "supported" };
    const ghost = { id: 2, text: "Not there at all.", start: 5, end: 40, status: "contradicted" };
    const beyond = { id: 3, text: "Nowhere", start: 50, end: 57, status: "unverifiable" };
    const placed = claimSegments(text, [a, ghost, beyond]);
    expect(placed.segments.map((s) => [s.text, s.claim?.id ?? null])).toEqual([["Short text.", 1]]);
    expect(placed.unplaced.map((c) => c.id)).toEqual([2, 3]);
  });

  it("returns the text as one plain segment without claims, and nothing for an empty text", () => {
    expect(shape("Just text.", [])).toEqual([["Just text.", null]]);
    expect(claimSegments("", [])).toEqual({ segments: [], unplaced: [] });
  });
});

describe("helpers", () => {
  it("highlights factual statuses only", () => {
    expect(["supported", "contradicted", "unverifiable", "none"].map(isHighlighted)).toEqual([true, true, true, false]);
  });

  it("titles a claim with its status, notes and evidence ids", () => {
    const claim = {
      id: 1, text: "IBM is up 12.3% since 2006.", start: 0, end: 27, status: "contradicted",
      findings: [
        { kind: "figure", text: "12.3%", status: "contradicted", note: "IBM.pnl_pct = 72.70%", evidence: ["IBM.pnl_pct"] },
        { kind: "date", text: "2006", status: "supported", note: "", evidence: [] },
      ],
    };
    expect(claimTitle(claim)).toBe("contradicted\ncontradicted: IBM.pnl_pct = 72.70% [IBM.pnl_pct]\nsupported: 2006");
  });

  it("takes the final ledger, else the last cycle's", () => {
    const l = (phase: string) => ({ phase, claims: [] });
    expect(runLedger({ ledger: l("final"), cycles: [{ ledger: l("c1") }] })?.phase).toBe("final");
    expect(runLedger({ ledger: null, cycles: [{ ledger: l("c1") }, { ledger: l("c2") }, { ledger: null }] })?.phase).toBe("c2");
    expect(runLedger({ cycles: [] })).toBeNull();
  });

  it("counts from the ledger's fields, or from its claims", () => {
    const claims = [
      { id: 1, text: "a", start: 0, end: 1, status: "supported" },
      { id: 2, text: "b", start: 2, end: 3, status: "contradicted" },
      { id: 3, text: "c", start: 4, end: 5, status: "none" },
    ];
    expect(ledgerCounts({ claims })).toEqual({
      claims: 3, factual: 2, supported: 1, contradicted: 1, unverifiable: 0, grounding: 0.5,
    });
    expect(ledgerCounts({ claims, factual: 5, supported: 4, contradicted: 1, unverifiable: 0, grounding: 0.8 }).grounding).toBe(0.8);
    expect(ledgerCounts({ claims: [] }).grounding).toBeNull();
  });
});
