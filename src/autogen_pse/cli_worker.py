"""``pse worker``: execute runs queued by ``PSE_EXECUTOR=celery`` servers and CLIs (docs/workers.md)."""

from __future__ import annotations

import logging
import os
import socket
from typing import Annotated

import typer

from .errors import ServiceError, UserError


def worker(
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", min=1, max=64,
                                             help="Runs this worker executes at once")] = 1,
    name: Annotated[str | None, typer.Option("--name", help="Worker name (default pse-<host>-<pid>)")] = None,
    log_level: Annotated[str, typer.Option("--log-level",
                                           help="critical | error | warning | info | debug")] = "warning",
) -> None:
    """Start a worker: it takes runs from the broker (PSE_BROKER_URL) and executes them with this
    machine's tasks (PSE_TASKS_DIR), models and settings; events go back through Redis."""
    from .config import load_settings
    from .remote.broker import check_broker, safe_url
    from .remote.celery_app import make_app
    from .remote.keys import QUEUE

    if log_level not in ("critical", "error", "warning", "info", "debug"):
        raise UserError(f"--log-level {log_level!r}: use critical, error, warning, info or debug")
    settings = load_settings()
    log = logging.getLogger("autogen_pse.worker")
    try:
        check_broker(settings.broker_url)
    except ServiceError as exc:  # a worker may start before Redis: Celery keeps trying
        log.warning("%s; waiting for it", exc)
    node = name or f"pse-{socket.gethostname()}-{os.getpid()}"
    logging.getLogger("autogen_pse").setLevel(log_level.upper())
    log.info("worker %s: broker %s, %d run(s) at once", node, safe_url(settings.broker_url), concurrency)
    app = make_app(settings.broker_url)
    pool = "solo" if concurrency == 1 else "threads"  # runs wait on models: threads, not processes
    app.worker_main(["worker", f"--concurrency={concurrency}", f"--pool={pool}", "-Q", QUEUE, "-n", f"{node}@%h",
                     f"--loglevel={log_level.upper()}", "--without-mingle", "--without-gossip", "--without-heartbeat"])
