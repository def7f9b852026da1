"""The ``senders`` table: the people who pass messages on the other person's behalf
("flying monkeys"), matched by label, with their relay counts."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
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
        # one statement for a new sender and a changed one (the group commit keeps a
        # step's writes in order, but one statement needs no order at all)
        upsert = db.insert(Sender)
        self._save = upsert.on_conflict_do_update(
            index_elements=[Sender.id],
            set_={"body": upsert.excluded.body},
            where=Sender.user_id == upsert.excluded.user_id,
        )

    async def _bodies(
        self, conn: AsyncConnection, cipher: RecordCipher
    ) -> list[tuple[str, dict[str, Any]]]:
        """The user's senders as stored, with what this task's unit changed (a sender
        it added comes last, as its insertion number will say)."""
        rows = (
            await conn.execute(
                select(Sender.id, Sender.body)
                .where(Sender.user_id == cipher.user_id)
                .order_by(Sender.seq)
            )
        ).all()
        held = {
            row_id: body
            for row_id, body in self._db.held_rows(SENDERS_BODY).items()
            if isinstance(body, dict)
        }
        bodies: list[tuple[str, dict[str, Any]]] = []
        for row in rows:
            body = held.pop(row.id, None)
            if body is None:
                body = cipher.decrypt_json(SENDERS_BODY, row.id, row.body)
            bodies.append((row.id, body))
        return bodies + list(held.items())

    async def read(self, conn: AsyncConnection, cipher: RecordCipher) -> list[SenderView]:
        return [_view(row_id, body) for row_id, body in await self._bodies(conn, cipher)]

    async def list(self, cipher: RecordCipher) -> list[SenderView]:
        async with self._db.connection() as conn:
            return await self.read(conn, cipher)

    async def change(
        self, cipher: RecordCipher, label: str, at: datetime, *, relay: bool
    ) -> SenderView:
        """Count a relay from ``label`` (``relay``), or note that the user asked them to
        stop; the sender is matched case- and space-insensitively, or added.  Read and
        written with the step's unit (or in one of its own, see ``Database.changing``):
        while no other unit of the user runs, committed with the step's new state."""
        wanted = _label_key(label)
        async with self._db.changing(cipher.user_id):
            async with self._db.connection() as conn:
                bodies = await self._bodies(conn, cipher)
            found = next(
                (
                    (row_id, body)
                    for row_id, body in bodies
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
                row_id, body = found[0], dict(found[1])
            if relay:
                body["relays_total"] = int(body.get("relays_total", 0)) + 1
                body["last_relay_at"] = iso(at)
                if body.get("asked_to_stop_at") is not None:
                    body["relays_since_asked"] = int(body.get("relays_since_asked", 0)) + 1
            else:
                body["asked_to_stop_at"] = iso(at)
                body["relays_since_asked"] = 0
            blob = cipher.encrypt_json(SENDERS_BODY, row_id, body)
            self._db.hold(SENDERS_BODY, row_id, body)
            await self._db.write(
                self._save,
                [{"id": row_id, "user_id": cipher.user_id, "seq": self._db.seq(), "body": blob}],
            )
        return _view(row_id, body)
