"""One router per resource: tasks, runs, events (SSE), document checks, auth, health."""

from autogen_pse.web.routers import auth, check, events, health, runs, tasks

__all__ = ["auth", "check", "events", "health", "runs", "tasks"]
