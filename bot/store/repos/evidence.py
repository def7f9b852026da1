"""The ``evidence`` table: saved messages and incidents, oldest first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select

from bot.crypto.cells import RecordCipher
from bot.store.access import Database
from bot.store.export import EvidenceRecord
from bot.store.models import EVIDENCE_BODY, Evidence, new_id
from bot.store.times import from_iso, iso
from flows.types import EvidenceView


def _record(row_id: str, created_at: datetime, body: Mapping[str, Any]) -> EvidenceRecord:
    """An evidence row from its decrypted body (times in it are ISO text)."""
    item = EvidenceView(
        id=row_id,
        created_at=created_at,
        kind=str(body["kind"]),
        sender=str(body["sender"]),
        text=str(body["text"]),
        original_at=from_iso(body.get("original_at")),
        tactics=tuple(body.get("tactics", ())),
        danger=tuple(body.get("danger", ())),
        felt=body.get("felt") if body.get("felt") in ("yes", "unsure", "no") else None,
    )
    return EvidenceRecord(item=item, note=str(body.get("note", "")))


class EvidenceRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._insert = db.insert(Evidence)

    async def add(
        self,
        cipher: RecordCipher,
        *,
        kind: str,
        text: str,
        sender: str,
        original_at: datetime | None,
        tactics: Sequence[str],
        danger: Sequence[str],
        note: str,
        at: datetime,
        felt: str | None = None,
    ) -> str:
        row_id = new_id()
        body = {
            "kind": kind,
            "text": text,
            "sender": sender,
            "original_at": iso(original_at),
            "tactics": list(tactics),
            "danger": list(danger),
            "note": note,
            "felt": felt,
        }
        await self._db.write(
            self._insert,
            [
                {
                    "id": row_id,
                    "user_id": cipher.user_id,
                    "created_at": at,
                    "seq": self._db.seq(),
                    "body": cipher.encrypt_json(EVIDENCE_BODY, row_id, body),
                }
            ],
        )
        return row_id

    async def list(self, cipher: RecordCipher) -> list[EvidenceRecord]:
        async with self._db.connection() as conn:
            rows = (
                await conn.execute(
                    select(Evidence.id, Evidence.created_at, Evidence.body)
                    .where(Evidence.user_id == cipher.user_id)
                    .order_by(Evidence.created_at, Evidence.seq)
                )
            ).all()
        return [
            _record(row.id, row.created_at, cipher.decrypt_json(EVIDENCE_BODY, row.id, row.body))
            for row in rows
        ]

    async def delete(self, user_id: str, evidence_id: str) -> bool:
        return await self._db.delete_row(Evidence, user_id, evidence_id)
