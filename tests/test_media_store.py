"""The store's media files on SQLite and PostgreSQL: written as they arrive in sealed
pieces, read back whole, cut short or moved pieces refused, counted for the quota, gone
with their item and with the user."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select, update

from bot.crypto.cells import DecryptionError
from bot.store.facade import Store
from bot.store.models import MediaChunk
from bot.store.repos.media import CHUNK, MediaTooLargeError

AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CONTENT = bytes(range(256)) * 1000  # 256 000 bytes: 4 pieces


async def pieces(content: bytes, size: int = 10_000) -> AsyncIterator[bytes]:
    for start in range(0, len(content), size):
        yield content[start : start + size]


async def _kept(store: Store, user_id: str, content: bytes = CONTENT) -> tuple[str, str]:
    evidence_id = store.new_evidence_id()
    stored = await store.store_media(user_id, evidence_id, pieces(content), 20 * 1024 * 1024)
    assert stored.size == len(content)
    await store.add_evidence(
        user_id,
        kind="hoover",
        text="",
        sender="them",
        original_at=None,
        tactics=(),
        danger=(),
        note="",
        at=AT,
        media=[{"id": stored.media_id, "kind": "document", "size": stored.size}],
        evidence_id=evidence_id,
    )
    await store.db.drain()
    return evidence_id, stored.media_id


async def _count(store: Store, user_id: str) -> int:
    async with store.connection() as conn:
        return int(
            await conn.scalar(select(func.count()).where(MediaChunk.user_id == user_id)) or 0
        )


async def test_a_file_is_kept_in_sealed_pieces_and_read_back(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    evidence_id, media_id = await _kept(store, user_id)
    assert await _count(store, user_id) == -(-len(CONTENT) // CHUNK)
    assert await store.media_content(user_id, evidence_id, media_id) == CONTENT
    (item,) = await store.list_evidence(user_id)
    assert item.id == evidence_id and item.media[0].id == media_id
    assert len(CONTENT) < await store.media_used(user_id) < len(CONTENT) + 1000


async def test_pieces_swapped_or_moved_to_another_user_do_not_open(store: Store) -> None:
    alice, _ = await store.ensure_user(1, 1)
    bob, _ = await store.ensure_user(2, 2)
    evidence_id, media_id = await _kept(store, alice)
    where = MediaChunk.media_id == media_id
    async with store.transaction() as conn:
        found = (await conn.execute(select(MediaChunk.idx, MediaChunk.data).where(where))).all()
        rows = {int(idx): bytes(data) for idx, data in found}
        for idx, other in ((0, 1), (1, 0)):
            await conn.execute(
                update(MediaChunk).where(where, MediaChunk.idx == idx).values(data=rows[other])
            )
    with pytest.raises(DecryptionError):
        await store.media_content(alice, evidence_id, media_id)
    async with store.transaction() as conn:  # put back: it opens again
        for idx in (0, 1):
            await conn.execute(
                update(MediaChunk).where(where, MediaChunk.idx == idx).values(data=rows[idx])
            )
    assert await store.media_content(alice, evidence_id, media_id) == CONTENT
    async with store.transaction() as conn:
        await conn.execute(
            update(MediaChunk).where(MediaChunk.media_id == media_id).values(user_id=bob)
        )
    with pytest.raises(DecryptionError):
        await store.media_content(bob, evidence_id, media_id)


async def test_a_file_over_the_limit_leaves_nothing(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    with pytest.raises(MediaTooLargeError):
        await store.store_media(user_id, store.new_evidence_id(), pieces(CONTENT), 100_000)
    assert await _count(store, user_id) == 0


async def test_files_go_with_their_item_and_with_the_user(store: Store) -> None:
    user_id, _ = await store.ensure_user(1, 1)
    first, _ = await _kept(store, user_id)
    await _kept(store, user_id)
    await store.delete_evidence(user_id, first)
    assert await _count(store, user_id) == 4
    await store.wipe_user(user_id)
    assert await _count(store, user_id) == 0
