"""Run ids: ULID generation and validation before any path is built."""

from __future__ import annotations

import pytest

from autogen_pse.errors import UserError
from autogen_pse.store.ids import new_run_id, validate_run_id


def test_new_ids_are_valid_unique_and_sorted() -> None:
    ids = [new_run_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    for run_id in ids[:50]:
        assert validate_run_id(run_id) == run_id


@pytest.mark.parametrize(
    "bad",
    [
        "../x",
        "../../etc/passwd",
        "01jabcdefghjkmnpqrstvwxyz0",  # lowercase
        "01JABCDEFGHJKMNPQRSTVWXYZ",  # 25 chars
        "01JABCDEFGHJKMNPQRSTVWXYZ00",  # 27 chars
        "01JABCDEFGHJKMNPQRSTVWXYZI",  # I is not Crockford base32
        "01JABCDEFGHJKMNPQRSTVWXYZ0\n",  # trailing newline must not slip through `$`
        "01JABCDEFGH/KMNPQRSTVWXYZ0",
        "",
        None,
        12345,
    ],
)
def test_invalid_ids_are_rejected(bad: object) -> None:
    with pytest.raises(UserError, match="invalid run id"):
        validate_run_id(bad)
