"""rotate-master-key: every user key re-wrapped, data rows untouched, resumable."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.cli.admin import rotate_master_key
from bot.config import Settings
from bot.crypto.keystore import KeyStore
from bot.crypto.ring import MasterKeyError, MasterKeyRing
from bot.store.facade import Store

Snapshot = Callable[[Settings], Awaitable[dict[str, Any]]]
USERS = 13


class Interrupted(Exception):
    pass


async def _populate(settings: Settings) -> dict[int, list[str]]:
    store = await Store.open(settings)
    expected: dict[int, list[str]] = {}
    try:
        for n in range(USERS):
            user_id, _ = await store.ensure_user(9000 + n, 9000 + n)
            expected[9000 + n] = [f"reason {n}", f"another {n} 🙂"]
            await store.add_reasons(user_id, expected[9000 + n])
            await store.save_state(user_id, {"n": n})
    finally:
        await store.close()
    return expected


async def _read_all(settings: Settings, expected: dict[int, list[str]]) -> None:
    store = await Store.open(settings)
    try:
        for telegram_id, reasons in expected.items():
            user_id = await store.find_user(telegram_id)
            assert user_id is not None
            assert [r.text for r in await store.list_reasons(user_id)] == reasons
            assert await store.chat_id(user_id) == telegram_id
    finally:
        await store.close()


async def _key_ids(settings: Settings) -> set[str]:
    keystore = KeyStore(settings.keystore_url)
    try:
        state = await keystore.inspect()
    finally:
        await keystore.close()
    return set(state.referenced)


def _data_only(shot: dict[str, Any]) -> Any:
    return shot["data"]


async def test_rotation_rewraps_every_key_and_leaves_data_rows_identical(
    settings: Settings, take_snapshot: Snapshot, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = await _populate(settings)
    old_ring = MasterKeyRing.load(settings.master_key_file)
    assert old_ring is not None
    old_file = settings.master_key_file.read_bytes()
    before = await take_snapshot(settings)

    assert await rotate_master_key(settings) == 0
    out, err = capsys.readouterr()
    assert f"{USERS} user key(s) re-wrapped" in out and "back up" in err

    ring = MasterKeyRing.load(settings.master_key_file)
    assert ring is not None and ring.pending is None
    assert ring.primary != old_ring.primary and old_ring.primary in ring.keys
    assert await _key_ids(settings) == {ring.primary}
    after = await take_snapshot(settings)
    assert _data_only(after) == _data_only(before)
    assert after["keys"] != before["keys"]
    await _read_all(settings, expected)

    # the pre-rotation key file no longer opens the key store
    settings.master_key_file.write_bytes(old_file)
    with pytest.raises(MasterKeyError, match="not in"):
        await Store.open(settings)


async def test_an_interrupted_rotation_resumes_instead_of_starting_over(
    settings: Settings, take_snapshot: Snapshot
) -> None:
    expected = await _populate(settings)
    old_primary = MasterKeyRing.load(settings.master_key_file).primary  # type: ignore[union-attr]
    before = await take_snapshot(settings)

    def fail_after_five(done: int) -> None:
        if done >= 5:
            raise Interrupted

    with pytest.raises(Interrupted):
        await rotate_master_key(settings, batch_size=2, on_progress=fail_after_five)
    ring = MasterKeyRing.load(settings.master_key_file)
    assert ring is not None and ring.primary == old_primary and ring.pending is not None
    target = ring.pending
    assert await _key_ids(settings) == {old_primary, target}
    # half-way, the bot still starts and reads everything
    await _read_all(settings, expected)

    progress: list[int] = []
    assert await rotate_master_key(settings, batch_size=4, on_progress=progress.append) == 0
    assert progress and progress[-1] == USERS - 6  # only the rest was re-wrapped
    ring = MasterKeyRing.load(settings.master_key_file)
    assert ring is not None and ring.primary == target and ring.pending is None
    assert set(ring.keys) == {old_primary, target}  # no second new key
    assert await _key_ids(settings) == {target}
    assert _data_only(await take_snapshot(settings)) == _data_only(before)
    await _read_all(settings, expected)

    # a further run is a fresh rotation that again keeps all data readable
    assert await rotate_master_key(settings) == 0
    await _read_all(settings, expected)


async def test_rotation_before_first_start_explains_there_is_nothing_to_rotate(
    settings_factory: Callable[..., Settings],
) -> None:
    settings = settings_factory()
    with pytest.raises(MasterKeyError, match="nothing to rotate"):
        await rotate_master_key(settings)
    assert not settings.master_key_file.exists()


async def test_rotating_and_forgetting_retired_keys_makes_old_copies_of_a_wiped_key_unreadable(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """What PostgreSQL's pg_wal (or a backup, or a WAL archive) may keep after a wipe: the
    user's wrapped key, as it was.  After a plain rotation the file still opens it (the
    old key is retired, kept for old backups); with --forget-retired nothing does."""
    expected = await _populate(settings)
    store = await Store.open(settings)
    try:
        victim = await store.find_user(9000)
        assert victim is not None
        old_copy = await store._keys.keystore.get_user_key(victim)  # the copy left behind
        assert old_copy is not None
        await store.wipe_user(victim)
    finally:
        await store.close()
    del expected[9000]
    old_key_id, wrapped = old_copy

    def opens(ring: MasterKeyRing | None) -> bool:
        assert ring is not None
        try:
            ring.unwrap(old_key_id, wrapped, purpose="user", subject=victim)
        except (MasterKeyError, KeyError):
            return False
        return True

    assert opens(MasterKeyRing.load(settings.master_key_file))
    assert await rotate_master_key(settings) == 0
    assert opens(MasterKeyRing.load(settings.master_key_file))  # honest: retired, still there
    assert "--forget-retired" in capsys.readouterr().err
    assert await rotate_master_key(settings, forget_retired=True) == 0
    ring = MasterKeyRing.load(settings.master_key_file)
    assert ring is not None and list(ring.keys) == [ring.primary]
    assert not opens(ring)
    assert "can no longer be opened" in capsys.readouterr().err
    await _read_all(settings, expected)  # everyone else is untouched
