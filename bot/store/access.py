"""The data database as the repositories use it.

A read is one short connection (Core statements on the typed ORM tables: no ORM
overhead); a write that must see what it changes is one transaction; the writes of
conversation steps go through a group commit (``bot.store.writes``; on a SQLite file,
on its own writer thread, ``bot.store.sqlite_writer``), and each caller returns once its
own write is committed.

A conversation step is one unit (:meth:`Database.unit`): its group-commit writes (the
new state, the rows it adds: reasons, unsent messages, evidence, events) are held until
the step ends and then committed together, in one transaction of the group commit, so
a step's effects and its new state are stored together or not at all.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, cast

from sqlalchemy import CursorResult, delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.sql import Executable

from bot.store.db import create_sessionmaker, sqlite_path
from bot.store.models import Evidence, Reason, Unsent
from bot.store.sqlite_writer import SqliteWriter
from bot.store.writes import Batch, GroupCommit


class _Unit:
    """The group-commit writes of a unit, held until it ends."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.open = True
        self.writes: Batch = []


#: the unit the current task is in, if any
_UNIT: ContextVar[_Unit | None] = ContextVar("nocontact_store_unit", default=None)


class Database:
    """Connections, transactions and the group commit of one data database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions: async_sessionmaker[AsyncSession] = create_sessionmaker(engine)
        dialect = engine.dialect.name
        self._write_lock = asyncio.Lock() if dialect == "sqlite" else None
        #: ``insert(Model)`` of this dialect (with ``on_conflict_do_nothing`` and friends)
        self.insert: Callable[..., Any] = (
            postgresql.insert if dialect == "postgresql" else sqlite.insert
        )
        self._writer = SqliteWriter(engine.url) if sqlite_path(engine.url) is not None else None
        self._group = GroupCommit(self._commit_batch)
        self._last_seq = 0

    async def close(self) -> None:
        await self._group.drain()
        if self._writer is not None:
            self._writer.close()
        await self.engine.dispose()

    def seq(self) -> int:
        """A strictly increasing insertion number (wall-clock nanoseconds)."""
        seq = max(time.time_ns(), self._last_seq + 1)
        self._last_seq = seq
        return seq

    def connection(self) -> AsyncConnection:
        """A connection for one call's reads."""
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

    async def write(self, statement: Executable, rows: list[dict[str, Any]]) -> None:
        """``statement`` for ``rows`` in the next group commit; returns once committed.
        Only for writes that do not depend on one another's order across callers (see
        ``bot.store.writes``).  Inside a unit it is held and committed with the unit."""
        if not rows:
            return
        unit = self._unit()
        if unit is not None:
            unit.writes.append((statement, rows))
            return
        await self._group.write([(statement, rows)])

    def _unit(self) -> _Unit | None:
        unit = _UNIT.get()
        return unit if unit is not None and unit.open and unit.db is self else None

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[None]:
        """The group-commit writes of this task inside are held and, when the block
        ends, committed together in one transaction (if it raises, none of them is).
        Reads inside do not see them yet.  A write that must see what it changes
        (``transaction``: settings, deletes, sender counts) is not held: it is
        committed at once, as outside a unit.  Units do not nest."""
        if self._unit() is not None:
            raise RuntimeError("a unit inside a unit")
        unit = _Unit(self)
        token = _UNIT.set(unit)
        try:
            yield
        finally:
            unit.open = False
            _UNIT.reset(token)
        await self._group.write(unit.writes)

    async def drain(self) -> None:
        """Wait until every group-commit write submitted so far is committed."""
        await self._group.drain()

    async def _commit_batch(self, batch: Batch) -> None:
        """One group-commit batch in one transaction."""
        if self._writer is not None and self._write_lock is not None:
            async with self._write_lock:
                await self._writer.commit(batch)
            return
        async with self.transaction() as conn:
            for statement, rows in batch:
                await conn.execute(statement, rows)

    async def checkpoint(self) -> None:
        """On SQLite: copy the WAL into the main file and empty it (``TRUNCATE``), so
        rows just deleted (their pages are overwritten: ``secure_delete``) leave no old
        copy in the ``-wal`` file.  A no-op on PostgreSQL (see the README on its WAL).
        Writers of this process wait meanwhile; the group commit is drained first."""
        if self._write_lock is None:
            return
        await self._group.drain()
        async with self._write_lock, self.engine.connect() as conn:
            await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    async def delete_row(
        self, model: type[Reason | Evidence | Unsent], user_id: str, row_id: str
    ) -> bool:
        """Delete one of the user's rows; False when there was none."""
        async with self.transaction() as conn:
            result = await conn.execute(
                delete(model).where(model.id == row_id, model.user_id == user_id)
            )
        return int(cast(CursorResult[Any], result).rowcount) > 0
