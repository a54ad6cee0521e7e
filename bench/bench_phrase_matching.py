"""Metric phrases searched for along a whole line against phrases tried only where their first word starts.

A task's lexicon gives each metric hundreds of phrases in one regex. The verifier used to run
``rx.finditer`` over a claim whenever one of the phrases' first words occurred in it, which tries the regex
at every character. :func:`autogen_pse.claims.lexicon.phrase_matches` tries it only where one of those
first words starts (:func:`~autogen_pse.claims.lexicon.token_starts`). Both run here side by side, over
every line of the hand-written corpus and every metric of the task; the matches must be the same.

Run: ``.venv/bin/python bench/bench_phrase_matching.py [--task portfolio-review|resume-tailor]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_claims import CORPUS, evidence_for, load_corpus  # noqa: E402

from autogen_pse.claims.lexicon import phrase_matches, token_starts, tokens  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="portfolio-review", choices=["portfolio-review", "resume-tailor"])
    args = parser.parse_args()
    verifier, _checker = evidence_for(args.task)
    batches = sorted(p.name for p in (CORPUS / args.task).iterdir() if (p / "labels.jsonl").exists())
    lines = [line for item in load_corpus(args.task, batches) for line in item["text"].splitlines() if line.strip()]
    regexes = [(rx, verifier.metric_first.get(name)) for name, rx in verifier.metric_re.items() if rx is not None]

    t0 = time.perf_counter()
    every = [[(m.start(), m.end()) for rx, first in regexes if first is None or first & tokens(line)
              for m in rx.finditer(line)] for line in lines]
    t1 = time.perf_counter()
    anchored = []
    for line in lines:
        starts = token_starts(line)
        anchored.append(
            [(m.start(), m.end()) for rx, first in regexes for m in phrase_matches(rx, first, line, starts)]
        )
    t2 = time.perf_counter()

    if every != anchored:
        differ = sum(a != b for a, b in zip(every, anchored, strict=True))
        raise SystemExit(f"the two ways disagree on {differ} of {len(lines)} lines")
    found = sum(map(len, every))
    print(f"{args.task}: {len(lines):,} lines × {len(regexes)} metrics, {found:,} phrases found by both")
    print(f"  whole line (before):     {(t1 - t0) * 1000:8.1f} ms")
    print(f"  where first words start: {(t2 - t1) * 1000:8.1f} ms")
    print(f"  ratio (before / now):    {(t1 - t0) / (t2 - t1):8.1f}×")


if __name__ == "__main__":
    main()
