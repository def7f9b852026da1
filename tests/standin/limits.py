"""Token-bucket flood limits of the Bot API stand-in (overall and per chat)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens per second, holding at most ``capacity``; starts full."""

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.updated = now

    def wait_time(self, now: float) -> float:
        """Seconds until one token is available (0.0 if one is available now)."""
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1.0


class FloodLimits:
    """Overall and per-chat buckets; ``None`` rates mean unlimited."""

    def __init__(
        self,
        overall_rate: float | None,
        per_chat_rate: float | None,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.overall_rate = overall_rate
        self.per_chat_rate = per_chat_rate
        self.burst = burst
        self._clock = clock
        self._overall: TokenBucket | None = None
        self._chats: dict[int, TokenBucket] = {}
        self.reset()

    def reset(self) -> None:
        now = self._clock()
        self._overall = (
            TokenBucket(self.overall_rate, max(1.0, float(math.ceil(self.overall_rate))), now)
            if self.overall_rate
            else None
        )
        self._chats = {}

    def acquire(self, chat_id: int) -> int:
        """Take one send slot for ``chat_id``; return 0, or the retry_after seconds (>= 1)."""
        now = self._clock()
        buckets = [self._overall] if self._overall is not None else []
        if self.per_chat_rate:
            bucket = self._chats.get(chat_id)
            if bucket is None:
                bucket = TokenBucket(self.per_chat_rate, float(max(1, self.burst)), now)
                self._chats[chat_id] = bucket
            buckets.append(bucket)
        wait = max((bucket.wait_time(now) for bucket in buckets), default=0.0)
        if wait > 0.0:
            return max(1, math.ceil(wait))
        for bucket in buckets:
            bucket.take()
        return 0
