"""Shared fixtures of the unit tests: one prepared checker and verifier per task for the claim tests."""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier
from tests.claims_support import checker_for


def _verifier(checker: Checker) -> Verifier:
    verifier = checker.verifier()
    assert verifier is not None
    return verifier


@pytest.fixture(scope="session")
def portfolio_checker(tmp_path_factory: pytest.TempPathFactory) -> Checker:
    """portfolio-review's document checker on its default inputs (prepared once per session)."""
    return checker_for("portfolio-review", tmp_path_factory.mktemp("claims-portfolio"))


@pytest.fixture(scope="session")
def resume_checker(tmp_path_factory: pytest.TempPathFactory) -> Checker:
    """resume-tailor's document checker on its default inputs (prepared once per session)."""
    return checker_for("resume-tailor", tmp_path_factory.mktemp("claims-resume"))


@pytest.fixture(scope="session")
def portfolio_verifier(portfolio_checker: Checker) -> Verifier:
    return _verifier(portfolio_checker)


@pytest.fixture(scope="session")
def resume_verifier(resume_checker: Checker) -> Verifier:
    return _verifier(resume_checker)
