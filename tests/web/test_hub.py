"""EventHub: per-run and global fan-out, bounded queues, lagging subscribers, thread hand-off."""

from __future__ import annotations

import asyncio
import threading

from autogen_pse.events import EventKind, RunEvent
from autogen_pse.web.hub import EventHub

A = "01JAAAAAAAAAAAAAAAAAAAAAAA"
B = "01JBBBBBBBBBBBBBBBBBBBBBBB"


def ev(run: str, seq: int, kind: EventKind = EventKind.MESSAGE) -> RunEvent:
    return RunEvent(run_id=run, seq=seq, kind=kind, payload={})


async def test_per_run_subscribers_get_only_their_run() -> None:
    hub = EventHub()
    hub.bind()
    with hub.subscription(A) as a1, hub.subscription(A) as a2, hub.subscription(B) as b:
        hub.publish(ev(A, 1))
        hub.publish(ev(B, 1))
        hub.publish(ev(A, 2))
        assert [e.seq for e in a1.drain()] == [1, 2]
        assert [e.seq for e in a2.drain()] == [1, 2]
        assert [(e.run_id, e.seq) for e in b.drain()] == [(B, 1)]
    assert hub.subscriber_count(A) == 0


async def test_global_feed_gets_run_level_kinds_only() -> None:
    hub = EventHub()
    hub.bind()
    with hub.subscription(None) as feed:
        hub.publish(ev(A, 1, EventKind.RUN_STARTED))
        hub.publish(ev(A, 2, EventKind.MESSAGE))
        hub.publish(ev(A, 3, EventKind.CYCLE_FINISHED))
        hub.publish(ev(B, 1, EventKind.RUN_STARTED))
        hub.publish(ev(A, 4, EventKind.RUN_FINISHED))
        kinds = [(e.run_id, e.kind) for e in feed.drain()]
    assert kinds == [(A, EventKind.RUN_STARTED), (A, EventKind.CYCLE_FINISHED), (B, EventKind.RUN_STARTED),
                     (A, EventKind.RUN_FINISHED)]
    assert hub.running() == {B}


async def test_full_queue_marks_lagging_and_never_blocks() -> None:
    hub = EventHub(queue_size=3)
    hub.bind()
    slow = hub.subscribe(A)
    fast = hub.subscribe(A, maxsize=100)
    for seq in range(1, 11):
        hub.publish(ev(A, seq))  # returns at once although nobody reads `slow`
    assert slow.lagging and hub.dropped == 1
    assert hub.subscriber_count(A) == 1  # only `fast` is still subscribed
    got = [await slow.get(timeout=0.1) for _ in range(4)]
    assert [e.seq for e in got[:3] if e] == [1, 2, 3] and got[3] is None  # None = re-sync now
    assert [e.seq for e in fast.drain()] == list(range(1, 11))
    fast.close()


async def test_get_times_out_with_none() -> None:
    hub = EventHub()
    hub.bind()
    with hub.subscription(A) as sub:
        assert await sub.get(timeout=0.05) is None


async def test_publish_from_another_thread_is_handed_to_the_loop() -> None:
    hub = EventHub()
    hub.bind()
    with hub.subscription(A) as sub:
        t = threading.Thread(target=lambda: [hub.publish(ev(A, s)) for s in range(1, 6)])
        t.start()
        t.join()
        got = [await sub.get(timeout=1) for _ in range(5)]
    assert [e.seq for e in got if e] == [1, 2, 3, 4, 5]


async def test_publish_never_raises_for_closed_subscription() -> None:
    hub = EventHub()
    hub.bind()
    sub = hub.subscribe(A)
    sub.close()
    sub.close()
    hub.publish(ev(A, 1))
    assert sub.queue.empty()
    await asyncio.sleep(0)
