"""One router per resource: tasks, runs, events (SSE), document checks, auth, health; run actions
(trace download, timeline, re-run, resume, replay, re-check) and series across runs (stats)."""

from autogen_pse.web.routers import auth, check, events, health, run_actions, runs, stats, tasks

__all__ = ["auth", "check", "events", "health", "run_actions", "runs", "stats", "tasks"]
