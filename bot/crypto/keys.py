"""Master key ring, key store, key wrapping and the Telegram-id lookup key.

Envelope encryption
-------------------
* Every user gets a random 256-bit **data key** (``bot.crypto.cells``).  It is stored only
  *wrapped* (AES-256-GCM) by a **master key**, in the **key store** - a database of its
  own (``KEYSTORE_URL``; by default ``keys.db`` next to the data).  Destroying a user's
  wrapped key therefore shreds that user's rows in every copy of the data database.
* The master keys live in a **ring file** (``MASTER_KEY_FILE``, JSON, mode 0600): key id
  -> 32 random bytes, one of them *primary* (used to wrap new keys) and at most one
  *pending* (being rotated in).  Older keys stay in the ring so nothing wrapped by them
  is ever lost.  The ring never touches either database.
* Users are found by ``HMAC-SHA256(lookup secret, telegram id)``.  The lookup secret is
  32 random bytes made at first run and stored in the key store wrapped by the master
  key, so rotation re-wraps it and never touches data rows.
* For each master key the key store keeps a **check value** (an HMAC of a constant under
  that key).  Start-up compares the ring with those check values *before* any write or
  migration: a missing or wrong key stops with :class:`MasterKeyError` and changes
  nothing.

Key store schema
----------------
The key store does not use Alembic: it is four small tables prefixed ``keystore_``
(so it may even share a database with the data), created with ``create_all`` and
versioned by the ``schema_version`` row of ``keystore_meta``.  A future change bumps
``KEYSTORE_SCHEMA_VERSION`` and adds an upgrade step in :meth:`KeyStore.initialize`;
a key store made by a newer version is refused.

Rotation
--------
:func:`rotate_master_key` adds a new key to the ring as *pending* (file written first),
registers its check value and records it as the rotation target in the key store,
re-wraps user keys in committed batches, re-wraps the lookup secret, makes the new key
primary in the file and finally clears the target.  Re-running after an interruption
finds the target (or the pending key) and finishes the same rotation.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import os
import secrets
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import (
    LargeBinary,
    MetaData,
    String,
    delete,
    func,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from bot.config import ConfigError
from bot.crypto.cells import KEY_BYTES, NONCE_BYTES, TAG_BYTES
from bot.store.db import (
    create_engine,
    create_sessionmaker,
    database_file_missing,
    ensure_private_dir,
    is_sqlite,
    prepare_directory,
    safe_url,
)
from bot.store.models import UTCDateTime

log = logging.getLogger(__name__)

RING_FORMAT = "nocontact-master-key-ring"
RING_VERSION = 1
KEYSTORE_SCHEMA_VERSION = 1
WRAP_VERSION = 1
LOOKUP_SECRET = "lookup"
_CHECK_CONSTANT = b"nocontact/master-key-check/v1"
_RING_NOTE = (
    "The master key of this nocontact bot. Back this file up somewhere safe and separate "
    "from the database. Without it nobody, including you, can read the stored data; with "
    "it and a copy of the key store, anyone can."
)


class MasterKeyError(ConfigError):
    """The master key is missing, wrong, or does not belong to this key store."""


class UserKeyMissingError(LookupError):
    """A user's data key is gone (destroyed by /wipe), so their rows cannot be read."""

    def __init__(self) -> None:
        super().__init__("this user's data key is gone; their stored data cannot be read")


# --------------------------------------------------------------------------- wrapping
def _part(value: str) -> bytes:
    raw = value.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


def _wrap_ad(purpose: str, key_id: str, subject: str) -> bytes:
    return (
        b"nocontact/wrap"
        + bytes([WRAP_VERSION])
        + _part(purpose)
        + _part(key_id)
        + (_part(subject))
    )


def _now() -> datetime:
    return datetime.now(UTC)


# --------------------------------------------------------------------------- the ring
@dataclass(frozen=True)
class MasterKeyRing:
    """The master keys from the ring file.  Immutable; ``save()`` writes it back."""

    path: Path
    primary: str
    keys: Mapping[str, bytes]
    pending: str | None = None
    created: Mapping[str, str] = field(default_factory=dict)

    # ------------------------------------------------------------------ file
    @classmethod
    def load(cls, path: Path) -> MasterKeyRing | None:
        """Read the ring file; None when it does not exist."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise MasterKeyError(
                f"The master key file {path} cannot be read ({exc.strerror}). "
                "Check its permissions: the user running the bot must be able to read it."
            ) from None
        broken = MasterKeyError(
            f"The master key file {path} is damaged or is not a nocontact master key file. "
            "Nothing was changed. Restore it from your backup."
        )
        try:
            doc = json.loads(raw)
            if doc.get("format") != RING_FORMAT:
                raise broken
            if doc.get("version") != RING_VERSION:
                raise MasterKeyError(
                    f"The master key file {path} has format version {doc.get('version')}, "
                    "which this version of nocontact does not understand. Upgrade nocontact."
                )
            keys: dict[str, bytes] = {}
            created: dict[str, str] = {}
            for key_id, entry in doc["keys"].items():
                key = base64.b64decode(entry["key"], validate=True)
                if len(key) != KEY_BYTES:
                    raise broken
                keys[str(key_id)] = key
                created[str(key_id)] = str(entry.get("created", ""))
            primary = str(doc["primary"])
            pending = doc.get("pending")
        except (ValueError, KeyError, TypeError, AttributeError, binascii.Error):
            raise broken from None
        if primary not in keys or (pending is not None and pending not in keys):
            raise broken
        return cls(path=path, primary=primary, keys=keys, pending=pending, created=created)

    @classmethod
    def generate(cls, path: Path) -> MasterKeyRing:
        key_id = new_key_id()
        return cls(
            path=path,
            primary=key_id,
            keys={key_id: os.urandom(KEY_BYTES)},
            created={key_id: _now().isoformat(timespec="seconds")},
        )

    def to_json(self) -> str:
        doc = {
            "format": RING_FORMAT,
            "version": RING_VERSION,
            "note": _RING_NOTE,
            "primary": self.primary,
            "pending": self.pending,
            "keys": {
                key_id: {
                    "key": base64.b64encode(key).decode("ascii"),
                    "created": self.created.get(key_id, ""),
                }
                for key_id, key in self.keys.items()
            },
        }
        return json.dumps(doc, indent=2) + "\n"

    def save(self) -> None:
        """Write the ring atomically with mode 0600 (readable by the owner only)."""
        ensure_private_dir(self.path.parent)
        tmp = self.path.with_name(f".{self.path.name}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(self.to_json())
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        dir_fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    # ------------------------------------------------------------------ changes
    def with_pending(self, key_id: str, key: bytes) -> MasterKeyRing:
        keys = {**self.keys, key_id: key}
        created = {**self.created, key_id: _now().isoformat(timespec="seconds")}
        return replace(self, keys=keys, pending=key_id, created=created)

    def promote(self, key_id: str) -> MasterKeyRing:
        return replace(self, primary=key_id, pending=None)

    # ------------------------------------------------------------------ crypto
    def check_value(self, key_id: str) -> bytes:
        return hmac.digest(self.keys[key_id], _CHECK_CONSTANT + key_id.encode(), hashlib.sha256)

    def wrap(
        self, secret: bytes, *, purpose: str, subject: str, key_id: str | None = None
    ) -> tuple[str, bytes]:
        """Encrypt ``secret`` under master key ``key_id`` (default: the primary)."""
        key_id = key_id or self.primary
        nonce = os.urandom(NONCE_BYTES)
        blob = AESGCM(self.keys[key_id]).encrypt(nonce, secret, _wrap_ad(purpose, key_id, subject))
        return key_id, bytes([WRAP_VERSION]) + nonce + blob

    def unwrap(self, key_id: str, wrapped: bytes, *, purpose: str, subject: str) -> bytes:
        key = self.keys.get(key_id)
        if key is None:
            raise MasterKeyError(
                f"A key in the key store is wrapped by master key {key_id}, which is not in "
                f"{self.path}. Restore the master key file from your backup."
            )
        if len(wrapped) < 1 + NONCE_BYTES + TAG_BYTES or wrapped[0] != WRAP_VERSION:
            raise MasterKeyError(f"A wrapped {purpose} key in the key store is damaged.")
        try:
            return AESGCM(key).decrypt(
                wrapped[1 : 1 + NONCE_BYTES],
                wrapped[1 + NONCE_BYTES :],
                _wrap_ad(purpose, key_id, subject),
            )
        except InvalidTag:
            raise MasterKeyError(
                f"A wrapped {purpose} key in the key store cannot be opened with master key "
                f"{key_id}: the key store or the master key file was changed."
            ) from None


def new_key_id() -> str:
    return "mk-" + secrets.token_hex(6)


def key_file_mode_problem(path: Path) -> str | None:
    """A plain-words problem when the key file is readable by others, else None."""
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        return (
            f"The master key file {path} can be read by other users on this machine "
            f"(mode {mode:04o}). Run: chmod 600 {path}"
        )
    return None


# --------------------------------------------------------------------------- lookup key
class LookupKey:
    """Keyed hash of Telegram ids, so the database can find users without storing ids."""

    __slots__ = ("_secret",)

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def telegram_hash(self, telegram_id: int) -> bytes:
        return hmac.digest(
            self._secret, b"nocontact/telegram-id/v1:" + str(int(telegram_id)).encode(), "sha256"
        )


# --------------------------------------------------------------------------- key store schema
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
            rotation_target=meta.get("rotation_target"),
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

    # ------------------------------------------------------------------ rotation steps
    async def begin_rotation(self, ring: MasterKeyRing, target: str) -> None:
        async with self.sessions.begin() as session:
            if await session.get(MasterKeyRow, target) is None:
                session.add(
                    MasterKeyRow(key_id=target, check=ring.check_value(target), created_at=_now())
                )
            marker = await session.get(MetaRow, "rotation_target")
            if marker is None:
                session.add(MetaRow(name="rotation_target", value=target))
            else:
                marker.value = target

    async def rewrap_batch(self, ring: MasterKeyRing, target: str, limit: int) -> int:
        """Re-wrap up to ``limit`` user keys not yet under ``target``; commit; count."""
        async with self.sessions.begin() as session:
            rows = (
                await session.execute(
                    select(UserKeyRow.user_id, UserKeyRow.key_id, UserKeyRow.wrapped)
                    .where(UserKeyRow.key_id != target)
                    .order_by(UserKeyRow.user_id)
                    .limit(limit)
                )
            ).all()
            for row in rows:
                plain = ring.unwrap(row.key_id, row.wrapped, purpose="user", subject=row.user_id)
                _, wrapped = ring.wrap(plain, purpose="user", subject=row.user_id, key_id=target)
                await session.execute(
                    update(UserKeyRow)
                    .where(UserKeyRow.user_id == row.user_id, UserKeyRow.key_id == row.key_id)
                    .values(key_id=target, wrapped=wrapped)
                )
        return len(rows)

    async def rewrap_secrets(self, ring: MasterKeyRing, target: str) -> None:
        async with self.sessions.begin() as session:
            rows = (
                (await session.execute(select(SecretRow).where(SecretRow.key_id != target)))
                .scalars()
                .all()
            )
            for row in rows:
                plain = ring.unwrap(row.key_id, row.wrapped, purpose="lookup", subject=row.name)
                _, row.wrapped = ring.wrap(plain, purpose="lookup", subject=row.name, key_id=target)
                row.key_id = target

    async def finish_rotation(self) -> None:
        async with self.sessions.begin() as session:
            await session.execute(delete(MetaRow).where(MetaRow.name == "rotation_target"))

    async def count_not_under(self, key_id: str) -> int:
        async with self.sessions() as session:
            count = await session.scalar(
                select(func.count()).select_from(UserKeyRow).where(UserKeyRow.key_id != key_id)
            )
        return int(count or 0)


# --------------------------------------------------------------------------- verification
def verify_ring(ring: MasterKeyRing, state: KeyStoreState, keystore_label: str) -> None:
    """Raise :class:`MasterKeyError` unless ``ring`` opens everything in the key store."""
    if state.schema_version is not None and state.schema_version > KEYSTORE_SCHEMA_VERSION:
        raise ConfigError(
            f"The key store ({keystore_label}) was made by a newer version of nocontact. "
            "Upgrade nocontact."
        )
    if state.empty:
        return
    shared = [key_id for key_id in state.checks if key_id in ring.keys]
    missing = sorted(k for k in state.referenced | set(state.checks) if k not in ring.keys)
    if not shared:
        raise MasterKeyError(
            f"The master key file {ring.path} does not belong to this key store "
            f"({keystore_label}): the key store was made with master key "
            f"{', '.join(missing)}, the file holds {', '.join(sorted(ring.keys))}. "
            "Nothing was changed. Restore the right master key file from your backup, or set "
            "MASTER_KEY_FILE to its path, and start again."
        )
    for key_id in shared:
        if not hmac.compare_digest(ring.check_value(key_id), state.checks[key_id]):
            raise MasterKeyError(
                f"The master key in {ring.path} is the wrong key for this key store "
                f"({keystore_label}): key {key_id} does not match. Nothing was changed. "
                "Restore the right master key file from your backup, or set MASTER_KEY_FILE "
                "to its path, and start again."
            )
    needed = sorted(k for k in state.referenced if k not in ring.keys)
    if needed:
        raise MasterKeyError(
            f"The key store ({keystore_label}) holds keys wrapped by master key "
            f"{', '.join(needed)}, which is not in {ring.path}. Nothing was changed. Restore "
            "the master key file from your backup (the newest one, made after the last "
            "rotation) and start again."
        )
    if state.rotation_target is not None and state.rotation_target not in ring.keys:
        raise MasterKeyError(
            f"A master key rotation was started with key {state.rotation_target}, which is "
            f"not in {ring.path}. Nothing was changed. Restore the master key file that was "
            "written during the rotation and run `nocontact rotate-master-key` again."
        )


def _missing_key_error(path: Path, keystore_label: str) -> MasterKeyError:
    return MasterKeyError(
        f"The master key file {path} is missing, but the key store ({keystore_label}) already "
        "holds keys that only that master key can open. Nothing was changed. Put the master "
        "key file back from your backup (or set MASTER_KEY_FILE to where it is) and start "
        "again. Do not delete the key store: without the master key nobody can read the data."
    )


def _orphan_data_error(users: int, keystore_label: str) -> MasterKeyError:
    return MasterKeyError(
        f"The database already holds {users} user(s), but the key store ({keystore_label}) is "
        "empty, so their data cannot be read. Nothing was changed. Check KEYSTORE_URL and "
        "DATABASE_URL, and restore the key store (and master key file) from your backup."
    )


def announce_new_master_key(path: Path) -> None:
    message = (
        f"A new master key was created at {path.resolve()}. BACK THIS FILE UP NOW, somewhere "
        "safe and separate from the database: without it nobody, including you, can read the "
        "stored data; with it and a copy of the key store, anyone can."
    )
    log.warning("%s", message)
    print(f"nocontact: WARNING: {message}", file=sys.stderr)


# --------------------------------------------------------------------------- opening
@dataclass
class Keys:
    """The unlocked key material of a running store."""

    ring: MasterKeyRing
    keystore: KeyStore
    lookup: LookupKey

    async def new_user_key(self, user_id: str, data_key: bytes) -> None:
        key_id, wrapped = self.ring.wrap(data_key, purpose="user", subject=user_id)
        await self.keystore.put_user_key(user_id, key_id, wrapped)

    async def user_key(self, user_id: str) -> bytes:
        found = await self.keystore.get_user_key(user_id)
        if found is None:
            raise UserKeyMissingError()
        key_id, wrapped = found
        return self.ring.unwrap(key_id, wrapped, purpose="user", subject=user_id)

    async def destroy_user_key(self, user_id: str) -> None:
        await self.keystore.delete_user_key(user_id)

    async def close(self) -> None:
        await self.keystore.close()


async def open_keys(
    master_key_file: Path,
    keystore_url: str,
    data_users: Callable[[], Awaitable[int]],
    *,
    create: bool = True,
) -> Keys:
    """Load and verify the master key, then prepare the key store.

    Every check happens before the first write: a missing or wrong master key raises
    :class:`MasterKeyError` and leaves files and databases as they were.  With no key and
    an empty key store (first run) a new master key file is made and announced.
    ``data_users`` counts the users in the data database (0 when it does not exist).
    """
    ring = MasterKeyRing.load(master_key_file)
    keystore = KeyStore(keystore_url)
    try:
        state = await keystore.inspect()
        if ring is None:
            if not state.empty:
                raise _missing_key_error(master_key_file, keystore.label)
            users = await data_users()
            if users:
                raise _orphan_data_error(users, keystore.label)
            if not create:
                raise MasterKeyError(f"There is no master key file at {master_key_file}.")
            ring = MasterKeyRing.generate(master_key_file)
            ring.save()
            announce_new_master_key(master_key_file)
        else:
            verify_ring(ring, state, keystore.label)
            if state.empty:
                users = await data_users()
                if users:
                    raise _orphan_data_error(users, keystore.label)
            problem = key_file_mode_problem(master_key_file)
            if problem:
                log.warning("%s", problem)
        prepare_directory(keystore_url)
        await keystore.initialize(ring)
        lookup = await keystore.lookup_key(ring)
    except BaseException:
        await keystore.close()
        raise
    return Keys(ring=ring, keystore=keystore, lookup=lookup)


# --------------------------------------------------------------------------- rotation
@dataclass(frozen=True)
class RotationReport:
    key_id: str
    previous: str
    resumed: bool
    rewrapped: int


async def rotate_master_key(
    master_key_file: Path,
    keystore_url: str,
    *,
    batch_size: int = 200,
    on_progress: Callable[[int], None] | None = None,
) -> RotationReport:
    """Re-wrap every key in the key store under a new master key (see module docs).

    Data rows are never read or written.  ``on_progress`` is called with the running
    count after each committed batch.
    """
    ring = MasterKeyRing.load(master_key_file)
    keystore = KeyStore(keystore_url)
    try:
        state = await keystore.inspect()
        if ring is None:
            if state.empty:
                raise MasterKeyError(
                    f"There is no master key file at {master_key_file} and the key store is "
                    "empty: there is nothing to rotate yet. Start the bot (or run "
                    "`nocontact migrate`) first."
                )
            raise _missing_key_error(master_key_file, keystore.label)
        if state.empty:
            raise MasterKeyError(
                f"The key store ({keystore.label}) is empty: there is nothing to rotate yet. "
                "Start the bot (or run `nocontact migrate`) first."
            )
        verify_ring(ring, state, keystore.label)
        previous = ring.primary
        target = state.rotation_target or ring.pending
        resumed = target is not None
        if target is None:
            target = new_key_id()
            ring = ring.with_pending(target, os.urandom(KEY_BYTES))
            ring.save()  # the new key is safely on disk before anything uses it
        elif target != ring.primary and ring.pending != target:
            ring = replace(ring, pending=target)
        await keystore.begin_rotation(ring, target)
        done = 0
        while True:
            count = await keystore.rewrap_batch(ring, target, batch_size)
            if not count:
                break
            done += count
            if on_progress is not None:
                on_progress(done)
        await keystore.rewrap_secrets(ring, target)
        if ring.primary != target or ring.pending is not None:
            ring = ring.promote(target)
            ring.save()
        await keystore.finish_rotation()
    finally:
        await keystore.close()
    log.info("master key rotation finished: %d user keys re-wrapped", done)
    return RotationReport(key_id=target, previous=previous, resumed=resumed, rewrapped=done)
