"""A conversation step's effects and its new state are one transaction
(``Store.unit``), on SQLite and on PostgreSQL: a crash between them stores neither,
so the update Telegram sends again (its offset was never confirmed) is carried out once.
That includes the writes that read what they change (settings, deletes, the check-in
schedule, relay counts), and two steps of one user never interleave."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.config import Settings
from bot.engine.conversation import Conversation
from bot.engine.runtime import Runtime
from bot.resources import load_resources
from bot.schedule.scheduler import Scheduler
from bot.schedule.store import ScheduleStore
from bot.store.facade import Store
from bot.store.repos.senders import SendersRepo
from flows.conversations.urge import Ur
from flows.types import Input

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


# --------------------------------------------------------------------------- writes that read
# what they change: a settings patch, a delete, a check-in schedule upsert, a relay count.
# Each is carried by a real flow; the crash comes between its effect and the new state.

#: what a step does: ("command", name), ("press", button value) or ("text", typed)
Do = tuple[str, str]
CHECKIN = {"time": "08:30", "tz": "Europe/London", "days": list(range(7))}
RELAYED = "Your mother misses you and says you should call her, she is not well"


@dataclass(frozen=True)
class Case:
    name: str
    #: the steps that lead to the one with the effect
    path: tuple[Do, ...]
    #: the step whose effect reads what it changes
    last: Do
    #: what a fresh process finds before and after that step
    before: object
    after: object


CASES = (
    Case("settings patch", (("command", "privacy"),), ("press", "pv.discreet"), True, False),
    Case(
        "delete",
        (("command", "reasons"), ("press", "rs.del"), ("press", "rs.pick:0")),
        ("press", "rs.yes"),
        ["first reason", "second reason"],
        ["second reason"],
    ),
    Case(
        "check-in schedule upsert",
        (("command", "checkin"), ("press", "ck.time")),
        ("press", "ck.at:0900"),
        ("08:30", "08:30"),
        ("09:00", "09:00"),
    ),
    Case(
        "relay count",
        (("command", "monkey"), ("text", "My cousin")),
        ("text", RELAYED),
        [("My cousin", 1)],
        [("My cousin", 2)],
    ),
)


async def _found(settings: Settings, case: Case, telegram_id: int) -> object:
    """What a fresh process reads from the database for ``case`` (no memory copy)."""
    fresh = await Store.open(settings)
    try:
        user_id = await fresh.find_user(telegram_id)
        assert user_id is not None
        if case.name == "settings patch":
            return (await fresh.get_settings(user_id)).discreet
        if case.name == "delete":
            return [r.text for r in await fresh.list_reasons(user_id)]
        if case.name == "relay count":
            return [(s.label, s.relays_total) for s in await fresh.list_senders(user_id)]
        time = str((await fresh.get_settings(user_id)).to_json()["checkin"]["time"])  # type: ignore[index]
        (item,) = await ScheduleStore(fresh).of_user(user_id)
        return time, item.due_at.astimezone(ZoneInfo("Europe/London")).strftime("%H:%M")
    finally:
        await fresh.close()


async def _scheduled(store: Store, settings: Settings) -> Scheduler:
    """A conversation whose check-in changes reach the schedule, as in the bot."""
    resources = load_resources(None, settings.default_region)
    conversation = Conversation(store, resources, clock=lambda: NOW)
    scheduler = Scheduler(Runtime(settings, store, resources, conversation, clock=lambda: NOW))
    conversation.hooks = scheduler

    async def deliver(chat_id: int, replies: Sequence[Any], seq: int) -> list[int]:
        return []

    await scheduler.attach(deliver=deliver)
    return scheduler


async def _seq(store: Store, user_id: str) -> int:
    """The menu the user's buttons belong to now."""
    state = await store.load_state(user_id)
    assert state is not None
    return int(str(state["seq"]))


async def _do(conversation: Conversation, user_id: str, do: Do, seq: int | None = None) -> Any:
    """One update; a press is of a button of menu ``seq`` (by default, the current one)."""
    kind, value = do
    if kind == "press":
        seq = await _seq(conversation.store, user_id) if seq is None else seq
        return await conversation.choice(user_id, seq, value, NOW)
    return await conversation.step(user_id, Input(kind=kind, now=NOW, text=value))  # type: ignore[arg-type]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_a_crash_between_a_write_that_reads_and_the_state_stores_neither(
    case: Case, store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    scheduler = await _scheduled(store, settings)
    conversation = scheduler.runtime.conversation
    user_id, _ = await store.ensure_user(45, 45)
    await store.update_settings(user_id, {"onboarded": True, "checkin": CHECKIN})
    await scheduler.settings_changed(user_id, await store.get_settings(user_id))
    await store.add_reasons(user_id, ["first reason", "second reason"])
    await store.record_relay(user_id, "My cousin", NOW)
    for do in case.path:
        await _do(conversation, user_id, do)
    assert await _found(settings, case, 45) == case.before
    seq = await _seq(store, user_id)
    save_state = store.save_state

    async def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    monkeypatch.setattr(store, "save_state", crash)
    with pytest.raises(Crash):
        await _do(conversation, user_id, case.last, seq)
    monkeypatch.setattr(store, "save_state", save_state)
    assert await _found(settings, case, 45) == case.before  # neither
    # Telegram sends the update again (its offset was never confirmed): done once
    replayed = await _do(conversation, user_id, case.last, seq)
    assert replayed.replies and not replayed.stale
    assert await _found(settings, case, 45) == case.after  # both
    if case.last[0] == "press":  # and the same press once more: the step is done
        again = await _do(conversation, user_id, case.last, seq)
        assert again.stale or again.ignored
        assert await _found(settings, case, 45) == case.after


async def test_two_concurrent_steps_of_one_user_lose_no_relay_and_no_setting(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each reads the counts before it writes them: the second must read after the first
    is committed, never alongside it."""
    user_id, _ = await store.ensure_user(46, 46)
    await store.record_relay(user_id, "My cousin", NOW)
    store._invalidate(user_id)
    # every read of the senders waits (a moment, at most) for another step to read too,
    # so that two steps that can interleave do
    readers = 0
    both_read = asyncio.Event()
    read = SendersRepo._bodies

    async def slow_read(self: SendersRepo, *args: Any) -> Any:
        nonlocal readers
        bodies = await read(self, *args)
        readers += 1
        if readers == 2:
            both_read.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(both_read.wait(), 0.5)
        return bodies

    monkeypatch.setattr(SendersRepo, "_bodies", slow_read)

    async def step(seq: int, patch: dict[str, object]) -> None:
        async with store.unit(user_id):
            await store.record_relay(user_id, "my cousin", NOW)
            await store.update_settings(user_id, patch)
            await store.save_state(user_id, {"seq": seq, "flow": None})

    await asyncio.gather(step(1, {"discreet": False}), step(2, {"autodelete_minutes": 60}))
    monkeypatch.setattr(SendersRepo, "_bodies", read)
    for ctx in (await store.load_context(user_id), None):
        if ctx is None:  # and what the database holds
            store._invalidate(user_id)
            ctx = await store.load_context(user_id)
        assert [(s.label, s.relays_total) for s in ctx.senders] == [("My cousin", 3)]
        assert not ctx.settings.discreet and ctx.settings.autodelete_minutes == 60


async def test_a_unit_reads_its_own_changes_before_they_are_committed(store: Store) -> None:
    """A settings patch or relay count read twice in one step builds on the first, even
    when the memory copy is gone meanwhile (many other users were active)."""
    user_id, _ = await store.ensure_user(47, 47)
    async with store.unit(user_id):
        await store.update_settings(user_id, {"discreet": False})
        await store.record_relay(user_id, "My cousin", NOW)
        store._invalidate(user_id)
        await store.update_settings(user_id, {"autodelete_minutes": 60})
        await store.record_relay(user_id, "my cousin", NOW)
        context = await store.load_context(user_id)
        assert not context.settings.discreet and context.settings.autodelete_minutes == 60
        assert [(s.label, s.relays_total) for s in context.senders] == [("My cousin", 2)]
        assert await store.delete_reason(user_id, "no-such-reason") is False
    store._invalidate(user_id)
    stored = await store.load_context(user_id)
    assert not stored.settings.discreet and stored.settings.autodelete_minutes == 60
    assert [(s.label, s.relays_total) for s in stored.senders] == [("My cousin", 2)]


async def test_steps_sharing_a_group_commit_keep_each_ones_order(store: Store) -> None:
    """One step turns its check-ins off after setting them, another sets them after
    turning them off; committed in one transaction, each ends as it asked."""
    from bot.store.writes import Batch

    items = ScheduleStore(store)
    alice, _ = await store.ensure_user(48, 48)
    bob, _ = await store.ensure_user(49, 49)
    batches: list[Batch] = []
    commit = store.db._commit_batch

    async def spy(batch: Batch) -> None:
        batches.append(batch)
        await commit(batch)

    store.db._group._commit = spy

    async def step(user_id: str, *writes: str) -> None:
        async with store.unit(user_id):
            for write in writes:
                if write == "put":
                    await items.put(user_id, "checkin", "", NOW)
                else:
                    await items.remove(user_id, "checkin")

    await asyncio.gather(step(alice, "put", "remove"), step(bob, "remove", "put"))
    assert len(batches) == 1  # one transaction for both
    assert await items.of_user(alice) == []
    assert [item.due_at for item in await items.of_user(bob)] == [NOW]


async def test_a_wipe_waits_for_a_step_of_the_user_still_being_committed(store: Store) -> None:
    # /wipe pressed while another update of the same person is mid-step: the step is
    # committed first, then everything goes (no failed step, nothing left behind)
    user_id, _ = await store.ensure_user(44, 44)
    inside, go_on = asyncio.Event(), asyncio.Event()

    async def step() -> None:
        async with store.unit(user_id):
            await store.add_reasons(user_id, ["typed a moment before the wipe"])
            await store.save_state(user_id, {"seq": 2, "flow": None})
            inside.set()
            await go_on.wait()

    stepping = asyncio.create_task(step())
    await inside.wait()
    wiping = asyncio.create_task(store.wipe_user(user_id))
    await asyncio.sleep(0.05)
    assert not wiping.done()  # it waits for the step
    go_on.set()
    await asyncio.gather(stepping, wiping)
    assert await store.find_user(44) is None
    assert await store.count_users() == 0
