"""Pacing of scheduled sends under Telegram's flood limits.

Each send reserves the next free slot, overall (``overall_rate`` messages per second)
and in its chat (``per_chat_rate``), then sleeps until that slot.  Slots are spread
evenly, without bursts, so a steady stream stays under a token-bucket limit of the same
rate.  A 429 answer (``retry_after``) pauses every send until it has passed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


class Pacer:
    def __init__(
        self,
        overall_rate: float,
        per_chat_rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if overall_rate <= 0 or per_chat_rate <= 0:
            raise ValueError("rates must be positive")
        self.overall_interval = 1.0 / overall_rate
        self.chat_interval = 1.0 / per_chat_rate
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._paused_until = 0.0
        self._chats: dict[int, float] = {}

    def _reserve(self, chat_id: int, messages: int, now: float) -> float:
        slot = max(now, self._next, self._paused_until, self._chats.get(chat_id, 0.0))
        self._next = slot + messages * self.overall_interval
        self._chats[chat_id] = slot + messages * self.chat_interval
        if len(self._chats) > 50_000:
            self._chats = {c: t for c, t in self._chats.items() if t > now}
        return slot

    async def wait(self, chat_id: int, messages: int = 1) -> None:
        """Wait for the slot of ``messages`` sends to ``chat_id``."""
        while True:
            now = self._clock()
            slot = self._reserve(chat_id, messages, now)
            if slot > now:
                await self._sleep(slot - now)
            if self._paused_until <= self._clock():
                return
            # A 429 arrived while we waited: queue again behind the pause.

    def charge(self, chat_id: int, messages: int) -> None:
        """Account for ``messages`` extra sends already made to ``chat_id``."""
        if messages > 0:
            self._reserve(chat_id, messages, self._clock())

    def pause(self, seconds: float) -> None:
        """Telegram asked us to wait: no send starts for ``seconds``."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)

    @property
    def paused_until(self) -> float:
        return self._paused_until
