"""PIN hashes: Argon2id over the PIN keyed with a pepper that is not in the database.

A PIN has 4 to 8 digits, so a hash of it alone is found again by trying them all.  Two
things make a copy of the database useless for that:

* the PIN is first keyed with HMAC-SHA256 under a **pepper** derived from the key
  store's lookup secret (``LookupKey.derive``), which lives wrapped by the master key,
  outside the data database - and survives ``rotate-master-key``;
* the keyed PIN is then hashed with **Argon2id** (argon2-cffi), memory-hard, with a
  random salt per hash (the encoded string carries salt and parameters).

Hashes made by older versions (salted PBKDF2-SHA256, a ``{"salt", "hash",
"iterations"}`` document, no pepper) still match; :meth:`PinHasher.outdated` says so,
and the adapter stores a new hash the next time the right PIN is typed.

Every method here is CPU-heavy by design: call them off the event loop
(``bot.engine.offload.run_cpu``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: Argon2id at OWASP's recommended minimum (19 MiB, two passes, one lane): some 40 ms on
#: one core per try, on top of the pepper.
_ARGON2 = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1, type=Type.ID)


class PinHasher:
    """Hashes and checks PINs with the server's pepper.  The pepper never leaves."""

    __slots__ = ("_pepper",)

    def __init__(self, pepper: bytes) -> None:
        self._pepper = pepper

    def __repr__(self) -> str:
        return "PinHasher(<pepper>)"

    def _keyed(self, pin: str) -> str:
        return hmac.new(self._pepper, pin.encode(), "sha256").hexdigest()

    def hash(self, pin: str) -> str:
        """The stored form of ``pin``: an encoded Argon2id hash of the keyed PIN."""
        return _ARGON2.hash(self._keyed(pin))

    def matches(self, pin: str, stored: object) -> bool:
        """Whether ``pin`` is the one ``stored`` was made of (False for what is not a
        hash of either kind)."""
        if isinstance(stored, str):
            try:
                return _ARGON2.verify(stored, self._keyed(pin))
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
        if isinstance(stored, Mapping):
            return _legacy_matches(pin, stored)
        return False

    @staticmethod
    def outdated(stored: object) -> bool:
        """Whether ``stored`` should be hashed again (older scheme or weaker parameters)."""
        if not isinstance(stored, str):
            return True
        try:
            return _ARGON2.check_needs_rehash(stored)
        except (InvalidHashError, ValueError):
            return True


def _legacy_matches(pin: str, stored: Mapping[object, object]) -> bool:
    """The salted PBKDF2-SHA256 hashes of older versions."""
    try:
        salt = bytes.fromhex(str(stored["salt"]))
        digest = bytes.fromhex(str(stored["hash"]))
        iterations = int(str(stored.get("iterations", 100_000)))
    except (KeyError, TypeError, ValueError):
        return False
    if iterations <= 0:
        return False
    found = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return hmac.compare_digest(found, digest)
