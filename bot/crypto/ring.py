"""The master key ring: the file of master keys, and wrapping keys under them.

The master keys live in a **ring file** (``MASTER_KEY_FILE``, JSON, mode 0600): key id ->
32 random bytes, one of them *primary* (used to wrap new keys) and at most one *pending*
(being rotated in, see ``bot.crypto.rotation``).  Older keys stay in the ring so nothing
wrapped by them is ever lost.  The ring never touches either database.

A wrapped key is sealed in the cells' format (``bot.crypto.cells.seal``: version header,
nonce, AES-256-GCM) under one master key, bound to what it is (its purpose), the master
key's id and whose key it is (its subject).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from bot.config import ConfigError
from bot.crypto.cells import KEY_BYTES, DecryptionError, part, seal, unseal
from bot.store.db import ensure_private_dir

RING_FORMAT = "nocontact-master-key-ring"
RING_VERSION = 1
#: the version in a wrapped key's associated data
WRAP_VERSION = 1
_CHECK_CONSTANT = b"nocontact/master-key-check/v1"
_RING_NOTE = (
    "The master key of this nocontact bot. Back this file up somewhere safe and separate "
    "from the database. Without it nobody, including you, can read the stored data; with "
    "it and a copy of the key store, anyone can."
)


class MasterKeyError(ConfigError):
    """The master key is missing, wrong, or does not belong to this key store."""


def _wrap_ad(purpose: str, key_id: str, subject: str) -> bytes:
    return b"nocontact/wrap" + bytes([WRAP_VERSION]) + part(purpose) + part(key_id) + part(subject)


def _now() -> datetime:
    return datetime.now(UTC)


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

    def only_primary(self) -> MasterKeyRing:
        """The ring without its retired keys."""
        keys = {self.primary: self.keys[self.primary]}
        created = {self.primary: self.created.get(self.primary, "")}
        return replace(self, keys=keys, pending=None, created=created)

    # ------------------------------------------------------------------ crypto
    def check_value(self, key_id: str) -> bytes:
        return hmac.digest(self.keys[key_id], _CHECK_CONSTANT + key_id.encode(), hashlib.sha256)

    def wrap(
        self, secret: bytes, *, purpose: str, subject: str, key_id: str | None = None
    ) -> tuple[str, bytes]:
        """Encrypt ``secret`` under master key ``key_id`` (default: the primary)."""
        key_id = key_id or self.primary
        return key_id, seal(AESGCM(self.keys[key_id]), secret, _wrap_ad(purpose, key_id, subject))

    def unwrap(self, key_id: str, wrapped: bytes, *, purpose: str, subject: str) -> bytes:
        key = self.keys.get(key_id)
        if key is None:
            raise MasterKeyError(
                f"A key in the key store is wrapped by master key {key_id}, which is not in "
                f"{self.path}. Restore the master key file from your backup."
            )
        try:
            return unseal(AESGCM(key), wrapped, _wrap_ad(purpose, key_id, subject))
        except DecryptionError:  # an unknown header, or too short
            raise MasterKeyError(f"A wrapped {purpose} key in the key store is damaged.") from None
        except InvalidTag:
            raise MasterKeyError(
                f"A wrapped {purpose} key in the key store cannot be opened with master key "
                f"{key_id}: the key store or the master key file was changed."
            ) from None


def new_key_id() -> str:
    return "mk-" + secrets.token_hex(6)


def key_file_mode_problem(path: Path) -> str | None:
    """A plain-words problem when others may read or change the key file, else None."""
    if os.name != "posix":
        return None  # no Unix permission bits to check
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        return (
            f"The master key file {path} can be read or changed by other users on this "
            f"machine (mode {mode:04o}). Run: chmod 600 {path}"
        )
    return None
