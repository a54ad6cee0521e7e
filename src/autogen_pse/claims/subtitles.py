"""A subtitle file (SRT or WebVTT) read as the transcript it carries: a video's captions walking
through a portfolio or a CV.

Cue numbers, timecodes, a WebVTT header and its NOTE blocks, sound tags and caption notes in brackets
("[Music]", "[Caption correction: …]") and styling tags are dropped. The cues' lines are joined into
running text, so a sentence broken across cues is one claim again; where the captions carry almost no
punctuation (auto-generated ones), each cue stands alone unless it ends on a word no sentence ends on
("… using the rules that the"), and a cue's last words that open a clause ("… a year and microsoft")
start the next one. Each piece keeps where it came from
(:class:`~.formats.Reading`), so a claim points at its line.
"""

from __future__ import annotations

import re

from .formats import Builder, Reading, line_starts

_TIMECODE = re.compile(
    r"^[ \t]*(?:\d{1,2}:)?\d{1,2}:\d{2}[,.]\d{1,3}[ \t]*-->[ \t]*(?:\d{1,2}:)?\d{1,2}:\d{2}[,.]\d{1,3}[^\n]*$", re.M
)
_CUE_NUMBER = re.compile(r"[ \t]*\d+[ \t]*")
_NON_SPEECH = re.compile(r"\[[^\]\n]*\]?|\([A-Z][A-Z ]+\)|<[^<>\n]+>|\{\\[^{}\n]*\}")  # "[Music]", "(LAUGHS)", "<i>"
_SENTENCE_END = re.compile(r"[.?!…:;]['\"’”)]*$")
# a cue of auto-captions that ends on one of these goes on into the next ("… using the rules that the")
_RUNS_ON = re.compile(r"\b(?:the|a|an|and|or|but|so|to|of|in|on|at|for|with|from|by|that|which|who|if|than|as|is|"
                      r"are|was|were|be|been|his|her|its|their|my|your|our|this|these|those|into|about|over|under)$",
                      re.I)
_NEXT_CLAUSE = re.compile(r"(?:^|\s)((?:and|but|or|then|now)\s+\S+(?:\s+\S+)?)$", re.I)  # "… a year and microsoft"


def is_subtitles(text: str) -> bool:
    return len(_TIMECODE.findall(text)) >= 3


def read_subtitles(text: str) -> Reading:
    """The transcript of an SRT or WebVTT file (see the module docstring)."""
    lines = text.split("\n")
    starts = line_starts(lines)
    cues: list[list[tuple[str, int]]] = []  # each cue's spoken lines with their positions
    cue_at: list[int] = []  # where each cue starts (its timecode)
    in_note = False
    for k, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            in_note = False
            continue
        if in_note or (k == 0 and stripped.startswith("WEBVTT")) or stripped.startswith(("NOTE", "STYLE")):
            in_note = not (k == 0 and stripped.startswith("WEBVTT"))
            continue
        if _TIMECODE.match(line):
            cues.append([])
            cue_at.append(starts[k])
            continue
        if _CUE_NUMBER.fullmatch(line) and k + 1 < len(lines) and _TIMECODE.match(lines[k + 1]):
            continue
        if not cues:
            cues.append([])  # text before the first cue: a title, a note
            cue_at.append(starts[k])
        spoken = _NON_SPEECH.sub(lambda m: " " * len(m.group(0)), line)
        if spoken.strip():
            lead = len(spoken) - len(spoken.lstrip())
            cues[-1].append((spoken.strip(), starts[k] + lead))
    spoken_lines = [s for cue in cues for s, _ in cue]
    punctuated = sum(bool(_SENTENCE_END.search(s)) for s in spoken_lines) >= 0.25 * len(spoken_lines)
    out = Builder()
    runs_on = False
    for cue, at_cue in zip(cues, cue_at, strict=True):
        if not cue:
            out.block(at_cue)  # a cue of sound only ("[Music]"): a pause
            continue
        if not punctuated and not runs_on:
            out.block(cue[0][1])
        last, at = cue[-1]
        tail = _NEXT_CLAUSE.search(last) if not punctuated else None
        runs_on = bool(tail) or bool(_RUNS_ON.search(last))
        for spoken, pos in [*cue[:-1], (last[: tail.start()] if tail else last, at)]:
            if not spoken:
                continue
            if out.size and not out.ends_with_newlines():
                out.emit(" ", pos)
            out.emit(spoken, pos)
        if tail:  # "… minus 8.73% a year and microsoft": the next clause starts here
            out.block(at + tail.start(1))
            out.emit(tail.group(1), at + tail.start(1))
    return out.reading()
