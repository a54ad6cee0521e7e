"""One router per resource: tasks, runs, events (SSE), auth, health."""

from autogen_pse.web.routers import auth, events, health, runs, tasks

__all__ = ["auth", "events", "health", "runs", "tasks"]
