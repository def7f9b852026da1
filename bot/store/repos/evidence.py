"""The ``evidence`` table: saved messages and incidents, oldest first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update

from bot.crypto.cells import RecordCipher
from bot.store.access import DELETED, Database
from bot.store.export import EvidenceRecord
from bot.store.models import EVIDENCE_BODY, Evidence
from bot.store.repos.dated import add_dated, list_dated
from bot.store.times import from_iso, iso
from flows.channels import valid
from flows.types import EvidenceView, MediaView


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
        channel=valid(body.get("channel")),
        details=tuple((str(name), str(answer)) for name, answer in body.get("details", ())),
        media=tuple(_media(m) for m in body.get("media", ()) if isinstance(m, dict)),
    )
    return EvidenceRecord(item=item, note=str(body.get("note", "")))


def _media(raw: Mapping[str, Any]) -> MediaView:
    duration = raw.get("duration")
    return MediaView(
        id=str(raw["id"]),
        kind=str(raw["kind"]),
        size=int(raw.get("size") or 0),
        mime=str(raw.get("mime") or ""),
        duration=int(duration) if isinstance(duration, int) else None,
        name=str(raw.get("name") or ""),
    )


class EvidenceRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._insert = db.insert(Evidence)
        self._update = (
            update(Evidence)
            .where(Evidence.id == bindparam("b_id"), Evidence.user_id == bindparam("b_user"))
            .values(body=bindparam("b_body"))
        )

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
        channel: str | None = None,
        details: Sequence[tuple[str, str]] = (),
        media: Sequence[Mapping[str, Any]] = (),
        row_id: str | None = None,
    ) -> str:
        body: dict[str, Any] = {
            "kind": kind,
            "text": text,
            "sender": sender,
            "original_at": iso(original_at),
            "tactics": list(tactics),
            "danger": list(danger),
            "note": note,
            "felt": felt,
            "channel": channel,
            "details": [[name, answer] for name, answer in details],
        }
        if media:
            # each file: id, kind, size, mime, duration, name, sha256 (its pieces are in
            # media_chunks, bot.store.repos.media)
            body["media"] = [dict(m) for m in media]
        return await add_dated(
            self._db,
            self._insert,
            cipher,
            at,
            "body",
            lambda row_id: cipher.encrypt_json(EVIDENCE_BODY, row_id, body),
            row_id=row_id,
        )

    async def update(
        self, cipher: RecordCipher, evidence_id: str, changes: Mapping[str, Any]
    ) -> bool:
        """Change some fields of one of the user's items (the body is sealed again, bound
        to the user, the table, the column and the row, like when it was added); with
        the step's unit (see ``Database.changing``).  False when there is no such item
        of this user."""
        async with self._db.changing(cipher.user_id):
            held = self._db.held(EVIDENCE_BODY, evidence_id)
            if held is DELETED:
                return False
            if isinstance(held, dict):
                body = dict(held)
            else:
                async with self._db.connection() as conn:
                    cell = await conn.scalar(
                        select(Evidence.body).where(
                            Evidence.id == evidence_id, Evidence.user_id == cipher.user_id
                        )
                    )
                if cell is None:
                    return False
                body = cipher.decrypt_json(EVIDENCE_BODY, evidence_id, cell)
            body.update(changes)
            self._db.hold(EVIDENCE_BODY, evidence_id, body)
            sealed = cipher.encrypt_json(EVIDENCE_BODY, evidence_id, body)
            row = {"b_id": evidence_id, "b_user": cipher.user_id, "b_body": sealed}
            await self._db.write(self._update, [row])
        return True

    async def list(self, cipher: RecordCipher) -> list[EvidenceRecord]:
        rows = await list_dated(self._db, Evidence, Evidence.body, cipher)
        return [
            _record(row.id, row.created_at, cipher.decrypt_json(EVIDENCE_BODY, row.id, row.cell))
            for row in rows
        ]

    async def delete(self, user_id: str, evidence_id: str) -> bool:
        return await self._db.delete_row(Evidence, EVIDENCE_BODY, user_id, evidence_id)
