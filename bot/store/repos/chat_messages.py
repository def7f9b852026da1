"""The ``chat_messages`` table: Telegram message ids in the user's chat that /hide and
auto-delete may delete (no content)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, delete, select

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

    async def of_user(self, user_id: str, since: datetime | None) -> list[int]:
        """The user's ids (remembered at or after ``since``, if given)."""
        query = select(ChatMessage.message_id).where(ChatMessage.user_id == user_id)
        if since is not None:
            query = query.where(ChatMessage.created_at >= since)
        async with self._db.connection() as conn:
            return list(await conn.scalars(query.order_by(ChatMessage.message_id)))

    async def due(self, now: datetime, since: datetime | None, limit: int) -> dict[str, list[int]]:
        """Those whose auto-delete time has come (remembered at or after ``since``, if
        given), by user."""
        query = select(ChatMessage.user_id, ChatMessage.message_id).where(
            ChatMessage.delete_after.is_not(None), ChatMessage.delete_after <= now
        )
        if since is not None:
            query = query.where(ChatMessage.created_at >= since)
        async with self._db.connection() as conn:
            rows = await conn.execute(query.order_by(ChatMessage.delete_after).limit(limit))
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

    async def forget_before(self, before: datetime) -> int:
        """Forget every id remembered before ``before``; return how many."""
        async with self._db.transaction() as conn:
            result = await conn.execute(delete(ChatMessage).where(ChatMessage.created_at < before))
        return int(cast(CursorResult[Any], result).rowcount)
