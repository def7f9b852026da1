"""The ``events`` table: what happened when (urges, check-ins, ...), for /progress."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.models import EVENTS_BODY, Event, new_id
from flows.types import EventView


class EventsRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._insert = db.insert(Event)

    async def add(
        self, cipher: RecordCipher, kind: str, data: Mapping[str, Any], at: datetime
    ) -> str:
        row_id = new_id()
        body = cipher.encrypt_json(EVENTS_BODY, row_id, {"kind": kind, "data": dict(data)})
        await self._db.write(
            self._insert,
            [
                {
                    "id": row_id,
                    "user_id": cipher.user_id,
                    "at": at,
                    "seq": self._db.seq(),
                    "body": body,
                }
            ],
        )
        return row_id

    async def list(self, cipher: RecordCipher, since: datetime | None = None) -> list[EventView]:
        query = select(Event.id, Event.at, Event.body).where(Event.user_id == cipher.user_id)
        if since is not None:
            query = query.where(Event.at >= since)
        async with self._db.connection() as conn:
            rows = (await conn.execute(query.order_by(Event.at, Event.seq))).all()
        views = []
        for row in rows:
            body = cipher.decrypt_json(EVENTS_BODY, row.id, row.body)
            views.append(EventView(at=row.at, kind=str(body["kind"]), data=body["data"]))
        return views
