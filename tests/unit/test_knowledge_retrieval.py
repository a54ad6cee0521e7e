"""Retrieval on the labelled corpus with the real offline embedding and a real PersistentClient."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autogen_pse.config import Settings
from autogen_pse.errors import RunError, UserError
from autogen_pse.knowledge import Hit, ingest, lexical_rerank, make_kb_search, search, stats

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kb_corpus"
QUERIES = json.loads((FIXTURE / "queries.json").read_text(encoding="utf-8"))
TASK = "corpus"


def make_settings(state: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "state_dir": state,
        "tasks_dir": state / "tasks",
        "chroma_url": None,
        "embedding": "onnx-minilm",
        "retrieval_k": 4,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("kb")
    task_dir = root / TASK
    shutil.copytree(FIXTURE / "knowledge", task_dir / "knowledge")
    settings = make_settings(root / "state")
    report = ingest(settings, TASK, task_dir)
    assert len(report.added_files) == 11 and report.chunks_added >= 25
    return settings


def test_corpus_is_big_enough() -> None:
    docs = [p for p in (FIXTURE / "knowledge").rglob("*") if p.is_file()]
    assert len(docs) >= 8 and len(QUERIES) >= 10
    assert {p.suffix for p in docs} >= {".md", ".txt", ".csv", ".json", ".html", ".pdf"}


@pytest.mark.parametrize("case", QUERIES, ids=[q["query"][:40] for q in QUERIES])
def test_right_chunk_in_top_3(kb: Settings, case: dict[str, str]) -> None:
    hits = search(kb, TASK, case["query"], k=3)
    assert len(hits) == 3
    assert hits == sorted(hits, key=lambda h: h.score, reverse=True)
    matching = [h for h in hits if h.source == case["source"]]
    assert matching, f"{case['source']} not in top 3: {[h.source for h in hits]}"
    if "heading" in case:
        assert any(case["heading"] in h.heading for h in matching), [h.heading for h in matching]


def test_hit_fields_and_cosine_scores(kb: Settings) -> None:
    hits = search(kb, TASK, "How many paid vacation days does an employee get?", k=5)
    top = hits[0]
    assert top.id == f"{top.source}#{top.id.rsplit('#', 1)[1]}"
    assert top.source == "handbook.md" and top.partition == "default"
    assert top.heading == "Employee handbook > Vacation"
    assert "28 days of paid vacation" in top.text
    assert all(-1.0 <= h.score <= 1.0 for h in hits)
    assert top.score > 0.6, "cosine similarity of a near-paraphrase"
    assert top.to_event() == {
        "id": top.id,
        "source": top.source,
        "heading": top.heading,
        "score": round(top.score, 4),
    }


def test_partition_filter(kb: Settings) -> None:
    hits = search(kb, TASK, "How many paid vacation days does an employee get?", k=4, partition="support")
    assert hits and {h.partition for h in hits} == {"support"}
    hits = search(kb, TASK, "price per seat", k=6, partition=["market", "engineering"])
    assert {h.partition for h in hits} <= {"market", "engineering"}
    assert hits[0].source == "market/pricing.md"
    assert search(kb, TASK, "anything", k=3, partition="no-such-partition") == []


def test_lexical_reranker_reorders_by_word_overlap(kb: Settings) -> None:
    query = "Initech BI reports defined as code in git"
    plain = search(kb, TASK, query, k=3)
    reranked = search(kb, TASK, query, k=3, rerank=lexical_rerank)
    assert all(h.rerank_score is not None for h in reranked)
    assert reranked == sorted(reranked, key=lambda h: h.rerank_score or 0, reverse=True)
    assert "Initech BI" in reranked[0].heading
    assert plain[0].rerank_score is None
    hit = Hit("a#0", "a", "", "default", 0.5, "alpha beta")
    scored = lexical_rerank("alpha gamma", [hit])[0]
    assert scored.rerank_score == pytest.approx(0.7 * 0.5 + 0.3 * 0.5)
    assert lexical_rerank("the of and", [hit]) == [hit]


def test_search_errors(kb: Settings) -> None:
    with pytest.raises(UserError, match="empty search query"):
        search(kb, TASK, "   ")
    with pytest.raises(UserError, match="out of range"):
        search(kb, TASK, "x", k=0)
    with pytest.raises(UserError, match=r"no knowledge base for task 'ghost'.*pse kb ingest ghost"):
        search(kb, "ghost", "anything")


def test_stats(kb: Settings) -> None:
    data = stats(kb, TASK)
    assert data["exists"] and not data["stale"]
    assert data["files"] == 11
    assert data["embedding"].startswith("onnx-minilm:")
    assert set(data["partitions"]) == {"default", "engineering", "market", "security", "support"}
    assert data["partitions"]["security"] == {"chunks": 2, "files": 1}
    assert sum(p["chunks"] for p in data["partitions"].values()) == data["chunks"]
    everything = stats(kb)
    assert [t["task"] for t in everything["tasks"]] == [TASK]
    missing = stats(kb, "ghost")
    assert missing["exists"] is False and missing["chunks"] == 0


async def test_kb_search_tool_reports_hits(kb: Settings) -> None:
    seen: list[tuple[str, list[Hit]]] = []
    tool = make_kb_search(kb, TASK, ["support"], on_hits=lambda q, hits: seen.append((q, hits)))
    text = await tool("How do I reset my password?", k=2)
    assert len(seen) == 1
    query, hits = seen[0]
    assert query == "How do I reset my password?" and len(hits) == 2
    assert {h.partition for h in hits} == {"support"}
    assert text.startswith("2 knowledge-base chunk(s)")
    assert "[1] support/troubleshooting.txt (score " in text
    assert f"id {hits[0].id}" in text and "[2] " in text


async def test_kb_search_tool_defaults_and_async_callback(kb: Settings) -> None:
    import inspect

    events: list[list[dict[str, object]]] = []

    async def record(query: str, hits: list[Hit]) -> None:
        events.append([h.to_event() for h in hits])

    tool = make_kb_search(kb, TASK, None, on_hits=record)
    assert tool.__name__ == "kb_search"
    assert inspect.signature(tool).parameters["k"].default == 4
    text = await tool("refund within 30 days")
    assert len(events) == 1 and len(events[0]) == 4
    assert "support/refund_policy.md" in text
    failures: list[tuple[str, str]] = []
    missing = make_kb_search(kb, "ghost", None, on_error=lambda q, m: failures.append((q, m)))
    with pytest.raises(RunError, match="knowledge base unavailable: no knowledge base for task 'ghost'"):
        await missing("x")  # an error result for the model, never "no matches"
    assert failures and failures[0][0] == "x"
