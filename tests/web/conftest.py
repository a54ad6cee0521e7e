"""Fixtures of the web tests: an app on a synthetic executor (fast, exact pacing) and clients."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from autogen_pse.config import Settings
from autogen_pse.web import create_app
from autogen_pse.web.deps import StreamConfig
from autogen_pse.web.hub import EventHub
from autogen_pse.web.synthetic import SyntheticExecutor
from tests.web.web_helpers import make_settings

FAST_STREAM = StreamConfig(retry_ms=1500, ping=0.5, idle=0.2, send_timeout=5.0)


@dataclass
class WebEnv:
    app: FastAPI
    executor: SyntheticExecutor
    hub: EventHub
    settings: Settings


@pytest.fixture
def web_settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def make_env(web_settings: Settings) -> Callable[..., WebEnv]:
    """``make_env(delay=0.05, concurrency=2, settings=None, queue_size=1000, **script_kw)``."""

    def make(*, delay: float = 0.05, concurrency: int = 2, settings: Settings | None = None,
             queue_size: int = 1000, messages: int = 3, max_queue: int = 50, **app_kw: Any) -> WebEnv:
        from autogen_pse.web.synthetic import demo_script

        s = settings or web_settings
        hub = EventHub(queue_size=queue_size)
        executor = SyntheticExecutor(s, sinks=[hub.publish], concurrency=concurrency, delay=delay,
                                     script=lambda r: demo_script(r, messages=messages))
        app = create_app(s, executor, hub=hub, stream=FAST_STREAM, max_queue=max_queue, **app_kw)
        return WebEnv(app=app, executor=executor, hub=hub, settings=s)

    return make


@pytest.fixture
def env(make_env: Callable[..., WebEnv]) -> WebEnv:
    return make_env()


@asynccontextmanager
async def asgi_client(env: WebEnv, **kw: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An in-process client on ``env.app`` with its lifespan run; active runs are shut down after."""
    async with env.app.router.lifespan_context(env.app):
        transport = httpx.ASGITransport(app=env.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", **kw) as c:
            yield c
        await env.executor.shutdown()


@pytest.fixture
async def client(env: WebEnv) -> AsyncIterator[httpx.AsyncClient]:
    """An in-process client (lifespan run) on the synthetic app."""
    async with asgi_client(env) as c:
        yield c
