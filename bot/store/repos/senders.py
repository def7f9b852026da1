"""The ``senders`` table: the people who pass messages on the other person's behalf
("flying monkeys"), matched by label, with their relay counts."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.models import SENDERS_BODY, Sender, new_id
from bot.store.times import from_iso, iso
from flows.types import SenderView


def _label_key(label: str) -> str:
    return " ".join(label.split()).casefold()


def _view(row_id: str, body: Mapping[str, Any]) -> SenderView:
    return SenderView(
        id=row_id,
        label=str(body["label"]),
        asked_to_stop_at=from_iso(body.get("asked_to_stop_at")),
        relays_since_asked=int(body.get("relays_since_asked", 0)),
        relays_total=int(body.get("relays_total", 0)),
    )


class SendersRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def _bodies(
        self, conn: AsyncConnection, cipher: RecordCipher
    ) -> list[tuple[str, dict[str, Any]]]:
        rows = (
            await conn.execute(
                select(Sender.id, Sender.body)
                .where(Sender.user_id == cipher.user_id)
                .order_by(Sender.seq)
            )
        ).all()
        return [(row.id, cipher.decrypt_json(SENDERS_BODY, row.id, row.body)) for row in rows]

    async def read(self, conn: AsyncConnection, cipher: RecordCipher) -> list[SenderView]:
        return [_view(row_id, body) for row_id, body in await self._bodies(conn, cipher)]

    async def list(self, cipher: RecordCipher) -> list[SenderView]:
        async with self._db.connection() as conn:
            return await self.read(conn, cipher)

    async def change(
        self, cipher: RecordCipher, label: str, at: datetime, *, relay: bool
    ) -> SenderView:
        """Count a relay from ``label`` (``relay``), or note that the user asked them to
        stop; the sender is matched case- and space-insensitively, or added."""
        wanted = _label_key(label)
        async with self._db.transaction() as conn:
            found = next(
                (
                    (row_id, body)
                    for row_id, body in await self._bodies(conn, cipher)
                    if _label_key(str(body["label"])) == wanted
                ),
                None,
            )
            if found is None:
                row_id = new_id()
                body: dict[str, Any] = {
                    "label": " ".join(label.split()),
                    "asked_to_stop_at": None,
                    "relays_since_asked": 0,
                    "relays_total": 0,
                    "last_relay_at": None,
                }
            else:
                row_id, body = found
            if relay:
                body["relays_total"] = int(body.get("relays_total", 0)) + 1
                body["last_relay_at"] = iso(at)
                if body.get("asked_to_stop_at") is not None:
                    body["relays_since_asked"] = int(body.get("relays_since_asked", 0)) + 1
            else:
                body["asked_to_stop_at"] = iso(at)
                body["relays_since_asked"] = 0
            blob = cipher.encrypt_json(SENDERS_BODY, row_id, body)
            if found is None:
                await conn.execute(
                    self._db.insert(Sender).values(
                        id=row_id, user_id=cipher.user_id, seq=self._db.seq(), body=blob
                    )
                )
            else:
                await conn.execute(update(Sender).where(Sender.id == row_id).values(body=blob))
        return _view(row_id, body)
