"""The ``chat_messages`` table: Telegram message ids in the user's chat that /hide and
auto-delete may delete (no content)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select

from bot.store.access import Database
from bot.store.models import ChatMessage, new_id


class ChatMessagesRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._remember = db.insert(ChatMessage).on_conflict_do_nothing()

    async def remember(
        self,
        user_id: str,
        message_ids: Sequence[int],
        at: datetime,
        delete_after: datetime | None = None,
    ) -> None:
        rows = [
            {
                "id": new_id(),
                "user_id": user_id,
                "message_id": int(mid),
                "created_at": at,
                "delete_after": delete_after,
            }
            for mid in dict.fromkeys(message_ids)
        ]
        await self._db.write(self._remember, rows)

    async def of_user(self, user_id: str) -> list[int]:
        async with self._db.connection() as conn:
            ids = await conn.scalars(
                select(ChatMessage.message_id)
                .where(ChatMessage.user_id == user_id)
                .order_by(ChatMessage.message_id)
            )
            return list(ids)

    async def due(self, now: datetime, limit: int) -> dict[str, list[int]]:
        """Those whose auto-delete time has come, by user."""
        async with self._db.connection() as conn:
            rows = await conn.execute(
                select(ChatMessage.user_id, ChatMessage.message_id)
                .where(ChatMessage.delete_after.is_not(None), ChatMessage.delete_after <= now)
                .order_by(ChatMessage.delete_after)
                .limit(limit)
            )
            due: dict[str, list[int]] = {}
            for user_id, message_id in rows:
                due.setdefault(user_id, []).append(int(message_id))
            return due

    async def forget(self, user_id: str, message_ids: Sequence[int]) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                delete(ChatMessage).where(
                    ChatMessage.user_id == user_id,
                    ChatMessage.message_id.in_([int(mid) for mid in message_ids]),
                )
            )
