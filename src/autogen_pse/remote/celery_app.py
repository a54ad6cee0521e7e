"""The Celery app: one task (:data:`~.keys.TASK_NAME`) that executes a run order.

Settings chosen for runs that last minutes: a worker reserves only the run it executes
(``prefetch 1``, late ack), so a queued run never waits behind a busy or dead worker; a
redelivered order of a run already claimed is dropped by the claim (:mod:`.broker`). The worker
reconnects to a restarted broker without limit. Results are not stored by Celery: the run's
stream carries them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autogen_pse.remote.keys import QUEUE, TASK_NAME

if TYPE_CHECKING:
    from celery import Celery


def make_app(broker_url: str) -> Celery:
    from celery import Celery

    app = Celery("autogen_pse", broker=broker_url, set_as_current=False)
    app.conf.update(
        task_default_queue=QUEUE,
        task_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=False,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        worker_enable_remote_control=False,
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,
        broker_transport_options={"visibility_timeout": 12 * 3600},
        task_publish_retry=False,
    )

    @app.task(name=TASK_NAME)
    def run(order: dict[str, Any]) -> str:
        from autogen_pse.remote.worker import run_order

        return run_order(order)

    return app


def send_order(app: Celery, order: dict[str, Any]) -> None:
    """Queue ``order`` (blocking; raises kombu/redis errors when the broker is down)."""
    app.send_task(TASK_NAME, args=[order], queue=QUEUE, retry=False)
