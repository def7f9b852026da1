"""Deleting chat messages (auto-delete sweep and /hide) with the real encrypted store; the
Bot API is a fake whose ``deleteMessages`` fails as told."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.config import Settings
from bot.crypto.keys import UserKeyMissingError
from bot.engine.conversation import Conversation
from bot.engine.runtime import Runtime
from bot.resources import load_resources
from bot.store.facade import Store
from bot.telegram.autodelete import (
    delete_after,
    delete_chat_messages,
    delete_due_messages,
    hide_messages,
)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=2)


@dataclass
class DeletingBot:
    """Records what was deleted; ``errors`` are raised by the next calls, in order."""

    errors: list[Exception] = field(default_factory=list)
    deleted: dict[int, list[int]] = field(default_factory=dict)

    async def delete_messages(self, chat_id: int, message_ids: list[int]) -> bool:
        if self.errors:
            raise self.errors.pop(0)
        self.deleted.setdefault(chat_id, []).extend(message_ids)
        return True


@pytest.fixture
async def runtime(tmp_path: Path) -> AsyncIterator[Runtime]:
    settings = Settings(data_dir=tmp_path / "data")
    store = await Store.open(settings)
    resources = load_resources(None, settings.default_region)
    conversation = Conversation(store, resources, clock=lambda: LATER)
    try:
        yield Runtime(settings, store, resources, conversation, clock=lambda: LATER)
    finally:
        await store.close()


async def user_with_messages(runtime: Runtime, chat: int, ids: list[int]) -> str:
    user_id, _ = await runtime.store.ensure_user(chat, chat)
    await runtime.store.remember_messages(user_id, ids, T0, delete_after=delete_after(T0, 60))
    return user_id


def test_delete_after_is_none_when_auto_delete_is_off() -> None:
    assert delete_after(T0, 0) is None
    assert delete_after(T0, 90) == T0 + timedelta(minutes=90)


def retry_after(seconds: int) -> RetryAfter:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PTB 22's note on the int form of retry_after
        return RetryAfter(timedelta(seconds=seconds))


@pytest.mark.parametrize("error", [NetworkError("down"), TimedOut(), retry_after(3)])
async def test_a_passing_error_leaves_the_messages_for_the_next_sweep(
    runtime: Runtime, error: Exception
) -> None:
    alice = await user_with_messages(runtime, 1, [10, 11])
    bot = DeletingBot(errors=[error])
    assert await delete_due_messages(runtime, bot) == 0  # type: ignore[arg-type]
    assert await runtime.store.messages_to_hide(alice) == [10, 11]  # still remembered
    assert await delete_due_messages(runtime, bot) == 2  # type: ignore[arg-type]
    assert bot.deleted == {1: [10, 11]}
    assert await runtime.store.messages_to_hide(alice) == []


@pytest.mark.parametrize(
    "error", [BadRequest("Message can't be deleted"), Forbidden("bot was blocked")]
)
async def test_messages_telegram_refuses_for_good_are_forgotten(
    runtime: Runtime, error: Exception
) -> None:
    alice = await user_with_messages(runtime, 1, [10, 11])
    bot = DeletingBot(errors=[error])
    assert await delete_due_messages(runtime, bot) == 2  # type: ignore[arg-type]
    assert await runtime.store.messages_to_hide(alice) == []


async def test_only_the_batches_that_went_through_are_forgotten() -> None:
    bot = DeletingBot()
    ids = list(range(1, 251))

    async def flaky(chat_id: int, message_ids: list[int]) -> bool:
        if message_ids[0] > 100:
            raise TimedOut()
        return await DeletingBot.delete_messages(bot, chat_id, message_ids)

    bot.delete_messages = flaky  # type: ignore[method-assign]
    assert await delete_chat_messages(bot, 7, ids) == ids[:100]  # type: ignore[arg-type]
    assert bot.deleted == {7: ids[:100]}


async def test_one_users_failure_does_not_stop_the_sweep_for_the_others(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    alice = await user_with_messages(runtime, 1, [10])  # half-wiped: her key is gone
    bob = await user_with_messages(runtime, 2, [20])
    chat_id = runtime.store.chat_id

    async def broken_for_alice(user_id: str) -> int:
        if user_id == alice:
            raise UserKeyMissingError()
        return await chat_id(user_id)

    monkeypatch.setattr(runtime.store, "chat_id", broken_for_alice)
    bot = DeletingBot()
    assert await delete_due_messages(runtime, bot) == 2  # type: ignore[arg-type]
    assert bot.deleted == {2: [20]}
    # alice's rows are dropped, so the sweep does not fail on them every time
    assert await runtime.store.messages_to_hide(alice) == []
    assert await runtime.store.messages_to_hide(bob) == []
    assert "UserKeyMissingError" in caplog.text
    assert alice not in caplog.text and "data key is gone" not in caplog.text


async def test_hide_keeps_what_a_passing_error_left_for_the_next_hide(runtime: Runtime) -> None:
    alice, _ = await runtime.store.ensure_user(1, 1)
    ids = list(range(1, 151))
    await runtime.store.remember_messages(alice, ids, T0)
    bot = DeletingBot()
    calls = 0

    async def second_batch_times_out(chat_id: int, message_ids: list[int]) -> bool:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise TimedOut()
        return await DeletingBot.delete_messages(bot, chat_id, message_ids)

    bot.delete_messages = second_batch_times_out  # type: ignore[method-assign]
    await hide_messages(runtime, bot, alice, 1)  # type: ignore[arg-type]
    assert await runtime.store.messages_to_hide(alice) == ids[100:]
    await hide_messages(runtime, bot, alice, 1)  # type: ignore[arg-type]
    assert await runtime.store.messages_to_hide(alice) == []
    assert bot.deleted == {1: ids}


async def test_hide_tries_only_what_telegram_still_lets_a_bot_delete(runtime: Runtime) -> None:
    alice, _ = await runtime.store.ensure_user(1, 1)
    await runtime.store.remember_messages(alice, [1, 2], LATER - timedelta(hours=49))
    await runtime.store.remember_messages(alice, [3], LATER - timedelta(hours=47))
    bot = DeletingBot()
    await hide_messages(runtime, bot, alice, 1)  # type: ignore[arg-type]
    assert bot.deleted == {1: [3]}


async def test_the_sweep_forgets_ids_older_than_48_hours(runtime: Runtime) -> None:
    """chat_messages does not grow without bound: ids Telegram no longer lets the bot
    delete are forgotten (of every user, with or without auto-delete)."""
    alice, _ = await runtime.store.ensure_user(1, 1)
    bob, _ = await runtime.store.ensure_user(2, 2)
    await runtime.store.remember_messages(alice, [1, 2], LATER - timedelta(hours=49))
    await runtime.store.remember_messages(bob, [7], LATER - timedelta(hours=60))
    due = LATER - timedelta(minutes=1)
    await runtime.store.remember_messages(
        alice, [3, 4], LATER - timedelta(hours=47), delete_after=due
    )
    await runtime.store.remember_messages(alice, [5], LATER - timedelta(hours=1))
    bot = DeletingBot()
    assert await delete_due_messages(runtime, bot) == 2  # type: ignore[arg-type]
    assert bot.deleted == {1: [3, 4]}
    assert await runtime.store.messages_to_hide(alice) == [5]
    assert await runtime.store.messages_to_hide(bob) == []
