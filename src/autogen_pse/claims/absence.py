"""What a sentence says a candidate lacks or was not claimed ("no Rust experience", "✘ gRPC",
"Rust would be a bonus"): a name so written is no claim that she has it."""

from __future__ import annotations

import re

_ABSENT = re.compile(
    r"\b(?:not\s+(?:on|in|listed|mentioned|part\s+of|found)|\w*n['’]t\s+(?:on|in|listed)|\w*n[o'’]t\s+appear|no\s+(?:\w+\s+)?(?:experience|"
    r"exposure)|lacks?|gaps?|missing|absent|whether|(?:don't|do\s+not|doesn't|does\s+not|haven't|has\s+not|have\s+not|"
    r"hasn't)\s+(?:yet\s+)?(?:have|had|used|worked|got|list|feature|mention|include)|never\s+used|\w*n['’]t\s+feature|"
    r"(?:keen|happy|eager|willing)\s+to\s+learn|new\s+to|(?:did\s+not|didn't|don't|do\s+not)\s+(?:add|include|claim|invent|touch|mention|imply|list)|"
    r"could\s+mention|if\s+you(?:'ve|\s+have)\s+used|nice[- ]to[- ]haves?|partial(?:ly)?|"
    r"outside\s+(?:the|my|your|her|his)\s+(?:cv|résumé|resume)|neither\s+(?:(?:is|are)\s+)?(?:on|in)|"
    r"not\s+(?:supported|backed|evidenced)\s+by|(?:are|is|were|was|been)\s+left\s+out|"
    r"(?:would\s+be|is|are)\s+(?:a\s+)?(?:bonus|plus)|no,?\s+not\s+yet)\b|[✘✗❌]",  # "Rust would be a bonus"
    re.IGNORECASE,
)
_PRESENT_MARK = re.compile(r"[✔✓✅☑]")
_NICE_TO_HAVE = re.compile(r"nice[- ]to[- ]haves?", re.IGNORECASE)
_NO_LIST = re.compile(r"\bno\s+(?:[\w-]+(?:\s+or\s+|\s*,\s*|\s+and\s+|\s*/\s*)){0,3}$", re.IGNORECASE)
_RELATIVE = re.compile(r",\s*(?:which|that|so)\b", re.IGNORECASE)  # "…, so that nice-to-have is covered"
_LABEL_ONLY = re.compile(r"nice[- ]to[- ]haves?|partial(?:ly)?", re.IGNORECASE)


def says_absent(text: str, lo: int, hi: int, at: int) -> bool:
    """Does ``text[lo:hi]`` say the name at ``at`` is absent ("no Rust experience", "✘ gRPC")? A tick
    overrides a mere label: "✔ Nice to have: gRPC — exposed the API over gRPC" claims it; so does a
    relative clause: "comfortable in Rust, which is on your nice-to-have list"."""
    found = [m.group(0) for m in _ABSENT.finditer(text, lo, hi)
             if not (_NICE_TO_HAVE.fullmatch(m.group(0)) and _RELATIVE.search(text, at, m.start()))]
    if _NO_LIST.search(text, lo, at):  # "no Rust or gRPC on the CV"
        found.append("no")
    line_lo, line_hi = text.rfind("\n", lo, at) + 1 or lo, text.find("\n", at, hi)
    if found and _PRESENT_MARK.search(text, max(lo, line_lo), hi if line_hi < 0 else line_hi):  # a tick on its line
        return not all(_LABEL_ONLY.fullmatch(f) for f in found)
    return bool(found)
