"""Redis: connecting, the one-line "broker unreachable" error and the atomic scripts.

Every decision that two processes could race on is one Lua script, so it is atomic in Redis:

- :data:`CLAIM` (worker, before a run starts): refuse a cancelled run, a stale order (another
  attempt) or a run another worker holds; else take the lease. A run is never executed twice at once.
- :data:`HEARTBEAT` (worker): extend the lease if still ours; report the cancel flag.
- :data:`PUBLISH` (worker): append entries to the run's stream only while the lease is ours
  (a worker that lost its lease is fenced off); an entry id already there is skipped, so a
  publish retried after a lost reply never duplicates an event.
- :data:`RELEASE` (worker, at the end): drop the lease, close the attempt, let the stream expire.
- :data:`CANCEL` (server): set the cancel flag; tells whether a worker holds the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from autogen_pse.errors import ServiceError, UserError

if TYPE_CHECKING:
    import redis
    import redis.asyncio

CONNECT_TIMEOUT = 2.0

CLAIM = """
if redis.call('exists', KEYS[2]) == 1 then return 'cancelled' end
if redis.call('get', KEYS[3]) ~= ARGV[2] then return 'stale' end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[3]) then return 'ok' end
return 'busy'
"""

HEARTBEAT = """
local ours = 0
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  ours = 1
end
return {ours, redis.call('exists', KEYS[2])}
"""

PUBLISH = """
if ARGV[1] ~= '' and redis.call('get', KEYS[1]) ~= ARGV[1] then return -1 end
local added = 0
for i = 2, #ARGV, 4 do
  local r = redis.pcall('xadd', KEYS[2], ARGV[i], 'k', ARGV[i + 1], 'e', ARGV[i + 2], 'f', ARGV[i + 3])
  if type(r) ~= 'table' or not r.err then added = added + 1 end
end
return added
"""

RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
if redis.call('get', KEYS[2]) == ARGV[2] then redis.call('set', KEYS[2], 'done:' .. ARGV[2], 'KEEPTTL') end
redis.call('expire', KEYS[3], ARGV[3])
return 1
"""

CANCEL = """
redis.call('set', KEYS[1], '1', 'EX', ARGV[1])
return redis.call('exists', KEYS[2])
"""


def safe_url(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _check_scheme(url: str) -> None:
    if urlsplit(url).scheme not in ("redis", "rediss", "unix"):
        raise UserError(f"PSE_BROKER_URL {safe_url(url)!r}: not a Redis URL; use redis://host:6379/0")


def connect(url: str) -> redis.Redis:
    """A synchronous client for ``url`` (connects lazily; commands raise ``redis.ConnectionError``)."""
    import redis

    _check_scheme(url)
    return redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=30,
                                health_check_interval=10, decode_responses=True)


def connect_async(url: str) -> redis.asyncio.Redis:
    """An asyncio client for ``url`` (connects lazily)."""
    import redis.asyncio

    _check_scheme(url)
    return redis.asyncio.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=30,
                                        health_check_interval=10, decode_responses=True)


def unreachable(url: str, exc: BaseException) -> ServiceError:
    """The one-line error for a broker that does not answer."""
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return ServiceError(f"the run broker at {safe_url(url)} is unreachable ({reason}); start Redis there "
                        "or set PSE_BROKER_URL (see docs/workers.md)")


def check_broker(url: str) -> None:
    """PING the broker once.

    Raises:
        UserError: not a Redis URL.  ServiceError: the broker does not answer (one line, exit 3 / 503).
    """
    import redis

    client = connect(url)
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        raise unreachable(url, exc) from None
    finally:
        client.close()


def script(client: Any, source: str) -> Any:
    """A registered script (EVALSHA, falling back to EVAL after a broker restart flushed the cache)."""
    return client.register_script(source)
