"""Opening the keys of a running store: the master key verified, the key store ready.

Envelope encryption
-------------------
* Every user gets a random 256-bit **data key** (``bot.crypto.cells``).  It is stored only
  *wrapped* (AES-256-GCM) by a **master key**, in the **key store** - a database of its
  own (``KEYSTORE_URL``; by default ``keys.db`` next to the data; ``bot.crypto.keystore``).
* The master keys live in a **ring file** (``MASTER_KEY_FILE``; ``bot.crypto.ring``).
* Users are found by a keyed hash of their Telegram id (``bot.crypto.keystore.LookupKey``).
* Start-up compares the ring with the key store's check values *before* any write or
  migration: a missing or wrong key stops with :class:`MasterKeyError` and changes
  nothing (:func:`open_keys`, :func:`verify_ring`).
* Rotation re-wraps the key store under a new master key (``bot.crypto.rotation``).
"""

from __future__ import annotations

import hmac
import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.config import ConfigError
from bot.crypto.keystore import KEYSTORE_SCHEMA_VERSION, KeyStore, KeyStoreState, LookupKey
from bot.crypto.ring import MasterKeyError, MasterKeyRing, key_file_mode_problem
from bot.store.db import prepare_directory

log = logging.getLogger(__name__)


class UserKeyMissingError(LookupError):
    """A user's data key is gone (destroyed by /wipe), so their rows cannot be read."""

    def __init__(self) -> None:
        super().__init__("this user's data key is gone; their stored data cannot be read")


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


def missing_key_error(path: Path, keystore_label: str) -> MasterKeyError:
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


def missing_data_error(user_keys: int, keystore_label: str, database_label: str) -> ConfigError:
    """The key store holds users' keys, but the data database is missing or empty."""
    return ConfigError(
        f"The key store ({keystore_label}) holds the keys of {user_keys} user(s), but the "
        f"database ({database_label}) is missing or holds no users. Starting would greet "
        "every returning user as a stranger, so nocontact refuses to start; nothing was "
        "changed. Restore the database from your backup, or set DATABASE_URL to "
        "where it is, and start again. Only if you really mean to start afresh: move the "
        "key store and master.key aside as well (keep them while any backup of the data "
        "may still be restored). `nocontact doctor` checks the setup."
    )


def key_file_mode_error(problem: str) -> MasterKeyError:
    return MasterKeyError(
        f"{problem}, then start again. The bot did not start and nothing was changed: "
        "anyone who can read this file can read every user's data with a copy of the "
        "databases."
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
    database_label: str = "the data database",
) -> Keys:
    """Load and verify the master key, then prepare the key store.

    Every check happens before the first write: a missing or wrong master key raises
    :class:`MasterKeyError` and leaves files and databases as they were.  With no key and
    an empty key store (first run) a new master key file is made and announced.
    ``data_users`` counts the users in the data database (0 when it does not exist).
    A key file others may read or change, or users' keys without a data database to go
    with them, stop here too.
    """
    ring = MasterKeyRing.load(master_key_file)
    keystore = KeyStore(keystore_url)
    try:
        state = await keystore.inspect()
        if ring is None:
            if not state.empty:
                raise missing_key_error(master_key_file, keystore.label)
            users = await data_users()
            if users:
                raise _orphan_data_error(users, keystore.label)
            if not create:
                raise MasterKeyError(f"There is no master key file at {master_key_file}.")
            ring = MasterKeyRing.generate(master_key_file)
            ring.save()
            announce_new_master_key(master_key_file)
        else:
            problem = key_file_mode_problem(master_key_file)
            if problem:
                raise key_file_mode_error(problem)
            verify_ring(ring, state, keystore.label)
            if state.empty:
                users = await data_users()
                if users:
                    raise _orphan_data_error(users, keystore.label)
            elif state.user_keys and not await data_users():
                raise missing_data_error(state.user_keys, keystore.label, database_label)
        prepare_directory(keystore_url)
        await keystore.initialize(ring)
        lookup = await keystore.lookup_key(ring)
    except BaseException:
        await keystore.close()
        raise
    return Keys(ring=ring, keystore=keystore, lookup=lookup)
