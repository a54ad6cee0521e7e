"""The app factory: settings in, a FastAPI app out (API routers, SSE, static frontend)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.middleware.trustedhost import TrustedHostMiddleware

from autogen_pse import __version__
from autogen_pse.config import Settings
from autogen_pse.errors import StoreError, UserError
from autogen_pse.executor import RunExecutor, open_executor
from autogen_pse.store import TraceStore
from autogen_pse.web import routers
from autogen_pse.web.deps import ModelPolicy, StreamConfig, WebState
from autogen_pse.web.hub import EventHub
from autogen_pse.web.runner_thread import ThreadedExecutor
from autogen_pse.web.security import (
    MAX_BODY,
    FailureLimiter,
    RequestGuard,
    SecurityHeaders,
    TokenGuard,
    is_loopback,
)
from autogen_pse.web.spa import STATIC_DIR, build_router

__all__ = ["create_app"]

log = logging.getLogger(__name__)

DESCRIPTION = """Dashboard API of autogen-pse. With `PSE_WEB_TOKEN` set, every `/api` route except
`/api/health` and `/api/login` needs the token (`Authorization: Bearer <token>` or the cookie set by
`POST /api/login`); after 5 wrong tokens in a minute a client gets 429. State changes are POST with
`Content-Type: application/json` (415 otherwise) from this origin (403 otherwise); bodies are capped
at 64 KiB (413). Lists return `{data, count}`."""


def create_app(
    settings: Settings,
    executor: RunExecutor | None = None,
    *,
    hub: EventHub | None = None,
    stream: StreamConfig | None = None,
    static_dir: Path = STATIC_DIR,
    max_queue: int = 50,
    max_body: int = MAX_BODY,
    allowed_origins: Iterable[str] = (),
    model_policy: ModelPolicy | None = None,
    limiter: FailureLimiter | None = None,
) -> FastAPI:
    """Build the dashboard app.

    Without ``executor`` the registered executor named by ``PSE_EXECUTOR`` is made with the hub as a
    sink and ``settings.web_concurrency`` slots, on its own loop thread (:class:`ThreadedExecutor`:
    a blocking check never freezes the API); it is shut down (active runs cancelled, traces
    closed) with the app. A caller passing its own executor must also pass the ``hub`` that is
    among its sinks (or streams follow the trace files instead, once per ``stream.idle``).
    At startup, runs left ``running`` by an earlier process are marked ``interrupted``.

    Hardening knobs: ``max_body`` (bytes, 413 above), ``allowed_origins`` (extra origins allowed
    to POST, besides the request's own host), ``model_policy`` (which ``model`` a web client may
    ask for, e.g. :func:`autogen_pse.web.policy.scripted_only`; 422 otherwise) and ``limiter``
    (failed token attempts per client; default 5 per minute).
    """
    hub = hub or EventHub()
    owned = executor is None
    if executor is None:
        publish = hub.publish
        executor = ThreadedExecutor(  # PSE_EXECUTOR names it (built-in: local), as for the CLI
            lambda: open_executor(settings, concurrency=settings.web_concurrency, sinks=[publish]))
    state = WebState(settings=settings, store=TraceStore(settings), hub=hub, executor=executor,
                     stream=stream or StreamConfig(), max_queue=max_queue, limiter=limiter or FailureLimiter(),
                     model_policy=model_policy)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.bind()
        adopt = getattr(executor, "adopt_running", None)
        if owned and adopt is not None:  # remote runs a previous server process was writing
            adopted = await adopt()
            if adopted:
                log.info("following %d remote run(s) again: %s", len(adopted), ", ".join(adopted))
        try:
            changed = await asyncio.to_thread(state.store.recover_interrupted, state.active())
        except StoreError as exc:
            log.error("could not check for interrupted runs: %s", exc)
        else:
            if changed:
                log.info("marked %d run(s) interrupted: %s", len(changed), ", ".join(changed))
        yield
        shutdown = getattr(executor, "shutdown", None)
        if owned and shutdown is not None:
            await shutdown()
        from autogen_pse.telemetry import close_active

        await asyncio.to_thread(close_active)  # OpenTelemetry: export the last spans (bounded wait)

    # No Swagger UI: it loads scripts from a CDN, which the CSP (and an offline machine) forbids.
    app = FastAPI(title="autogen-pse dashboard", version=__version__, description=DESCRIPTION,
                  lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.state.pse = state
    base_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = routers.events.sse_openapi(base_openapi())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(UserError)
    async def user_error(request: Request, exc: UserError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        log.error("store error on %s: %s", request.url.path, exc)
        return JSONResponse({"detail": str(exc)}, status_code=500)

    for module in (routers.health, routers.auth, routers.tasks, routers.runs, routers.run_actions, routers.stats,
                   routers.events, routers.check, routers.evals):
        app.include_router(module.router)
    app.include_router(build_router(static_dir))

    # Middleware, innermost first: request hygiene (traversal 404, size 413, cross-site 403,
    # JSON 415), the token guard (401/429 before anything else is said about a request), the Host
    # check, and the security headers on every response.
    token = state.token
    app.add_middleware(RequestGuard, max_body=max_body, allowed_origins=allowed_origins)
    app.add_middleware(TokenGuard, token=token, limiter=state.limiter)
    if token is None:  # no token: only loopback names, so a DNS-rebinding page cannot reach the API
        hosts = ["127.0.0.1", "localhost", "[::1]"]
        if is_loopback(settings.web_host) and settings.web_host not in hosts:
            hosts.append(settings.web_host)
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts)
    app.add_middleware(SecurityHeaders)
    return app
