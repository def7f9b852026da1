"""The ``media_chunks`` table: the files kept with evidence items, encrypted in pieces.

A file is written as it arrives, :data:`CHUNK` bytes at a time, and a few pieces per
transaction, so memory stays bounded whatever its size and no plaintext ever reaches a
disk (no temporary file).  Each piece is sealed with the user's key bound to the user,
the evidence item, the file, the piece's place and whether it is the last one: a piece
moved to another place, item or user fails to open, and a file cut short is found
(its new last piece was not sealed as the last).

The pieces are written at once (not held for the conversation step's commit like the
item's row): holding them would hold the whole file in memory.  Deleting an item's files
is held with the step, like the item's own row.  A file whose item never
got saved is deleted with its user (``/wipe``), and its pieces are unreadable without the
user's key anyway.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass

from sqlalchemy import bindparam, delete, func, insert, select

from bot.crypto.cells import DecryptionError, RecordCipher
from bot.store.access import Database
from bot.store.models import MEDIA_DATA, MediaChunk, new_id

#: the plaintext bytes in one piece
CHUNK = 64 * 1024
#: pieces per transaction (while writing) and per read (while reading)
BATCH = 16

#: a file's ending in the export, by its type (Telegram's photos are JPEG, voice notes Ogg)
_ENDINGS = {
    "image/jpeg": "jpg",
    "image/png": "png",
    "image/webp": "webp",
    "image/gif": "gif",
    "image/heic": "heic",
    "audio/ogg": "ogg",
    "audio/mpeg": "mp3",
    "audio/mp4": "m4a",
    "audio/x-m4a": "m4a",
    "video/mp4": "mp4",
    "video/quicktime": "mov",
    "application/pdf": "pdf",
    "text/plain": "txt",
}
_KIND_ENDINGS = {"photo": "jpg", "voice": "ogg", "video_note": "mp4", "video": "mp4"}


class MediaTooLargeError(Exception):
    """The file turned out larger than allowed while it was being fetched."""


@dataclass(frozen=True)
class StoredMedia:
    """A file just written: its id, its size and the SHA-256 of its content."""

    media_id: str
    size: int
    sha256: str


def ending_for(kind: str, mime: str) -> str:
    """The file's ending in the export (nothing in it names the file's content)."""
    return _ENDINGS.get(mime.lower(), _KIND_ENDINGS.get(kind, "bin"))


def _place(evidence_id: str, media_id: str, idx: int, last: bool) -> str:
    """What a piece's seal is bound to, besides the user, table and column."""
    return f"{evidence_id}/{media_id}/{idx}/{'last' if last else 'more'}"


class MediaRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._delete_for = delete(MediaChunk).where(
            MediaChunk.user_id == bindparam("b_user"),
            MediaChunk.evidence_id == bindparam("b_item"),
        )

    def _row(
        self,
        cipher: RecordCipher,
        evidence_id: str,
        media_id: str,
        idx: int,
        piece: bytes,
        last: bool,
    ) -> dict[str, object]:
        sealed = cipher.encrypt(MEDIA_DATA, _place(evidence_id, media_id, idx, last), piece)
        return {
            "id": new_id(),
            "user_id": cipher.user_id,
            "evidence_id": evidence_id,
            "media_id": media_id,
            "idx": idx,
            "data": sealed,
        }

    async def _insert(self, rows: list[dict[str, object]]) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(insert(MediaChunk), rows)

    async def write(
        self,
        cipher: RecordCipher,
        evidence_id: str,
        pieces: AsyncIterable[bytes],
        limit: int,
    ) -> StoredMedia:
        """Seal and store the file ``pieces`` make up, as they arrive.  More than
        ``limit`` bytes: :class:`MediaTooLargeError`, and nothing is kept (nor on any
        other failure)."""
        media_id = new_id()
        digest = hashlib.sha256()
        size = idx = 0
        buffer = bytearray()
        rows: list[dict[str, object]] = []
        try:
            async for piece in pieces:
                size += len(piece)
                if size > limit:
                    raise MediaTooLargeError()
                digest.update(piece)
                buffer += piece
                # keep at least one byte back: the last piece is only known at the end
                while len(buffer) > CHUNK:
                    chunk = bytes(buffer[:CHUNK])
                    del buffer[:CHUNK]
                    rows.append(self._row(cipher, evidence_id, media_id, idx, chunk, False))
                    idx += 1
                    if len(rows) >= BATCH:
                        await self._insert(rows)
                        rows = []
            rows.append(self._row(cipher, evidence_id, media_id, idx, bytes(buffer), True))
            await self._insert(rows)
        except BaseException:
            await self.delete_media(cipher.user_id, media_id)
            raise
        return StoredMedia(media_id, size, digest.hexdigest())

    async def read(
        self, cipher: RecordCipher, evidence_id: str, media_id: str
    ) -> AsyncIterator[bytes]:
        """The file's content, piece by piece.  A piece missing, moved, damaged or cut
        off at the end raises ``DecryptionError``."""
        where = (
            MediaChunk.user_id == cipher.user_id,
            MediaChunk.evidence_id == evidence_id,
            MediaChunk.media_id == media_id,
        )
        async with self._db.connection() as conn:
            count = int(await conn.scalar(select(func.count()).where(*where)) or 0)
        if count == 0:
            raise DecryptionError(f"cannot decrypt {MEDIA_DATA}: no pieces")
        idx = 0
        while idx < count:
            async with self._db.connection() as conn:
                rows = (
                    await conn.execute(
                        select(MediaChunk.idx, MediaChunk.data)
                        .where(*where, MediaChunk.idx >= idx)
                        .order_by(MediaChunk.idx)
                        .limit(BATCH)
                    )
                ).all()
            if not rows:
                raise DecryptionError(f"cannot decrypt {MEDIA_DATA}: a piece is missing")
            for row_idx, sealed in rows:
                if row_idx != idx:
                    raise DecryptionError(f"cannot decrypt {MEDIA_DATA}: a piece is missing")
                place = _place(evidence_id, media_id, idx, idx == count - 1)
                yield cipher.decrypt(MEDIA_DATA, place, sealed)
                idx += 1

    async def content(self, cipher: RecordCipher, evidence_id: str, media_id: str) -> bytes:
        """The whole file (to send it back, or to export it)."""
        return b"".join([piece async for piece in self.read(cipher, evidence_id, media_id)])

    async def used(self, user_id: str) -> int:
        """Bytes the user's files take in the database (sealed: a little over their size)."""
        async with self._db.connection() as conn:
            total = await conn.scalar(
                select(func.coalesce(func.sum(func.length(MediaChunk.data)), 0)).where(
                    MediaChunk.user_id == user_id
                )
            )
        return int(total or 0)

    async def delete_media(self, user_id: str, media_id: str) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                delete(MediaChunk).where(
                    MediaChunk.user_id == user_id, MediaChunk.media_id == media_id
                )
            )

    async def delete_for(self, user_id: str, evidence_id: str) -> None:
        """Every file of one evidence item, with the step's unit (the item's row goes
        with it: both are deleted, or neither)."""
        async with self._db.changing(user_id):
            await self._db.write(self._delete_for, [{"b_user": user_id, "b_item": evidence_id}])
