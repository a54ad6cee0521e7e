"""Chunking: headings, paragraphs, overlap, CSV row groups (pure functions, no store)."""

from __future__ import annotations

import itertools

import pytest

from autogen_pse.knowledge.chunking import (
    OVERLAP_CHARS,
    TARGET_CHARS,
    markdown_sections,
    overlap_tail,
    split_markdown,
    split_rows,
    split_text,
)


def _paragraphs(count: int, words: int = 30) -> str:
    return "\n\n".join(" ".join(f"p{p}w{w}" for w in range(words)) + "." for p in range(count))


def test_markdown_heading_paths_and_no_chunk_crosses_a_heading() -> None:
    text = (
        "Intro before any heading.\n\n"
        "# Guide\n\nGuide text.\n\n"
        "## Install\n\nInstall text.\n\n"
        "### Linux\n\nLinux text.\n\n"
        "## Usage\n\nUsage text.\n\n"
        "# Appendix\n\nAppendix text.\n"
    )
    chunks = split_markdown(text)
    assert [(c.heading, c.text) for c in chunks] == [
        ("", "Intro before any heading."),
        ("Guide", "Guide text."),
        ("Guide > Install", "Install text."),
        ("Guide > Install > Linux", "Linux text."),
        ("Guide > Usage", "Usage text."),
        ("Appendix", "Appendix text."),
    ]


def test_hash_lines_inside_fenced_code_are_not_headings() -> None:
    text = "# Real\n\n```bash\n# just a comment\necho hi\n```\n\nAfter code.\n"
    sections = markdown_sections(text)
    assert len(sections) == 1
    heading, body = sections[0]
    assert heading == "Real"
    assert "# just a comment" in body and "After code." in body


def test_closing_hashes_and_heading_levels() -> None:
    chunks = split_markdown("## Title ##\n\nbody\n\n#### Deep\n\nmore\n\n## Next\n\nend")
    assert [c.heading for c in chunks] == ["Title", "Title > Deep", "Next"]


def test_long_section_splits_at_paragraphs_with_overlap() -> None:
    body = _paragraphs(12)  # ~12 × 200 chars
    chunks = split_markdown("# Long\n\n" + body)
    assert len(chunks) >= 3
    assert all(c.heading == "Long" for c in chunks)
    assert all(len(c.text) <= TARGET_CHARS + OVERLAP_CHARS + 2 for c in chunks)
    for prev, nxt in itertools.pairwise(chunks):
        tail = overlap_tail(prev.text, OVERLAP_CHARS)
        assert tail and nxt.text.startswith(tail), "each chunk starts with the previous chunk's tail"
        assert 40 <= len(tail) <= OVERLAP_CHARS
    # every paragraph survives whole in at least one chunk
    for paragraph in body.split("\n\n"):
        assert any(paragraph in c.text for c in chunks)


def test_overlap_tail_starts_at_a_word_boundary() -> None:
    text = "alpha beta gamma delta epsilon zeta eta theta"
    tail = overlap_tail(text, 20)
    assert text.endswith(tail)
    assert tail.split()[0] in text.split()
    assert overlap_tail(text, 0) == ""
    assert overlap_tail("short", 100) == "short"


def test_one_huge_paragraph_is_cut_at_sentences() -> None:
    sentences = [f"Sentence number {i} talks about topic {i} in some detail." for i in range(60)]
    chunks = split_text(" ".join(sentences))
    assert len(chunks) > 2
    for chunk in chunks:
        assert len(chunk.text) <= TARGET_CHARS + OVERLAP_CHARS + 2
    # cut points fall at sentence ends: every chunk (after the overlap) ends with a full stop
    assert all(c.text.endswith(".") for c in chunks)


def test_text_without_spaces_is_hard_cut_and_overlap_is_contiguous() -> None:
    blob = "".join(chr(ord("a") + i % 26) for i in range(2500))
    chunks = split_text(blob)
    assert len(chunks) == 4
    joined = chunks[0].text
    for chunk in chunks[1:]:
        overlap = overlap_tail(joined, OVERLAP_CHARS)
        assert chunk.text.startswith(overlap)
        joined += chunk.text[len(overlap) :]
    assert joined == blob


def test_small_document_is_one_chunk_and_empty_is_none() -> None:
    assert [c.text for c in split_text("  hello world \n")] == ["hello world"]
    assert split_text("   \n\n ") == []
    assert split_markdown("# Only a heading\n") == []


def test_invalid_sizes_raise() -> None:
    with pytest.raises(ValueError):
        split_text("x", target=100, overlap=100)


def test_rows_grouped_with_header_repeated() -> None:
    header = "id,name,notes"
    rows = [f"{i},name {i},{'n' * 60}" for i in range(1, 41)]
    chunks = split_rows(header, rows, target=400)
    assert len(chunks) > 3
    seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[0] == header
        assert len(chunk.text) <= 400 or len(lines) == 2
        seen.extend(lines[1:])
    assert seen == rows, "every row exactly once, in order"
    assert chunks[0].heading.startswith("rows 1-")
    first_end = int(chunks[0].heading.split("-")[1])
    assert chunks[1].heading.startswith(f"rows {first_end + 1}-")
