"""Master key rotation: every key in the key store re-wrapped under a new master key.

:func:`rotate_master_key` adds a new key to the ring as *pending* (file written first),
registers its check value and records it as the rotation target in the key store,
re-wraps user keys in committed batches, re-wraps the lookup secret, makes the new key
primary in the file and finally clears the target.  Re-running after an interruption
finds the target (or the pending key) and finishes the same rotation.  Data rows are
never read or written.

With ``forget_retired`` the old keys are then removed from the ring file: copies of the
key store made before (backups, WAL archives, PostgreSQL's ``pg_wal``, and with them the
wrapped keys of users who have since wiped) can no longer be opened with it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import delete, select, update

from bot.crypto.cells import KEY_BYTES
from bot.crypto.keys import missing_key_error, verify_ring
from bot.crypto.keystore import (
    ROTATION_TARGET,
    KeyStore,
    MasterKeyRow,
    MetaRow,
    SecretRow,
    UserKeyRow,
)
from bot.crypto.ring import MasterKeyError, MasterKeyRing, new_key_id

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RotationReport:
    key_id: str
    previous: str
    resumed: bool
    rewrapped: int
    #: retired master keys removed from the ring file (``forget_retired``)
    forgotten: tuple[str, ...] = ()


async def rotate_master_key(
    master_key_file: Path,
    keystore_url: str,
    *,
    batch_size: int = 200,
    on_progress: Callable[[int], None] | None = None,
    forget_retired: bool = False,
) -> RotationReport:
    """Re-wrap every key in the key store under a new master key (see module docs).

    ``on_progress`` is called with the running count after each committed batch.
    """
    ring = MasterKeyRing.load(master_key_file)
    keystore = KeyStore(keystore_url)
    try:
        state = await keystore.inspect()
        if ring is None:
            if state.empty:
                raise MasterKeyError(
                    f"There is no master key file at {master_key_file} and the key store is "
                    "empty: there is nothing to rotate yet. Start the bot (or run "
                    "`nocontact migrate`) first."
                )
            raise missing_key_error(master_key_file, keystore.label)
        if state.empty:
            raise MasterKeyError(
                f"The key store ({keystore.label}) is empty: there is nothing to rotate yet. "
                "Start the bot (or run `nocontact migrate`) first."
            )
        verify_ring(ring, state, keystore.label)
        previous = ring.primary
        target = state.rotation_target or ring.pending
        resumed = target is not None
        if target is None:
            target = new_key_id()
            ring = ring.with_pending(target, os.urandom(KEY_BYTES))
            ring.save()  # the new key is safely on disk before anything uses it
        elif target != ring.primary and ring.pending != target:
            ring = replace(ring, pending=target)
        await _begin(keystore, ring, target)
        done = 0
        while True:
            count = await _rewrap_batch(keystore, ring, target, batch_size)
            if not count:
                break
            done += count
            if on_progress is not None:
                on_progress(done)
        await _rewrap_secrets(keystore, ring, target)
        if ring.primary != target or ring.pending is not None:
            ring = ring.promote(target)
            ring.save()
        await _finish(keystore)
        forgotten: tuple[str, ...] = ()
        if forget_retired:
            after = await keystore.inspect()
            if after.referenced - {ring.primary}:  # cannot happen after a finished rotation
                raise MasterKeyError("Keys under a retired master key remain; nothing forgotten.")
            forgotten = tuple(sorted(k for k in ring.keys if k != ring.primary))
            if forgotten:
                ring.only_primary().save()
    finally:
        await keystore.close()
    log.info("master key rotation finished: %d user keys re-wrapped", done)
    return RotationReport(
        key_id=target, previous=previous, resumed=resumed, rewrapped=done, forgotten=forgotten
    )


# --------------------------------------------------------------------------- the steps
async def _begin(keystore: KeyStore, ring: MasterKeyRing, target: str) -> None:
    """Register the target's check value and record it as the rotation target."""
    async with keystore.sessions.begin() as session:
        if await session.get(MasterKeyRow, target) is None:
            session.add(
                MasterKeyRow(
                    key_id=target, check=ring.check_value(target), created_at=datetime.now(UTC)
                )
            )
        marker = await session.get(MetaRow, ROTATION_TARGET)
        if marker is None:
            session.add(MetaRow(name=ROTATION_TARGET, value=target))
        else:
            marker.value = target


async def _rewrap_batch(keystore: KeyStore, ring: MasterKeyRing, target: str, limit: int) -> int:
    """Re-wrap up to ``limit`` user keys not yet under ``target``; commit; count."""
    async with keystore.sessions.begin() as session:
        rows = (
            await session.execute(
                select(UserKeyRow.user_id, UserKeyRow.key_id, UserKeyRow.wrapped)
                .where(UserKeyRow.key_id != target)
                .order_by(UserKeyRow.user_id)
                .limit(limit)
            )
        ).all()
        for row in rows:
            plain = ring.unwrap(row.key_id, row.wrapped, purpose="user", subject=row.user_id)
            _, wrapped = ring.wrap(plain, purpose="user", subject=row.user_id, key_id=target)
            await session.execute(
                update(UserKeyRow)
                .where(UserKeyRow.user_id == row.user_id, UserKeyRow.key_id == row.key_id)
                .values(key_id=target, wrapped=wrapped)
            )
    return len(rows)


async def _rewrap_secrets(keystore: KeyStore, ring: MasterKeyRing, target: str) -> None:
    async with keystore.sessions.begin() as session:
        rows = (
            (await session.execute(select(SecretRow).where(SecretRow.key_id != target)))
            .scalars()
            .all()
        )
        for row in rows:
            plain = ring.unwrap(row.key_id, row.wrapped, purpose="lookup", subject=row.name)
            _, row.wrapped = ring.wrap(plain, purpose="lookup", subject=row.name, key_id=target)
            row.key_id = target


async def _finish(keystore: KeyStore) -> None:
    async with keystore.sessions.begin() as session:
        await session.execute(delete(MetaRow).where(MetaRow.name == ROTATION_TARGET))
