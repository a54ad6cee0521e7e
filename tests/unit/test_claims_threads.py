"""Two runs check claims at the same moment (the dashboard runs two at once; `pse eval --concurrency`):
the word stemmer the ledger shares must give every thread the same stems as one thread alone."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from autogen_pse.claims.lexicon import stem

WORDS = (
    "reviewed holdings positions concentrated diversification volatility drawdowns annualised rebalancing "
    "consolidating migrated introduced mentoring guidelines adopted announced buybacks dividends restructuring "
    "engineering excellence awarded certifications throughput latency reduced processing provisioning"
).split()


def test_stems_are_the_same_from_many_threads() -> None:
    rng = random.Random(7)
    # fresh words each time (the stem cache must not hide the stemmer): a word and an invented suffix
    jobs = [[f"{rng.choice(WORDS)}{rng.choice(['', 'ness', 'ings', 'ations', 'fully'])}x{n}{k}" for k in range(400)]
            for n in range(8)]
    expected = [[stem.__wrapped__(w) for w in words] for words in jobs]  # type: ignore[attr-defined]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda words: [stem(w) for w in words], jobs))
    assert got == expected
