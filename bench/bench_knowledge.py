"""Knowledge-base benchmark: ingestion throughput and query latency at N chunks.

Generates a synthetic-but-varied corpus (Markdown files in several partitions; each section is
one chunk of ~300–700 characters built from varied templates, names, places and numbers), ingests
it with the configured embedding (default: the offline MiniLM ONNX model) into a fresh embedded
Chroma store in a temporary folder, then times ``search()`` for a set of queries.

    .venv/bin/python bench/bench_knowledge.py                 # 10,000 chunks, 200 queries
    .venv/bin/python bench/bench_knowledge.py --chunks 500    # quick run

Figures printed: ingestion chunks/s (embedding + writes), a no-op re-ingest (all files
unchanged), query latency p50/p95/max over the queries (end to end: client, embedding of the
query, HNSW search), and the share of queries whose source section is in the top 4.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

TOPICS = [
    ("supply chain", "shipments", "warehouse capacity"),
    ("customer churn", "renewals", "cancellation reasons"),
    ("cloud costs", "compute spend", "reserved instances"),
    ("hiring", "open positions", "interview loops"),
    ("security audit", "access reviews", "vulnerability findings"),
    ("product launch", "beta users", "feature adoption"),
    ("energy usage", "power consumption", "cooling efficiency"),
    ("marketing campaign", "ad spend", "conversion rates"),
    ("clinical trial", "patient enrolment", "adverse events"),
    ("fleet maintenance", "vehicle downtime", "spare parts"),
    ("tax filing", "VAT returns", "withholding rules"),
    ("data platform", "pipeline failures", "query latency"),
]
COMPANIES = [
    "Acme",
    "Globex",
    "Initech",
    "Umbrella",
    "Stark Logistics",
    "Wayne Foods",
    "Hooli",
    "Vandelay",
    "Soylent",
    "Cyberdyne",
    "Tyrell",
    "Wonka",
    "Gringotts",
    "Oscorp",
    "Pied Piper",
    "Massive Dynamic",
]
CITIES = [
    "Lisbon",
    "Oslo",
    "Nairobi",
    "Osaka",
    "Lima",
    "Denver",
    "Krakow",
    "Hanoi",
    "Porto",
    "Tunis",
    "Quebec",
    "Perth",
    "Bogota",
    "Riga",
    "Seville",
    "Dakar",
    "Leeds",
    "Cebu",
    "Graz",
    "Malmo",
]
PARTITIONS = ["finance", "operations", "market", "engineering", "legal", "people"]
TREND = ["rose", "fell", "stayed flat", "doubled", "dropped sharply", "recovered"]
CAUSE = [
    "a new vendor contract",
    "seasonal demand",
    "a pricing change",
    "staff turnover",
    "a software migration",
    "stricter regulation",
    "a regional outage",
    "an acquisition",
]
ACTION = [
    "renegotiate the contract before the next quarter",
    "add a second shift at the main site",
    "freeze discretionary spending until the review",
    "run a pilot with two teams before rolling out",
    "publish a weekly dashboard for the leadership team",
    "move the workload to the cheaper region",
    "hire a dedicated analyst for the account",
    "audit the process with an external firm",
]


def section(rng: random.Random, index: int) -> tuple[str, str, str]:
    """``(heading, body, query)`` for one synthetic section (one chunk)."""
    topic, metric, detail = rng.choice(TOPICS)
    company, city = rng.choice(COMPANIES), rng.choice(CITIES)
    year = rng.randint(2015, 2025)
    quarter = rng.randint(1, 4)
    value = rng.randint(3, 97)
    heading = f"{topic.title()} at {company} {city} (Q{quarter} {year})"
    sentences = [
        f"In Q{quarter} {year} the {metric} of {company} in {city} {rng.choice(TREND)} by {value} percent.",
        f"The team attributes the change mainly to {rng.choice(CAUSE)}, with {detail} as a second factor.",
        f"Report number {index} was reviewed by {rng.randint(2, 9)} people from the {city} office.",
        f"The recommended next step is to {rng.choice(ACTION)}.",
        f"Compared with the previous year, {detail} {rng.choice(TREND)} while {metric} "
        f"{rng.choice(TREND)}, which surprised the {rng.choice(PARTITIONS)} group.",
        f"Open questions remain about {rng.choice(CAUSE)} and its effect on {detail}.",
    ]
    rng.shuffle(sentences[1:])
    body = " ".join(sentences[: rng.randint(3, 6)])
    query = f"How did {metric} change for {company} in {city} in Q{quarter} {year}?"
    return heading, body, query


def write_corpus(root: Path, chunks: int, seed: int) -> list[tuple[str, str]]:
    """Write ``chunks`` sections into Markdown files; returns ``[(query, expected_source)]``."""
    rng = random.Random(seed)
    per_file = 20
    queries: list[tuple[str, str]] = []
    for file_no in range((chunks + per_file - 1) // per_file):
        partition = PARTITIONS[file_no % len(PARTITIONS)]
        rel = f"{partition}/report_{file_no:05d}.md"
        parts = [f"# Report {file_no}\n"]
        for i in range(min(per_file, chunks - file_no * per_file)):
            heading, body, query = section(rng, file_no * per_file + i)
            parts.append(f"## {heading}\n\n{body}\n")
            queries.append((query, rel))
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(parts), encoding="utf-8")
    return queries


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[rank]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=10_000, help="corpus size in chunks (default 10000)")
    parser.add_argument("--queries", type=int, default=200, help="number of timed queries (default 200)")
    parser.add_argument("--k", type=int, default=4, help="chunks per query (default 4)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--embedding", default="onnx-minilm", help="PSE_EMBEDDING value to benchmark")
    args = parser.parse_args(argv)

    from autogen_pse.config import Settings
    from autogen_pse.knowledge import ingest, search, stats

    with tempfile.TemporaryDirectory(prefix="pse-kb-bench-") as tmp:
        root = Path(tmp)
        task_dir = root / "task"
        queries = write_corpus(task_dir / "knowledge", args.chunks, args.seed)
        settings = Settings(state_dir=root / "state", chroma_url=None, embedding=args.embedding)  # type: ignore[call-arg]
        files = len(list((task_dir / "knowledge").rglob("*.md")))
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"corpus: {args.chunks} sections in {files} files; {os.cpu_count()} CPUs, load average {load}")

        report = ingest(settings, "bench", task_dir)
        chunk_count = stats(settings, "bench")["chunks"]
        rate = report.chunks_added / report.seconds if report.seconds else float("nan")
        print(f"ingest: {report.chunks_added} chunks in {report.seconds:.1f} s = {rate:.1f} chunks/s")
        rest = report.seconds - report.embed_seconds
        print(f"  of which embedding {report.embed_seconds:.1f} s, reading/chunking/Chroma writes {rest:.1f} s")
        noop = ingest(settings, "bench", task_dir)
        print(f"re-ingest (unchanged): {len(noop.skipped_files)} files skipped in {noop.seconds:.2f} s")

        rng = random.Random(args.seed + 1)
        sample = rng.sample(queries, min(args.queries, len(queries)))
        search(settings, "bench", "warm-up query", k=args.k)
        latencies: list[float] = []
        found = 0
        for query, source in sample:
            started = time.perf_counter()
            hits = search(settings, "bench", query, k=args.k)
            latencies.append((time.perf_counter() - started) * 1000)
            found += any(h.source == source for h in hits)
        print(
            f"query @ {chunk_count} chunks, k={args.k}, n={len(latencies)}: "
            f"p50 {statistics.median(latencies):.1f} ms, p95 {percentile(latencies, 95):.1f} ms, "
            f"max {max(latencies):.1f} ms"
        )
        print(f"source file in top {args.k}: {found}/{len(sample)} ({100 * found / len(sample):.0f}%)")
        print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
