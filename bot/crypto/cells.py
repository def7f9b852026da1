"""The sealing format, and how one value in one cell is sealed with it.

Every sealed value - an encrypted cell, and a key wrapped by a master key
(``bot.crypto.ring``) - is ``header || nonce || AES-GCM ciphertext-and-tag``, made and
opened by :func:`seal` and :func:`unseal` only:

* ``header`` is one byte, the format version (currently ``1``).  A reader rejects any
  version it does not know, so the format can evolve without old readers misreading
  new data.
* ``nonce`` is 12 fresh random bytes per encryption (never reused under one key).
* for a cell, the AES-256-GCM key is the user's own data key (see ``bot.crypto.keys``).

The associated data binds the ciphertext to where it lives: the format version, the
user id, the table, the column and the row id.  A ciphertext copied to another row,
column, table or user therefore fails to decrypt instead of silently showing the wrong
value.  Callers never build associated data themselves: they name a :class:`Field`
and a row id and :class:`RecordCipher` does the rest.

Errors never contain plaintext: a failure says which table/column could not be
decrypted and nothing else.
"""

from __future__ import annotations

import base64
import hmac
import json
import os
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

FORMAT_VERSION = 1
KEY_BYTES = 32
NONCE_BYTES = 12
TAG_BYTES = 16
_HEADER = bytes([FORMAT_VERSION])
_AD_PREFIX = b"nocontact/cell"
#: a keyed reference (:meth:`RecordCipher.reference`) keeps this many bytes of its HMAC:
#: 80 bits, 16 characters of base32
REFERENCE_BYTES = 10
_REFERENCE_KEY = b"nocontact/keyed-reference/v1"


class DecryptionError(Exception):
    """A ciphertext could not be opened: wrong key, wrong place, damaged or truncated.

    The message names the table and column only; it never contains data.
    """


class UnsupportedFormatError(DecryptionError):
    """The ciphertext header names a format version this code does not know."""


@dataclass(frozen=True)
class Field:
    """An encrypted column: where a ciphertext is allowed to live."""

    table: str
    column: str

    def __str__(self) -> str:
        return f"{self.table}.{self.column}"


def part(value: str) -> bytes:
    """One piece of associated data: its UTF-8 bytes, length-prefixed (so a sequence of
    parts is unambiguous)."""
    raw = value.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


def associated_data(version: int, user_id: str, field: Field, row_id: str) -> bytes:
    """The bytes every cell's ciphertext is bound to (length-prefixed, so unambiguous)."""
    return b"".join(
        (
            _AD_PREFIX,
            version.to_bytes(2, "big"),
            part(user_id),
            part(field.table),
            part(field.column),
            part(row_id),
        )
    )


# --------------------------------------------------------------------------- sealing
def seal(aead: AESGCM, plaintext: bytes, ad: bytes) -> bytes:
    """``plaintext`` sealed under ``aead``'s key, bound to ``ad``, with a fresh nonce."""
    nonce = os.urandom(NONCE_BYTES)
    return _HEADER + nonce + aead.encrypt(nonce, plaintext, ad)


def unseal(aead: AESGCM, blob: bytes, ad: bytes) -> bytes:
    """The plaintext of a :func:`seal`-ed ``blob``.

    Raises :class:`UnsupportedFormatError` for an unknown header, :class:`DecryptionError`
    for an empty or truncated blob, and ``cryptography``'s ``InvalidTag`` when the tag does
    not match (wrong key, wrong ``ad``, damaged): callers word the error for what they
    opened (none of these messages carries data).
    """
    if not blob:
        raise DecryptionError("empty")
    if blob[0] != FORMAT_VERSION:
        raise UnsupportedFormatError(f"unknown format version {blob[0]}")
    if len(blob) < 1 + NONCE_BYTES + TAG_BYTES:
        raise DecryptionError("truncated")
    return aead.decrypt(blob[1 : 1 + NONCE_BYTES], blob[1 + NONCE_BYTES :], ad)


def new_data_key() -> bytes:
    """A fresh random 256-bit key."""
    return os.urandom(KEY_BYTES)


class RecordCipher:
    """Seals and opens the cells of one user with that user's data key, and makes that
    user's keyed references (:meth:`reference`)."""

    __slots__ = ("_aead", "_reference_key", "user_id")

    def __init__(self, key: bytes, user_id: str) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError("a data key must be 32 bytes")
        self._aead = AESGCM(key)
        # a key of its own for references, derived from the data key: /wipe destroys it too
        self._reference_key = hmac.digest(key, _REFERENCE_KEY, "sha256")
        self.user_id = user_id

    # ------------------------------------------------------------------ references
    def reference(self, purpose: str, value: str) -> str:
        """A short keyed reference to ``value`` (a forward's origin): the same for the same
        value of this user, unlinkable to it without the user's key, and different for
        every user.  Lower-case base32 of the first :data:`REFERENCE_BYTES` of an
        HMAC-SHA256 of ``purpose`` and ``value``."""
        digest = hmac.digest(self._reference_key, part(purpose) + part(value), "sha256")
        return base64.b32encode(digest[:REFERENCE_BYTES]).decode("ascii").lower()

    # ------------------------------------------------------------------ bytes
    def encrypt(self, field: Field, row_id: str, plaintext: bytes) -> bytes:
        ad = associated_data(FORMAT_VERSION, self.user_id, field, row_id)
        return seal(self._aead, plaintext, ad)

    def decrypt(self, field: Field, row_id: str, blob: bytes) -> bytes:
        ad = associated_data(FORMAT_VERSION, self.user_id, field, row_id)
        try:
            return unseal(self._aead, blob, ad)
        except UnsupportedFormatError as exc:
            raise UnsupportedFormatError(f"cannot decrypt {field} for this row: {exc}") from None
        except (DecryptionError, InvalidTag):
            raise DecryptionError(f"cannot decrypt {field} for this row") from None

    # ------------------------------------------------------------------ typed helpers
    def encrypt_text(self, field: Field, row_id: str, text: str) -> bytes:
        return self.encrypt(field, row_id, text.encode("utf-8", "surrogatepass"))

    def decrypt_text(self, field: Field, row_id: str, blob: bytes) -> str:
        return self.decrypt(field, row_id, blob).decode("utf-8", "surrogatepass")

    def encrypt_json(self, field: Field, row_id: str, value: Any) -> bytes:
        raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return self.encrypt_text(field, row_id, raw)

    def decrypt_json(self, field: Field, row_id: str, blob: bytes) -> Any:
        return json.loads(self.decrypt_text(field, row_id, blob))

    def encrypt_int(self, field: Field, row_id: str, value: int) -> bytes:
        return self.encrypt_text(field, row_id, str(value))

    def decrypt_int(self, field: Field, row_id: str, blob: bytes) -> int:
        return int(self.decrypt_text(field, row_id, blob))
