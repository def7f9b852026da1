"""``nocontact backup DIR`` while the bot runs, and ``nocontact restore DIR``.

A backup holds the data and the key store, never the master key; restore opens it with
the master key before anything is put in place, and a wrong key, a changed file or data
already in place leave everything as it was.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.cli.backup import MANIFEST, backup, pg_dump_command, restore
from bot.config import ConfigError, Settings
from bot.store.facade import Store
from bot.store.lease import Lease

REASON = "He read my diary and laughed at me"
TELEGRAM_ID = 5_550_123


async def _store_with_a_reason(settings: Settings) -> Store:
    store = await Store.open(settings)
    user_id, _ = await store.ensure_user(TELEGRAM_ID, TELEGRAM_ID)
    await store.add_reasons(user_id, [REASON])
    return store


async def _first_start(settings: Settings) -> None:
    store = await Store.open(settings)
    await store.close()


async def test_a_backup_of_a_running_store_restores_elsewhere_with_the_master_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = Settings(data_dir=tmp_path / "live")
    store = await _store_with_a_reason(live)  # open: the bot is running
    try:
        assert await backup(live, tmp_path / "bk") == 0
    finally:
        await store.close()
    out = capsys.readouterr()
    assert "master key" in out.err and str(live.master_key_file.resolve()) in out.err
    names = {p.name for p in (tmp_path / "bk").iterdir()}
    assert names == {"nocontact.db", "keys.db", MANIFEST}  # no master key in a backup
    for path in (tmp_path / "bk").iterdir():
        assert REASON.encode() not in path.read_bytes()

    # a new machine: the master key copied from where it is kept, the backup restored
    new = Settings(data_dir=tmp_path / "new", master_key_file=tmp_path / "kept" / "master.key")
    new.master_key_file.parent.mkdir()
    shutil.copy2(live.master_key_file, new.master_key_file)
    assert await restore(new, tmp_path / "bk") == 0
    restored = await Store.open(new)
    try:
        user_id = await restored.find_user(TELEGRAM_ID)
        assert user_id is not None
        assert [r.text for r in await restored.list_reasons(user_id)] == [REASON]
    finally:
        await restored.close()


async def test_restore_with_another_master_key_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = Settings(data_dir=tmp_path / "live")
    store = await _store_with_a_reason(live)
    await backup(live, tmp_path / "bk")
    await store.close()
    other = await Store.open(Settings(data_dir=tmp_path / "other"))  # makes another key
    await other.close()

    target = Settings(data_dir=tmp_path / "new", master_key_file=tmp_path / "other" / "master.key")
    capsys.readouterr()
    assert await restore(target, tmp_path / "bk") == 1
    out = capsys.readouterr().out
    assert "does not belong" in out or "wrong key" in out
    assert "nothing was changed" in out.lower()
    assert not (tmp_path / "new").exists()


async def test_restore_refuses_a_changed_backup_and_data_already_in_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = Settings(data_dir=tmp_path / "live")
    store = await _store_with_a_reason(live)
    await backup(live, tmp_path / "bk")
    await store.close()

    # data in place: never overwritten
    with pytest.raises(ConfigError, match="exists"):
        await restore(live, tmp_path / "bk")

    damaged = tmp_path / "bk" / "nocontact.db"
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    target = Settings(data_dir=tmp_path / "new", master_key_file=live.master_key_file)
    assert await restore(target, tmp_path / "bk") == 1
    assert "checksum" in capsys.readouterr().out
    assert not (tmp_path / "new" / "nocontact.db").exists()


async def test_backup_needs_an_empty_directory_and_restore_a_stopped_bot(tmp_path: Path) -> None:
    live = Settings(data_dir=tmp_path / "live")
    store = await _store_with_a_reason(live)
    await backup(live, tmp_path / "bk")
    await store.close()
    with pytest.raises(ConfigError, match="not empty"):
        await backup(live, tmp_path / "bk")

    target = Settings(data_dir=tmp_path / "new", master_key_file=live.master_key_file)
    running = Lease(target.database_url)  # a bot is running on the target
    assert await running.try_acquire()
    try:
        with pytest.raises(ConfigError, match="stop it first"):
            await restore(target, tmp_path / "bk")
    finally:
        await running.release()
    assert not (tmp_path / "new" / "nocontact.db").exists()


async def test_on_postgresql_backup_prints_the_pg_dump_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql+asyncpg://nc:hunter2@db.internal:5432/nocontact"
    settings = Settings(
        data_dir=tmp_path / "d",
        database_url=url,
        keystore_url="postgresql+asyncpg://nc:hunter2@db.internal:5432/nocontact_keys",
    )
    assert await backup(settings, tmp_path / "bk") == 0
    out = capsys.readouterr().out
    assert "pg_dump --format=custom" in out and "nocontact_keys" in out
    assert "hunter2" not in out  # the password is never printed
    assert "postgresql://nc:***@db.internal:5432/nocontact" in pg_dump_command(url, Path("x"))


def test_backup_and_restore_are_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli.main import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(tmp_path / "data"))
    asyncio.run(_first_start(Settings(data_dir=tmp_path / "data")))
    assert main(["backup", str(tmp_path / "bk")]) == 0
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("MASTER_KEY_FILE", str(tmp_path / "data" / "master.key"))
    assert main(["restore", str(tmp_path / "bk")]) == 0
    assert (tmp_path / "elsewhere" / "keys.db").exists()
