"""Runs on worker processes and machines: Celery with a Redis broker (``PSE_EXECUTOR=celery``).

The pieces, each in its own module:

- :mod:`.keys` — the Redis key of every per-run record (event stream, lease, cancel flag, attempt).
- :mod:`.broker` — connecting to Redis, the one-line "broker unreachable" error, the Lua scripts
  that make claiming, heartbeats and publishing atomic.
- :mod:`.order` — what travels with a run to a worker (request, limits, task code hash, input
  files, the resume point) and how it is built at submission.
- :mod:`.publisher` — the worker's event sink: every RunEvent (plus the run's files) appended to
  the run's Redis Stream, fenced by the worker's lease.
- :mod:`.worker` — what a worker does with one order: claim, check the task copy, execute, report.
- :mod:`.follower` — the server's (or CLI's) consumer of one run's stream: the single writer of
  its trace, liveness by lease, retry of an interrupted run.
- :mod:`.executor` — :class:`~autogen_pse.remote.executor.CeleryExecutor`, the RunExecutor.
- :mod:`.celery_app` — the Celery app and its one task; ``pse worker`` starts it.

See ``docs/workers.md`` for the deployment and the guarantees.
"""
