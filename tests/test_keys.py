"""Master key handling: first run, wrong or missing keys, the ring file, the CLI."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as cli
from bot.cli.admin import doctor, migrate
from bot.config import ConfigError, Settings
from bot.crypto.ring import MasterKeyError, MasterKeyRing, new_key_id
from bot.store.facade import Store

Snapshot = Callable[[Settings], Awaitable[dict[str, Any]]]
TOKEN = "123456789:AAAbbbCCCdddEEEfffGGGhhhIIIjjjKKKlll"


async def _store_with_data(settings: Settings) -> str:
    store = await Store.open(settings)
    try:
        user_id, _ = await store.ensure_user(5550001, 5550001)
        await store.add_reasons(user_id, ["a reason"])
    finally:
        await store.close()
    return user_id


async def test_first_run_creates_a_private_key_file_and_says_so_loudly(
    settings_factory: Callable[..., Settings],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = settings_factory()
    caplog.set_level(logging.WARNING)
    store = await Store.open(settings)
    await store.close()
    key_file = settings.master_key_file
    assert key_file == settings.data_dir / "master.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    err = capsys.readouterr().err
    assert str(key_file.resolve()) in err and "BACK THIS FILE UP" in err
    assert any(
        r.levelno == logging.WARNING and "master.key" in r.getMessage() for r in caplog.records
    )
    # a second start is quiet and keeps the same key
    before = key_file.read_bytes()
    store = await Store.open(settings)
    await store.close()
    assert key_file.read_bytes() == before
    assert "BACK THIS FILE UP" not in capsys.readouterr().err


def test_ring_file_round_trip_and_damage(tmp_path: Path) -> None:
    ring = MasterKeyRing.generate(tmp_path / "k" / "master.key")
    ring.save()
    loaded = MasterKeyRing.load(ring.path)
    assert loaded is not None
    assert loaded.primary == ring.primary and dict(loaded.keys) == dict(ring.keys)
    assert MasterKeyRing.load(tmp_path / "missing.key") is None
    ring.path.write_text("not json")
    with pytest.raises(MasterKeyError, match="damaged"):
        MasterKeyRing.load(ring.path)
    doc = json.loads(ring.to_json())
    doc["keys"][ring.primary]["key"] = "c2hvcnQ="  # 5 bytes, not 32
    ring.path.write_text(json.dumps(doc))
    with pytest.raises(MasterKeyError, match="damaged"):
        MasterKeyRing.load(ring.path)


def _replace_key_bytes(path: Path) -> None:
    """The same key id with other key bytes: the wrong key."""
    ring = MasterKeyRing.load(path)
    assert ring is not None
    replaced = MasterKeyRing(path=path, primary=ring.primary, keys={ring.primary: os.urandom(32)})
    replaced.save()


def _other_ring(path: Path) -> None:
    """A key file from another installation."""
    MasterKeyRing.generate(path).save()


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (_replace_key_bytes, "wrong key"),
        (_other_ring, "does not belong"),
        (lambda path: path.unlink(), "is missing"),
    ],
    ids=["wrong-key", "other-installation", "missing-file"],
)
async def test_a_wrong_or_missing_key_refuses_to_start_and_changes_nothing(
    settings: Settings,
    take_snapshot: Snapshot,
    tamper: Callable[[Path], None],
    message: str,
) -> None:
    await _store_with_data(settings)
    tamper(settings.master_key_file)
    before = await take_snapshot(settings)
    files_before = sorted(p.name for p in settings.data_dir.iterdir())
    with pytest.raises(MasterKeyError, match=message) as info:
        await Store.open(settings)
    assert "Nothing was changed" in str(info.value)
    assert isinstance(info.value, ConfigError)
    assert await take_snapshot(settings) == before
    assert sorted(p.name for p in settings.data_dir.iterdir()) == files_before


async def test_a_lost_key_store_is_refused_when_the_database_has_users(
    settings_factory: Callable[..., Settings], take_snapshot: Snapshot
) -> None:
    settings = settings_factory()
    await _store_with_data(settings)
    (settings.data_dir / "keys.db").unlink()
    before = await take_snapshot(settings)
    with pytest.raises(MasterKeyError, match=r"key store .* is empty"):
        await Store.open(settings)
    assert await take_snapshot(settings) == before
    # and with the key file gone too, no new key is made over existing data
    settings.master_key_file.unlink()
    with pytest.raises(MasterKeyError):
        await Store.open(settings)
    assert not settings.master_key_file.exists()


async def test_the_cli_prints_the_key_problem_in_plain_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    await _store_with_data(Settings(data_dir=data_dir))
    _replace_key_bytes(data_dir / "master.key")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(data_dir))
    for name in ("DATABASE_URL", "KEYSTORE_URL", "MASTER_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    # cli.main runs asyncio.run itself, so call it from a worker thread
    import asyncio

    code = await asyncio.to_thread(cli.main, ["migrate"])
    assert code == 2
    err = capsys.readouterr().err
    assert "wrong key" in err and "Restore the right master key file" in err


async def test_migrate_then_doctor_reports_all_fine(
    settings_factory: Callable[..., Settings], capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_factory(telegram_bot_token=TOKEN)
    assert await migrate(settings) == 0
    assert "up to date" in capsys.readouterr().out
    assert await doctor(settings) == 0
    out = capsys.readouterr().out
    assert "PROBLEM" not in out and "Everything looks fine" in out


async def test_doctor_explains_what_is_wrong(
    settings_factory: Callable[..., Settings], capsys: pytest.CaptureFixture[str]
) -> None:
    fresh = settings_factory(telegram_bot_token="")
    assert await doctor(fresh) == 1
    out = capsys.readouterr().out
    assert "TELEGRAM_BOT_TOKEN is not set" in out
    assert "does not exist yet. Run `nocontact migrate`" in out
    assert not fresh.data_dir.exists()  # the doctor only looks

    settings = settings_factory(telegram_bot_token=TOKEN)
    await _store_with_data(settings)
    settings.master_key_file.chmod(0o644)
    assert await doctor(settings) == 1
    assert "chmod 600" in capsys.readouterr().out
    settings.master_key_file.chmod(0o600)
    _replace_key_bytes(settings.master_key_file)
    assert await doctor(settings) == 1
    assert "wrong key" in capsys.readouterr().out


async def test_doctor_sees_an_unmigrated_database(
    settings_factory: Callable[..., Settings], capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_factory(telegram_bot_token=TOKEN)
    store = await Store.open(settings, migrate=False)
    await store.close()
    settings.data_dir.joinpath("nocontact.db").touch()
    assert await doctor(settings) == 1
    assert "has no schema yet. Run `nocontact migrate`" in capsys.readouterr().out


async def test_the_lookup_secret_survives_restarts_and_differs_per_installation(
    settings_factory: Callable[..., Settings], tmp_path: Path
) -> None:
    first = settings_factory()
    user_id = await _store_with_data(first)
    store = await Store.open(first)
    try:
        assert await store.find_user(5550001) == user_id
        assert await store.find_user(5550002) is None
        own_hash = store._keys.lookup.telegram_hash(5550001)
    finally:
        await store.close()
    other = settings_factory(data_dir=tmp_path / "other")
    store = await Store.open(other)
    try:
        assert store._keys.lookup.telegram_hash(5550001) != own_hash
    finally:
        await store.close()
    shutil.rmtree(tmp_path / "other")


def test_key_ids_are_random() -> None:
    assert len({new_key_id() for _ in range(50)}) == 50


# --------------------------------------------------------------------------- start-up gaps
def _said(err: str) -> str:
    """What the CLI printed last: its one-paragraph message (a log handler left behind by
    another test may have written before it)."""
    return err.strip().splitlines()[-1]


def _cli_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, data_dir: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(data_dir))
    for name in ("DATABASE_URL", "KEYSTORE_URL", "MASTER_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)


async def _empty_database(settings: Settings) -> None:
    """An empty data database of the current schema (as a fresh install would make)."""
    from bot.store.db import create_engine, upgrade_database

    engine = create_engine(settings.database_url)
    try:
        await upgrade_database(engine)
    finally:
        await engine.dispose()


@pytest.mark.parametrize("gap", ["missing", "empty-file", "empty-database"])
async def test_keys_without_their_data_refuse_to_start_and_the_doctor_explains(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    gap: str,
) -> None:
    """With keys.db present but nocontact.db missing or replaced by an empty one, the bot
    does not start (it would greet returning users as strangers) and changes nothing."""
    data_dir = tmp_path / "data"
    settings = Settings(data_dir=data_dir, telegram_bot_token=TOKEN)
    await _store_with_data(settings)
    database = data_dir / "nocontact.db"
    for path in data_dir.glob("nocontact.db*"):
        path.unlink()
    if gap == "empty-file":
        database.touch()
    elif gap == "empty-database":
        await _empty_database(settings)
    files_before = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()}
    with pytest.raises(ConfigError, match=r"holds the keys of 1 user\(s\), but the database"):
        await Store.open(settings)
    assert {p.name: p.read_bytes() for p in data_dir.iterdir() if p.is_file()} == files_before

    _cli_env(monkeypatch, tmp_path, data_dir)
    import asyncio

    assert await asyncio.to_thread(cli.main, ["migrate"]) == 2
    said = _said(capsys.readouterr().err)
    assert "Restore the database from your backup" in said and said.startswith("nocontact: ")
    assert (gap == "missing") != database.exists()  # `migrate` made no new database either
    assert await doctor(settings) == 1
    out = capsys.readouterr().out
    assert "PROBLEM  The key store" in out and "missing or holds no users" in out
    assert "Run `nocontact migrate`" not in out  # that would make an empty database


async def test_a_database_from_a_newer_version_says_which_version_it_needs(
    settings: Settings,
    tmp_path: Path,
    take_snapshot: Snapshot,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bot.store.db import create_engine

    await _store_with_data(settings)
    engine = create_engine(settings.database_url)
    try:
        async with engine.begin() as conn:  # what nocontact 0.7.0 with a schema 0042 leaves
            await conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0042'")
            await conn.exec_driver_sql(
                "UPDATE schema_meta SET value = '0.7.0' WHERE name = 'upgraded_by'"
            )
    finally:
        await engine.dispose()
    before = await take_snapshot(settings)
    with pytest.raises(ConfigError) as info:
        await Store.open(settings)
    message = str(info.value)
    assert "schema 0042" in message and "needs nocontact 0.7.0 or newer" in message
    assert "Nothing was changed" in message
    assert await take_snapshot(settings) == before
    doctored = dataclasses.replace(settings, telegram_bot_token=TOKEN)
    assert await doctor(doctored) == 1
    out = capsys.readouterr().out
    assert "needs nocontact 0.7.0 or newer" in out and "Run `nocontact migrate`" not in out


async def test_the_cli_names_the_version_a_newer_database_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio
    import sqlite3

    data_dir = tmp_path / "data"
    await _store_with_data(Settings(data_dir=data_dir))
    with sqlite3.connect(data_dir / "nocontact.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '0042'")
        db.execute("UPDATE schema_meta SET value = '0.7.0' WHERE name = 'upgraded_by'")
    db.close()
    _cli_env(monkeypatch, tmp_path, data_dir)
    assert await asyncio.to_thread(cli.main, ["migrate"]) == 2
    said = _said(capsys.readouterr().err)
    assert "needs nocontact 0.7.0 or newer" in said and said.startswith("nocontact: ")
    assert "CommandError" not in said and "alembic" not in said.lower()


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o620, 0o606])
async def test_a_key_file_others_can_read_or_change_refuses_to_start(
    settings_factory: Callable[..., Settings], take_snapshot: Snapshot, mode: int
) -> None:
    settings = settings_factory()
    await _store_with_data(settings)
    key_file = settings.master_key_file
    key_file.chmod(mode)
    before = await take_snapshot(settings)
    with pytest.raises(MasterKeyError) as info:
        await Store.open(settings)
    assert f"Run: chmod 600 {key_file}" in str(info.value)
    assert "nothing was changed" in str(info.value)
    assert await take_snapshot(settings) == before
    assert stat.S_IMODE(key_file.stat().st_mode) == mode  # the bot does not fix it itself
    key_file.chmod(0o600)
    store = await Store.open(settings)
    await store.close()
