"""The data database schema (SQLAlchemy 2 typed ORM).

Every column that holds something a user said or the Telegram chat id is a
``LargeBinary`` ciphertext sealed by :mod:`bot.crypto.cells` with the owning user's key; the
associated data binds it to (version, user id, table, column, row id).  Plaintext
columns are limited to what ordering and lookups need: random row ids, the keyed
HMAC of the Telegram id, timestamps, insertion sequence numbers and the Telegram
message ids the bot may delete for /hide.

Row ids are random 128-bit hex strings made by the client (``new_id()``) so the id is
known before the row's cells are encrypted.

Schema changes go through Alembic (``bot/store/migrations``); keep this module and the
newest revision in step.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar
from uuid import uuid4

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from bot.crypto.cells import Field

ID_LENGTH = 32

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def new_id() -> str:
    """A random 128-bit row id (hex)."""
    return uuid4().hex


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always returned timezone-aware (UTC).

    SQLite keeps no time zone, PostgreSQL does; both come back as aware UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime, bytes: LargeBinary}


def _user_fk() -> Mapped[str]:
    return mapped_column(
        String(ID_LENGTH), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    #: HMAC-SHA256 of the Telegram user id under the lookup secret (see bot.crypto.keystore).
    tg_hash: Mapped[bytes] = mapped_column(LargeBinary, unique=True)
    #: the Telegram chat id, encrypted
    chat: Mapped[bytes]
    #: mid-flow state (JSON), encrypted; NULL when no flow is running
    state: Mapped[bytes | None]
    #: the settings document (JSON), encrypted; NULL until first set
    settings: Mapped[bytes | None]
    created_at: Mapped[datetime]
    #: the newest Telegram update whose step is stored (with the step, in its transaction),
    #: the newest one whose answer was sent, and when the step was stored: a process that
    #: takes over after a crash is sent the unconfirmed updates again (bot.engine.replays)
    update_id: Mapped[int | None] = mapped_column(BigInteger, default=None)
    answered_id: Mapped[int | None] = mapped_column(BigInteger, default=None)
    update_at: Mapped[datetime | None] = mapped_column(default=None)


class Reason(Base):
    __tablename__ = "reasons"
    __table_args__ = (Index(None, "user_id", "seq"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    seq: Mapped[int] = mapped_column(BigInteger)
    text: Mapped[bytes]


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (Index(None, "user_id", "at"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    at: Mapped[datetime]
    seq: Mapped[int] = mapped_column(BigInteger)
    #: {"kind": ..., "data": {...}} (JSON), encrypted
    body: Mapped[bytes]


class Evidence(Base):
    __tablename__ = "evidence"
    __table_args__ = (Index(None, "user_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    created_at: Mapped[datetime]
    seq: Mapped[int] = mapped_column(BigInteger)
    #: kind, sender, text, original_at, tactics, danger, note (JSON), encrypted
    body: Mapped[bytes]


class Unsent(Base):
    __tablename__ = "unsent"
    __table_args__ = (Index(None, "user_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    created_at: Mapped[datetime]
    seq: Mapped[int] = mapped_column(BigInteger)
    text: Mapped[bytes]


class Sender(Base):
    __tablename__ = "senders"
    __table_args__ = (Index(None, "user_id", "seq"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    seq: Mapped[int] = mapped_column(BigInteger)
    #: label, asked_to_stop_at, relays_since_asked, relays_total (JSON), encrypted
    body: Mapped[bytes]


class MediaChunk(Base):
    """One piece (at most ``bot.store.repos.media.CHUNK``) of a media file kept with an
    evidence item, sealed bound to the user, the item, the file, its place and whether it
    is the last piece (so a file cut short, or with pieces swapped, fails to open).  The
    item's body lists the file; nothing here says what it is."""

    __tablename__ = "media_chunks"
    __table_args__ = (UniqueConstraint("media_id", "idx"), Index(None, "user_id"))

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    #: the evidence item it belongs to (no foreign key: the pieces are written before the
    #: item's row, which is committed with the conversation step)
    evidence_id: Mapped[str] = mapped_column(String(ID_LENGTH), index=True)
    media_id: Mapped[str] = mapped_column(String(ID_LENGTH))
    idx: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[bytes]


class ChatMessage(Base):
    """A Telegram message id in the user's chat that /hide may delete (no content)."""

    __tablename__ = "chat_messages"
    __table_args__ = (UniqueConstraint("user_id", "message_id"),)

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    user_id: Mapped[str] = _user_fk()
    message_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime]
    #: when auto-delete (a /privacy setting) removes it from the chat; None = keep
    delete_after: Mapped[datetime | None] = mapped_column(index=True, default=None)


#: Tables that hold a user's rows (children of ``users``), for wipe and export.
UserRow = Reason | Event | Evidence | Unsent | Sender | ChatMessage | MediaChunk
USER_TABLES: tuple[type[UserRow], ...] = (
    Reason,
    Event,
    Evidence,
    Unsent,
    Sender,
    ChatMessage,
    MediaChunk,
)


# The encrypted cells, one Field per column (table and column names come from here only).
class SchemaMeta(Base):
    """Facts about the database itself, in plaintext: ``upgraded_by`` is the nocontact
    version that last changed the schema, so an older version can say which one the
    data needs."""

    __tablename__ = "schema_meta"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


USERS_CHAT = Field(User.__tablename__, "chat")
USERS_STATE = Field(User.__tablename__, "state")
USERS_SETTINGS = Field(User.__tablename__, "settings")
REASONS_TEXT = Field(Reason.__tablename__, "text")
EVENTS_BODY = Field(Event.__tablename__, "body")
EVIDENCE_BODY = Field(Evidence.__tablename__, "body")
UNSENT_TEXT = Field(Unsent.__tablename__, "text")
SENDERS_BODY = Field(Sender.__tablename__, "body")
MEDIA_DATA = Field(MediaChunk.__tablename__, "data")
