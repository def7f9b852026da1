"""A conversation step's effects and its new state are one transaction
(``Store.unit``), on SQLite and on PostgreSQL: a crash between them stores neither,
so the update Telegram sends again (its offset was never confirmed) is carried out once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.config import Settings
from bot.engine.conversation import Conversation
from bot.resources import load_resources
from bot.store.facade import Store
from flows.conversations.urge import Ur

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
#: the urge flow waiting for the last words of an unsent letter
WRITING = {"flow": "urge", "step": "write", "pull": "guilt", "draft": "Dear you"}
LETTER = "Dear you"


class Crash(Exception):
    """The process dies here (kill -9 between the step's writes)."""


async def _stored_letters(settings: Settings, telegram_id: int) -> list[str]:
    """What a fresh process reads from the database (no memory copy)."""
    fresh = await Store.open(settings)
    try:
        user_id = await fresh.find_user(telegram_id)
        assert user_id is not None
        return [view.text for view in await fresh.list_unsent(user_id)]
    finally:
        await fresh.close()


async def test_a_crash_before_the_state_is_saved_stores_no_effect_and_a_replay_saves_one_letter(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation = Conversation(store, load_resources(None, settings.default_region))
    user_id, _ = await store.ensure_user(42, 42)
    await store.save_state(user_id, {"seq": 1, "flow": WRITING})
    await store.add_unsent(user_id, "an older letter", NOW)
    await store.add_reasons(user_id, ["my reason"])
    save_state = store.save_state

    async def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    monkeypatch.setattr(store, "save_state", crash)
    with pytest.raises(Crash):
        await conversation.choice(user_id, 1, Ur.WRITTEN.value, NOW)
    monkeypatch.setattr(store, "save_state", save_state)
    assert await _stored_letters(settings, 42) == ["an older letter"]
    assert [v.text for v in await store.list_unsent(user_id)] == ["an older letter"]

    replayed = await conversation.choice(user_id, 1, Ur.WRITTEN.value, NOW)
    assert replayed.replies and not replayed.stale
    assert await _stored_letters(settings, 42) == ["an older letter", LETTER]
    # and the same update once more (the step is done): no second copy
    again = await conversation.choice(user_id, 1, Ur.WRITTEN.value, NOW)
    assert again.stale or again.ignored
    assert await _stored_letters(settings, 42) == ["an older letter", LETTER]


async def test_writes_in_a_unit_are_seen_by_others_only_once_it_ends(
    store: Store, settings: Settings
) -> None:
    user_id, _ = await store.ensure_user(43, 43)
    async with store.unit(user_id):
        await store.add_reasons(user_id, ["inside"])
        await store.save_state(user_id, {"seq": 5, "flow": None})
        fresh = await Store.open(settings)
        try:
            assert await fresh.list_reasons(user_id) == []
        finally:
            await fresh.close()
    assert [r.text for r in await store.list_reasons(user_id)] == ["inside"]
    assert await store.load_state(user_id) == {"seq": 5, "flow": None}


async def test_a_unit_that_fails_leaves_nothing_and_forgets_its_memory_copy(
    store: Store,
) -> None:
    user_id, _ = await store.ensure_user(44, 44)
    await store.add_reasons(user_id, ["before"])
    with pytest.raises(Crash):
        async with store.unit(user_id):
            await store.add_reasons(user_id, ["lost"])
            await store.add_unsent(user_id, "lost too", NOW)
            await store.save_state(user_id, {"seq": 9, "flow": None})
            raise Crash
    assert [r.text for r in (await store.load_context(user_id)).reasons] == ["before"]
    assert await store.list_unsent(user_id) == []
    assert await store.load_state(user_id) is None
    await store.add_reasons(user_id, ["after"])  # the store goes on as before
    assert [r.text for r in await store.list_reasons(user_id)] == ["before", "after"]
