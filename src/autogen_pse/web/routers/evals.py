"""Evals (``pse eval``): the list from the eval index, one eval's report with its case runs (each
a run id the Run detail page opens), and its self-contained HTML report. A running eval's report
is rewritten after every finished run: the Evals page polls ``GET /api/evals/{eval_id}`` while
``status`` is ``running``."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from autogen_pse.errors import UserError
from autogen_pse.evals import EvalReport, EvalRow, EvalStore
from autogen_pse.store.ids import RUN_ID_PATTERN
from autogen_pse.web.deps import SettingsDep
from autogen_pse.web.schemas import ErrorOut

router = APIRouter(prefix="/api/evals", tags=["evals"])

_404: dict[int | str, dict[str, Any]] = {404: {"model": ErrorOut, "description": "no such eval"}}
# the HTML route's errors are JSON, not its own media type
_404_JSON: dict[int | str, dict[str, Any]] = {404: {"description": "no such eval", "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}}}
#: the report page is static HTML with inline styles and SVG: no script, nothing fetched
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
              "form-action 'none'; frame-ancestors 'none'; sandbox")

EvalId = Annotated[str, Path(min_length=26, max_length=26, pattern=RUN_ID_PATTERN.pattern,
                             description="eval id (ULID)")]


class EvalPageOut(BaseModel):
    data: list[EvalRow]
    count: int


@router.get("", response_model=EvalPageOut, summary="List evals")
async def list_evals(
    settings: SettingsDep,
    task: Annotated[str | None, Query(max_length=100, description="exact task name")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> EvalPageOut:
    """Evals newest first, ``{data, count}`` (a ``running`` eval whose process is gone reads ``interrupted``)."""
    rows, count = await asyncio.to_thread(EvalStore(settings).list, limit=limit, task=task)
    return EvalPageOut(data=rows, count=count)


def _load(settings: Any, eval_id: str) -> EvalReport:
    try:
        return EvalStore(settings).load(eval_id)
    except UserError as exc:
        raise HTTPException(404, str(exc)) from None


@router.get("/{eval_id}", response_model=EvalReport, responses=_404, summary="One eval")
async def get_eval(settings: SettingsDep, eval_id: EvalId) -> EvalReport:
    """The eval's report: models, per-model summary, every case run (case, model, repeat, run id,
    verdict, verified, cycles, grounding, claims, tokens, cost, seconds). Poll it while ``status``
    is ``running``."""
    return await asyncio.to_thread(_load, settings, eval_id)


@router.get("/{eval_id}/report.html", response_class=HTMLResponse, responses=_404_JSON, summary="HTML report")
async def get_eval_html(settings: SettingsDep, eval_id: EvalId) -> HTMLResponse:
    """The self-contained HTML report (inline CSS and SVG; no script)."""

    def read() -> str:
        _load(settings, eval_id)
        return EvalStore(settings).html_path(eval_id).read_text(encoding="utf-8")

    text = await asyncio.to_thread(read)
    return HTMLResponse(text, headers={"Content-Security-Policy": REPORT_CSP})
