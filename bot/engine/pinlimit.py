"""How often one user's texts may be checked as a PIN: a small bucket per user, looked at
before any hashing, so a flood of PINs costs the bot a few hashes a second at most.

(The lock's own escalating pauses, ``flows.conversations.pinlock``, count wrong PINs and
are kept across restarts; this limit is about CPU, in memory, and counts every check.)
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime

#: Checks one user may have at once, and how fast the bucket fills again.
BURST = 5
SECONDS_PER_CHECK = 2.0
#: Users remembered (the least recently seen go first).
MAX_USERS = 10_000


class PinLimiter:
    def __init__(self, burst: int = BURST, seconds_per_check: float = SECONDS_PER_CHECK) -> None:
        self.burst = burst
        self.seconds = seconds_per_check
        self._buckets: OrderedDict[str, tuple[float, datetime]] = OrderedDict()

    def allow(self, user_id: str, now: datetime) -> bool:
        """Take one check for ``user_id`` at ``now``; False when there is none left."""
        tokens, since = self._buckets.pop(user_id, (float(self.burst), now))
        elapsed = max(0.0, (now - since).total_seconds())
        tokens = min(float(self.burst), tokens + elapsed / self.seconds)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > MAX_USERS:
            self._buckets.popitem(last=False)
        return allowed
