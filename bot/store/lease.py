"""The lease: exactly one active ``nocontact run`` per data database.

Each process trusts its own memory (conversation contexts, id lookups, data keys, per-user
locks, the rate limiter, the start-up recovery of check-ins), so two active processes on
one database break conversations.  The lease is taken before the store is opened, so a
process that does not hold it has no data in memory at all:

* SQLite: an exclusive ``flock`` on ``<data file>.lock`` next to the data file.
* PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) held by one dedicated
  connection, outside the pool.

Both are released by the operating system or the server when the holder dies (even by
``kill -9``): the file descriptor or the connection goes with the process.  A second
process finds the lease taken, says so, and tries again every ``retry_seconds`` as a
standby; it takes over within that time after the holder has gone.

On PostgreSQL the holder checks its connection every ``retry_seconds``: if the server
dropped it, the lock is gone (another process may take it), and ``watch`` calls back so
the process stops being active at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store.db import create_engine, ensure_private_dir, is_sqlite, safe_url, sqlite_path

log = logging.getLogger(__name__)

#: the advisory lock key on PostgreSQL (a fixed 63-bit number: "nocontact" in hex-ish)
ADVISORY_KEY = 0x6E6F636F6E74
#: how often a standby tries again, and how often the holder checks its lease
RETRY_SECONDS = 2.0


class LeaseLostError(RuntimeError):
    """The lease was lost while this process was active (the database dropped it)."""


class _Lock(Protocol):
    label: str

    async def try_take(self) -> bool: ...

    async def alive(self) -> bool: ...

    async def release(self) -> None: ...


class _FileLock:
    """``flock`` on a file next to the SQLite data file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.label = str(path)
        self._fd: int | None = None

    async def try_take(self) -> bool:
        ensure_private_dir(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True

    async def alive(self) -> bool:
        return self._fd is not None

    async def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


class _AdvisoryLock:
    """A session advisory lock held by one connection of its own."""

    def __init__(self, url: str, ssl: str) -> None:
        self.label = f"advisory lock {ADVISORY_KEY} on {safe_url(url)}"
        self._engine: AsyncEngine = create_engine(url, ssl=ssl, null_pool=True)
        self._conn: AsyncConnection | None = None

    async def try_take(self) -> bool:
        conn = await self._engine.connect()
        try:
            taken = (
                await conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_KEY})
            ).scalar_one()
            # end the implicit transaction; the session lock stays with the connection
            await conn.commit()
        except BaseException:
            await conn.close()
            raise
        if not taken:
            await conn.close()
            return False
        self._conn = conn
        return True

    async def alive(self) -> bool:
        conn = self._conn
        if conn is None:
            return False
        try:
            await conn.execute(text("SELECT 1"))
            await conn.commit()
        except Exception:
            return False
        return True

    async def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
                await conn.commit()
            with contextlib.suppress(Exception):
                await conn.close()
        await self._engine.dispose()


class _NoLock:
    """In-memory SQLite: nothing else can share it."""

    label = "in-memory database"

    async def try_take(self) -> bool:
        return True

    async def alive(self) -> bool:
        return True

    async def release(self) -> None:
        return None


def lock_file_for(database_url: str) -> Path | None:
    """The lock file of a SQLite data database (None for other databases)."""
    path = sqlite_path(database_url)
    return None if path is None else Path(f"{path}.lock")


def _lock_for(database_url: str, ssl: str) -> _Lock:
    if is_sqlite(database_url):
        path = lock_file_for(database_url)
        return _NoLock() if path is None else _FileLock(path)
    return _AdvisoryLock(database_url, ssl)


class Lease:
    """Take with :meth:`acquire` (waits as a standby), give back with :meth:`release`."""

    def __init__(
        self, database_url: str, *, ssl: str = "", retry_seconds: float = RETRY_SECONDS
    ) -> None:
        """``ssl``: DATABASE_SSL (PostgreSQL only)."""
        self._lock = _lock_for(database_url, ssl)
        self.retry_seconds = retry_seconds
        self.held = False
        #: True once the lease was lost while active
        self.lost = False
        self._watch: asyncio.Task[None] | None = None

    @property
    def label(self) -> str:
        return self._lock.label

    async def try_acquire(self) -> bool:
        """Take the lease if it is free; never waits."""
        if not self.held:
            self.held = await self._lock.try_take()
        return self.held

    async def acquire(self) -> None:
        """Take the lease, waiting as long as another process holds it."""
        if await self.try_acquire():
            return
        log.warning(
            "another nocontact process is active on this database (%s). This one waits as a "
            "standby and takes over within %.0f seconds after the other stops.",
            self.label,
            self.retry_seconds,
        )
        while True:
            await asyncio.sleep(self.retry_seconds)
            if await self.try_acquire():
                break
        log.warning("the other process has stopped: this one is now active")

    def watch(self, on_lost: Callable[[], None]) -> None:
        """Check the lease every ``retry_seconds``; call ``on_lost`` once if it is gone."""

        async def run() -> None:
            while self.held:
                await asyncio.sleep(self.retry_seconds)
                if self.held and not await self._lock.alive():
                    self.held = False
                    self.lost = True
                    log.error(
                        "the lease (%s) was lost: another process may be active now; "
                        "this one stops",
                        self.label,
                    )
                    on_lost()
                    return

        self._watch = asyncio.get_running_loop().create_task(run())

    async def release(self) -> None:
        self.held = False
        watch, self._watch = self._watch, None
        if watch is not None and not watch.done():
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        await self._lock.release()
