"""The encrypted per-user store: the only way ``bot/`` reads or writes user data.

Callers pass and get plain Python values; every cell is sealed with the user's own
data key (``bot.crypto.cells``) bound to its user, table, column and row.  Unwrapped user
keys are kept in a small in-memory LRU (evicted on destroy/wipe), and so is the decrypted
context of recently active users, kept in step with every write.  A read is one short
connection (Core statements on the typed ORM tables); the writes of conversation steps
go through a group commit (``bot.store.writes``; on SQLite, ``bot.store.sqlite_writer``), and
each caller returns once its own write is committed.  ``sessions`` (an
``async_sessionmaker``) is there for ORM users.

Errors: :class:`UnknownUserError` when a user id has no row, ``UserKeyMissingError``
(``bot.crypto.keys``) when the user's key was destroyed, ``DecryptionError`` (``bot.crypto.cells``)
when a cell was damaged or moved.  None of them carries user data.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, bindparam, delete, func, inspect, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from bot.config import ConfigError, Settings
from bot.crypto.cells import Field, RecordCipher, new_data_key
from bot.crypto.keys import Keys, open_keys
from bot.store.db import (
    create_engine,
    create_sessionmaker,
    database_file_missing,
    describe_error,
    prepare_directory,
    safe_url,
    sqlite_path,
    upgrade_database,
)
from bot.store.models import (
    EVENTS_BODY,
    EVIDENCE_BODY,
    REASONS_TEXT,
    SENDERS_BODY,
    UNSENT_TEXT,
    USER_TABLES,
    USERS_CHAT,
    USERS_SETTINGS,
    USERS_STATE,
    ChatMessage,
    Event,
    Evidence,
    Reason,
    Sender,
    Unsent,
    User,
    new_id,
)
from bot.store.sqlite_writer import SqliteWriter
from bot.store.writes import Batch, GroupCommit
from flows.types import EventView, EvidenceView, ReasonView, SenderView, UnsentView

DEFAULT_KEY_CACHE_SIZE = 1024
#: decrypted conversation contexts kept in memory (the most recently active users)
CONTEXT_CACHE_SIZE = 2048
#: keyed-hash -> user id entries kept in memory (about 100 bytes each)
LOOKUP_CACHE_SIZE = 50_000
EXPORT_FORMAT = "nocontact-export"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class UserContext:
    """What one conversation step reads, loaded in one go."""

    state: dict[str, Any] | None
    settings: dict[str, Any]
    reasons: list[ReasonView]
    senders: list[SenderView]


_Method = TypeVar("_Method", bound=Callable[..., Awaitable[Any]])


def _changes_context(method: _Method) -> _Method:
    """For Store methods that change what ``load_context`` returns.  The method updates
    the user's memory copy itself once its write is done; if it fails, the copy is
    dropped (the next load reads the database)."""

    @functools.wraps(method)
    async def wrapper(self: Store, user_id: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, user_id, *args, **kwargs)
        except BaseException:
            self._invalidate(user_id)
            raise

    return cast(_Method, wrapper)


@dataclass(frozen=True)
class _CachedContext:
    state: str  # JSON (parsed afresh on every load, so callers may mutate what they get)
    settings: str
    reasons: tuple[ReasonView, ...]
    senders: tuple[SenderView, ...]
    #: the unsent messages, once a step has needed them
    unsent: tuple[UnsentView, ...] | None = None

    def to_context(self) -> UserContext:
        return UserContext(
            state=json.loads(self.state),
            settings=json.loads(self.settings),
            reasons=list(self.reasons),
            senders=list(self.senders),
        )


class StoreUnavailableError(ConfigError):
    """The database or the key store cannot be reached at start-up."""


class UnknownUserError(LookupError):
    """There is no user with this id (never created, or wiped)."""

    def __init__(self) -> None:
        super().__init__("no such user")


_View = TypeVar("_View", ReasonView, UnsentView)


def _with(views: tuple[_View, ...], added: tuple[_View, ...]) -> tuple[_View, ...]:
    """``views`` plus those of ``added`` it does not hold yet (by id)."""
    known: set[str] = {view.id for view in views}
    return views + tuple(view for view in added if view.id not in known)


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def _from_iso(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _label_key(label: str) -> str:
    return " ".join(label.split()).casefold()


def _affected(result: Any) -> int:
    return int(cast(CursorResult[Any], result).rowcount)


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


def _sender_view(row_id: str, body: Mapping[str, Any]) -> SenderView:
    return SenderView(
        id=row_id,
        label=str(body["label"]),
        asked_to_stop_at=_from_iso(body.get("asked_to_stop_at")),
        relays_since_asked=int(body.get("relays_since_asked", 0)),
        relays_total=int(body.get("relays_total", 0)),
    )


def evidence_view(row_id: str, created_at: datetime, body: Mapping[str, Any]) -> EvidenceView:
    """An evidence item for the flows and the PDF report, from its decrypted body (the
    same fields as in an export, with times as ISO text)."""
    return EvidenceView(
        id=row_id,
        created_at=created_at,
        kind=str(body["kind"]),
        sender=str(body["sender"]),
        text=str(body["text"]),
        original_at=_from_iso(body.get("original_at")),
        tactics=tuple(body.get("tactics", ())),
        danger=tuple(body.get("danger", ())),
    )


def _doc(
    cipher: RecordCipher, field: Field, blob: bytes | None, empty: dict[str, Any] | None
) -> dict[str, Any] | None:
    """A user's JSON document cell (state or settings), decrypted; ``empty`` if unset."""
    if blob is None:
        return empty
    return cast(dict[str, Any], cipher.decrypt_json(field, cipher.user_id, blob))


class Store:
    """The repository.  Open with :meth:`Store.open`, close with :meth:`close`."""

    def __init__(
        self,
        engine: AsyncEngine,
        keys: Keys,
        *,
        key_cache_size: int = DEFAULT_KEY_CACHE_SIZE,
    ) -> None:
        self.engine = engine
        self.sessions: async_sessionmaker[AsyncSession] = create_sessionmaker(engine)
        self._keys = keys
        self._ciphers: OrderedDict[str, RecordCipher] = OrderedDict()
        self._lookups: OrderedDict[bytes, str] = OrderedDict()
        # user id -> (state JSON, settings JSON, reasons, senders): the decrypted context
        # of recently active users, kept in step with every write of this process
        self._contexts: OrderedDict[str, _CachedContext] = OrderedDict()
        # a read that started before a user's latest write must not be cached
        self._write_clock = 0
        self._last_write: OrderedDict[str, int] = OrderedDict()
        self._cache_size = key_cache_size
        self._destroy_epoch = 0
        self._last_seq = 0
        dialect = engine.dialect.name
        self._write_lock = asyncio.Lock() if dialect == "sqlite" else None
        self._insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        # the writes of every conversation step go through a group commit; on a SQLite
        # file it runs on its own writer thread
        path = sqlite_path(engine.url)
        self._writer = SqliteWriter(engine.url) if path is not None else None
        self._group = GroupCommit(self._commit_batch)
        self._save_state_sql = (
            update(User).where(User.id == bindparam("b_id")).values(state=bindparam("b_state"))
        )
        self._remember_sql = self._insert(ChatMessage).on_conflict_do_nothing()
        self._reason_sql = self._insert(Reason)
        self._event_sql = self._insert(Event)
        self._evidence_sql = self._insert(Evidence)
        self._unsent_sql = self._insert(Unsent)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, settings: Settings, *, migrate: bool = True) -> Store:
        """Verify (or on first run create) the master key, then migrate, then ready.

        A missing or wrong master key raises ``MasterKeyError`` before anything is
        written or migrated.
        """
        engine = create_engine(settings.database_url)
        keys: Keys | None = None
        try:
            keys = await open_keys(
                settings.master_key_file,
                settings.keystore_url,
                lambda: count_users_in(engine, settings.database_url),
            )
            if migrate:
                prepare_directory(settings.database_url)
                await upgrade_database(engine)
        except BaseException as exc:
            if keys is not None:
                await keys.close()
            await engine.dispose()
            if isinstance(exc, OSError | DBAPIError) and not isinstance(exc, IntegrityError):
                raise StoreUnavailableError(
                    "Cannot reach the database or the key store "
                    f"({safe_url(settings.database_url)}, {safe_url(settings.keystore_url)}): "
                    f"{describe_error(exc)}. Check DATABASE_URL and KEYSTORE_URL, and that the "
                    "database server is running. `nocontact doctor` tells more."
                ) from exc
            raise
        return cls(engine, keys)

    async def close(self) -> None:
        await self._group.drain()
        if self._writer is not None:
            self._writer.close()
        self._ciphers.clear()
        await self._keys.close()
        await self.engine.dispose()

    # ------------------------------------------------------------------ internals
    def _seq(self) -> int:
        """A strictly increasing insertion number (wall-clock nanoseconds)."""
        seq = max(time.time_ns(), self._last_seq + 1)
        self._last_seq = seq
        return seq

    def _cache(self, cipher: RecordCipher) -> None:
        self._ciphers[cipher.user_id] = cipher
        self._ciphers.move_to_end(cipher.user_id)
        while len(self._ciphers) > self._cache_size:
            self._ciphers.popitem(last=False)

    async def _cipher(self, user_id: str) -> RecordCipher:
        cipher = self._ciphers.get(user_id)
        if cipher is not None:
            self._ciphers.move_to_end(user_id)
            return cipher
        epoch = self._destroy_epoch
        cipher = RecordCipher(await self._keys.user_key(user_id), user_id)
        if epoch == self._destroy_epoch:
            self._cache(cipher)
        return cipher

    def connection(self) -> AsyncConnection:
        """A connection for one call's reads (Core statements: no ORM overhead)."""
        return self.engine.connect()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """One transaction for one call's writes.

        On SQLite, writers of this process queue on an asyncio lock instead of polling
        SQLite's busy timeout, which keeps concurrent updates fast.  Other modules that
        write to the data database (e.g. the schedule) should use this too.  Never nest
        it (nor open it while holding another of its connections).
        """
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
        else:
            async with self._write_lock, self.engine.begin() as conn:
                yield conn

    async def _commit_batch(self, batch: Batch) -> None:
        """One group-commit batch in one transaction."""
        if self._writer is not None and self._write_lock is not None:
            async with self._write_lock:
                await self._writer.commit(batch)
            return
        async with self.transaction() as conn:
            for statement, rows in batch:
                await conn.execute(statement, rows)

    def _forget_key(self, user_id: str) -> None:
        self._destroy_epoch += 1
        self._ciphers.pop(user_id, None)
        self._invalidate(user_id)
        for digest in [d for d, u in self._lookups.items() if u == user_id]:
            del self._lookups[digest]

    # ------------------------------------------------------------------ users
    async def find_user(self, telegram_id: int) -> str | None:
        digest = self._keys.lookup.telegram_hash(telegram_id)
        cached = self._lookups.get(digest)
        if cached is not None:
            self._lookups.move_to_end(digest)
            return cached
        async with self.connection() as session:
            user_id = await session.scalar(select(User.id).where(User.tg_hash == digest))
        if user_id is not None:
            self._remember_lookup(digest, user_id)
        return user_id

    def _remember_lookup(self, digest: bytes, user_id: str) -> None:
        """Keep keyed-hash -> user id in memory (never the Telegram id itself)."""
        self._lookups[digest] = user_id
        if len(self._lookups) > LOOKUP_CACHE_SIZE:
            self._lookups.popitem(last=False)

    def _note_write(self, user_id: str) -> None:
        self._write_clock += 1
        self._last_write[user_id] = self._write_clock
        self._last_write.move_to_end(user_id)
        if len(self._last_write) > 4 * CONTEXT_CACHE_SIZE:
            self._last_write.popitem(last=False)

    def _written_since(self, user_id: str, clock: int) -> bool:
        return self._last_write.get(user_id, 0) > clock

    def _invalidate(self, user_id: str) -> None:
        self._note_write(user_id)
        self._contexts.pop(user_id, None)

    def _update_context(
        self, user_id: str, change: Callable[[_CachedContext], _CachedContext]
    ) -> None:
        """After a committed write: apply it to the memory copy, if there is one.
        ``change`` must be idempotent (a read that finished just after the commit may
        already hold the new rows)."""
        self._note_write(user_id)
        cached = self._contexts.get(user_id)
        if cached is not None:
            self._contexts[user_id] = change(cached)

    async def load_context(self, user_id: str) -> UserContext:
        """State, settings, reasons and senders: from memory for a recently active user,
        else with one connection.  Every write of this process keeps the memory copy in
        step (one bot process per database)."""
        cached = self._contexts.get(user_id)
        if cached is not None:
            self._contexts.move_to_end(user_id)
            return cached.to_context()
        clock = self._write_clock
        context = await self._read_context(user_id)
        if not self._written_since(user_id, clock):
            self._contexts[user_id] = _CachedContext(
                state=json.dumps(context.state),
                settings=json.dumps(context.settings),
                reasons=tuple(context.reasons),
                senders=tuple(context.senders),
            )
            if len(self._contexts) > CONTEXT_CACHE_SIZE:
                self._contexts.popitem(last=False)
        return context

    async def _read_context(self, user_id: str) -> UserContext:
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            row = (
                await session.execute(select(User.state, User.settings).where(User.id == user_id))
            ).first()
            if row is None:
                raise UnknownUserError()
            reasons = await self._reason_views(session, cipher)
            bodies = await self._sender_bodies(session, cipher)
        return UserContext(
            state=_doc(cipher, USERS_STATE, row.state, None),
            settings=_doc(cipher, USERS_SETTINGS, row.settings, {}) or {},
            reasons=reasons,
            senders=[_sender_view(row_id, body) for row_id, body in bodies],
        )

    async def ensure_user(self, telegram_id: int, chat_id: int) -> tuple[str, bool]:
        """The user's id, creating the user (and their key) when new."""
        existing = await self.find_user(telegram_id)
        if existing is not None:
            return existing, False
        user_id = new_id()
        data_key = new_data_key()
        cipher = RecordCipher(data_key, user_id)
        await self._keys.new_user_key(user_id, data_key)  # the key is stored first
        try:
            async with self.transaction() as session:
                await session.execute(
                    self._insert(User).values(
                        id=user_id,
                        tg_hash=self._keys.lookup.telegram_hash(telegram_id),
                        chat=cipher.encrypt_int(USERS_CHAT, user_id, chat_id),
                        created_at=_now(),
                    )
                )
        except IntegrityError:
            # Created concurrently by another call: keep theirs, drop our key.
            await self._keys.destroy_user_key(user_id)
            existing = await self.find_user(telegram_id)
            if existing is None:
                raise
            return existing, False
        self._cache(cipher)
        self._remember_lookup(self._keys.lookup.telegram_hash(telegram_id), user_id)
        return user_id, True

    async def chat_id(self, user_id: str) -> int:
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            blob = await session.scalar(select(User.chat).where(User.id == user_id))
        if blob is None:
            raise UnknownUserError()
        return cipher.decrypt_int(USERS_CHAT, user_id, blob)

    async def count_users(self) -> int:
        async with self.connection() as session:
            return int(await session.scalar(select(func.count()).select_from(User)) or 0)

    # ------------------------------------------------------------------ reasons
    @_changes_context
    async def add_reasons(self, user_id: str, texts: Sequence[str]) -> list[str]:
        if not texts:
            return []
        cipher = await self._cipher(user_id)
        rows: list[dict[str, Any]] = []
        for text in texts:
            row_id = new_id()
            rows.append(
                {
                    "id": row_id,
                    "user_id": user_id,
                    "seq": self._seq(),
                    "text": cipher.encrypt_text(REASONS_TEXT, row_id, text),
                }
            )
        await self._group.write(self._reason_sql, rows)
        added = tuple(
            ReasonView(id=str(row["id"]), text=text) for row, text in zip(rows, texts, strict=True)
        )
        self._update_context(
            user_id,
            lambda c: replace(c, reasons=_with(c.reasons, added)),
        )
        return [view.id for view in added]

    async def _reason_views(
        self, session: AsyncConnection, cipher: RecordCipher
    ) -> list[ReasonView]:
        rows = (
            await session.execute(
                select(Reason.id, Reason.text)
                .where(Reason.user_id == cipher.user_id)
                .order_by(Reason.seq)
            )
        ).all()
        return [
            ReasonView(id=row.id, text=cipher.decrypt_text(REASONS_TEXT, row.id, row.text))
            for row in rows
        ]

    async def list_reasons(self, user_id: str) -> list[ReasonView]:
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            return await self._reason_views(session, cipher)

    @_changes_context
    async def delete_reason(self, user_id: str, reason_id: str) -> bool:
        deleted = await self._delete_row(Reason, user_id, reason_id)
        self._update_context(
            user_id,
            lambda c: replace(c, reasons=tuple(r for r in c.reasons if r.id != reason_id)),
        )
        return deleted

    async def _delete_row(
        self, model: type[Reason | Evidence | Unsent], user_id: str, row_id: str
    ) -> bool:
        async with self.transaction() as session:
            result = await session.execute(
                delete(model).where(model.id == row_id, model.user_id == user_id)
            )
        return _affected(result) > 0

    # ------------------------------------------------------------------ state
    async def load_state(self, user_id: str) -> dict[str, Any] | None:
        cached = self._contexts.get(user_id)
        if cached is not None:
            return cached.to_context().state
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            blob = await session.scalar(select(User.state).where(User.id == user_id))
        return _doc(cipher, USERS_STATE, blob, None)

    @_changes_context
    async def save_state(self, user_id: str, state: dict[str, Any] | None) -> None:
        cipher = await self._cipher(user_id)
        text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        blob = None if state is None else cipher.encrypt_text(USERS_STATE, user_id, text)
        await self._group.write(self._save_state_sql, [{"b_id": user_id, "b_state": blob}])
        self._update_context(user_id, lambda c: replace(c, state=text))

    # ------------------------------------------------------------------ settings
    async def get_settings(self, user_id: str) -> dict[str, Any]:
        cached = self._contexts.get(user_id)
        if cached is not None:
            return cached.to_context().settings
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            blob = await session.scalar(select(User.settings).where(User.id == user_id))
        return _doc(cipher, USERS_SETTINGS, blob, {}) or {}

    @_changes_context
    async def update_settings(self, user_id: str, patch: Mapping[str, Any]) -> dict[str, Any]:
        cipher = await self._cipher(user_id)
        async with self.transaction() as session:
            row = (await session.execute(select(User.settings).where(User.id == user_id))).first()
            if row is None:
                raise UnknownUserError()
            current = _doc(cipher, USERS_SETTINGS, row.settings, {}) or {}
            current.update(patch)
            await session.execute(
                update(User)
                .where(User.id == user_id)
                .values(settings=cipher.encrypt_json(USERS_SETTINGS, user_id, current))
            )
        text = json.dumps(current)
        self._update_context(user_id, lambda c: replace(c, settings=text))
        return current

    # ------------------------------------------------------------------ events
    async def log_event(
        self, user_id: str, kind: str, data: Mapping[str, Any], at: datetime
    ) -> str:
        cipher = await self._cipher(user_id)
        row_id = new_id()
        body = cipher.encrypt_json(EVENTS_BODY, row_id, {"kind": kind, "data": dict(data)})
        await self._group.write(
            self._event_sql,
            [{"id": row_id, "user_id": user_id, "at": at, "seq": self._seq(), "body": body}],
        )
        return row_id

    async def list_events(self, user_id: str, since: datetime | None = None) -> list[EventView]:
        cipher = await self._cipher(user_id)
        query = select(Event.id, Event.at, Event.body).where(Event.user_id == user_id)
        if since is not None:
            query = query.where(Event.at >= since)
        async with self.connection() as session:
            rows = (await session.execute(query.order_by(Event.at, Event.seq))).all()
        views = []
        for row in rows:
            body = cipher.decrypt_json(EVENTS_BODY, row.id, row.body)
            views.append(EventView(at=row.at, kind=str(body["kind"]), data=body["data"]))
        return views

    # ------------------------------------------------------------------ evidence
    async def add_evidence(
        self,
        user_id: str,
        *,
        kind: str,
        text: str,
        sender: str,
        original_at: datetime | None,
        tactics: Sequence[str],
        danger: Sequence[str],
        note: str,
        at: datetime,
    ) -> str:
        cipher = await self._cipher(user_id)
        row_id = new_id()
        body = {
            "kind": kind,
            "text": text,
            "sender": sender,
            "original_at": _iso(original_at),
            "tactics": list(tactics),
            "danger": list(danger),
            "note": note,
        }
        await self._group.write(
            self._evidence_sql,
            [
                {
                    "id": row_id,
                    "user_id": user_id,
                    "created_at": at,
                    "seq": self._seq(),
                    "body": cipher.encrypt_json(EVIDENCE_BODY, row_id, body),
                }
            ],
        )
        return row_id

    async def _evidence_bodies(self, user_id: str) -> list[tuple[str, datetime, dict[str, Any]]]:
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            rows = (
                await session.execute(
                    select(Evidence.id, Evidence.created_at, Evidence.body)
                    .where(Evidence.user_id == user_id)
                    .order_by(Evidence.created_at, Evidence.seq)
                )
            ).all()
        return [
            (row.id, row.created_at, cipher.decrypt_json(EVIDENCE_BODY, row.id, row.body))
            for row in rows
        ]

    async def list_evidence(self, user_id: str) -> list[EvidenceView]:
        return [
            evidence_view(row_id, created_at, body)
            for row_id, created_at, body in await self._evidence_bodies(user_id)
        ]

    async def delete_evidence(self, user_id: str, evidence_id: str) -> bool:
        return await self._delete_row(Evidence, user_id, evidence_id)

    # ------------------------------------------------------------------ unsent messages
    @_changes_context
    async def add_unsent(self, user_id: str, text: str, at: datetime) -> str:
        cipher = await self._cipher(user_id)
        row_id = new_id()
        await self._group.write(
            self._unsent_sql,
            [
                {
                    "id": row_id,
                    "user_id": user_id,
                    "created_at": at,
                    "seq": self._seq(),
                    "text": cipher.encrypt_text(UNSENT_TEXT, row_id, text),
                }
            ],
        )
        added = (UnsentView(id=row_id, text=text, created_at=at),)

        def change(c: _CachedContext) -> _CachedContext:
            if c.unsent is None:
                return c
            ordered = sorted(_with(c.unsent, added), key=lambda u: u.created_at)
            return replace(c, unsent=tuple(ordered))

        self._update_context(user_id, change)
        return row_id

    async def list_unsent(self, user_id: str) -> list[UnsentView]:
        """Oldest first; kept with the memory copy of the context once read."""
        cached = self._contexts.get(user_id)
        if cached is not None and cached.unsent is not None:
            return list(cached.unsent)
        clock = self._write_clock
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            rows = (
                await session.execute(
                    select(Unsent.id, Unsent.created_at, Unsent.text)
                    .where(Unsent.user_id == user_id)
                    .order_by(Unsent.created_at, Unsent.seq)
                )
            ).all()
        views = [
            UnsentView(
                id=row.id,
                text=cipher.decrypt_text(UNSENT_TEXT, row.id, row.text),
                created_at=row.created_at,
            )
            for row in rows
        ]
        cached = self._contexts.get(user_id)
        if cached is not None and not self._written_since(user_id, clock):
            self._contexts[user_id] = replace(cached, unsent=tuple(views))
        return views

    @_changes_context
    async def delete_unsent(self, user_id: str, unsent_id: str) -> bool:
        deleted = await self._delete_row(Unsent, user_id, unsent_id)

        def change(c: _CachedContext) -> _CachedContext:
            if c.unsent is None:
                return c
            return replace(c, unsent=tuple(u for u in c.unsent if u.id != unsent_id))

        self._update_context(user_id, change)
        return deleted

    # ------------------------------------------------------------------ senders
    async def _sender_bodies(
        self, session: AsyncConnection, cipher: RecordCipher
    ) -> list[tuple[str, dict[str, Any]]]:
        rows = (
            await session.execute(
                select(Sender.id, Sender.body)
                .where(Sender.user_id == cipher.user_id)
                .order_by(Sender.seq)
            )
        ).all()
        return [(row.id, cipher.decrypt_json(SENDERS_BODY, row.id, row.body)) for row in rows]

    async def list_senders(self, user_id: str) -> list[SenderView]:
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            bodies = await self._sender_bodies(session, cipher)
        return [_sender_view(row_id, body) for row_id, body in bodies]

    @_changes_context
    async def _change_sender(
        self, user_id: str, label: str, at: datetime, *, relay: bool
    ) -> SenderView:
        cipher = await self._cipher(user_id)
        wanted = _label_key(label)
        async with self.transaction() as session:
            found = next(
                (
                    (row_id, body)
                    for row_id, body in await self._sender_bodies(session, cipher)
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
                body["last_relay_at"] = _iso(at)
                if body.get("asked_to_stop_at") is not None:
                    body["relays_since_asked"] = int(body.get("relays_since_asked", 0)) + 1
            else:
                body["asked_to_stop_at"] = _iso(at)
                body["relays_since_asked"] = 0
            blob = cipher.encrypt_json(SENDERS_BODY, row_id, body)
            if found is None:
                await session.execute(
                    self._insert(Sender).values(
                        id=row_id, user_id=user_id, seq=self._seq(), body=blob
                    )
                )
            else:
                await session.execute(update(Sender).where(Sender.id == row_id).values(body=blob))
        view = _sender_view(row_id, body)

        def change(c: _CachedContext) -> _CachedContext:
            if any(s.id == row_id for s in c.senders):
                return replace(c, senders=tuple(view if s.id == row_id else s for s in c.senders))
            return replace(c, senders=(*c.senders, view))

        self._update_context(user_id, change)
        return view

    async def record_relay(self, user_id: str, label: str, at: datetime) -> SenderView:
        """Count one relayed message from ``label`` (matched case-insensitively)."""
        return await self._change_sender(user_id, label, at, relay=True)

    async def mark_asked_to_stop(self, user_id: str, label: str, at: datetime) -> SenderView:
        """Remember that the user asked ``label`` to stop; later relays count from now."""
        return await self._change_sender(user_id, label, at, relay=False)

    # ------------------------------------------------------------------ chat messages
    async def remember_messages(
        self,
        user_id: str,
        message_ids: Sequence[int],
        at: datetime,
        delete_after: datetime | None = None,
    ) -> None:
        """Remember chat message ids for /hide; ``delete_after`` schedules auto-delete."""
        if not message_ids:
            return
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
        await self._group.write(self._remember_sql, rows)

    async def messages_to_hide(self, user_id: str) -> list[int]:
        await self._group.drain()
        async with self.connection() as session:
            ids = await session.scalars(
                select(ChatMessage.message_id)
                .where(ChatMessage.user_id == user_id)
                .order_by(ChatMessage.message_id)
            )
            return list(ids)

    async def messages_due_for_deletion(
        self, now: datetime, limit: int = 1000
    ) -> dict[str, list[int]]:
        """Chat messages whose auto-delete time has come, by user."""
        await self._group.drain()
        async with self.connection() as session:
            rows = await session.execute(
                select(ChatMessage.user_id, ChatMessage.message_id)
                .where(ChatMessage.delete_after.is_not(None), ChatMessage.delete_after <= now)
                .order_by(ChatMessage.delete_after)
                .limit(limit)
            )
            due: dict[str, list[int]] = {}
            for user_id, message_id in rows:
                due.setdefault(user_id, []).append(int(message_id))
            return due

    async def forget_messages(self, user_id: str, message_ids: Sequence[int]) -> None:
        await self._group.drain()
        if not message_ids:
            return
        async with self.transaction() as session:
            await session.execute(
                delete(ChatMessage).where(
                    ChatMessage.user_id == user_id,
                    ChatMessage.message_id.in_([int(mid) for mid in message_ids]),
                )
            )

    # ------------------------------------------------------------------ export & wipe
    async def export_user(self, user_id: str) -> dict[str, Any]:
        """Everything stored for the user, decrypted, as JSON-compatible data."""
        cipher = await self._cipher(user_id)
        async with self.connection() as session:
            user = (
                await session.execute(
                    select(User.created_at, User.state, User.settings).where(User.id == user_id)
                )
            ).first()
        if user is None:
            raise UnknownUserError()
        settings = _doc(cipher, USERS_SETTINGS, user.settings, {}) or {}
        state = _doc(cipher, USERS_STATE, user.state, None)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": _iso(_now()),
            "user_since": _iso(user.created_at),
            "settings": settings,
            "flow_state": state,
            "reasons": [{"id": r.id, "text": r.text} for r in await self.list_reasons(user_id)],
            "events": [
                {"at": _iso(e.at), "kind": e.kind, "data": dict(e.data)}
                for e in await self.list_events(user_id)
            ],
            "evidence": [
                {"id": row_id, "saved_at": _iso(created_at), **body}
                for row_id, created_at, body in await self._evidence_bodies(user_id)
            ],
            "unsent": [
                {"id": u.id, "written_at": _iso(u.created_at), "text": u.text}
                for u in await self.list_unsent(user_id)
            ],
            "senders": [
                {
                    "id": s.id,
                    "label": s.label,
                    "asked_to_stop_at": _iso(s.asked_to_stop_at),
                    "relays_since_asked": s.relays_since_asked,
                    "relays_total": s.relays_total,
                }
                for s in await self.list_senders(user_id)
            ],
        }

    async def destroy_user_key(self, user_id: str) -> None:
        """Crypto-shred: delete the user's key so their rows can never be read again."""
        self._forget_key(user_id)
        await self._keys.destroy_user_key(user_id)
        self._forget_key(user_id)

    async def wipe_user(self, user_id: str) -> None:
        """Destroy the key first (committed), then delete every row of the user."""
        await self.destroy_user_key(user_id)
        async with self.transaction() as session:
            for model in USER_TABLES:
                await session.execute(delete(model).where(model.user_id == user_id))
            await session.execute(delete(User).where(User.id == user_id))
        # a concurrent update may have looked the user up (and cached them) meanwhile
        self._forget_key(user_id)
