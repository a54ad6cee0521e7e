"""Two plain-text layouts of apps and social posts, read line by line (used by :func:`.formats.tidy`;
every line keeps its length, a card's label moving right by two characters):

- a card of figures, three lines or more of a label, a gap and a figure ("Paid       $75,890.50"),
  becomes list items ("- Paid:    $75,890.50"), each its own claim;
- a grid of labels over figures, an app's position card ("Shares            Market value" over
  "250               $55,755.00"), becomes its pairs ("- Shares: 250", "- Market value: $55,755.00");
- a thread's post numbers ("🧵 1/8", "6/8 Same job: …") are blanked.
"""

from __future__ import annotations

import re

# "🧵 1/8", "6/8 Same job: …": a thread's post number, not a figure (nor a date: the count follows the number)
_POST_NUMBER = re.compile(r"^([ \t]*(?:🧵[ \t]*)?)([1-9]\d?/[1-9]\d?)(?=[ \t]+[^\d\s–—-])", re.M)
# a card of figures: "Value      $127,157.10" / "Paid       $75,890.50" — one label, one gap, one figure a line
_LABEL_FIGURE = re.compile(
    r"([A-Za-z][\w&/%.'-]*(?: [\w&/%.'-]+){0,3})( {3,})([$€£+\-−~≈▲▼↑↓]{0,2}\s?\d(?:(?! {2}).)*)"
)


def post_numbers(text: str) -> str:
    """``text`` with a thread's post numbers blanked."""
    return _POST_NUMBER.sub(_post_number, text)


def _post_number(m: re.Match[str]) -> str:
    n, total = (int(x) for x in m.group(2).split("/"))
    return m.group(1) + " " * len(m.group(2)) if n <= total else m.group(0)


_GRID_LABEL = re.compile(r"[A-Za-z][A-Za-z&/%.'’-]*(?: [A-Za-z&/%.'’-]+){0,3}")
_GRID_FIGURE = re.compile(r"[$€£+\-−~≈]{0,2}\d\S*(?: \S+)?")


def _label_grids(lines: list[str]) -> list[str]:
    """Lines of two to four labels apart over as many figures apart, as their pairs, a line each half."""
    out = list(lines)
    for k in range(len(lines) - 1):
        labels, figures = (re.split(r" {3,}", x.strip()) for x in lines[k : k + 2])
        if not (2 <= len(labels) == len(figures) <= 4) or not all(_GRID_LABEL.fullmatch(x) for x in labels) \
                or not all(_GRID_FIGURE.fullmatch(x) for x in figures):
            continue
        pairs = [f"{a}: {b}" for a, b in zip(labels, figures, strict=True)]
        half = (len(pairs) + 1) // 2
        first, second = f"- {'; '.join(pairs[:half])}", f"- {'; '.join(pairs[half:])}"
        if len(first) <= len(lines[k]) and len(second) <= len(lines[k + 1]):
            out[k], out[k + 1] = first.ljust(len(lines[k])), second.ljust(len(lines[k + 1]))
    return out


def figure_cards(text: str) -> str:
    """Three lines or more in a row of a label, a gap and a figure ("Paid       $75,890.50") read as list
    items ("- Paid:    $75,890.50"): each its own claim, not one sentence of labels and figures; a grid
    of labels over figures as its pairs."""
    lines = _label_grids(text.split("\n"))
    cards = [_LABEL_FIGURE.fullmatch(line) for line in lines]
    out, k = [], 0
    while k < len(lines):
        run = k
        while run < len(lines) and cards[run]:
            run += 1
        if run - k >= 3:
            out += [f"- {m.group(1)}:{' ' * (len(m.group(2)) - 3)}{m.group(3)}" for m in cards[k:run] if m]
            k = run
        else:
            out.append(lines[k])
            k += 1
    return "\n".join(out)
