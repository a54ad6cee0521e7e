import { useEffect, useState } from "react";
import { fmtDuration } from "../format";

/** Time from `start` to `end` (or now, ticking every second while `end` is unset). */
export function Elapsed({ start, end }: { start: string | null; end: string | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (end || !start) return;
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, [start, end]);
  if (!start) return <span>—</span>;
  const ms = (end ? new Date(end).getTime() : now) - new Date(start).getTime();
  return <span>{fmtDuration(ms)}</span>;
}
