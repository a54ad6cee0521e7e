"""Claim units: a run-on "sentence" is checked in pieces of bounded size (the verifier's work per
claim grows faster than linearly with its length; an API body of 64 KiB must not cost minutes)."""

from __future__ import annotations

from autogen_pse.claims.split import MAX_UNIT_CHARS, split_units


def test_a_run_on_sentence_becomes_bounded_pieces_that_cover_it() -> None:
    words = "Apple is up 480% and IBM rose 72.7% while Google fell 19% and Microsoft lost 27.7% since 2000 and".split()
    body = " ".join(words[i % len(words)] for i in range(2500)) + "."
    text = "## Summary\n" + body
    units = [u for u in split_units(text) if u.kind != "heading"]
    assert len(units) > 10
    assert all(len(u.text) <= MAX_UNIT_CHARS for u in units)
    assert all(text[u.start:u.end] == u.text for u in units)  # offsets still point at the text
    assert "".join(u.text for u in units).replace(" ", "") == body.replace(" ", "")


def test_a_long_token_without_spaces_is_cut_too() -> None:
    units = split_units("1," * 5000)
    assert units and all(len(u.text) <= MAX_UNIT_CHARS for u in units)


def test_ordinary_sentences_are_whole() -> None:
    units = split_units("## Findings\n\nApple is up 480% on cost. IBM is up 72.7%; it has no trigger.\n")
    assert [u.text for u in units if u.kind == "sentence"] == ["Apple is up 480% on cost.",
                                                               "IBM is up 72.7%; it has no trigger."]
