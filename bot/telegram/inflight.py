"""Updates are confirmed to Telegram once handled, not once fetched.

Telegram counts an update as delivered ("confirmed") as soon as a getUpdates asks for a
higher ``offset``, and keeps an unconfirmed one for 24 hours.  python-telegram-bot's
Updater asks for ``last fetched update_id + 1`` right after it has put a batch in the
Application's queue (``telegram/ext/_updater.py``, ``polling_action_cb``), so a process
killed (``kill -9``, a lost lease) with updates queued or being handled loses them: the
person is never answered and the process that takes over never sees them.

:class:`InFlight` keeps the ids of the updates fetched and not yet handled.  The
getUpdates transport (``bot.telegram.updates.ScreenedUpdates``) asks it for the offset
to send instead of PTB's (:meth:`InFlight.offset`: the lowest unfinished id), and drops
from each answer what Telegram sends again because it is still unconfirmed: the updates
queued, being handled, or handled since (:meth:`InFlight.arrived`).  The Application
(:class:`TrackedApplication`) marks an update finished when ``process_update`` returns,
whether its handler succeeded or its error was handled; an update cancelled mid-way (the
process stopping) stays unconfirmed.  Every handler blocks (none is ``block=False``), so
``process_update`` returning means the handling is over.

So after a crash the next process (or the standby taking over) is sent every update
that was queued or in progress, and the ones handled just before the kill that were
not confirmed yet.  Those may already be applied: ``bot.engine.replays`` skips them.

Bounds:

- While Telegram holds unconfirmed updates a getUpdates returns at once, so when an
  answer brought nothing new the next one waits until an update is finished (at most
  :data:`REPOLL_SECONDS`) instead of asking again straight away.
- At most :data:`HELD_MAX` updates are held back (a getUpdates returns at most 100 from
  the offset): past that, the oldest unfinished one is confirmed anyway, still being
  handled, so that one slow step cannot hold up everybody else's messages.  A crash
  would lose that one, as before.
- A graceful stop (SIGTERM) finishes the queue (PTB's ``Application.stop``), then
  :meth:`InFlight.confirm` sends the last offset.

Webhook mode does not use this: Telegram posts each update and retries it only if the
webhook answers other than 2xx, and PTB's webhook handler answers 200 once the update
is queued, so an update queued or in progress when the process dies is lost there, as
before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from telegram import Bot
from telegram.error import TelegramError
from telegram.ext import Application

log = logging.getLogger(__name__)

#: the most updates held unconfirmed (getUpdates returns up to 100 from the offset)
HELD_MAX = 50
#: how long a getUpdates that would only bring back updates already here waits for one
#: of them to be finished before it asks anyway
REPOLL_SECONDS = 0.25


class InFlight:
    """The update ids fetched and not yet finished, and the getUpdates offset they
    allow.  Used from one event loop; getUpdates calls are one at a time (PTB polls
    with one task, and its last call at stop comes after that task ended)."""

    def __init__(self, held_max: int = HELD_MAX) -> None:
        self._held_max = held_max
        #: fetched, not finished
        self._pending: set[int] = set()
        #: finished, not confirmed yet (Telegram may send them again)
        self._done: set[int] = set()
        #: confirmed while still being handled (over ``held_max``)
        self._let_go: set[int] = set()
        #: the offset of the last getUpdates sent; Telegram answers with ids >= it
        self._sent = 0
        #: the highest id fetched so far
        self._highest = 0
        #: the last answer held updates, all of them already here
        self._only_repeats = False
        self._progress: asyncio.Event | None = None

    # ------------------------------------------------------------------ the offset
    def offset(self, asked: int) -> int:
        """The offset to send instead of PTB's ``asked``: the lowest update not yet
        finished (each finished one below it is confirmed by asking for it)."""
        if asked < 0:  # PTB's way of dropping pending updates: not ours to change
            return asked
        held = sorted(self._pending | self._done)
        if len(held) > self._held_max:
            cut = held[len(held) - self._held_max]
            released = [i for i in self._pending if i < cut]
            if released:
                log.warning(
                    "%d update(s) take long to handle: confirmed to Telegram before they "
                    "were finished",
                    len(released),
                )
            self._pending.difference_update(released)
            self._let_go.update(released)
        if self._pending:
            offset = min(self._pending)
        elif self._highest:
            offset = max(asked, self._highest + 1)
        else:
            offset = asked
        self._done = {i for i in self._done if i >= offset}
        self._sent = offset
        return offset

    async def before_poll(self, *, long_poll: bool) -> None:
        """Before a long poll: if the last answer only brought back
        updates already here, wait until one is finished (or :data:`REPOLL_SECONDS`)."""
        if not self._only_repeats or not long_poll:
            return
        progress = self._event()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(REPOLL_SECONDS):
                await progress.wait()

    def arrived(self, result: list[Any]) -> list[Any]:
        """``result`` (the updates of a getUpdates answer) without those already here
        (queued, being handled, or finished but not confirmed); the others are now in
        flight."""
        fresh: list[Any] = []
        repeats = 0
        for raw in result:
            update_id = raw.get("update_id") if isinstance(raw, dict) else None
            if not isinstance(update_id, int):
                fresh.append(raw)  # not ours to judge (the screen drops these)
                continue
            if (
                update_id < self._sent
                or update_id in self._pending
                or update_id in self._done
                or update_id in self._let_go
            ):
                repeats += 1
                continue
            self._pending.add(update_id)
            self._highest = max(self._highest, update_id)
            fresh.append(raw)
        self._only_repeats = repeats > 0 and not fresh
        return fresh

    # ------------------------------------------------------------------ handling
    def finished(self, update_id: int) -> None:
        """The update was handled (or its error was): it may be confirmed."""
        self._let_go.discard(update_id)
        if update_id not in self._pending:
            return  # not fetched by polling (a webhook, a test): nothing to confirm
        self._pending.discard(update_id)
        self._done.add(update_id)
        progress = self._event()
        progress.set()
        self._progress = None

    def _event(self) -> asyncio.Event:
        if self._progress is None:
            self._progress = asyncio.Event()
        return self._progress

    @property
    def pending(self) -> int:
        """Updates fetched and not finished."""
        return len(self._pending)

    def _to_confirm(self) -> bool:
        """A getUpdates now would confirm an update no getUpdates has confirmed yet."""
        target = min(self._pending) if self._pending else self._highest + 1
        return self._highest > 0 and target > self._sent

    async def confirm(self, bot: Bot) -> None:
        """At a graceful stop, once the queue is handled: one short getUpdates, so what
        was handled is not sent again to the next process.  Only after polling (a
        webhook has nothing to confirm, and getUpdates would conflict with it)."""
        if not self._to_confirm():
            return
        try:
            await bot.get_updates(offset=self._highest + 1, timeout=0, limit=1)
        except TelegramError as exc:
            # the next process gets them again and skips what was applied
            log.warning("could not confirm the last updates: %s", type(exc).__name__)


class TrackedApplication(Application):  # type: ignore[type-arg]  # PTB: Application has 6 type parameters
    """The Application that tells :class:`InFlight` when an update is finished (made by
    ``ApplicationBuilder.application_class``)."""

    def __init__(self, *, inflight: InFlight, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inflight = inflight

    async def process_update(self, update: object) -> None:
        try:
            await super().process_update(update)
        except asyncio.CancelledError:
            raise  # not finished: left unconfirmed, the next process gets it again
        except BaseException:
            self._finished(update)
            raise
        self._finished(update)

    def _finished(self, update: object) -> None:
        update_id = getattr(update, "update_id", None)
        if isinstance(update_id, int):
            self.inflight.finished(update_id)
