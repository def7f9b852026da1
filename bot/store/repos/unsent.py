"""The ``unsent`` table: messages the user wrote to the other person and did not send."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.models import UNSENT_TEXT, Unsent, new_id
from flows.types import UnsentView


class UnsentRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._insert = db.insert(Unsent)

    async def add(self, cipher: RecordCipher, text: str, at: datetime) -> UnsentView:
        row_id = new_id()
        await self._db.write(
            self._insert,
            [
                {
                    "id": row_id,
                    "user_id": cipher.user_id,
                    "created_at": at,
                    "seq": self._db.seq(),
                    "text": cipher.encrypt_text(UNSENT_TEXT, row_id, text),
                }
            ],
        )
        return UnsentView(id=row_id, text=text, created_at=at)

    async def list(self, cipher: RecordCipher) -> list[UnsentView]:
        """Oldest first."""
        async with self._db.connection() as conn:
            rows = (
                await conn.execute(
                    select(Unsent.id, Unsent.created_at, Unsent.text)
                    .where(Unsent.user_id == cipher.user_id)
                    .order_by(Unsent.created_at, Unsent.seq)
                )
            ).all()
        return [
            UnsentView(
                id=row.id,
                text=cipher.decrypt_text(UNSENT_TEXT, row.id, row.text),
                created_at=row.created_at,
            )
            for row in rows
        ]

    async def delete(self, user_id: str, unsent_id: str) -> bool:
        return await self._db.delete_row(Unsent, user_id, unsent_id)
