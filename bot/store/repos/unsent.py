"""The ``unsent`` table: messages the user wrote to the other person and did not send."""

from __future__ import annotations

from datetime import datetime

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.models import UNSENT_TEXT, Unsent
from bot.store.repos.dated import add_dated, list_dated
from flows.types import UnsentView


class UnsentRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._insert = db.insert(Unsent)

    async def add(self, cipher: RecordCipher, text: str, at: datetime) -> UnsentView:
        row_id = await add_dated(
            self._db,
            self._insert,
            cipher,
            at,
            "text",
            lambda row_id: cipher.encrypt_text(UNSENT_TEXT, row_id, text),
        )
        return UnsentView(id=row_id, text=text, created_at=at)

    async def list(self, cipher: RecordCipher) -> list[UnsentView]:
        """Oldest first."""
        rows = await list_dated(self._db, Unsent, Unsent.text, cipher)
        return [
            UnsentView(
                id=row.id,
                text=cipher.decrypt_text(UNSENT_TEXT, row.id, row.cell),
                created_at=row.created_at,
            )
            for row in rows
        ]

    async def delete(self, user_id: str, unsent_id: str) -> bool:
        return await self._db.delete_row(Unsent, UNSENT_TEXT, user_id, unsent_id)
