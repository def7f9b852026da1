"""The ``users`` table: who a user is (the keyed hash of their Telegram id, their chat id
encrypted) and their two JSON documents, the mid-flow state and the settings."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import BigInteger, bindparam, case, delete, func, inspect, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.crypto.cells import Field, RecordCipher
from bot.store.access import Database
from bot.store.db import database_file_missing
from bot.store.errors import UnknownUserError
from bot.store.models import USER_TABLES, USERS_CHAT, USERS_SETTINGS, USERS_STATE, User
from flows.settings import SettingsPatch, UserSettings

#: a user's session document (JSON data; its typed form is flows.session.Session)
Document = dict[str, object]


class UpdateMarks(NamedTuple):
    """The newest Telegram update whose step is stored, the newest whose answer was sent
    (None: none yet), and when that step was stored."""

    update_id: int
    answered_id: int | None
    at: datetime


def _newest(column: Any) -> Any:
    """``column`` set to the bound ``b_update`` unless it holds a newer one already."""
    new = bindparam("b_update", type_=BigInteger)
    return case((column > new, column), else_=new)


class UserDocuments(NamedTuple):
    created_at: datetime
    state: Document | None
    settings: UserSettings


def _doc(
    cipher: RecordCipher, field: Field, blob: bytes | None, empty: Document | None
) -> Document | None:
    """A user's JSON document cell (state or settings), decrypted; ``empty`` if unset."""
    if blob is None:
        return empty
    return cast(Document, cipher.decrypt_json(field, cipher.user_id, blob))


def _settings(cipher: RecordCipher, blob: bytes | None) -> UserSettings:
    """The settings cell, decrypted and parsed (the one place settings are parsed)."""
    doc = _doc(cipher, USERS_SETTINGS, blob, {})
    return UserSettings.from_json(doc if isinstance(doc, dict) else None)


async def count_users_in(engine: AsyncEngine, url: str) -> int:
    """Users in a data database that may not exist or be migrated yet (read-only)."""
    if database_file_missing(url):
        return 0
    async with engine.connect() as conn:
        exists = await conn.run_sync(lambda sync: inspect(sync).has_table(User.__tablename__))
        if not exists:
            return 0
        count = await conn.scalar(select(func.count()).select_from(User))
    return int(count or 0)


class UsersRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._save_state = (
            update(User).where(User.id == bindparam("b_id")).values(state=bindparam("b_state"))
        )
        self._save_settings = (
            update(User)
            .where(User.id == bindparam("b_id"))
            .values(settings=bindparam("b_settings"))
        )
        self._save_state_of_update = (
            update(User)
            .where(User.id == bindparam("b_id"))
            .values(
                state=bindparam("b_state"),
                update_id=_newest(User.update_id),
                update_at=bindparam("b_at"),
            )
        )
        self._answered = (
            update(User)
            .where(User.id == bindparam("b_id"))
            .values(answered_id=_newest(User.answered_id))
        )

    # ------------------------------------------------------------------ who
    async def find(self, tg_hash: bytes) -> str | None:
        async with self._db.connection() as conn:
            return await conn.scalar(select(User.id).where(User.tg_hash == tg_hash))

    async def create(
        self, cipher: RecordCipher, tg_hash: bytes, chat_id: int, at: datetime
    ) -> None:
        """Insert the user's row; ``IntegrityError`` when ``tg_hash`` is taken."""
        async with self._db.transaction() as conn:
            await conn.execute(
                self._db.insert(User).values(
                    id=cipher.user_id,
                    tg_hash=tg_hash,
                    chat=cipher.encrypt_int(USERS_CHAT, cipher.user_id, chat_id),
                    created_at=at,
                )
            )

    async def chat_id(self, cipher: RecordCipher) -> int:
        async with self._db.connection() as conn:
            blob = await conn.scalar(select(User.chat).where(User.id == cipher.user_id))
        if blob is None:
            raise UnknownUserError()
        return cipher.decrypt_int(USERS_CHAT, cipher.user_id, blob)

    async def count(self) -> int:
        async with self._db.connection() as conn:
            return int(await conn.scalar(select(func.count()).select_from(User)) or 0)

    async def delete(self, user_id: str) -> None:
        """Every row of the user, in every table, in one transaction."""
        async with self._db.transaction() as conn:
            for model in USER_TABLES:
                await conn.execute(delete(model).where(model.user_id == user_id))
            await conn.execute(delete(User).where(User.id == user_id))

    # ------------------------------------------------------------------ the documents
    async def documents(
        self, cipher: RecordCipher, conn: AsyncConnection | None = None
    ) -> UserDocuments:
        """Both documents and when the user was created (on ``conn`` if given)."""
        query = select(User.created_at, User.state, User.settings).where(User.id == cipher.user_id)
        if conn is None:
            async with self._db.connection() as own:
                row = (await own.execute(query)).first()
        else:
            row = (await conn.execute(query)).first()
        if row is None:
            raise UnknownUserError()
        held = self._held_settings(cipher.user_id)
        return UserDocuments(
            created_at=row.created_at,
            state=_doc(cipher, USERS_STATE, row.state, None),
            settings=held if held is not None else _settings(cipher, row.settings),
        )

    async def state(self, cipher: RecordCipher) -> Document | None:
        async with self._db.connection() as conn:
            blob = await conn.scalar(select(User.state).where(User.id == cipher.user_id))
        return _doc(cipher, USERS_STATE, blob, None)

    async def save_state(
        self,
        cipher: RecordCipher,
        state: Mapping[str, object] | None,
        of_update: tuple[int, datetime] | None = None,
    ) -> str:
        """Replace the state (group commit); returns it as JSON text.  ``of_update``: the
        Telegram update (id, when) whose step this is, stored in the same write."""
        text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        blob = None if state is None else cipher.encrypt_text(USERS_STATE, cipher.user_id, text)
        row: dict[str, object] = {"b_id": cipher.user_id, "b_state": blob}
        if of_update is None:
            await self._db.write(self._save_state, [row])
        else:
            row.update(b_update=of_update[0], b_at=of_update[1])
            await self._db.write(self._save_state_of_update, [row])
        return text

    async def answered(self, user_id: str, update_id: int) -> None:
        """The answer to the step of ``update_id`` was sent (group commit)."""
        await self._db.write(self._answered, [{"b_id": user_id, "b_update": update_id}])

    async def update_marks(self, user_id: str) -> UpdateMarks | None:
        query = select(User.update_id, User.answered_id, User.update_at).where(User.id == user_id)
        async with self._db.connection() as conn:
            row = (await conn.execute(query)).first()
        if row is None or row.update_id is None or row.update_at is None:
            return None
        return UpdateMarks(row.update_id, row.answered_id, row.update_at)

    async def newest_update(self, since: datetime) -> int | None:
        """The newest update id stored with a step at or after ``since``, of any user."""
        query = select(func.max(User.update_id)).where(User.update_at >= since)
        async with self._db.connection() as conn:
            newest = await conn.scalar(query)
        return int(newest) if newest is not None else None

    def _held_settings(self, user_id: str) -> UserSettings | None:
        """The settings this task's unit changed, not yet committed."""
        held = self._db.held(USERS_SETTINGS, user_id)
        return held if isinstance(held, UserSettings) else None

    async def settings(self, cipher: RecordCipher) -> UserSettings:
        """As stored, with what this task's unit changed."""
        held = self._held_settings(cipher.user_id)
        if held is not None:
            return held
        async with self._db.connection() as conn:
            blob = await conn.scalar(select(User.settings).where(User.id == cipher.user_id))
        return _settings(cipher, blob)

    async def update_settings(self, cipher: RecordCipher, patch: SettingsPatch) -> UserSettings:
        """Apply ``patch`` to the settings, with the step's unit (or in one of its own):
        read and written while no other unit of the user runs, committed with the step's
        new state.  The new settings."""
        user_id = cipher.user_id
        async with self._db.changing(user_id):
            current = self._held_settings(user_id)
            if current is None:
                async with self._db.connection() as conn:
                    row = (
                        await conn.execute(select(User.settings).where(User.id == user_id))
                    ).first()
                if row is None:
                    raise UnknownUserError()
                current = _settings(cipher, row.settings)
            current = current.patched(patch)
            sealed = cipher.encrypt_json(USERS_SETTINGS, user_id, current.to_json())
            self._db.hold(USERS_SETTINGS, user_id, current)
            await self._db.write(self._save_settings, [{"b_id": user_id, "b_settings": sealed}])
        return current
