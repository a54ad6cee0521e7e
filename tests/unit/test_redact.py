"""Redaction of e-mail addresses and phone numbers before text goes to a remote model."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from autogen_pse.redact import Redactor, find_emails, find_phones

PHONES = [
    "+44 7700 900123",
    "+44 20 7946 0958",
    "+44 (0)20 7946 0958",
    "(+44) 20 7946 0958",
    "+1 (555) 123-4567",
    "(555) 123-4567",
    "555-123-4567",
    "555.123.4567",
    "+351 912 345 678",
    "+49 30 12345678",
    "0049 30 1234 5678",
    "020 7946 0958",
    "07700900123",
    "+33 1 23 45 67 89",
    "01.23.45.67.89",
    "+91-98765-43210",
    "+15551234567",
]

EMAILS = [
    "elena.marsh@example.com",
    "Jane.Doe+cv@Example.co.uk",
    "j_smith-99@mail.example-domain.org",
    "x@y.io",
]

NOT_PII = [
    "2019-2021",
    "2019 - 2021",
    "2015 2016 2017",
    "Mar 2019 – Feb 2021",
    "03/2017 - 02/2020",
    "2024-01-15",
    "15.03.2020",
    "15/03/2020",
    "1999",
    "in 2019 and 2020",
    "$1,200,000",
    "€ 125 000 000",
    "1 200 000 €",
    "USD 1500000",
    "12,000,000",
    "$2.5M",
    "£420k",
    "100%",
    "1,200 users",
    "0.5 0.25 0.75 0.1",
    "12345678",
    "123456789012",
    "ISO 27001:2022",
    "v3.11.2",
    "192.168.0.1",
    "10.0.0.254",
    "p95 of 45 ms",
    "EC2",
    "user@localhost",
    "a.b@c",
    "@handle",
    "name at example dot com",
]


@pytest.mark.parametrize("phone", PHONES)
def test_phone_formats_are_redacted_and_restored(phone: str) -> None:
    r = Redactor()
    text = f"Call me on {phone} or write."
    redacted = r.redact(text)
    assert redacted == "Call me on [[PHONE_1]] or write."
    assert r.restore(redacted) == text


@pytest.mark.parametrize("email", EMAILS)
def test_email_formats_are_redacted_and_restored(email: str) -> None:
    r = Redactor()
    text = f"Mail: {email}."
    assert r.redact(text) == "Mail: [[EMAIL_1]]."
    assert r.restore(r.redact(text)) == text


@pytest.mark.parametrize("text", NOT_PII)
def test_dates_years_money_and_ids_are_left_alone(text: str) -> None:
    r = Redactor()
    assert r.redact(f"x {text} y") == f"x {text} y"
    assert find_phones(text) == [] and find_emails(text) == []
    assert r.counts == {"EMAIL": 0, "PHONE": 0}


def test_round_trip_of_a_cv_with_several_values() -> None:
    cv = (
        "# Elena Marsh\nelena.marsh@example.com · +44 7700 900123 · mailto:Alt.Mail@example.org\n"
        "Office: +44 20 7946 0958 (ext. 12); mobile (+44 7700 900123).\n"
        "Mar 2020 – Present: cut costs by 35% ($420,000) across 1,200 services since 2019.\n"
        "Again: ELENA.MARSH@EXAMPLE.COM, +447700900123\n"
    )
    r = Redactor()
    redacted = r.redact(cv)
    assert "example.com" not in redacted and "7700" not in redacted and "7946" not in redacted
    assert redacted.count("[[EMAIL_1]]") == 2  # same address, any case → same placeholder
    assert redacted.count("[[PHONE_1]]") == 3  # same number, any spacing → same placeholder
    assert "[[EMAIL_2]]" in redacted and "[[PHONE_2]]" in redacted
    assert "Mar 2020 – Present" in redacted and "$420,000" in redacted and "1,200" in redacted
    assert "since 2019" in redacted
    assert "mailto:[[EMAIL_2]]" in redacted and "mobile ([[PHONE_1]])" in redacted
    restored = r.restore(redacted)
    # Each placeholder restores its first-seen spelling.
    assert restored == cv.replace("ELENA.MARSH@EXAMPLE.COM", "elena.marsh@example.com").replace(
        "+447700900123", "+44 7700 900123"
    )
    assert r.counts == {"EMAIL": 2, "PHONE": 2}
    assert r.placeholders() == ["[[EMAIL_1]]", "[[PHONE_1]]", "[[EMAIL_2]]", "[[PHONE_2]]"]


def test_placeholders_are_stable_across_calls_and_idempotent() -> None:
    r = Redactor()
    a = r.redact("phone +1 (555) 123-4567")
    b = r.redact("call 555-123-4567 or mail a@b.example")
    assert a == "phone [[PHONE_1]]" and b == "call [[PHONE_2]] or mail [[EMAIL_1]]"
    assert r.redact(b) == b  # already-redacted text is unchanged


def test_restore_leaves_unknown_placeholders_and_tolerates_spaces() -> None:
    r = Redactor()
    r.redact("a@b.example")
    assert r.restore("[[ EMAIL_1 ]] [[EMAIL_2]] [[PHONE_1]]") == "a@b.example [[EMAIL_2]] [[PHONE_1]]"
    assert Redactor().restore("[[EMAIL_1]]") == "[[EMAIL_1]]"


def test_kinds_can_be_switched_off() -> None:
    text = "a@b.example +44 20 7946 0958"
    assert Redactor(phones=False).redact(text) == "[[EMAIL_1]] +44 20 7946 0958"
    assert Redactor(emails=False).redact(text) == "a@b.example [[PHONE_1]]"


def test_mapping_never_leaks() -> None:
    r = Redactor()
    r.redact("elena.marsh@example.com +44 7700 900123")
    for shown in (repr(r), str(r), f"{r}"):
        assert "elena" not in shown and "7700" not in shown
        assert "redacted_emails=1" in shown and "redacted_phones=1" in shown
    with pytest.raises(TypeError):
        pickle.dumps(r)
    with pytest.raises(TypeError):
        copy.copy(r)
    with pytest.raises(TypeError):
        copy.deepcopy(r)
    with pytest.raises(TypeError):
        json.dumps(r)
    assert not hasattr(r, "__dict__")
    r.clear()
    assert r.counts == {"EMAIL": 0, "PHONE": 0} and r.restore("[[EMAIL_1]]") == "[[EMAIL_1]]"
