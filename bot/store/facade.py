"""The encrypted per-user store: the only way ``bot/`` reads or writes user data.

Callers pass and get plain Python values; every cell is sealed with the user's own
data key (``bot.crypto.cells``) bound to its user, table, column and row.  The
:class:`Store` composes the parts and adds nothing of its own but their order:

* ``bot.store.access`` - connections, transactions and the group commit;
* ``bot.store.repos`` - one repository per table (SQL and encryption only);
* ``bot.store.cache`` - unwrapped user keys, Telegram-id lookups and the decrypted
  context of recently active users, kept in step with every write here;
* ``bot.store.export`` - the typed export and its JSON;
* ``bot.crypto.keys`` - the master key, the key store and the lookup key.

``sessions`` (an ``async_sessionmaker``) is there for ORM users.

Errors: :class:`UnknownUserError` when a user id has no row, ``UserKeyMissingError``
(``bot.crypto.keys``) when the user's key was destroyed, ``DecryptionError`` (``bot.crypto.cells``)
when a cell was damaged or moved.  None of them carries user data.

(Over 400 lines on purpose: this is the whole public face of the store, some thirty
methods of one to five lines each; the work is in the modules above.)
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from bot.config import Settings
from bot.crypto.cells import RecordCipher, new_data_key
from bot.crypto.keys import Keys, open_keys
from bot.crypto.pins import PinHasher
from bot.store.access import Database
from bot.store.cache import (
    DEFAULT_KEY_CACHE_SIZE,
    CipherCache,
    ContextCache,
    LookupCache,
    UserContext,
)
from bot.store.db import (
    create_engine,
    describe_error,
    prepare_directory,
    safe_url,
    upgrade_database,
)
from bot.store.errors import StoreUnavailableError, UnknownUserError
from bot.store.export import EvidenceRecord, MediaFile, UserExport, to_document
from bot.store.models import new_id
from bot.store.repos.chat_messages import ChatMessagesRepo
from bot.store.repos.events import EventsRepo
from bot.store.repos.evidence import EvidenceRepo
from bot.store.repos.media import MediaRepo, StoredMedia, ending_for
from bot.store.repos.reasons import ReasonsRepo
from bot.store.repos.senders import SendersRepo
from bot.store.repos.unsent import UnsentRepo
from bot.store.repos.users import UpdateMarks, UsersRepo, count_users_in
from flows.settings import SettingsPatch, UserSettings
from flows.types import EventView, EvidenceView, ReasonView, SenderView, UnsentView

__all__ = ["Store", "StoreUnavailableError", "UnknownUserError", "UserContext", "count_users_in"]

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


def _now() -> datetime:
    return datetime.now(UTC)


#: connections beyond one per concurrent update: the check-in workers (at most 16), the
#: group commit, the auto-delete sweep
POOL_EXTRA = 20


def pool_size(settings: Settings) -> int:
    """Connections the data database's pool keeps (PostgreSQL): DATABASE_POOL_SIZE, or as
    many as the bot can use at once, so that none is made and closed per update."""
    return settings.database_pool_size or settings.concurrent_updates + POOL_EXTRA


class Store:
    """The repository.  Open with :meth:`Store.open`, close with :meth:`close`."""

    def __init__(
        self,
        engine: AsyncEngine,
        keys: Keys,
        *,
        key_cache_size: int = DEFAULT_KEY_CACHE_SIZE,
    ) -> None:
        self.db = Database(engine)
        self.engine = engine
        self.sessions: async_sessionmaker[AsyncSession] = self.db.sessions
        self._keys = keys
        #: PIN hashes, peppered with a secret from the key store (``bot.crypto.pins``)
        self.pins = PinHasher(keys.lookup.derive("pin-pepper"))
        self._ciphers = CipherCache(keys.user_key, key_cache_size)
        self._lookups = LookupCache()
        self._contexts = ContextCache()
        self._users = UsersRepo(self.db)
        self._reasons = ReasonsRepo(self.db)
        self._events = EventsRepo(self.db)
        self._evidence = EvidenceRepo(self.db)
        self._media = MediaRepo(self.db)
        self._unsent = UnsentRepo(self.db)
        self._senders = SendersRepo(self.db)
        self._messages = ChatMessagesRepo(self.db)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, settings: Settings, *, migrate: bool = True) -> Store:
        """Verify (or on first run create) the master key, then migrate, then ready.

        A missing or wrong master key raises ``MasterKeyError`` before anything is
        written or migrated.
        """
        engine = create_engine(
            settings.database_url, pool_size=pool_size(settings), ssl=settings.database_ssl
        )
        keys: Keys | None = None
        try:
            keys = await open_keys(
                settings.master_key_file,
                settings.keystore_url,
                lambda: count_users_in(engine, settings.database_url),
                database_label=safe_url(settings.database_url),
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
        await self.db.close()
        self._ciphers.clear()
        await self._keys.close()

    def connection(self) -> AsyncConnection:
        """A connection for one call's reads (Core statements: no ORM overhead)."""
        return self.db.connection()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """One transaction for one call's writes (see ``Database.transaction``)."""
        async with self.db.transaction() as conn:
            yield conn

    @asynccontextmanager
    async def unit(self, user_id: str) -> AsyncIterator[None]:
        """The user's turn: the writes of this task inside, for ``user_id``, committed
        together when it ends (see ``Database.unit``): a conversation step's new rows,
        settings, deletes, relay counts and schedule changes, and its new state, are
        stored together or not at all.  The user's units run one at a time, so two
        updates of one user never interleave.  If it fails, the user's memory copy is
        dropped (it already held the writes that were not stored)."""
        try:
            async with self.db.unit(user_id):
                yield
        except BaseException:
            self._invalidate(user_id)
            raise

    # ------------------------------------------------------------------ internals
    async def _cipher(self, user_id: str) -> RecordCipher:
        return await self._ciphers.get(user_id)

    def _invalidate(self, user_id: str) -> None:
        self._contexts.invalidate(user_id)

    def _forget(self, user_id: str) -> None:
        """Forget the user in every memory cache (their key is being destroyed)."""
        self._ciphers.forget(user_id)
        self._contexts.invalidate(user_id)
        self._lookups.forget(user_id)

    # ------------------------------------------------------------------ users
    async def find_user(self, telegram_id: int) -> str | None:
        digest = self._keys.lookup.telegram_hash(telegram_id)
        cached = self._lookups.get(digest)
        if cached is not None:
            return cached
        user_id = await self._users.find(digest)
        if user_id is not None:
            self._lookups.remember(digest, user_id)
        return user_id

    async def ensure_user(self, telegram_id: int, chat_id: int) -> tuple[str, bool]:
        """The user's id, creating the user (and their key) when new."""
        existing = await self.find_user(telegram_id)
        if existing is not None:
            return existing, False
        user_id = new_id()
        data_key = new_data_key()
        cipher = RecordCipher(data_key, user_id)
        await self._keys.new_user_key(user_id, data_key)  # the key is stored first
        digest = self._keys.lookup.telegram_hash(telegram_id)
        try:
            await self._users.create(cipher, digest, chat_id, _now())
        except IntegrityError:
            # Created concurrently by another call: keep theirs, drop our key.
            await self._keys.destroy_user_key(user_id)
            existing = await self.find_user(telegram_id)
            if existing is None:
                raise
            return existing, False
        self._ciphers.put(cipher)
        self._lookups.remember(digest, user_id)
        return user_id, True

    async def chat_id(self, user_id: str) -> int:
        return await self._users.chat_id(await self._cipher(user_id))

    async def count_users(self) -> int:
        return await self._users.count()

    # ------------------------------------------------------------------ the context
    async def load_context(self, user_id: str) -> UserContext:
        """State, settings, reasons and senders: from memory for a recently active user,
        else with one connection.  Every write of this process keeps the memory copy in
        step (one bot process per database)."""
        cached = self._contexts.use(user_id)
        if cached is not None:
            return cached
        clock = self._contexts.clock
        context = await self._read_context(user_id)
        self._contexts.keep(user_id, context, clock)
        return context

    async def _read_context(self, user_id: str) -> UserContext:
        cipher = await self._cipher(user_id)
        async with self.db.connection() as conn:
            docs = await self._users.documents(cipher, conn)
            reasons = await self._reasons.read(conn, cipher)
            senders = await self._senders.read(conn, cipher)
        return UserContext(
            state=docs.state, settings=docs.settings, reasons=reasons, senders=senders
        )

    # ------------------------------------------------------------------ state and settings
    async def load_state(self, user_id: str) -> dict[str, object] | None:
        cached = self._contexts.peek(user_id)
        if cached is not None:
            return cached.to_context().state
        return await self._users.state(await self._cipher(user_id))

    @_changes_context
    async def save_state(
        self,
        user_id: str,
        state: dict[str, object] | None,
        of_update: tuple[int, datetime] | None = None,
    ) -> None:
        """``of_update``: (update_id, when) of the Telegram update whose step this is,
        stored in the same write (``bot.engine.replays``)."""
        text = await self._users.save_state(await self._cipher(user_id), state, of_update)
        self._contexts.state_saved(user_id, text)

    # ------------------------------------------------------------------ updates handled
    async def update_marks(self, user_id: str) -> UpdateMarks | None:
        """The newest update whose step is stored, and whose answer was sent."""
        await self.db.drain()
        return await self._users.update_marks(user_id)

    async def newest_update(self, since: datetime) -> int | None:
        """The newest update id stored with a step at or after ``since`` (any user)."""
        await self.db.drain()
        return await self._users.newest_update(since)

    async def mark_answered(self, user_id: str, update_id: int) -> None:
        """The answer to the step of ``update_id`` was sent."""
        await self._users.answered(user_id, update_id)

    async def get_settings(self, user_id: str) -> UserSettings:
        cached = self._contexts.peek(user_id)
        if cached is not None:
            return cached.to_context().settings
        return await self._users.settings(await self._cipher(user_id))

    @_changes_context
    async def update_settings(self, user_id: str, patch: SettingsPatch) -> UserSettings:
        current = await self._users.update_settings(await self._cipher(user_id), patch)
        self._contexts.settings_saved(user_id, current)
        return current

    # ------------------------------------------------------------------ reasons
    @_changes_context
    async def add_reasons(self, user_id: str, texts: Sequence[str]) -> list[str]:
        if not texts:
            return []
        added = await self._reasons.add(await self._cipher(user_id), texts)
        self._contexts.reasons_added(user_id, added)
        return [view.id for view in added]

    async def list_reasons(self, user_id: str) -> list[ReasonView]:
        return await self._reasons.list(await self._cipher(user_id))

    @_changes_context
    async def delete_reason(self, user_id: str, reason_id: str) -> bool:
        deleted = await self._reasons.delete(user_id, reason_id)
        self._contexts.reason_deleted(user_id, reason_id)
        return deleted

    # ------------------------------------------------------------------ events
    async def log_event(
        self, user_id: str, kind: str, data: Mapping[str, Any], at: datetime
    ) -> str:
        return await self._events.add(await self._cipher(user_id), kind, data, at)

    async def list_events(self, user_id: str, since: datetime | None = None) -> list[EventView]:
        return await self._events.list(await self._cipher(user_id), since)

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
        felt: str | None = None,
        details: Sequence[tuple[str, str]] = (),
        channel: str | None = None,
        media: Sequence[Mapping[str, Any]] = (),
        evidence_id: str | None = None,
    ) -> str:
        """Save one evidence item; ``channel`` (a forward's keyed origin) is sealed in its
        body with the rest; ``media`` lists the files written for it first
        (:meth:`store_media`, with ``evidence_id``)."""
        return await self._evidence.add(
            await self._cipher(user_id),
            kind=kind,
            text=text,
            sender=sender,
            original_at=original_at,
            tactics=tactics,
            danger=danger,
            note=note,
            at=at,
            felt=felt,
            details=details,
            channel=channel,
            media=media,
            row_id=evidence_id,
        )

    async def keyed_reference(self, user_id: str, purpose: str, value: str) -> str:
        """The user's keyed reference to ``value`` (``RecordCipher.reference``); ``value``
        itself is neither stored nor kept."""
        return (await self._cipher(user_id)).reference(purpose, value)

    async def list_evidence(self, user_id: str) -> list[EvidenceView]:
        return [record.item for record in await self._evidence.list(await self._cipher(user_id))]

    async def update_evidence(
        self,
        user_id: str,
        evidence_id: str,
        *,
        text: str | None = None,
        tactics: Sequence[str] | None = None,
        danger: Sequence[str] | None = None,
        felt: str | None = None,
    ) -> bool:
        """Change a saved item: the words read from its picture, what they were found to
        say, the user's answer to the fear question (None: left as it is).  False when
        the user has no such item."""
        changes: dict[str, Any] = {}
        if text is not None:
            changes["text"] = text
        if tactics is not None:
            changes["tactics"] = list(tactics)
        if danger is not None:
            changes["danger"] = list(danger)
        if felt is not None:
            changes["felt"] = felt
        if not changes:
            return True
        return await self._evidence.update(await self._cipher(user_id), evidence_id, changes)

    async def delete_evidence(self, user_id: str, evidence_id: str) -> bool:
        await self._media.delete_for(user_id, evidence_id)
        return await self._evidence.delete(user_id, evidence_id)

    # ------------------------------------------------------------------ media files
    @staticmethod
    def new_evidence_id() -> str:
        """An id for an item whose files are written before it (:meth:`store_media`)."""
        return new_id()

    async def store_media(
        self, user_id: str, evidence_id: str, pieces: AsyncIterable[bytes], limit: int
    ) -> StoredMedia:
        """Encrypt and keep a file as its ``pieces`` arrive (memory stays bounded; no
        plaintext touches a disk).  More than ``limit`` bytes: ``MediaTooLargeError``."""
        return await self._media.write(await self._cipher(user_id), evidence_id, pieces, limit)

    async def media_content(self, user_id: str, evidence_id: str, media_id: str) -> bytes:
        """A kept file, decrypted (``DecryptionError`` if any piece was changed or lost)."""
        return await self._media.content(await self._cipher(user_id), evidence_id, media_id)

    async def media_used(self, user_id: str) -> int:
        """Bytes the user's kept files take (for the quota)."""
        return await self._media.used(user_id)

    async def forget_media(self, user_id: str, media_id: str) -> None:
        """Delete a file whose item was not saved after all."""
        await self._media.delete_media(user_id, media_id)

    # ------------------------------------------------------------------ unsent messages
    @_changes_context
    async def add_unsent(self, user_id: str, text: str, at: datetime) -> str:
        added = await self._unsent.add(await self._cipher(user_id), text, at)
        self._contexts.unsent_added(user_id, added)
        return added.id

    async def list_unsent(self, user_id: str) -> list[UnsentView]:
        """Oldest first; kept with the memory copy of the context once read."""
        cached = self._contexts.peek(user_id)
        if cached is not None and cached.unsent is not None:
            return list(cached.unsent)
        clock = self._contexts.clock
        views = await self._unsent.list(await self._cipher(user_id))
        self._contexts.keep_unsent(user_id, views, clock)
        return views

    @_changes_context
    async def delete_unsent(self, user_id: str, unsent_id: str) -> bool:
        deleted = await self._unsent.delete(user_id, unsent_id)
        self._contexts.unsent_deleted(user_id, unsent_id)
        return deleted

    # ------------------------------------------------------------------ senders
    async def list_senders(self, user_id: str) -> list[SenderView]:
        return await self._senders.list(await self._cipher(user_id))

    @_changes_context
    async def _change_sender(
        self, user_id: str, label: str, at: datetime, *, relay: bool
    ) -> SenderView:
        view = await self._senders.change(await self._cipher(user_id), label, at, relay=relay)
        self._contexts.sender_changed(user_id, view)
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
        await self._messages.remember(user_id, message_ids, at, delete_after)

    async def messages_to_hide(self, user_id: str, since: datetime | None = None) -> list[int]:
        """The user's chat messages (remembered at or after ``since``, if given)."""
        await self.db.drain()
        return await self._messages.of_user(user_id, since)

    async def messages_due_for_deletion(
        self, now: datetime, since: datetime | None = None, limit: int = 1000
    ) -> dict[str, list[int]]:
        """Chat messages whose auto-delete time has come (remembered at or after
        ``since``, if given), by user."""
        await self.db.drain()
        return await self._messages.due(now, since, limit)

    async def forget_messages_before(self, before: datetime) -> int:
        """Forget every chat message remembered before ``before`` (of every user)."""
        await self.db.drain()
        return await self._messages.forget_before(before)

    async def forget_messages(self, user_id: str, message_ids: Sequence[int]) -> None:
        await self.db.drain()
        if not message_ids:
            return
        await self._messages.forget(user_id, message_ids)

    # ------------------------------------------------------------------ export & wipe
    async def export(self, user_id: str) -> UserExport:
        """Everything stored for the user, decrypted, as typed views."""
        cipher = await self._cipher(user_id)
        docs = await self._users.documents(cipher)
        return UserExport(
            exported_at=_now(),
            user_since=docs.created_at,
            settings=docs.settings.to_json(),
            flow_state=docs.state,
            reasons=tuple(await self.list_reasons(user_id)),
            events=tuple(await self.list_events(user_id)),
            evidence=tuple(
                [await self._with_media(cipher, r) for r in await self._evidence.list(cipher)]
            ),
            unsent=tuple(await self.list_unsent(user_id)),
            senders=tuple(await self.list_senders(user_id)),
        )

    async def _with_media(self, cipher: RecordCipher, record: EvidenceRecord) -> EvidenceRecord:
        """The record with its files' content, decrypted (for the export)."""
        files = [
            MediaFile(
                kind=m.kind,
                ending=ending_for(m.kind, m.mime),
                content=await self._media.content(cipher, record.item.id, m.id),
                duration=m.duration,
            )
            for m in record.item.media
        ]
        return replace(record, media=tuple(files)) if files else record

    async def export_user(self, user_id: str) -> dict[str, Any]:
        """Everything stored for the user, decrypted, as JSON-compatible data."""
        return to_document(await self.export(user_id))

    async def destroy_user_key(self, user_id: str) -> None:
        """Crypto-shred: delete the user's key so their rows can never be read again."""
        self._forget(user_id)
        await self._keys.destroy_user_key(user_id)
        self._forget(user_id)

    async def wipe_user(self, user_id: str) -> None:
        """Destroy the key first (committed), then delete every row of the user; a step
        of the user still being committed (another update) is waited for first."""
        async with self.db.alone(user_id):
            await self.destroy_user_key(user_id)
            await self._users.delete(user_id)
        # on SQLite: no copy of the deleted rows stays in the -wal file
        await self.db.checkpoint()
        # a concurrent update may have looked the user up (and cached them) meanwhile
        self._forget(user_id)
