"""The key store: a small database of wrapped keys, and the Telegram-id lookup key.

* Every user's data key (``bot.crypto.cells``) is stored here only *wrapped* by a master
  key (``bot.crypto.ring``).  Destroying a user's wrapped key therefore shreds that
  user's rows in every copy of the data database.
* Users are found by ``HMAC-SHA256(lookup secret, telegram id)``.  The lookup secret is
  32 random bytes made at first run and stored here wrapped by the master key, so
  rotation re-wraps it and never touches data rows.
* For each master key the key store keeps a **check value** (an HMAC of a constant under
  that key), so start-up can tell a wrong key before any write (``bot.crypto.keys``).

Schema
------
The key store does not use Alembic: it is four small tables prefixed ``keystore_``
(so it may even share a database with the data), created with ``create_all`` and
versioned by the ``schema_version`` row of ``keystore_meta``.  A future change bumps
``KEYSTORE_SCHEMA_VERSION`` and adds an upgrade step in :meth:`KeyStore.initialize`;
a key store made by a newer version is refused.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import LargeBinary, MetaData, String, delete, func, inspect, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from bot.config import ConfigError
from bot.crypto.cells import KEY_BYTES
from bot.crypto.ring import MasterKeyError, MasterKeyRing
from bot.store.db import (
    create_engine,
    create_sessionmaker,
    database_file_missing,
    is_sqlite,
    safe_url,
)
from bot.store.models import UTCDateTime

KEYSTORE_SCHEMA_VERSION = 1
LOOKUP_SECRET = "lookup"
#: the ``keystore_meta`` row naming the master key a rotation is moving to
ROTATION_TARGET = "rotation_target"


def _now() -> datetime:
    return datetime.now(UTC)


class LookupKey:
    """Keyed hash of Telegram ids, so the database can find users without storing ids."""

    __slots__ = ("_secret",)

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def telegram_hash(self, telegram_id: int) -> bytes:
        return hmac.digest(
            self._secret, b"nocontact/telegram-id/v1:" + str(int(telegram_id)).encode(), "sha256"
        )

    def derive(self, purpose: str) -> bytes:
        """A secret of its own for ``purpose`` (the PIN hashes' pepper), derived from the
        lookup secret: outside the data database, and kept by a master key rotation."""
        return hmac.digest(self._secret, b"nocontact/derived/v1:" + purpose.encode(), "sha256")


# --------------------------------------------------------------------------- schema
class KeyStoreBase(DeclarativeBase):
    metadata = MetaData()
    type_annotation_map: ClassVar[dict[Any, Any]] = {bytes: LargeBinary, datetime: UTCDateTime}


class MetaRow(KeyStoreBase):
    __tablename__ = "keystore_meta"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class MasterKeyRow(KeyStoreBase):
    __tablename__ = "keystore_master_keys"

    key_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    check: Mapped[bytes]
    created_at: Mapped[datetime]


class SecretRow(KeyStoreBase):
    __tablename__ = "keystore_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    key_id: Mapped[str] = mapped_column(String(64))
    wrapped: Mapped[bytes]


class UserKeyRow(KeyStoreBase):
    __tablename__ = "keystore_user_keys"

    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    key_id: Mapped[str] = mapped_column(String(64), index=True)
    wrapped: Mapped[bytes]
    created_at: Mapped[datetime]


@dataclass(frozen=True)
class KeyStoreState:
    """What the key store holds, read without writing anything."""

    exists: bool
    schema_version: int | None = None
    checks: Mapping[str, bytes] = field(default_factory=dict)
    #: master key ids that wrap at least one stored key
    referenced: frozenset[str] = frozenset()
    has_lookup_secret: bool = False
    user_keys: int = 0
    rotation_target: str | None = None

    @property
    def empty(self) -> bool:
        return not self.checks and not self.referenced and not self.has_lookup_secret


class KeyStore:
    """The database of wrapped keys."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_engine(url)
        self.sessions = create_sessionmaker(self.engine)

    @property
    def label(self) -> str:
        return safe_url(self.url)

    async def close(self) -> None:
        await self.engine.dispose()

    async def inspect(self) -> KeyStoreState:
        if database_file_missing(self.url):
            return KeyStoreState(exists=False)
        async with self.engine.connect() as conn:
            has_tables = await conn.run_sync(
                lambda sync: inspect(sync).has_table(MetaRow.__tablename__)
            )
            if not has_tables:
                return KeyStoreState(exists=False)
            meta = {
                row.name: row.value
                for row in await conn.execute(select(MetaRow.name, MetaRow.value))
            }
            checks = {
                row.key_id: row.check
                for row in await conn.execute(select(MasterKeyRow.key_id, MasterKeyRow.check))
            }
            used = set((await conn.execute(select(UserKeyRow.key_id).distinct())).scalars().all())
            secret_rows = (await conn.execute(select(SecretRow.name, SecretRow.key_id))).all()
            used.update(row.key_id for row in secret_rows)
            user_keys = (await conn.execute(select(func.count()).select_from(UserKeyRow))).scalar()
        version = meta.get("schema_version")
        return KeyStoreState(
            exists=True,
            schema_version=int(version) if version else None,
            checks=checks,
            referenced=frozenset(used),
            has_lookup_secret=any(row.name == LOOKUP_SECRET for row in secret_rows),
            user_keys=int(user_keys or 0),
            rotation_target=meta.get(ROTATION_TARGET),
        )

    async def initialize(self, ring: MasterKeyRing) -> None:
        """Create the tables, register the ring's check values, make the lookup secret."""

        def create(sync: Connection) -> None:
            KeyStoreBase.metadata.create_all(sync, checkfirst=True)

        async with self.sessions.begin() as session:
            conn = await session.connection()
            await conn.run_sync(create)
            version = await session.get(MetaRow, "schema_version")
            if version is None:
                session.add(MetaRow(name="schema_version", value=str(KEYSTORE_SCHEMA_VERSION)))
            elif int(version.value) > KEYSTORE_SCHEMA_VERSION:
                raise ConfigError(
                    f"The key store ({self.label}) was made by a newer version of nocontact "
                    f"(schema {version.value}). Upgrade nocontact."
                )
            known = set((await session.execute(select(MasterKeyRow.key_id))).scalars().all())
            for key_id in ring.keys:
                if key_id not in known:
                    session.add(
                        MasterKeyRow(
                            key_id=key_id, check=ring.check_value(key_id), created_at=_now()
                        )
                    )
            if await session.get(SecretRow, LOOKUP_SECRET) is None:
                key_id, wrapped = ring.wrap(
                    os.urandom(KEY_BYTES), purpose="lookup", subject=LOOKUP_SECRET
                )
                session.add(SecretRow(name=LOOKUP_SECRET, key_id=key_id, wrapped=wrapped))

    async def lookup_key(self, ring: MasterKeyRing) -> LookupKey:
        async with self.sessions() as session:
            row = await session.get(SecretRow, LOOKUP_SECRET)
        if row is None:
            raise MasterKeyError(f"The key store ({self.label}) has no lookup secret.")
        return LookupKey(
            ring.unwrap(row.key_id, row.wrapped, purpose="lookup", subject=LOOKUP_SECRET)
        )

    async def get_user_key(self, user_id: str) -> tuple[str, bytes] | None:
        async with self.sessions() as session:
            row = (
                await session.execute(
                    select(UserKeyRow.key_id, UserKeyRow.wrapped).where(
                        UserKeyRow.user_id == user_id
                    )
                )
            ).first()
        return None if row is None else (row.key_id, row.wrapped)

    async def put_user_key(self, user_id: str, key_id: str, wrapped: bytes) -> None:
        async with self.sessions.begin() as session:
            session.add(
                UserKeyRow(user_id=user_id, key_id=key_id, wrapped=wrapped, created_at=_now())
            )

    async def delete_user_key(self, user_id: str) -> None:
        async with self.sessions.begin() as session:
            await session.execute(delete(UserKeyRow).where(UserKeyRow.user_id == user_id))
        if is_sqlite(self.url):
            # Best effort: move the overwritten (secure_delete) pages into the main file
            # and empty the WAL, so the old wrapped key does not linger in the -wal file.
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
