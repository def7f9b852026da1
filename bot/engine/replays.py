"""Updates a process that died may already have applied, sent again by Telegram.

An update is confirmed to Telegram only once handled (``bot.telegram.inflight``), so the
process that starts after a crash (or the standby taking over) is sent again every
update the dead one had not confirmed: the ones queued or in progress, and the ones it
handled just before the kill.  A step stores the update's id with its new state, in the
same transaction (``Store.save_state(of_update=...)``), and the handler marks the update
answered once the step's replies are sent (``Store.mark_answered``).  So a replayed
update is:

- :attr:`Replay.NEW` when its step was not stored: it runs as usual;
- :attr:`Replay.ANSWERED` when its step was stored and answered: nothing is done again
  (a button press is still answered, so it stops spinning);
- :attr:`Replay.UNANSWERED` when its step was stored but the process died before the
  answer was sent, or while it was being sent: the step is not applied again, the
  current step is shown instead, so the person gets an answer.  If the kill fell after
  the answer went out and before it was marked (a few milliseconds), that answer is
  repeated once.

Only ids up to the newest one stored when this process started can be replays (read once,
at the first update); the newer ones are not looked up.  A stored mark counts for
:data:`KEPT` only: Telegram keeps an unconfirmed update 24 hours, and after a week
without updates it may start its ids afresh, lower.

The marks are the *newest* update per person, which is enough because one person's
updates are handled one after the other, in the order they came
(``bot.telegram.ordering``): a replayed update's step is shown before the next one runs.
"""

from __future__ import annotations

import asyncio
import enum
from datetime import datetime, timedelta

from bot.store.facade import Store

#: how long a stored mark may identify a replay (Telegram keeps updates 24 hours)
KEPT = timedelta(hours=48)


class Replay(enum.Enum):
    NEW = "new"
    ANSWERED = "answered"
    UNANSWERED = "unanswered"


class Replays:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._loaded = False
        self._floor: int | None = None
        self._loading = asyncio.Lock()

    async def _newest_at_start(self, now: datetime) -> int | None:
        """The newest update stored before this process handled any (read once)."""
        if not self._loaded:
            async with self._loading:
                if not self._loaded:
                    self._floor = await self._store.newest_update(now - KEPT)
                    self._loaded = True
        return self._floor

    async def seen(self, user_id: str, update_id: int, now: datetime) -> Replay:
        """What became of ``update_id`` for ``user_id`` before (call it under the user's
        lock, before the step: its own mark is not stored yet)."""
        floor = await self._newest_at_start(now)
        if floor is None or update_id > floor:
            return Replay.NEW
        marks = await self._store.update_marks(user_id)
        if marks is None or marks.update_id < update_id or marks.at < now - KEPT:
            return Replay.NEW
        if marks.answered_id is not None and marks.answered_id >= update_id:
            return Replay.ANSWERED
        return Replay.UNANSWERED
