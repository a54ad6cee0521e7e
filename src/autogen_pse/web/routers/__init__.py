"""One router per resource: tasks, runs, events (SSE), document checks, evals, auth, health; run
actions (trace download, timeline, re-run, resume, replay, re-check) and series across runs (stats)."""

from autogen_pse.web.routers import auth, check, evals, events, health, run_actions, runs, stats, tasks

__all__ = ["auth", "check", "evals", "events", "health", "run_actions", "runs", "stats", "tasks"]
