"""Quantities as people write them: every form is found once, with its unit, value and precision,
and :func:`matches` compares it at the precision (and hedge) it is written with."""

from __future__ import annotations

import pytest

from autogen_pse.claims.periods import completed_years
from autogen_pse.claims.quantities import Quantity, find_quantities, matches


def only(text: str) -> Quantity:
    """The one quantity of ``text`` (the test fails when there is not exactly one)."""
    found = find_quantities(text)
    assert len(found) == 1, f"{text!r}: expected one quantity, got {[q.text for q in found]}"
    return found[0]


# --- forms --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("sentence", "written", "unit", "value"), [
    # digits, with thousands separators and decimals
    ("The Microsoft position is 600 shares.", "600", "count", 600),
    ("Apple shares closed at 223.02 on the day.", "223.02", "count", 223.02),
    ("Google is worth 22,407.60 after the fall.", "22,407.60", "count", 22407.60),
    # currency with scales
    ("Amazon is worth $13k today.", "$13k", "money", 13_000),
    ("Consolidating the clusters saved US$420,000 a year.", "US$420,000", "money", 420_000),
    ("The fund raised €2.5m in its first round.", "€2.5m", "money", 2_500_000),
    # percentages, written every way
    ("IBM is 15 % of the portfolio.", "15 %", "pct", 15),
    ("IBM is 15 percent of the portfolio.", "15 percent", "pct", 15),
    ("Spreads widened by 40 bps over the quarter.", "40 bps", "pct", 0.40),
    # number words
    ("She mentored eleven engineers.", "eleven", "count", 11),
    ("We shipped apps for twenty-three clients.", "twenty-three", "count", 23),
    # fractions (as a share, in percent)
    ("Google is a third of what Apple is.", "a third", "pct", 100 / 3),
    ("Apple is responsible for two-thirds of the gain.", "two-thirds", "pct", 200 / 3),
    # multiples
    ("Amazon has tripled since it was bought.", "tripled", "multiple", 3),
    ("It was a six-fold gain on cost.", "six-fold", "multiple", 6),
    ("Apple is now worth 5.8x its cost.", "5.8x", "multiple", 5.8),
    # compound words and idioms
    ("Apple has been held for three and a half years.", "three and a half years", "years", 3.5),
    ("The monolith was split into a dozen services.", "a dozen", "count", 12),
    # durations
    ("Google has been held for 500 days.", "500 days", "days", 500),
    ("Microsoft was bought three years before the crash.", "three years", "years", 3),
    ("Microsoft has been in the portfolio for a decade.", "a decade", "years", 10),
])
def test_each_form_is_found_with_its_unit_and_value(sentence: str, written: str, unit: str, value: float) -> None:
    q = only(sentence)
    assert q.text == written
    assert q.unit == unit
    assert q.value == pytest.approx(value)
    assert sentence[q.start:q.end] == written  # offsets point at the words as written


def test_nearly_half_is_a_hedged_fraction() -> None:
    q = only("Apple is nearly half the portfolio.")
    assert (q.unit, q.value, q.hedge, q.kind) == ("pct", 50.0, "nearly", "fraction")


def test_hours_are_compared_in_minutes() -> None:
    q = only("Data used to arrive after 24 h.")
    assert q.text == "24 h" and q.unit == "minutes" and q.value == pytest.approx(24 * 60)


def test_three_and_a_half_is_one_number_not_three_plus_a_half() -> None:
    found = find_quantities("Apple has been held for three and a half years and is up 480%.")
    assert [q.text for q in found] == ["three and a half years", "480%"]


def test_a_sentence_with_many_figures_keeps_them_in_order_once_each() -> None:
    text = "Microsoft, held for a decade, is down 27.66% ($6,606) and makes up 13.59% of the book."
    found = find_quantities(text)
    assert [q.text for q in found] == ["a decade", "27.66%", "$6,606", "13.59%"]
    assert [q.unit for q in found] == ["years", "pct", "money", "pct"]


def test_precision_is_half_a_unit_of_the_last_digit_written() -> None:
    assert only("a 15 % weight").tol == pytest.approx(0.5)
    assert only("a 15.3 % weight").tol == pytest.approx(0.05)
    assert only("worth $13k").tol == pytest.approx(500)
    assert only("a 14.81% weight").tol == pytest.approx(0.005)


def test_a_written_sign_is_kept() -> None:
    down, up, bare = only("-27.7%"), only("+27.7%"), only("27.7%")
    assert (down.sign, down.value) == (-1, pytest.approx(-27.7))
    assert (up.sign, up.value) == (1, pytest.approx(27.7))
    assert bare.sign == 0


# --- precision ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("written", "value", "expected"), [
    ("IBM is 15 % of the portfolio.", 14.81, True),
    ("IBM is 15.3 % of the portfolio.", 14.81, False),
    ("Amazon is worth $13k.", 12_882, True),
    ("IBM is about 15% of the portfolio.", 14.81, True),
    ("Apple is nearly half the portfolio.", 43.85, True),
    ("Google is nearly half the portfolio.", 17.62, False),
    ("Microsoft is over a quarter below cost.", 27.66, True),
    ("Amazon has tripled.", 3.42, False),
    ("Amazon has more than tripled.", 3.42, True),
    ("IBM is 14.8% of the portfolio.", 14.81, True),
    ("Apple is 43.9% of the portfolio.", 43.85, True),
    ("Apple is roughly $46k ahead.", 46_142.50, True),
    ("Apple is worth nearly six times its cost.", 5.80, True),
    ("Google is down about 19%.", -19.16, True),
    ("Google is a third of the book.", 38.0, False),
])
def test_a_figure_is_true_at_the_precision_it_is_written(written: str, value: float, expected: bool) -> None:
    assert matches(only(written), value) is expected


def test_a_written_minus_is_not_true_of_a_gain() -> None:
    q = only("Microsoft is at -27.7% against cost.")
    assert not matches(q, 27.66)
    assert matches(q, -27.66)
    # magnitudes only when asked to ignore the sign
    assert matches(q, 27.66, signed=False)


def test_a_written_plus_is_not_true_of_a_loss() -> None:
    assert not matches(only("Microsoft is +27.7% on cost."), -27.66)


def test_an_unsigned_figure_is_compared_by_magnitude() -> None:
    # "down 27.7%": the direction word is checked apart, the figure is a magnitude
    assert matches(only("Microsoft is down 27.7%."), -27.66)


def test_more_precision_than_the_fact_has_is_wrong() -> None:
    q = only("IBM is 14.83% of the portfolio.")
    assert not matches(q, 14.81)


def test_hedges_bound_the_value() -> None:
    assert matches(only("over 70% up"), 72.70)
    assert not matches(only("over 75% up"), 72.70)
    assert matches(only("under 15% of the book"), 14.81)
    assert not matches(only("under 14% of the book"), 14.81)


def test_whole_years_are_completed_years() -> None:
    three = only("held for three years")
    assert completed_years(three, 3.9)
    assert not completed_years(three, 4.1)
    assert not completed_years(three, 2.3)
    assert completed_years(only("held for a decade"), 10.16)
