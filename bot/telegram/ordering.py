"""Many people's updates at once, one person's strictly in the order they came.

python-telegram-bot's ``concurrent_updates(n)`` handles up to ``n`` updates at once in
whatever order their handlers happen to reach the store.  For one person that order
matters: two messages sent quickly (two reasons, an answer and then a button), or an
update sent again after a crash (``bot.engine.replays``: the step it stored is shown
again, so it must be shown before the next step runs), must be handled one after the
other, as they came.  :class:`OnePersonInOrder` keeps PTB's bound on updates in flight
and adds a queue per chat: an update waits for the one before it from the same chat.

The order holds because PTB starts one task per update in the order fetched, and a task's
first step here is to join its chat's queue (an ``asyncio.Lock``, first come first served)
before anything else is awaited.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


def chat_of(update: object) -> int | None:
    """Whose queue an update joins: its chat, else its sender (an inline query), else
    none (it runs at once)."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    if update.effective_user is not None:
        return update.effective_user.id
    return None


class _Queue:
    """One chat's queue: the lock its updates take in turn, and how many hold or wait."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class OnePersonInOrder(BaseUpdateProcessor):
    """Up to ``max_concurrent_updates`` updates at once; one chat's in the order they came."""

    def __init__(self, max_concurrent_updates: int) -> None:
        super().__init__(max_concurrent_updates)
        self._queues: dict[int, _Queue] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = chat_of(update)
        if chat is None:
            await coroutine
            return
        queue = self._queues.get(chat)
        if queue is None:
            queue = self._queues[chat] = _Queue()
        queue.users += 1
        try:
            try:
                await queue.lock.acquire()
            except BaseException:  # stopped while waiting its turn: it never runs
                if asyncio.iscoroutine(coroutine):
                    coroutine.close()
                raise
            try:
                await coroutine
            finally:
                queue.lock.release()
        finally:
            queue.users -= 1
            if not queue.users:
                del self._queues[chat]  # a chat's queue lasts while it is used

    @property
    def chats_waiting(self) -> int:
        """Chats with an update being handled or waiting."""
        return len(self._queues)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down: PTB waits for the updates in flight before it stops."""
