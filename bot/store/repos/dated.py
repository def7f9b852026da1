"""What the tables of dated rows (``evidence``, ``unsent``) share: each row is one sealed
cell, bound to its own id, and a user's rows are read oldest first."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.models import Evidence, Unsent, new_id


class DatedRow(NamedTuple):
    id: str
    created_at: datetime
    cell: bytes


async def add_dated(
    db: Database,
    insert: Any,
    cipher: RecordCipher,
    at: datetime,
    column: str,
    seal: Callable[[str], bytes],
    row_id: str | None = None,
) -> str:
    """Insert one row (group commit) whose ``column`` is ``seal(row_id)``; its id (a new
    one unless ``row_id`` is given: something bound to it was written first)."""
    row_id = row_id or new_id()
    row = {
        "id": row_id,
        "user_id": cipher.user_id,
        "created_at": at,
        "seq": db.seq(),
        column: seal(row_id),
    }
    await db.write(insert, [row])
    return row_id


async def list_dated(
    db: Database,
    model: type[Evidence] | type[Unsent],
    cell: InstrumentedAttribute[bytes],
    cipher: RecordCipher,
) -> list[DatedRow]:
    """The user's rows of ``model``, oldest first (in insertion order within a time)."""
    async with db.connection() as conn:
        rows = (
            await conn.execute(
                select(model.id, model.created_at, cell)
                .where(model.user_id == cipher.user_id)
                .order_by(model.created_at, model.seq)
            )
        ).all()
    return [DatedRow(row[0], row[1], row[2]) for row in rows]
