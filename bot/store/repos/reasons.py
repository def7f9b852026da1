"""The ``reasons`` table: the user's reasons for leaving, in the order they were added."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.models import REASONS_TEXT, Reason, new_id
from flows.types import ReasonView


class ReasonsRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._insert = db.insert(Reason)

    async def add(self, cipher: RecordCipher, texts: Sequence[str]) -> tuple[ReasonView, ...]:
        """Insert one row per text (group commit); the new reasons, in order."""
        rows: list[dict[str, Any]] = []
        for text in texts:
            row_id = new_id()
            rows.append(
                {
                    "id": row_id,
                    "user_id": cipher.user_id,
                    "seq": self._db.seq(),
                    "text": cipher.encrypt_text(REASONS_TEXT, row_id, text),
                }
            )
        await self._db.write(self._insert, rows)
        return tuple(
            ReasonView(id=str(row["id"]), text=text) for row, text in zip(rows, texts, strict=True)
        )

    async def read(self, conn: AsyncConnection, cipher: RecordCipher) -> list[ReasonView]:
        rows = (
            await conn.execute(
                select(Reason.id, Reason.text)
                .where(Reason.user_id == cipher.user_id)
                .order_by(Reason.seq)
            )
        ).all()
        return [
            ReasonView(id=row.id, text=cipher.decrypt_text(REASONS_TEXT, row.id, row.text))
            for row in rows
        ]

    async def list(self, cipher: RecordCipher) -> list[ReasonView]:
        async with self._db.connection() as conn:
            return await self.read(conn, cipher)

    async def delete(self, user_id: str, reason_id: str) -> bool:
        return await self._db.delete_row(Reason, REASONS_TEXT, user_id, reason_id)
