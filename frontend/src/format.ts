// Display helpers: times, durations, tokens, money.

export function fmtTime(ts: string | null | undefined): string {
  if (!ts) return "—";
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : m > 0 ? `${m}m ${String(sec).padStart(2, "0")}s` : `${sec}s`;
}

export function fmtTokens(n: number | null | undefined): string {
  return typeof n === "number" ? n.toLocaleString() : "—";
}

/** A cost; null means unknown (an unpriced model part), never zero. */
export function fmtCost(cost: number | null | undefined, currency?: string | null): string {
  if (cost === null || cost === undefined) return "unknown";
  const cur = currency || "USD";
  const digits = cost !== 0 && Math.abs(cost) < 0.01 ? 4 : 2;
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: cur, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(cost);
  } catch {
    return `${cost.toFixed(digits)} ${cur}`;
  }
}

export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}

/** `datetime-local` value (local time) → ISO string in UTC, or undefined when empty. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
