"""The repository API, on SQLite and PostgreSQL: what the bot stores comes back."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from bot.config import Settings
from bot.crypto.cells import DecryptionError
from bot.crypto.keys import UserKeyMissingError
from bot.store.export import export_json, to_document
from bot.store.facade import Store, StoreUnavailableError
from bot.store.integrity import seal
from bot.store.models import Evidence, Reason, User
from flows.settings import SupportPerson
from tests.conftest import Backend

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
TRICKY = ["plain", "", "line\nbreak", "nul\x00byte", "emoji 🙂🫶", "עברית RTL", "x" * 20_000]


async def test_users_are_created_once_and_found_again(settings: Settings) -> None:
    store = await Store.open(settings)
    try:
        user_id, created = await store.ensure_user(111, 2222)
        assert created and len(user_id) == 32
        assert await store.ensure_user(111, 2222) == (user_id, False)
        assert await store.find_user(111) == user_id
        assert await store.find_user(112) is None
        assert await store.chat_id(user_id) == 2222
        other, _ = await store.ensure_user(-100123, -100123)
        assert await store.chat_id(other) == -100123
        assert await store.count_users() == 2
    finally:
        await store.close()
    store = await Store.open(settings)
    try:
        assert await store.find_user(111) == user_id
        assert await store.chat_id(user_id) == 2222
    finally:
        await store.close()


async def test_reasons_keep_their_order_and_can_be_deleted(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    other, _ = await store.ensure_user(2, 2)
    ids = await store.add_reasons(user_id, TRICKY)
    more = await store.add_reasons(user_id, ["later"])
    assert [r.text for r in await store.list_reasons(user_id)] == [*TRICKY, "later"]
    assert [r.id for r in await store.list_reasons(user_id)] == [*ids, *more]
    assert await store.list_reasons(other) == []
    assert await store.add_reasons(user_id, []) == []
    assert not await store.delete_reason(other, ids[0])  # not theirs
    assert await store.delete_reason(user_id, ids[0])
    assert not await store.delete_reason(user_id, ids[0])
    assert [r.text for r in await store.list_reasons(user_id)] == [*TRICKY[1:], "later"]


async def test_flow_state_and_settings(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    assert await store.load_state(user_id) is None
    state = {"flow": "urge", "step": 3, "draft": "I miss you 🙂", "nested": {"a": [1, None]}}
    await store.save_state(user_id, state)
    assert await store.load_state(user_id) == state
    await store.save_state(user_id, None)
    assert await store.load_state(user_id) is None
    assert (await store.get_settings(user_id)).to_json() == {}
    # "tz" is not a setting this version knows: it is kept as it was written
    unknown: Any = {"discreet": True, "tz": "Europe/Berlin"}
    first = await store.update_settings(user_id, unknown)
    assert first.to_json() == {"discreet": True, "tz": "Europe/Berlin"}
    unknown = {"tz": "UTC", "support": {"name": "Sam"}}
    merged = await store.update_settings(user_id, unknown)
    assert merged.to_json() == {"discreet": True, "tz": "UTC", "support": {"name": "Sam"}}
    assert merged.support == SupportPerson("Sam", "")
    assert await store.get_settings(user_id) == merged
    with pytest.raises(UserKeyMissingError):  # an id that was never created
        await store.save_state("0" * 32, {"a": 1})


async def test_events_are_ordered_and_filtered(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    await store.log_event(user_id, "checkin", {"status": "no_contact"}, T0 + timedelta(days=1))
    await store.log_event(user_id, "urge", {"pull": "guilt", "outcome": "held"}, T0)
    await store.log_event(user_id, "safety", {"danger": ["stalking"]}, T0)
    events = await store.list_events(user_id)
    assert [(e.kind, e.at) for e in events] == [
        ("urge", T0),
        ("safety", T0),
        ("checkin", T0 + timedelta(days=1)),
    ]
    assert events[0].data == {"pull": "guilt", "outcome": "held"}
    assert all(e.at.tzinfo is not None and e.at.utcoffset() == timedelta(0) for e in events)
    later = await store.list_events(user_id, since=T0 + timedelta(hours=1))
    assert [e.kind for e in later] == ["checkin"]


async def test_evidence_round_trip_and_delete(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    berlin = datetime(2025, 2, 1, 9, 30, tzinfo=UTC).astimezone(
        __import__("zoneinfo").ZoneInfo("Europe/Berlin")
    )
    first = await store.add_evidence(
        user_id,
        kind="hoover",
        text="I've changed, please call me",
        sender="Ex",
        original_at=berlin,
        tactics=["promise", "urgency"],
        danger=[],
        note="came at 2am",
        at=T0,
    )
    second = await store.add_evidence(
        user_id,
        kind="incident",
        text="car outside the house",
        sender="",
        original_at=None,
        tactics=(),
        danger=("stalking",),
        note="",
        at=T0 + timedelta(minutes=5),
    )
    items = await store.list_evidence(user_id)
    assert [e.id for e in items] == [first, second]
    assert items[0].text == "I've changed, please call me" and items[0].sender == "Ex"
    assert items[0].original_at == berlin and items[0].original_at.tzinfo is not None
    assert items[0].tactics == ("promise", "urgency") and items[1].danger == ("stalking",)
    assert items[0].created_at == T0 and items[1].original_at is None
    assert await store.delete_evidence(user_id, first)
    assert [e.id for e in await store.list_evidence(user_id)] == [second]


async def test_an_items_words_are_updated_sealed_to_it_and_only_for_its_owner(
    store: Store,
) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    other, _ = await store.ensure_user(2, 2)
    shot = await store.add_evidence(
        user_id, kind="hoover", text="", sender="them", original_at=None, tactics=(),
        danger=(), note="the screenshot", at=T0,
    )  # fmt: skip
    second = await store.add_evidence(
        user_id, kind="hoover", text="second", sender="them", original_at=None, tactics=(),
        danger=(), note="", at=T0 + timedelta(minutes=1),
    )  # fmt: skip
    words = "I know where you live now 🙂"
    assert not await store.update_evidence(other, shot, text="not theirs")
    assert await store.update_evidence(user_id, shot, text=words, tactics=["threat"])
    assert await store.update_evidence(user_id, shot, felt="yes", danger=["stalking"])
    item, _ = await store.list_evidence(user_id)
    assert (item.text, item.tactics, item.danger, item.felt) == (
        words, ("threat",), ("stalking",), "yes",
    )  # fmt: skip
    async with store.connection() as conn:
        bodies = dict((await conn.execute(select(Evidence.id, Evidence.body))).all())
    assert words.encode() not in bodies[shot]
    async with store.transaction() as conn:  # the updated body moved to another row
        await conn.execute(update(Evidence).where(Evidence.id == second).values(body=bodies[shot]))
    with pytest.raises(DecryptionError):
        await store.list_evidence(user_id)
    async with store.unit(user_id):
        assert await store.delete_evidence(user_id, shot)
        assert not await store.update_evidence(user_id, shot, text="gone")


async def test_unsent_messages(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    b = await store.add_unsent(user_id, "second", T0 + timedelta(seconds=1))
    a = await store.add_unsent(user_id, "first 🙂", T0)
    listed = await store.list_unsent(user_id)
    assert [(u.id, u.text, u.created_at) for u in listed] == [
        (a, "first 🙂", T0),
        (b, "second", T0 + timedelta(seconds=1)),
    ]
    assert await store.delete_unsent(user_id, a)
    assert [u.id for u in await store.list_unsent(user_id)] == [b]


async def test_senders_are_matched_by_label_and_relays_counted(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    first = await store.record_relay(user_id, "Aunt C.", T0)
    assert (first.relays_total, first.relays_since_asked, first.asked_to_stop_at) == (1, 0, None)
    asked = await store.mark_asked_to_stop(user_id, "aunt c.", T0 + timedelta(hours=1))
    assert asked.id == first.id and asked.asked_to_stop_at == T0 + timedelta(hours=1)
    for day in (2, 3, 4):
        latest = await store.record_relay(user_id, "  AUNT   c. ", T0 + timedelta(days=day))
    assert latest.id == first.id
    assert (latest.label, latest.relays_total, latest.relays_since_asked) == ("Aunt C.", 4, 3)
    await store.record_relay(user_id, "Brother", T0)
    senders = await store.list_senders(user_id)
    assert [(s.label, s.relays_total) for s in senders] == [("Aunt C.", 4), ("Brother", 1)]
    other, _ = await store.ensure_user(2, 2)
    assert await store.list_senders(other) == []


async def test_chat_messages_for_hide(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    other, _ = await store.ensure_user(2, 2)
    await store.remember_messages(user_id, [10, 11, 12, 11], T0)
    await store.remember_messages(user_id, [12, 13], T0)
    await store.remember_messages(other, [10], T0)
    assert await store.messages_to_hide(user_id) == [10, 11, 12, 13]
    await store.forget_messages(user_id, [10, 11, 99])
    assert await store.messages_to_hide(user_id) == [12, 13]
    assert await store.messages_to_hide(other) == [10]


async def test_export_has_everything_as_json(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    await store.add_reasons(user_id, ["reason one"])
    await store.save_state(user_id, {"flow": "hoover"})
    await store.update_settings(user_id, {"discreet": True})
    await store.log_event(user_id, "urge", {"pull": "miss"}, T0)
    await store.add_evidence(
        user_id,
        kind="relay",
        text="she says call your dad",
        sender="Aunt",
        original_at=None,
        tactics=["relay"],
        danger=[],
        note="a note",
        at=T0,
    )
    await store.add_unsent(user_id, "never sent", T0)
    await store.record_relay(user_id, "Aunt", T0)
    exported = await store.export_user(user_id)
    text = json.dumps(exported, ensure_ascii=False)
    for expected in ("reason one", "hoover", "discreet", "miss", "she says call your dad"):
        assert expected in text
    assert "a note" in text and "never sent" in text and exported["senders"][0]["label"] == "Aunt"
    assert exported["evidence"][0]["saved_at"] == T0.isoformat()


async def test_the_typed_export_is_what_the_json_export_says(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    original = T0 - timedelta(days=3, microseconds=7)
    await store.add_evidence(
        user_id,
        kind="hoover",
        text="I miss you",
        sender="Him",
        original_at=original,
        tactics=["hoover"],
        danger=["threat"],
        note="kept",
        at=T0,
    )
    export = await store.export(user_id)
    assert export.evidence_items() == await store.list_evidence(user_id)
    [record] = export.evidence
    assert record.item.original_at == original and record.note == "kept"
    document = to_document(export)
    assert json.loads(export_json(export)) == seal(document)  # the same, numbered and hashed
    document.pop("exported_at")
    exported = await store.export_user(user_id)
    exported.pop("exported_at")
    assert exported == document
    assert document["evidence"][0]["original_at"] == original.isoformat()


async def test_the_export_leaves_out_a_pin_being_set_and_a_files_telegram_handle(
    store: Store,
) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    state = {"flow": "media", "step": "keep", "kind": "photo", "ref": "AgACAgQAAxk-FILE"}
    await store.save_state(user_id, {**state, "pin_first": "1234"})
    document = to_document(await store.export(user_id))
    assert document["flow_state"] == {"flow": "media", "step": "keep", "kind": "photo"}
    assert b"AgACAgQAAxk-FILE" not in export_json(await store.export(user_id))


async def test_wipe_removes_everything_of_one_user_only(store: Store) -> None:
    victim, _ = await store.ensure_user(1, 1)
    keep, _ = await store.ensure_user(2, 2)
    for user_id in (victim, keep):
        await store.add_reasons(user_id, ["r"])
        await store.log_event(user_id, "urge", {}, T0)
        await store.add_unsent(user_id, "u", T0)
        await store.record_relay(user_id, "A", T0)
        await store.remember_messages(user_id, [5], T0)
        await store.save_state(user_id, {"s": 1})
    await store.wipe_user(victim)
    assert await store.find_user(1) is None
    assert await store.count_users() == 1
    assert await store._keys.keystore.get_user_key(victim) is None
    assert await store.messages_to_hide(victim) == []
    with pytest.raises(UserKeyMissingError):
        await store.list_reasons(victim)
    assert [r.text for r in await store.list_reasons(keep)] == ["r"]
    assert await store.load_state(keep) == {"s": 1}
    # the same Telegram account can start over as a new user
    again, created = await store.ensure_user(1, 1)
    assert created and again != victim and await store.list_reasons(again) == []


async def test_a_ciphertext_moved_to_another_row_fails(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    other, _ = await store.ensure_user(2, 2)
    a, b = await store.add_reasons(user_id, ["first", "second"])
    (c,) = await store.add_reasons(other, ["theirs"])
    async with store.sessions.begin() as session:
        blob = await session.scalar(select(Reason.text).where(Reason.id == a))
        await session.execute(update(Reason).where(Reason.id == b).values(text=blob))
    with pytest.raises(DecryptionError, match=r"reasons\.text"):
        await store.list_reasons(user_id)
    # into another user's row, and into another column
    async with store.sessions.begin() as session:
        await session.execute(update(Reason).where(Reason.id == c).values(text=blob))
        await session.execute(update(User).where(User.id == user_id).values(state=blob))
    with pytest.raises(DecryptionError):
        await store.list_reasons(other)
    with pytest.raises(DecryptionError, match=r"users\.state"):
        await store.load_state(user_id)


async def test_destroying_a_key_shreds_that_user_even_in_older_copies(
    settings: Settings, backend: Backend, settings_factory: Callable[..., Settings]
) -> None:
    store = await Store.open(settings)
    victim, _ = await store.ensure_user(1, 1)
    keep, _ = await store.ensure_user(2, 2)
    for user_id in (victim, keep):
        await store.add_reasons(user_id, [f"reason of {user_id}"])
        await store.save_state(user_id, {"step": 1})
    await store.close()
    # a backup of the data database taken before the key is destroyed
    if backend.pg is None:
        copy_dir = settings.data_dir.parent / "backup"
        copy_dir.mkdir()
        shutil.copy2(settings.data_dir / "nocontact.db", copy_dir / "nocontact.db")
        copy_url = f"sqlite+aiosqlite:///{copy_dir / 'nocontact.db'}"
    else:
        copy_url = backend.pg.url(backend.pg.create("copy", template=backend.data_db))
    store = await Store.open(settings)
    try:
        await store.destroy_user_key(victim)
        with pytest.raises(UserKeyMissingError):
            await store.list_reasons(victim)
        with pytest.raises(UserKeyMissingError):
            await store.chat_id(victim)
        assert await store.find_user(1) == victim  # the rows are still there, unreadable
        assert [r.text for r in await store.list_reasons(keep)] == [f"reason of {keep}"]
    finally:
        await store.close()
    restored = await Store.open(replace(settings, database_url=copy_url), migrate=False)
    try:
        assert await restored.find_user(1) == victim
        for read in (restored.list_reasons, restored.load_state, restored.export_user):
            with pytest.raises(UserKeyMissingError):
                await read(victim)
        assert [r.text for r in await restored.list_reasons(keep)] == [f"reason of {keep}"]
        assert await restored.load_state(keep) == {"step": 1}
    finally:
        await restored.close()
        if backend.pg is not None:
            backend.pg.drop(f"{backend.pg.prefix}_copy")


async def test_timestamps_must_be_timezone_aware(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    with pytest.raises(Exception, match="timezone-aware"):
        await store.log_event(user_id, "urge", {}, datetime(2025, 1, 1))


async def test_sqlite_connections_get_the_safety_pragmas(
    settings_factory: Callable[..., Settings],
) -> None:
    store = await Store.open(settings_factory())
    try:
        async with store.engine.connect() as conn:
            values = {
                name: (await conn.exec_driver_sql(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "foreign_keys", "secure_delete", "synchronous")
            }
            busy = (await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar()
    finally:
        await store.close()
    assert values == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "secure_delete": 1,
        "synchronous": 1,
    }
    assert busy is not None and int(busy) >= 1000


async def test_a_destroyed_key_leaves_no_trace_in_the_sqlite_key_store_files(
    settings_factory: Callable[..., Settings],
) -> None:
    settings = settings_factory()
    store = await Store.open(settings)
    try:
        user_id, _ = await store.ensure_user(1, 1)
        found = await store._keys.keystore.get_user_key(user_id)
        assert found is not None
        wrapped = found[1]
        await store.destroy_user_key(user_id)
        files = [settings.data_dir / name for name in ("keys.db", "keys.db-wal")]
        assert all(wrapped not in path.read_bytes() for path in files if path.exists())
    finally:
        await store.close()
    assert wrapped not in (settings.data_dir / "keys.db").read_bytes()


async def test_a_wipe_leaves_no_ciphertext_of_the_user_in_the_sqlite_data_files(
    settings_factory: Callable[..., Settings],
) -> None:
    """Raw bytes: after /wipe, while the bot keeps running, neither nocontact.db nor its
    -wal file holds the wiped user's sealed cells (the WAL is checkpointed and emptied)."""
    settings = settings_factory()
    store = await Store.open(settings)
    try:
        victim, _ = await store.ensure_user(1, 1)
        other, _ = await store.ensure_user(2, 2)
        await store.add_reasons(victim, ["the reason I left " + "x" * 200])
        await store.add_reasons(other, ["mine stays"])
        async with store.engine.connect() as conn:
            sealed = [
                bytes(cell)
                for (cell,) in await conn.exec_driver_sql(
                    "SELECT text FROM reasons WHERE user_id = ?", (victim,)
                )
            ]
        assert sealed and all(len(cell) > 100 for cell in sealed)
        files = [settings.data_dir / name for name in ("nocontact.db", "nocontact.db-wal")]

        def found() -> bool:
            return any(c in p.read_bytes() for p in files if p.exists() for c in sealed)

        assert found(), "the sealed reason is on disk before the wipe"
        await store.wipe_user(victim)
        assert not found(), "a copy of the wiped user's ciphertext is still on disk"
        assert [r.text for r in await store.list_reasons(other)] == ["mine stays"]
    finally:
        await store.close()


async def test_an_unreachable_database_stops_with_a_plain_message(
    settings_factory: Callable[..., Settings],
) -> None:
    url = "postgresql+asyncpg://postgres@127.0.0.1:9/nowhere"
    with pytest.raises(StoreUnavailableError, match="Cannot reach the database"):
        await Store.open(settings_factory(database_url=url, keystore_url=url))


async def test_simultaneous_first_messages_make_one_user(store: Store) -> None:
    results = await asyncio.gather(*(store.ensure_user(77, 77) for _ in range(5)))
    assert len({user_id for user_id, _ in results}) == 1
    assert sum(created for _, created in results) == 1
    assert await store.count_users() == 1
    assert (await store._keys.keystore.inspect()).user_keys == 1  # losers' keys removed
    user_id = results[0][0]
    await store.add_reasons(user_id, ["still readable"])
    assert [r.text for r in await store.list_reasons(user_id)] == ["still readable"]


async def test_an_incidents_details_are_kept_and_exported(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    happened = T0 - timedelta(days=2)
    await store.add_evidence(
        user_id,
        kind="incident",
        text="He kicked the door in",
        sender="",
        original_at=happened,
        tactics=[],
        danger=[],
        note="",
        at=T0,
        details=[("where", "The flat"), ("reference", "Case 19-2231")],
    )
    [item] = await store.list_evidence(user_id)
    assert item.details == (("where", "The flat"), ("reference", "Case 19-2231"))
    assert item.original_at == happened
    [exported] = (await store.export_user(user_id))["evidence"]
    assert exported["details"] == {"where": "The flat", "reference": "Case 19-2231"}
