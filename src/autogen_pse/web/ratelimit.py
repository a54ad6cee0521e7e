"""Rate limit of failed token attempts (login and Bearer guesses alike), per client."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable


class FailureLimiter:
    """Failed token attempts per client over a sliding window: at most ``limit`` per ``window``
    seconds, then :meth:`retry_after` says how long the client must wait (and every attempt is
    refused meanwhile, even a correct one, so the limit cannot be probed).

    A repeated wrong value counts once (``key``): a browser with a stale cookie sends it on every
    request, a guesser needs a new value for every try. Memory is bounded (``max_clients``).
    """

    def __init__(self, limit: int = 5, window: float = 60.0, *, max_clients: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.max_clients = max_clients
        self.clock = clock
        self._failures: OrderedDict[str, deque[tuple[float, str]]] = OrderedDict()
        self._serial = 0

    def _recent(self, client: str) -> deque[tuple[float, str]]:
        entries = self._failures.get(client)
        if entries is None:
            return deque()
        cutoff = self.clock() - self.window
        while entries and entries[0][0] <= cutoff:
            entries.popleft()
        if not entries:
            del self._failures[client]
        return entries

    def retry_after(self, client: str) -> float | None:
        """Seconds until ``client`` may try again, or None when it may try now."""
        entries = self._recent(client)
        if len(entries) < self.limit:
            return None
        return max(0.0, entries[-self.limit][0] + self.window - self.clock())

    def fail(self, client: str, key: str | None = None) -> None:
        """Record a failed attempt (``key``: the wrong value's fingerprint; None: always counts)."""
        entries = self._recent(client)
        if key is not None and any(k == key for _, k in entries):
            return
        if key is None:
            self._serial += 1
            key = f"#{self._serial}"
        entries.append((self.clock(), key))
        self._failures[client] = entries
        self._failures.move_to_end(client)
        while len(self._failures) > self.max_clients:
            self._failures.popitem(last=False)

    def reset(self, client: str) -> None:
        """Forget ``client``'s failures (after a successful login)."""
        self._failures.pop(client, None)
