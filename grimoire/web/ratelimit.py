"""Token buckets per key for the people's routes (tables, accounts): in the database with PostgreSQL
(shared by every server process, ``Cluster.take_token``), in this process's memory with SQLite."""

from __future__ import annotations

import math

from .hub import ApiError, Hub, TokenBucket, storage_error
from .store import StorageError


class Limiter:
    def __init__(self) -> None:
        self.local: dict[str, TokenBucket] = {}

    async def take(self, hub: Hub, key: str, per_minute: float, burst: float, code: str, what: str) -> None:
        """One event for ``key`` (at most ``per_minute`` a minute after a burst of ``burst``); 429 if over."""
        rate = per_minute / 60
        if hub.cluster is not None:
            try:
                wait = await hub.cluster.take_token(key, rate, burst)
            except StorageError:
                raise storage_error() from None
        else:
            bucket = self.local.get(key)
            if bucket is None:
                if len(self.local) > 50_000:             # a flood of keys must not grow memory without end
                    self.local.clear()
                bucket = self.local[key] = TokenBucket(rate, burst)
            wait = None if bucket.take() else bucket.wait()
        if wait is not None:
            w = max(1, math.ceil(wait))
            raise ApiError(429, code, f"too many {what}; try again in {w} s", headers={"Retry-After": str(w)},
                           retry_after=w)
