"""Conversations pasted as an artifact: a chat's user turns, an e-mail's header, quoted messages and
signature, a transcript's speaker labels, an agent's tool calls and their results. What the other
side said is context for the answers, not a claim of the artifact."""

from __future__ import annotations

import re

_USER_TURN = re.compile(r"^[ \t]*\**(?:user|you said|you|me|human|client|customer|question|q)\**[ \t]*:", re.I | re.M)
_MODEL_TURN = re.compile(
    r"^[ \t]*\**(?:assistant|chatgpt said|chatgpt|claude said|claude|gemini said|gemini|copilot|ai|bot|answer|a)"
    r"\**[ \t]*:",
    re.I | re.M,
)


_FULL_NAME = r"[A-Z][a-z'’-]{1,15}[ \t][A-Z][A-Za-z'’-]{1,15}"  # "Hollis Grant"


def user_turn_lines(text: str) -> set[int]:
    """The lines (1-based) of the user's turns in a pasted chat or Q&A ("User: …", "You said: …",
    "Q: …" up to the assistant's "Assistant:"/"A:"): what the user asked or proposed is context for
    the answers, not a claim of the artifact."""
    if not (_USER_TURN.search(text) and _MODEL_TURN.search(text)):
        return set()
    out, user = set(), False
    for n, line in enumerate(text.split("\n"), start=1):
        if _USER_TURN.match(line):
            user = True
        elif _MODEL_TURN.match(line):
            user = False
        if user:
            out.add(n)
    return out


# a Q&A site's page: "asked Mar 2 '10 · viewed 1,486 times" near the top, then "## 2 Answers",
# "### Answer (accepted)", "### Accepted · Score 17"
_ASKED = re.compile(r"\basked\b[^\n]*(?:·|\bago\b|\bviews?\b|\bvotes?\b|\bby\b)|\bvotes?\b[\s*:]*\d|"
                    r"\bscore\b[\s*:]*\d|▲|\btags\b[\s*:]", re.I)
_ANSWERS = re.compile(r"^[#*_>\s▲▼✓✔\d]*(?:\d+\s+answers?\b|answer\b(?![*_\s]*:)|accepted\b)", re.I)


def question_lines(text: str) -> set[int]:
    """The lines (1-based) of a Q&A page's question, up to its first answer: what the asker holds,
    fears or proposes ("I'm tempted to sell my IBM") is context for the answers, not their claim."""
    lines = text.split("\n")
    if not any(_ASKED.search(line) for line in lines[:8]):
        return set()
    first = next((n for n, line in enumerate(lines, start=1) if n > 1 and _ANSWERS.match(line)), None)
    return set(range(1, first)) if first else set()


_ATTRIBUTION = re.compile(r"^[ \t>]*(?:On\b.{4,120}\bwrote:|-{2,}\s*(?:Original|Forwarded) Message\s*-{2,})\s*$",
                          re.I | re.M)
_MAIL_HEADER = re.compile(r"^\W*(?:Subject|From|To|Cc|Bcc|Date|Sent|Reply-To|Re|Attn|Prepared (?:by|for))\W*:", re.I)
_SIGNATURE = re.compile(r"^(?:-- ?|—|Sent from my \w+.*)$")


def is_email_thread(text: str) -> bool:
    """``text`` quotes an earlier message ("On Mon, 1 Mar 2010, Dana wrote:")."""
    return bool(_ATTRIBUTION.search(text))


def quoted_lines(text: str) -> set[int]:
    """The lines (1-based) of an e-mail that its author did not write as the review: the header block,
    the quoted earlier messages ("On Mon, 1 Mar 2010, Dana wrote:" and the ">" lines under it) and
    the signature ("-- " and what follows up to the next blank line)."""
    lines = text.split("\n")
    out: set[int] = set()
    top = 0
    for n, line in enumerate(lines[:10], start=1):  # a message's or memo's header (after a title, maybe)
        if _MAIL_HEADER.match(line):
            out.add(n)
            top = n
    if not top and not _ATTRIBUTION.search(text):
        return out
    quoted = signature = False  # after the first attribution every ">" line is quoted (answers may sit between)
    for n, line in enumerate(lines, start=1):
        attribution = bool(_ATTRIBUTION.match(line))
        quoted = quoted or attribution
        if _SIGNATURE.match(line.strip()):
            signature = True
        elif not line.strip():
            signature = False
        if signature or attribution or (quoted and (line.lstrip().startswith(">") or _MAIL_HEADER.match(line))):
            out.add(n)
    return out


# "TOM:", "**LUZ:**", "**T:**": an ALL-CAPS or bold name opening a line; "> **Hollis Grant**: …": a
# commenter's full name in bold opening a (quoted) line
_SPEAKER = re.compile(
    r"^([ \t>]*)(\*\*([A-Z][A-Za-z.]{0,15}):\*\*|([A-Z]{1,12}):|\*\*(" + _FULL_NAME + r")\*\*:)(?=[ \t])", re.M
)
# "… Two trades, done. – Hollis Grant", "— **Hollis Grant** · 9,502": a comment's or answer's byline
_SIGNED = r"[—–][ \t]*([*_]{0,2})(" + _FULL_NAME + r")\1(?=[ \t]*(?:$|·|\())"
_BYLINE = re.compile(_SIGNED, re.M)
_BYLINE_AFTER = re.compile(r"(?<=\S)[ \t]+" + _SIGNED + "(?=[ \t]*$)", re.M)  # after the comment's text: blanked
# "**Hollis Grant** · 9,502", "Hollis Grant (8,932 rep)": a user card's reputation, which marks a commenter
_REPUTATION = re.compile("(" + _FULL_NAME + r")[*_]{0,2}[ \t]*(?:·[ \t]*\d[\d,.]*k?\b"
                         r"|\((?!(?:19|20)\d\d\))\d[\d,.]*k?(?:[ \t]*rep)?\))")


_FENCED = re.compile(r"^[ \t]*```.*?^[ \t]*```", re.M | re.S)


def speaker_labels(text: str) -> str:
    """A transcript's speaker labels and a thread's bylines blanked: names that open two or more lines
    that way (or sign its comments) are who speaks, not what is said about the subject (a chat's
    "User:"/"A:" turns and field labels such as "NOTE:" or "**Action:**" stay)."""
    from .catalogue import _STOP_CAPS

    counts: dict[str, int] = {}
    labelled = set()  # names that open a line as a speaker label
    fenced = [(f.start(), f.end()) for f in _FENCED.finditer(text)]  # "AAPL: {weight: …}" in a YAML block: a key
    for m in _SPEAKER.finditer(text):
        if any(a <= m.start() < b for a, b in fenced):
            continue
        name = m.group(3) or m.group(4) or m.group(5)
        labelled.add(name)
        if not (_USER_TURN.match(m.group(0)) or _MODEL_TURN.match(m.group(0)) or name.title() in _STOP_CAPS
                or name in _STOP_CAPS):
            counts[name] = counts.get(name, 0) + 1
    for m in _BYLINE.finditer(text):
        counts[m.group(2)] = counts.get(m.group(2), 0) + 1
    carded = {m.group(1) for m in _REPUTATION.finditer(text)}
    speakers = {name for name, n in counts.items() if n >= 2 and (name in carded or name in labelled)}
    if not speakers:
        return text
    text = _SPEAKER.sub(lambda m: m.group(1) + " " * len(m.group(2))
                        if (m.group(3) or m.group(4) or m.group(5)) in speakers else m.group(0), text)
    return _BYLINE_AFTER.sub(lambda m: " " * len(m.group(0)) if m.group(2) in speakers else m.group(0), text)


_PERSON = r"[A-Z][a-z'’-]+(?:[ \t][A-Z][a-z'’-]+){1,2}"  # "Ingrid Sorensen"
# where a thread, transcript or ticket names its people: "**[07:01] Ingrid Sorensen:**", "**[06:48] Operator:**",
# "**Tom Reyes** commented", "**Priya Nair** (compliance) commented", "Ingrid Sorensen (Adviser):"; "Reporter:
# Walter Kim", "Comment #4 (Walter Kim)", "Ms. Ingrid Sorensen", "a question from Siobhan Kearney"
_LABELLED = re.compile(
    r"^[ \t>*_]*(?:(?P<time>\[\d{1,2}:\d{2}(?::\d{2})?\])[ \t]*(?P<speaker>[A-Z][a-z'’-]+(?:[ \t][A-Z][a-z'’-]+){0,2})"
    r"|(?P<name>" + _PERSON + r"))[*_]*(?P<role>[ \t]*\([^()\n]{1,30}\))?[*_]*[ \t]*"
    r"(?P<how>:|(?:commented|created|wrote|said|replied|asked|answered|edited|opened|closed|approved|reviewed|"
    r"reacted)\b)", re.M)
_NAMED_ONCE = re.compile(
    r"\b(?:Reporter|Assignee|Author|Reviewer|Prepared by|Comment[ \t]*#\d+)[ \t]*[:(][ \t]*"
    r"(?P<name>" + _PERSON + r")|\b(?:Mr|Mrs|Ms|Dr|Prof|Fr)\.?[ \t]+(?P<titled>" + _PERSON + r")"
    r"|\bquestion (?:is |comes )?from (?P<asker>" + _PERSON + r")")
_ROLE_LABEL = re.compile(r"^[ \t>*_]*(Operator|Moderator|Host|Interviewer|Caller|Presenter|Narrator)[*_]*:", re.M)
_ORG_WORD = re.compile(r"\b(?:Inc|Ltd|LLC|GmbH|PLC|Corp|Group|Bank|Capital|Partners|Holdings|Fund|Trust|Financial)\b")


def people(text: str) -> str:
    """The people a thread, transcript or ticket names (see ``_LABELLED``, ``_NAMED_ONCE``) blanked
    wherever their full names appear, a first or last name alone where only a person is meant ("Ms.
    Sorensen", "the Castellano portfolio", "thanks Rosa"): who speaks, reports or asks is no claim
    about the subject, and a person is no organisation in no source."""
    from .catalogue import _STOP_CAPS

    sure: set[str] = set()
    plain: dict[str, int] = {}  # "Catherine Doyle: …" twice, "Operator: …" twice
    for m in _LABELLED.finditer(text):
        if m.group("time") or m.group("role") or m.group("how") != ":":
            sure.add(m.group("speaker") or m.group("name"))
        elif not any(w in _STOP_CAPS for w in m.group("name").split()):
            plain[m.group("name")] = plain.get(m.group("name"), 0) + 1
    sure |= {n for n, k in plain.items() if k >= 2}
    sure |= {m.group(1) for m in _ROLE_LABEL.finditer(text)} if len(_ROLE_LABEL.findall(text)) >= 2 else set()
    sure |= {n for m in _NAMED_ONCE.finditer(text) for n in m.groups() if n}
    names = {n for n in sure if not _ORG_WORD.search(n) and not any(w in _STOP_CAPS for w in n.split())}
    if not names:
        return text
    blank = lambda m: " " * len(m.group(0))  # noqa: E731
    whole = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    text = re.sub(r"(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Fr)\.?[ \t]+)?\b(?:" + whole + r")\b(?:['’]s)?", blank, text)
    # a name alone where only a person is meant: "Ms. Sorensen", "the Castellano portfolio", "thanks Rosa"
    part = "|".join(map(re.escape, sorted({w for n in names for w in n.split() if len(w) > 2}, key=len, reverse=True)))
    alone = re.compile(r"(\b(?:Mr|Mrs|Ms|Dr|Prof|Fr)\.?[ \t]+|\b(?:[Hh]i|[Tt]a|[Tt]hanks|[Dd]ear|[Hh]ello|"
                       r"[Tt]hank you,?|[Ee]vening|[Mm]orning)[ \t]+)?\b(" + part + r")\b"
                       r"(?=([ \t]+(?:household|family|portfolio|account|trust)\b)?)")

    def name_alone(m: re.Match[str]) -> str:
        if not (m.group(1) or m.group(3)):
            return m.group(0)
        lead = m.group(1) or ""
        keep = "" if re.match(r"(?:Mr|Mrs|Ms|Dr|Prof|Fr)\b", lead) else lead  # the honorific goes with the name
        return keep + " " * (len(m.group(0)) - len(keep))

    return alone.sub(name_alone, text)


# a message of an exported chat or text thread: "[01/03/2010, 19:10] Tom Reyes (IFA): …", "10:31 Sandra
# (advisor): …", "1 Mar 2010 20:40 — Adviser (Chris): …", "[08:10] Adviser (Anita): …"
_MESSAGE = re.compile(
    r"^([ \t]*)(\[?(?:\d{1,2}[/.]\d{1,2}[/.]\d{2,4},?[ \t]*|\d{1,2}[ \t]+[A-Z][a-z]{2,8}\.?[ \t]+\d{4},?[ \t]+)?"
    r"\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*[AaPp]\.?[Mm]\.?)?\]?[ \t]*(?:[-—–][ \t]*)?"
    r"(?:[A-Z][\w.'’-]*(?:[ \t][A-Z][\w.'’-]*){0,2}|[Mm]e)(?:[ \t]*\([^()\n]{1,30}\))?:)(?=[ \t])",
    re.M,
)


# a chat app's message header on a line of its own, the sender then the time: "**AI** 09:41", "Bot · 11:23 AM",
# "**Assistant** 19:05"
_HEADER = re.compile(
    r"^[ \t>]*[*_]*(?:[A-Z][\w.'’-]*(?:[ \t][A-Z][\w.'’-]*){0,2}|[Mm]e|[Yy]ou)[*_]*[ \t]*(?:[·•,—–-][ \t]*)?"
    r"[*_(\[]*\d{1,2}:\d{2}(?:[ \t]*[AaPp]\.?[Mm]\.?)?[*_)\]]*[ \t]*$",
    re.M,
)


# a message's place in a reply split over several, on a line of its own: "(2/6)", "**[3/3]**", "cont'd"
_PART = re.compile(r"^[ \t>]*[*_]*(?:[(\[]\d{1,2}/\d{1,2}[)\]]|\(?cont(?:['’]?d|inued)\)?\.*)[*_]*[ \t]*$", re.M | re.I)


def _headers(text: str) -> list[re.Match[str]]:
    """A chat's message headers and part marks, when it has two or more of either."""
    out = []
    for rx in (_HEADER, _PART):
        found = list(rx.finditer(text))
        out += found if len(found) >= 2 else []
    return out


def message_header_lines(text: str) -> set[int]:
    """The lines (1-based) of a chat's message headers (two or more lines of a sender and a time only)
    and of its parts' marks ("(2/6)"): who sent a message at what time is no claim, and no entry of a CV."""
    return {text.count("\n", 0, m.start()) + 1 for m in _headers(text)}


def chat_messages(text: str) -> str:
    """An exported chat's messages (three or more lines opening with a time and a sender) with their
    time and sender blanked, and so are a chat's message headers and part marks on lines of their own
    (see :func:`message_header_lines`): who sent a message at what time is no claim. The indent left marks
    each message as a line of its own (:func:`.sentences.line_groups`): a claim even with no full stop,
    in a thread whose earlier messages say what it is about."""
    for m in _headers(text):
        text = text[: m.start()] + " " * len(m.group(0)) + text[m.end() :]
    if len(_MESSAGE.findall(text)) < 3:
        return text
    return _MESSAGE.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)



# a multi-agent log's speakers in brackets opening a line: "[BullAgent] …", "**turn 3 · [BearAgent]** …",
# "**#4 [RiskAgent]** ↳ #3."
_AGENT_LABEL = re.compile(
    r"^[ \t>*_]*(?:(?:turn|round|step|msg|message|#)[ \t]*\d+[ \t]*[·:.—–-]?[ \t]*)?\[([A-Z][A-Za-z]{2,24})\]",
    re.M | re.I,
)
_ROLE_SUFFIX = re.compile(r"(?<=[a-z])(?:Agent|Bot|Analyst|Critic)$")  # "BearAgent" is "Bear" when addressed


def agent_names(text: str) -> str:
    """A multi-agent log's speakers (two or more names opening three or more lines in brackets) blanked
    wherever they are named, their stems too ("→ Bear:", "agree with Bull"): which agent speaks is no
    claim about the subject."""
    counts: dict[str, int] = {}
    for m in _AGENT_LABEL.finditer(text):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    if len(counts) < 2 or sum(counts.values()) < 3:
        return text
    names = set(counts) | {_ROLE_SUFFIX.sub("", n) for n in counts if _ROLE_SUFFIX.search(n)}
    whole = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.sub(rf"\[(?:{whole})\]|\b(?:{whole})\b", lambda m: " " * len(m.group(0)), text)


# an agent's trace (ReAct): "Thought: …", "Action 1: read_file[cv.md]", "Observation: …", "Final Answer: …"
_TRACE_STEP = re.compile(
    r"^[ \t]*\**(Thought|Action(?: Input)?|Observation|Final Answer)(?:[ \t]*\d+)?\**[ \t]*:", re.M
)


def tool_io(text: str) -> str:
    """An agent trace's tool calls and what the tools returned blanked, each line keeping its length:
    an "Observation:" quotes the sources (the CV, the holdings) and an "Action:" names a call; the
    agent's thoughts and its final answer are its own words and stay."""
    steps = [m.group(1) for m in _TRACE_STEP.finditer(text)]
    if "Thought" not in steps or not {"Action", "Observation"} & set(steps):
        return text
    out, tool = [], False
    for line in text.split("\n"):
        step = _TRACE_STEP.match(line)
        if step:
            tool = step.group(1).startswith(("Action", "Observation"))
        out.append(re.sub(r"\S", " ", line) if tool else line)
    return "\n".join(out)
