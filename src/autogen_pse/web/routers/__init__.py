"""One router per resource: tasks, runs, events (SSE), document checks, evals, auth, health."""

from autogen_pse.web.routers import auth, check, evals, events, health, runs, tasks

__all__ = ["auth", "check", "evals", "events", "health", "runs", "tasks"]
