"""The conversation context (state, settings, reasons, senders) read in one go, and its
memory copy kept in step with every write — on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import Store, UnknownUserError

NOW = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


async def test_context_follows_every_write(store: Store) -> None:
    user, _ = await store.ensure_user(77, 77)
    first = await store.load_context(user)
    assert first.state is None and first.settings == {} and first.reasons == []

    await store.save_state(user, {"seq": 1, "flow": {"flow": "urge"}})
    [rid] = await store.add_reasons(user, ["He took my keys"])
    await store.update_settings(user, {"discreet": False})
    await store.record_relay(user, "Aunt C", NOW)
    ctx = await store.load_context(user)
    assert ctx.state == {"seq": 1, "flow": {"flow": "urge"}}
    assert [r.text for r in ctx.reasons] == ["He took my keys"]
    assert ctx.settings == {"discreet": False}
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
    ctx.settings["region"] = "uk"
    again = await store.load_context(user)
    assert again.state == {"seq": 3, "flow": None} and again.settings == {}


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
