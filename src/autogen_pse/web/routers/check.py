"""``POST /api/check``: the claim ledger of any Markdown document, checked against a task's evidence."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from autogen_pse.config import Settings
from autogen_pse.verification import check_document, document_checker
from autogen_pse.web.deps import SettingsDep
from autogen_pse.web.policy import confine_vars
from autogen_pse.web.routers.common import POST_ERRORS
from autogen_pse.web.schemas import CheckIn, DocumentReportOut, ErrorOut

router = APIRouter(prefix="/api/check", tags=["check"])

_422: dict[int | str, dict[str, Any]] = {422: {
    "model": ErrorOut,
    "description": "unknown task, a task without evidence, bad inputs or vars, an empty or too large document"}}


def check(settings: Settings, body: CheckIn) -> DocumentReportOut:
    """Prepare the task from ``body.vars`` and build the document's ledger (blocking: may read files).

    Raises:
        UserError: see :func:`autogen_pse.verification.document_checker` and ``check_document``.
    """
    # file vars name the task's own files, never the server's working directory
    checker = document_checker(body.task, confine_vars(settings.tasks_dir, body.task, dict(body.vars)), settings)
    report = check_document(checker, body.name, body.text)
    return DocumentReportOut.model_validate(report.model_dump(mode="json"))


@router.post("", response_model=DocumentReportOut, responses={**_422, **POST_ERRORS}, summary="Check a document")
async def post_check(body: CheckIn, settings: SettingsDep) -> DocumentReportOut:
    """Split the document into claims (sentences, bullets, table rows, headings) and give each a
    status against the task's prepared facts: ``supported``, ``contradicted``, ``unverifiable`` or
    ``none`` (nothing factual), with the findings and evidence ids behind it. Only tasks with an
    ``evidence.py`` can be checked; a user error answers 422 with a one-line ``detail``."""
    return await run_in_threadpool(check, settings, body)
