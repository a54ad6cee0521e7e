"""``GET /api/health``: liveness, version, run counts; public even when a token is set."""

from __future__ import annotations

from fastapi import APIRouter

from autogen_pse import __version__
from autogen_pse.web.deps import StateDep
from autogen_pse.web.schemas import Health

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health", response_model=Health, summary="Health")
async def health(state: StateDep) -> Health:
    """``status`` is always ``ok`` when the server answers; ``running``/``queued`` count runs."""
    active = state.active()
    running = len(active & state.hub.running())
    return Health(
        version=__version__, auth_required=state.token is not None, running=running,
        queued=len(active) - running, concurrency=getattr(state.executor, "concurrency", None),
    )
