"""Nothing a user tells the bot, nor their Telegram id, is readable in any database byte."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime

import pytest

from bot.config import Settings
from bot.store.db import sqlite_files
from bot.store.facade import Store
from tests.conftest import Backend

AT = datetime(2025, 5, 4, 3, 2, 1, tzinfo=UTC)
TELEGRAM_ID = 7_391_846_205
CHAT_ID = 7_391_846_206


def _canaries() -> dict[str, str]:
    tag = uuid.uuid4().hex[:8]
    names = [
        "reason",
        "state",
        "settings",
        "event",
        "evidence_text",
        "evidence_sender",
        "evidence_note",
        "tactic",
        "unsent",
        "relay_label",
        "stop_label",
    ]
    return {name: f"Canary{name.title().replace('_', '')}{tag}" for name in names}


async def _store_everything(store: Store, canary: dict[str, str]) -> str:
    user_id, created = await store.ensure_user(TELEGRAM_ID, CHAT_ID)
    assert created
    await store.add_reasons(user_id, [canary["reason"], "second " + canary["reason"]])
    await store.save_state(user_id, {"draft": canary["state"]})
    await store.update_settings(user_id, {"support": {"name": canary["settings"]}})
    await store.log_event(user_id, "urge", {"pull": canary["event"]}, AT)
    await store.add_evidence(
        user_id,
        kind="hoover",
        text=canary["evidence_text"],
        sender=canary["evidence_sender"],
        original_at=AT,
        tactics=[canary["tactic"]],
        danger=["stalking"],
        note=canary["evidence_note"],
        at=AT,
    )
    await store.add_unsent(user_id, canary["unsent"], AT)
    await store.record_relay(user_id, canary["relay_label"], AT)
    await store.mark_asked_to_stop(user_id, canary["stop_label"], AT)
    await store.remember_messages(user_id, [4242], AT)
    return user_id


def _needles(canary: dict[str, str]) -> dict[str, bytes]:
    needles: dict[str, bytes] = {}
    for name, value in canary.items():
        needles[name] = value.encode()
        needles[f"{name} (utf-16)"] = value.encode("utf-16-le")
        needles[f"{name} (lowercase)"] = value.lower().encode()
    for name, number in (("telegram id", TELEGRAM_ID), ("chat id", CHAT_ID)):
        needles[f"{name} (decimal)"] = str(number).encode()
        needles[f"{name} (int64 be)"] = number.to_bytes(8, "big", signed=True)
        needles[f"{name} (int64 le)"] = number.to_bytes(8, "little", signed=True)
    return needles


def _scan(sources: dict[str, bytes], needles: dict[str, bytes]) -> list[str]:
    return [
        f"{needle_name} found in {source}"
        for source, raw in sources.items()
        for needle_name, needle in needles.items()
        if needle in raw
    ]


def _database_files(settings: Settings) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for url in (settings.database_url, settings.keystore_url):
        for path in sqlite_files(url):
            if path.exists():
                found[path.name] = path.read_bytes()
    return found


async def test_no_plaintext_or_telegram_id_in_any_database_byte(
    settings: Settings, backend: Backend
) -> None:
    canary = _canaries()
    needles = _needles(canary)
    store = await Store.open(settings)
    try:
        user_id = await _store_everything(store, canary)
        # the store reads it all back, so the canaries really were stored
        exported = str(await store.export_user(user_id))
        assert all(value in exported for value in canary.values())
        assert await store.chat_id(user_id) == CHAT_ID
        if backend.pg is None:
            live = _database_files(settings)
            assert any(name.endswith("-wal") for name in live), "expected a live WAL to scan"
            assert not _scan(live, needles)
    finally:
        await store.close()

    if backend.pg is None:
        sources = _database_files(settings)
        assert {"nocontact.db", "keys.db"} <= set(sources)
    else:
        sources = {name: backend.pg.dump(name) for name in (backend.data_db, backend.keys_db)}
        assert all(b"keystore_user_keys" in raw or b"reasons" in raw for raw in sources.values())
    assert not _scan(sources, needles)
    # the scanner itself works: a canary written in plain text would be found
    assert _scan({"probe": f"x{canary['reason']}y".encode()}, needles)


async def test_log_output_holds_no_plaintext(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # also turns on SQLAlchemy's statement logging
    canary = _canaries()
    store = await Store.open(settings)
    try:
        await _store_everything(store, canary)
    finally:
        await store.close()
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert not _scan({"log": logged.encode()}, _needles(canary))
