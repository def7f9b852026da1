"""One person's updates are handled in the order they came, others' meanwhile
(``bot.telegram.ordering``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from telegram import Chat, Message, Update, User

from bot.telegram.ordering import OnePersonInOrder


def _update(update_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, Chat.PRIVATE)
    user = User(chat_id, "Someone", is_bot=False)
    return Update(update_id, message=Message(update_id, datetime.now(UTC), chat, from_user=user))


async def test_one_persons_updates_run_in_order_and_others_meanwhile() -> None:
    processor = OnePersonInOrder(8)
    done: list[str] = []
    slow = asyncio.Event()

    async def handle(name: str, wait: asyncio.Event | None = None) -> None:
        if wait is not None:
            await wait.wait()
        await asyncio.sleep(0)
        done.append(name)

    tasks = [
        asyncio.create_task(processor.process_update(_update(1, 5), handle("a1", slow))),
        asyncio.create_task(processor.process_update(_update(2, 5), handle("a2"))),
        asyncio.create_task(processor.process_update(_update(3, 7), handle("b1"))),
    ]
    for _ in range(20):
        await asyncio.sleep(0)
    # the other person was answered; this person's second update waits for the first
    assert done == ["b1"]
    assert processor.chats_waiting == 1
    slow.set()
    await asyncio.gather(*tasks)
    assert done == ["b1", "a1", "a2"]
    assert processor.chats_waiting == 0  # no queue is kept once a chat is idle


async def test_an_update_stopped_while_waiting_its_turn_never_runs() -> None:
    processor = OnePersonInOrder(8)
    ran: list[int] = []
    hold = asyncio.Event()

    async def handle(n: int, wait: asyncio.Event | None = None) -> None:
        if wait is not None:
            await wait.wait()
        ran.append(n)

    first = asyncio.create_task(processor.process_update(_update(1, 5), handle(1, hold)))
    second = asyncio.create_task(processor.process_update(_update(2, 5), handle(2)))
    await asyncio.sleep(0)
    second.cancel()
    hold.set()
    await first
    await asyncio.gather(second, return_exceptions=True)
    assert ran == [1]
    assert processor.chats_waiting == 0
