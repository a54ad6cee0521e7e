"""Names in Redis: one place for every key, the queue and the task name."""

from __future__ import annotations

#: The Celery queue runs are sent to (and ``pse worker`` consumes).
QUEUE = "pse.runs"
#: The Celery task that executes one run order.
TASK_NAME = "autogen_pse.run"


def stream(run_id: str) -> str:
    """The run's event stream (entry ids ``<seq>-0`` for events, ``<seq>-<attempt>`` for reports)."""
    return f"pse:run:{run_id}:events"


def lease(run_id: str) -> str:
    """The executing worker's token; its TTL is the heartbeat timeout (refreshed by the heartbeat)."""
    return f"pse:run:{run_id}:lease"


def cancel(run_id: str) -> str:
    """Set when the run is to stop; a worker checks it with every heartbeat."""
    return f"pse:run:{run_id}:cancel"


def attempt(run_id: str) -> str:
    """The current attempt number; an order of any other attempt is stale and dropped."""
    return f"pse:run:{run_id}:attempt"


def all_of(run_id: str) -> list[str]:
    return [stream(run_id), lease(run_id), cancel(run_id), attempt(run_id)]
