"""Shared state of the web app and the ``Annotated[..., Depends]`` aliases the routers use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Path, Request

from autogen_pse.config import Settings
from autogen_pse.executor import RunExecutor
from autogen_pse.store import TraceStore
from autogen_pse.store.ids import RUN_ID_PATTERN
from autogen_pse.web.hub import EventHub
from autogen_pse.web.security import FailureLimiter
from autogen_pse.web.sse import DEFAULT_RETRY_MS

__all__ = [
    "ExecutorDep",
    "HubDep",
    "ModelPolicy",
    "RunId",
    "SettingsDep",
    "StateDep",
    "StoreDep",
    "StreamConfig",
    "WebState",
    "get_state",
]

#: ``model spec -> None`` (allowed) or the reason it is refused (422). See ``create_app``.
ModelPolicy = Callable[[str], str | None]


@dataclass(frozen=True)
class StreamConfig:
    """SSE timing. ``ping``: keep-alive comment interval (s); ``idle``: how often a quiet stream
    checks the store and whether its run is still alive (s); ``retry_ms``: the browser's
    reconnection delay hint; ``send_timeout``: a send that takes longer drops the client (s)."""

    retry_ms: int = DEFAULT_RETRY_MS
    ping: float = 15.0
    idle: float = 1.0
    send_timeout: float = 30.0


@dataclass
class WebState:
    """Everything a request needs, built once by :func:`autogen_pse.web.create_app`."""

    settings: Settings
    store: TraceStore
    hub: EventHub
    executor: RunExecutor
    stream: StreamConfig = field(default_factory=StreamConfig)
    max_queue: int = 50
    #: failed token attempts per client (the login route and the token guard share it)
    limiter: FailureLimiter = field(default_factory=FailureLimiter)
    #: which ``model`` a ``POST /api/runs`` may ask for (None: any the server can run)
    model_policy: ModelPolicy | None = None
    #: ``POST /api/runs`` requests admitted but not yet in ``executor.active()``: counted with the
    #: active runs against the queue capacity, so concurrent requests cannot overfill it
    admitting: int = 0

    @property
    def token(self) -> str | None:
        secret = self.settings.web_token
        value = secret.get_secret_value() if secret is not None else ""
        return value or None

    def active(self) -> set[str]:
        """Runs queued or running in this server's executor."""
        return set(self.executor.active())

    def start_error(self, run_id: str) -> str | None:
        """Why an accepted run never started (cancelled while queued, bad input), if known."""
        return self.executor.start_error(run_id)

    def run_exists(self, run_id: str) -> bool:
        """The run's trace folder exists (``run_id`` must already be validated)."""
        return self.store.run_dir(run_id, must_exist=False).is_dir()


def get_state(request: Request) -> WebState:
    return request.app.state.pse


StateDep = Annotated[WebState, Depends(get_state)]


def _settings(state: StateDep) -> Settings:
    return state.settings


def _store(state: StateDep) -> TraceStore:
    return state.store


def _hub(state: StateDep) -> EventHub:
    return state.hub


def _executor(state: StateDep) -> RunExecutor:
    return state.executor


SettingsDep = Annotated[Settings, Depends(_settings)]
StoreDep = Annotated[TraceStore, Depends(_store)]
HubDep = Annotated[EventHub, Depends(_hub)]
ExecutorDep = Annotated[RunExecutor, Depends(_executor)]

#: A run id path parameter, validated (422) before any handler — and so any path — sees it.
RunId = Annotated[
    str,
    Path(min_length=26, max_length=26, pattern=RUN_ID_PATTERN.pattern, description="run id (ULID)"),
]
