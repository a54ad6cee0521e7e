// Markdown rendered with marked, then sanitized with DOMPurify. Artifacts are written by models
// (and so by whoever can steer their input), so the HTML is treated as hostile:
//  - DOMPurify's HTML profile only (no SVG/MathML), no scripts, event handlers, iframes, objects,
//    forms, styles or `javascript:`/`data:` links;
//  - ids and names are prefixed (`user-content-`) so the artifact cannot clobber `window.x` or
//    `document.x` globals; no `data-*` attributes and only `language-*` classes, so it cannot
//    dress itself up as the dashboard's own badges;
//  - images load only from this origin or `data:image/…` (the CSP enforces the same), links open
//    in a new tab without referrer or opener.
import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";

const SAFE_CLASS = /^language-[\w+#-]{1,40}$/;
const SAFE_IMG = /^(?:data:image\/(?:png|gif|jpe?g|webp);base64,|\/(?!\/)|\.{1,2}\/|[\w-]+\.(?:png|gif|jpe?g|webp)$)/i;

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  const el = node as Element;
  if (el.tagName === "A") {
    el.setAttribute("rel", "noopener noreferrer nofollow");
    el.setAttribute("target", "_blank");
  }
  if (el.tagName === "IMG") {
    const src = el.getAttribute("src") ?? "";
    if (!SAFE_IMG.test(src)) {
      el.removeAttribute("src");
      el.removeAttribute("srcset");
      el.setAttribute("data-blocked", "external image not loaded");
    }
  }
  const cls = el.getAttribute("class");
  if (cls !== null) {
    const kept = cls.split(/\s+/).filter((c) => SAFE_CLASS.test(c));
    if (kept.length) el.setAttribute("class", kept.join(" "));
    else el.removeAttribute("class");
  }
});

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "frame", "object", "embed",
      "base", "link", "meta", "svg", "math", "template", "dialog"],
    FORBID_ATTR: ["style", "srcset", "formaction", "action", "ping", "background"],
    ALLOW_DATA_ATTR: false,
    SANITIZE_NAMED_PROPS: true,
  });
}

export function Markdown({ text, className = "" }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={`markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
