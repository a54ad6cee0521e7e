// Conversation display helpers, shared by the Live run and Run detail pages. Pure.

const FENCED = /```(?:verdict|json)?[ \t]*\n(\{[\s\S]*?\})\s*\n?```/g;
const TRAILING = /(\{[^{}]*"outcome"\s*:[\s\S]*\})\s*$/;

/** The evaluator's text without the raw verdict JSON (shown as the verdict box instead):
 * fenced ```verdict / ```json blocks holding an `outcome`, or a trailing bare JSON object. */
export function stripVerdict(content: string): { text: string; stripped: boolean } {
  let stripped = false;
  let text = content.replace(FENCED, (block: string, body: string) => {
    if (!/"outcome"\s*:/.test(body)) return block;
    stripped = true;
    return "";
  });
  const tail = TRAILING.exec(text);
  if (tail?.[1]) {
    try {
      const parsed: unknown = JSON.parse(tail[1]);
      if (parsed && typeof parsed === "object" && "outcome" in parsed) {
        text = text.slice(0, tail.index);
        stripped = true;
      }
    } catch {
      /* not JSON: keep the text */
    }
  }
  return { text: stripped ? text.trim() : content, stripped };
}

export interface RetrievalLike {
  type: string;
  role?: string;
  sources?: string[];
}

/** Retrieval items grouped per role (first-seen order), other items kept in order. */
export function groupRetrievals<T extends RetrievalLike>(items: T[]): { groups: { role: string; items: T[] }[]; rest: T[] } {
  const groups: { role: string; items: T[] }[] = [];
  const rest: T[] = [];
  for (const item of items) {
    if (item.type !== "retrieval") {
      rest.push(item);
      continue;
    }
    const role = item.role || "system";
    let group = groups.find((g) => g.role === role);
    if (!group) groups.push((group = { role, items: [] }));
    group.items.push(item);
  }
  return { groups, rest };
}
