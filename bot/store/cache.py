"""What the store keeps in memory: unwrapped user keys, Telegram-id lookups, and the
decrypted conversation context of recently active users.

All three are small LRUs.  The contexts are kept in step with every write of this
process (one bot process per database): a write that committed applies itself to the
memory copy (:meth:`ContextCache.update`, with idempotent changes), a write that failed
drops it, and a *write clock* keeps a read that started before a user's latest write
from being cached after it.  Destroying a user's key forgets the user in all three.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from bot.crypto.cells import RecordCipher
from flows.settings import UserSettings
from flows.types import ReasonView, SenderView, UnsentView

DEFAULT_KEY_CACHE_SIZE = 1024
#: decrypted conversation contexts kept in memory (the most recently active users)
CONTEXT_CACHE_SIZE = 2048
#: keyed-hash -> user id entries kept in memory (about 100 bytes each)
LOOKUP_CACHE_SIZE = 50_000


# --------------------------------------------------------------------------- keys
class CipherCache:
    """The unwrapped data keys (as ciphers) of recently active users."""

    def __init__(self, unwrap: Callable[[str], Awaitable[bytes]], size: int) -> None:
        self._unwrap = unwrap
        self._size = size
        self._ciphers: OrderedDict[str, RecordCipher] = OrderedDict()
        # bumped by every forget, so a key unwrapped while one was destroyed is not kept
        self._epoch = 0

    async def get(self, user_id: str) -> RecordCipher:
        cipher = self._ciphers.get(user_id)
        if cipher is not None:
            self._ciphers.move_to_end(user_id)
            return cipher
        epoch = self._epoch
        cipher = RecordCipher(await self._unwrap(user_id), user_id)
        if epoch == self._epoch:
            self.put(cipher)
        return cipher

    def put(self, cipher: RecordCipher) -> None:
        self._ciphers[cipher.user_id] = cipher
        self._ciphers.move_to_end(cipher.user_id)
        while len(self._ciphers) > self._size:
            self._ciphers.popitem(last=False)

    def forget(self, user_id: str) -> None:
        self._epoch += 1
        self._ciphers.pop(user_id, None)

    def clear(self) -> None:
        self._ciphers.clear()


# --------------------------------------------------------------------------- lookups
class LookupCache:
    """Keyed hash of a Telegram id -> user id (never the Telegram id itself)."""

    def __init__(self, size: int = LOOKUP_CACHE_SIZE) -> None:
        self._size = size
        self._users: OrderedDict[bytes, str] = OrderedDict()

    def get(self, digest: bytes) -> str | None:
        user_id = self._users.get(digest)
        if user_id is not None:
            self._users.move_to_end(digest)
        return user_id

    def remember(self, digest: bytes, user_id: str) -> None:
        self._users[digest] = user_id
        if len(self._users) > self._size:
            self._users.popitem(last=False)

    def forget(self, user_id: str) -> None:
        for digest in [d for d, u in self._users.items() if u == user_id]:
            del self._users[digest]


# --------------------------------------------------------------------------- contexts
@dataclass(frozen=True)
class UserContext:
    """What one conversation step reads, loaded in one go."""

    state: dict[str, object] | None  # the session document (flows.session.Session)
    settings: UserSettings
    reasons: list[ReasonView]
    senders: list[SenderView]


@dataclass(frozen=True)
class CachedContext:
    state: str  # JSON (parsed afresh on every load, so callers may mutate what they get)
    settings: UserSettings  # frozen: shared as it is
    reasons: tuple[ReasonView, ...]
    senders: tuple[SenderView, ...]
    #: the unsent messages, once a step has needed them
    unsent: tuple[UnsentView, ...] | None = None

    def to_context(self) -> UserContext:
        return UserContext(
            state=json.loads(self.state),
            settings=self.settings,
            reasons=list(self.reasons),
            senders=list(self.senders),
        )


_View = TypeVar("_View", ReasonView, UnsentView)


def _with(views: tuple[_View, ...], added: tuple[_View, ...]) -> tuple[_View, ...]:
    """``views`` plus those of ``added`` it does not hold yet (by id)."""
    known: set[str] = {view.id for view in views}
    return views + tuple(view for view in added if view.id not in known)


class ContextCache:
    """The decrypted contexts of recently active users, with the write clock."""

    def __init__(self, size: int = CONTEXT_CACHE_SIZE) -> None:
        self._size = size
        self._contexts: OrderedDict[str, CachedContext] = OrderedDict()
        # a read that started before a user's latest write must not be cached
        self.clock = 0
        self._last_write: OrderedDict[str, int] = OrderedDict()

    # ------------------------------------------------------------------ reading
    def peek(self, user_id: str) -> CachedContext | None:
        return self._contexts.get(user_id)

    def use(self, user_id: str) -> UserContext | None:
        """The memory copy as a fresh context (and the user counts as recently active)."""
        cached = self._contexts.get(user_id)
        if cached is None:
            return None
        self._contexts.move_to_end(user_id)
        return cached.to_context()

    def keep(self, user_id: str, context: UserContext, read_at: int) -> None:
        """Keep a context read from the database, unless the user was written since the
        clock read ``read_at``."""
        if self._written_since(user_id, read_at):
            return
        self._contexts[user_id] = CachedContext(
            state=json.dumps(context.state),
            settings=context.settings,
            reasons=tuple(context.reasons),
            senders=tuple(context.senders),
        )
        if len(self._contexts) > self._size:
            self._contexts.popitem(last=False)

    def keep_unsent(self, user_id: str, views: list[UnsentView], read_at: int) -> None:
        cached = self._contexts.get(user_id)
        if cached is not None and not self._written_since(user_id, read_at):
            self._contexts[user_id] = replace(cached, unsent=tuple(views))

    # ------------------------------------------------------------------ writing
    def invalidate(self, user_id: str) -> None:
        self._note_write(user_id)
        self._contexts.pop(user_id, None)

    def update(self, user_id: str, change: Callable[[CachedContext], CachedContext]) -> None:
        """After a committed write: apply it to the memory copy, if there is one.
        ``change`` must be idempotent (a read that finished just after the commit may
        already hold the new rows)."""
        self._note_write(user_id)
        cached = self._contexts.get(user_id)
        if cached is not None:
            self._contexts[user_id] = change(cached)

    def _note_write(self, user_id: str) -> None:
        self.clock += 1
        self._last_write[user_id] = self.clock
        self._last_write.move_to_end(user_id)
        if len(self._last_write) > 4 * self._size:
            self._last_write.popitem(last=False)

    def _written_since(self, user_id: str, clock: int) -> bool:
        return self._last_write.get(user_id, 0) > clock

    # ------------------------------------------------------------------ the committed writes
    def state_saved(self, user_id: str, text: str) -> None:
        self.update(user_id, lambda c: replace(c, state=text))

    def settings_saved(self, user_id: str, settings: UserSettings) -> None:
        self.update(user_id, lambda c: replace(c, settings=settings))

    def reasons_added(self, user_id: str, added: tuple[ReasonView, ...]) -> None:
        self.update(user_id, lambda c: replace(c, reasons=_with(c.reasons, added)))

    def reason_deleted(self, user_id: str, reason_id: str) -> None:
        self.update(
            user_id,
            lambda c: replace(c, reasons=tuple(r for r in c.reasons if r.id != reason_id)),
        )

    def sender_changed(self, user_id: str, view: SenderView) -> None:
        def change(c: CachedContext) -> CachedContext:
            if any(s.id == view.id for s in c.senders):
                return replace(c, senders=tuple(view if s.id == view.id else s for s in c.senders))
            return replace(c, senders=(*c.senders, view))

        self.update(user_id, change)

    def unsent_added(self, user_id: str, added: UnsentView) -> None:
        def change(c: CachedContext) -> CachedContext:
            if c.unsent is None:
                return c
            ordered = sorted(_with(c.unsent, (added,)), key=lambda u: u.created_at)
            return replace(c, unsent=tuple(ordered))

        self.update(user_id, change)

    def unsent_deleted(self, user_id: str, unsent_id: str) -> None:
        def change(c: CachedContext) -> CachedContext:
            if c.unsent is None:
                return c
            return replace(c, unsent=tuple(u for u in c.unsent if u.id != unsent_id))

        self.update(user_id, change)
