"""The conversation context (state, settings, reasons, senders) read in one go, and its
memory copy kept in step with every write — on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store.facade import Store, UnknownUserError

NOW = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


async def test_context_follows_every_write(store: Store) -> None:
    user, _ = await store.ensure_user(77, 77)
    first = await store.load_context(user)
    assert first.state is None and first.settings.to_json() == {} and first.reasons == []

    await store.save_state(user, {"seq": 1, "flow": {"flow": "urge"}})
    [rid] = await store.add_reasons(user, ["He took my keys"])
    await store.update_settings(user, {"discreet": False})
    await store.record_relay(user, "Aunt C", NOW)
    ctx = await store.load_context(user)
    assert ctx.state == {"seq": 1, "flow": {"flow": "urge"}}
    assert [r.text for r in ctx.reasons] == ["He took my keys"]
    assert ctx.settings.to_json() == {"discreet": False} and not ctx.settings.discreet
    assert [(s.label, s.relays_total) for s in ctx.senders] == [("Aunt C", 1)]

    await store.mark_asked_to_stop(user, "aunt c", NOW)
    await store.delete_reason(user, rid)
    ctx = await store.load_context(user)
    assert ctx.reasons == []
    assert ctx.senders[0].asked_to_stop_at is not None


async def test_what_a_caller_changes_in_a_loaded_context_is_not_kept(store: Store) -> None:
    user, _ = await store.ensure_user(78, 78)
    await store.save_state(user, {"seq": 3, "flow": None})
    ctx = await store.load_context(user)
    assert ctx.state is not None
    ctx.state["seq"] = 99
    with pytest.raises(TypeError):  # the settings are frozen
        ctx.settings.document["region"] = "uk"  # type: ignore[index]
    ctx.settings.to_json()["region"] = "uk"
    again = await store.load_context(user)
    assert again.state == {"seq": 3, "flow": None} and again.settings.to_json() == {}


async def test_a_fresh_store_reads_the_same_context_from_the_database(
    store: Store, settings: object
) -> None:
    user, _ = await store.ensure_user(79, 79)
    await store.add_reasons(user, ["one", "two"])
    await store.save_state(user, {"seq": 5, "flow": {"flow": "reasons"}})
    cached = await store.load_context(user)
    other = await Store.open(settings)  # type: ignore[arg-type]
    try:
        fresh = await other.load_context(user)
    finally:
        await other.close()
    assert fresh == cached


async def test_a_wiped_user_has_no_context(store: Store) -> None:
    user, _ = await store.ensure_user(80, 80)
    await store.load_context(user)
    await store.wipe_user(user)
    with pytest.raises((UnknownUserError, LookupError)):
        await store.load_context(user)


async def test_one_failing_write_in_a_group_commit_does_not_fail_the_others(
    store: Store,
) -> None:
    import asyncio

    alice, _ = await store.ensure_user(81, 81)
    bob, _ = await store.ensure_user(82, 82)
    await store.load_context(bob)
    await store.wipe_user(alice)  # alice's rows are gone; a late write for her must fail
    late = store.remember_messages(alice, [1, 2], NOW)
    fine = store.save_state(bob, {"seq": 7, "flow": None})
    results = await asyncio.gather(
        store.remember_messages(bob, [3], NOW), late, fine, return_exceptions=True
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Exception)
    assert (await store.load_context(bob)).state == {"seq": 7, "flow": None}
    assert await store.messages_to_hide(bob) == [3]


async def test_unsent_messages_are_read_once_and_kept_in_step(store: Store) -> None:
    user, _ = await store.ensure_user(83, 83)
    await store.load_context(user)
    first = await store.add_unsent(user, "I still think about you", NOW)
    assert [u.text for u in await store.list_unsent(user)] == ["I still think about you"]

    reads = 0
    original = store.db.connection

    def counting() -> object:
        nonlocal reads
        reads += 1
        return original()

    store.db.connection = counting  # type: ignore[method-assign]
    second = await store.add_unsent(user, "You hurt me", NOW.replace(hour=10))
    assert [u.text for u in await store.list_unsent(user)] == [
        "I still think about you",
        "You hurt me",
    ]
    await store.delete_unsent(user, first)
    assert [u.id for u in await store.list_unsent(user)] == [second]
    # the lists are served from memory, kept in step with the writes; the one read is
    # the delete's (is the row there?)
    assert reads == 1
    store.db.connection = original  # type: ignore[method-assign]

    # and the database agrees
    store._invalidate(user)
    assert [u.id for u in await store.list_unsent(user)] == [second]


async def test_a_read_that_overlaps_a_write_is_not_kept(store: Store) -> None:
    """A context read from the database before a write committed must not be kept in
    memory after it, or the next step would see the old data."""
    import asyncio

    user, _ = await store.ensure_user(84, 84)
    await store.add_reasons(user, ["first"])
    store._invalidate(user)

    started = asyncio.Event()
    release = asyncio.Event()
    original = store._read_context

    async def slow_read(user_id: str) -> object:
        context = await original(user_id)  # reads the old reasons
        started.set()
        await release.wait()
        return context

    store._read_context = slow_read  # type: ignore[assignment, method-assign]
    reader = asyncio.create_task(store.load_context(user))
    await started.wait()
    await store.add_reasons(user, ["second"])  # commits while the read is in flight
    release.set()
    old = await reader
    store._read_context = original  # type: ignore[method-assign]
    assert [r.text for r in old.reasons] == ["first"]
    assert [r.text for r in (await store.load_context(user)).reasons] == ["first", "second"]


async def test_concurrent_steps_share_one_commit_with_one_statement_per_kind(
    store: Store,
) -> None:
    import asyncio

    from bot.store.writes import Batch

    users = [(await store.ensure_user(900 + i, 900 + i))[0] for i in range(20)]
    batches: list[Batch] = []
    original = store.db._commit_batch

    async def spy(batch: Batch) -> None:
        batches.append(batch)
        await original(batch)

    store.db._group._commit = spy
    await asyncio.gather(
        *(store.save_state(u, {"seq": 1, "flow": None}) for u in users),
        *(store.remember_messages(u, [i + 1], NOW) for i, u in enumerate(users)),
        *(store.log_event(u, "urge_waited", {}, NOW) for u in users),
    )
    assert len(batches) == 1
    assert [len(rows) for _, rows in batches[0]] == [20, 20, 20]
    for i, user in enumerate(users):
        assert await store.messages_to_hide(user) == [i + 1]
        assert [e.kind for e in await store.list_events(user)] == ["urge_waited"]


async def test_a_lookup_cached_while_a_wipe_runs_does_not_outlive_it(store: Store) -> None:
    """A message arriving while /wipe deletes the rows looks the user up; the wiped id
    must not stay cached, or every later message would fail."""
    from collections.abc import AsyncIterator
    from contextlib import asynccontextmanager

    from sqlalchemy.ext.asyncio import AsyncConnection

    user, _ = await store.ensure_user(85, 85)
    original = store.db.transaction

    @asynccontextmanager
    async def racing() -> AsyncIterator[AsyncConnection]:
        async with original() as conn:
            # what a concurrent find_user does before the delete commits
            store._lookups.remember(store._keys.lookup.telegram_hash(85), user)
            yield conn

    store.db.transaction = racing  # type: ignore[method-assign]
    await store.wipe_user(user)
    store.db.transaction = original  # type: ignore[method-assign]
    assert await store.find_user(85) is None
