"""Hypothesis properties of the verdict parser (``autogen_pse.verdict``): it never raises anything
but :class:`VerdictParseError`, never accepts text that does not end with a valid trailer, and
``parse_trailer(format_trailer(v)) == v`` for every verdict (also with fences in its strings)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from autogen_pse.verdict import (
    MODEL_REASONS,
    Outcome,
    Reason,
    Verdict,
    VerdictParseError,
    declared_blocked,
    format_trailer,
    parse_trailer,
    try_parse,
)

PROFILE = settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
OUTCOMES = [o.value for o in Outcome]
FENCE = "```"

# text with the characters that matter to the parser over-represented
pieces = st.sampled_from([*"`verdict{}[]\":,\n \t\\u0PASFILBOCKEDR", "```", "```verdict\n", '"outcome"', '"PASS"',
                          "\u2028", "\x00", "\ud800", "é"])
tricky = st.lists(pieces, max_size=40).map("".join)
any_text = st.one_of(st.text(max_size=300), tricky, st.text(alphabet=st.characters(), max_size=60))
strings = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)  # no lone surrogates
# what a model may put between the fences: JSON objects near the schema, and plain garbage
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | strings,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(strings, inner, max_size=3), max_leaves=8)
near_verdicts = st.fixed_dictionaries(
    {"outcome": st.sampled_from([*OUTCOMES, "pass", "PASSED", "", None])},
    optional={"reason": st.sampled_from([*[r.value for r in Reason], "ok", "MAYBE", 3]),
              "issues": st.one_of(st.lists(strings, max_size=3), strings, st.none()),
              "summary": st.one_of(strings, st.integers(), st.none()),
              "extra": json_values})
bodies = st.one_of(near_verdicts.map(json.dumps), json_values.map(json.dumps), any_text)
# verdicts that do not contradict themselves (issue 10): PASS is OK without issues; the others
# give a reason other than OK and issues that say something (a letter at least)
issue_texts = st.tuples(st.sampled_from("aZé"), strings).map("".join)
verdicts = st.one_of(
    st.builds(Verdict, outcome=st.just(Outcome.PASS), reason=st.just(Reason.OK), summary=strings),
    st.builds(
        Verdict,
        outcome=st.sampled_from([o for o in Outcome if o is not Outcome.PASS]),
        reason=st.sampled_from([Reason(r) for r in MODEL_REASONS if r != "OK"]),
        issues=st.lists(issue_texts, max_size=4),
        summary=strings,
    ),
)


def _no_dup(pairs: list[tuple[str, object]]) -> dict[str, object]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise ValueError("duplicate key")
    return dict(pairs)


def _valid_trailer_at_end(text: str) -> bool:
    """An independent statement of "ends with a valid trailer" (issue 10 decisions included): some
    opening ```` ```verdict ```` (three or more backticks) is followed by one JSON object (decoded
    with ``raw_decode``, no repeated key), whitespace, a closing fence at least as long and then only
    whitespace or zero-width characters; the object validates, is not LIMIT_REACHED and does not
    contradict itself; no ``<think>`` is left open before it."""
    decoder = json.JSONDecoder(object_pairs_hook=_no_dup)
    for m in re.finditer(r"(`{3,})verdict[ \t]*\r?\n", text):
        body = text[m.end():]
        try:
            data, end = decoder.raw_decode(text, m.end() + len(body) - len(body.lstrip(" \t\n\r")))
        except (ValueError, RecursionError):
            continue
        close = re.fullmatch(r"[ \t\n\r]*(`+)[\s\u200b\u200c\u200d\u2060\ufeff]*", text[end:])
        if close is None or len(close.group(1)) < len(m.group(1)) or not isinstance(data, dict):
            continue
        try:
            verdict = Verdict.model_validate(data)
        except Exception:
            return False
        think = text.rfind("<think>", 0, m.start())
        if think >= 0 and "</think>" not in text[think:m.start()]:
            return False
        if verdict.reason is Reason.LIMIT_REACHED:
            return False
        if (verdict.outcome is Outcome.PASS) != (verdict.reason is Reason.OK):
            return False
        if verdict.outcome is Outcome.PASS and verdict.issues:
            return False
        return all(any(c.isalpha() for c in i) for i in verdict.issues)
    return False


def _without_trailing_blanks(text: str) -> str:
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in "\u200b\u200c\u200d\u2060\ufeff"):
        end -= 1
    return text[:end]


@PROFILE
@given(prefix=any_text, body=bodies, suffix=st.one_of(st.just(""), st.sampled_from(["\n", "  \n\t"]), any_text))
@example(prefix="", body="[" * 50_000 + "]" * 50_000, suffix="")
@example(prefix="", body='{"outcome": "PASS", "reason": "OK", "n": ' + "9" * 5000 + "}", suffix="")
@example(prefix="x", body='{"outcome": "PASS", "reason": "OK"}', suffix="\nBut I have not decided.")
@example(prefix="", body='{"outcome": "PASS", "reason": "LIMIT_REACHED"}', suffix="")
@example(prefix="", body='{"outcome": "PASS", "reason": "OK", "summary": "```"}', suffix="")
@example(prefix="", body="\ud800", suffix="")
@example(prefix="", body='{"outcome": "PASS", "reason": "OK"}', suffix="\x1f")  # found by Hypothesis in CI
def test_parser_only_raises_its_own_error_and_only_accepts_a_valid_trailer(prefix: str, body: str,
                                                                            suffix: str) -> None:
    text = f"{prefix}\n```verdict\n{body}\n```{suffix}"
    for candidate in (text, prefix, body, f"{prefix}{FENCE}verdict\n{body}"):
        try:
            verdict = parse_trailer(candidate)
        except VerdictParseError as exc:
            assert str(exc)  # a message for the re-ask
            assert try_parse(candidate) is None
            continue
        assert isinstance(verdict, Verdict) and verdict.reason is not Reason.LIMIT_REACHED
        # only whitespace (as ``str.isspace`` has it: "\x1f" too) and invisible format characters may follow
        assert _without_trailing_blanks(candidate).endswith(FENCE)
        assert _valid_trailer_at_end(candidate), candidate
        # anything but whitespace after the trailer makes it prose
        with pytest.raises(VerdictParseError):
            parse_trailer(candidate + "\nok")


@PROFILE
@given(verdict=verdicts, prefix=any_text.filter(lambda t: "\ud800" not in t))
@example(verdict=Verdict(outcome=Outcome.PARTIAL, reason=Reason.FORMAT_ISSUE, issues=["use ```python``` blocks"],
                         summary="```verdict\n{}\n```"), prefix="")
def test_format_trailer_round_trips(verdict: Verdict, prefix: str) -> None:
    trailer = format_trailer(verdict)
    assert parse_trailer(trailer) == verdict
    assert parse_trailer(f"{prefix}\n\n{trailer}\n") == verdict  # after any review text
    assert (declared_blocked(trailer) is not None) == (verdict.outcome is Outcome.BLOCKED)


@PROFILE
@given(verdict=verdicts, junk=st.text(min_size=1, max_size=40).filter(
    # visible junk: zero-width tails are allowed, and more backticks only lengthen the closing fence
    lambda t: any(not (c.isspace() or c in "`\u200b\u200c\u200d\u2060\ufeff") for c in t)))
@example(verdict=Verdict(outcome=Outcome.PASS, reason=Reason.OK), junk="`x")
@example(verdict=Verdict(outcome=Outcome.PASS, reason=Reason.OK), junk="\u200bok")
def test_text_after_the_trailer_is_never_accepted(verdict: Verdict, junk: str) -> None:
    with pytest.raises(VerdictParseError):
        parse_trailer(format_trailer(verdict) + junk)
