"""The data database as the repositories use it.

A read is one short connection (Core statements on the typed ORM tables: no ORM
overhead); a write that must see what it changes is one transaction; the writes of
conversation steps go through a group commit (``bot.store.writes``; on a SQLite file,
on its own writer thread, ``bot.store.sqlite_writer``), and each caller returns once its
own write is committed.

A conversation step is one unit (:meth:`Database.unit`): its group-commit writes (the
new state, the rows it adds: reasons, unsent messages, evidence, events) are held until
the step ends and then committed together, in one transaction of the group commit, so
a step's effects and its new state are stored together or not at all.  That holds for
the writes that read what they change too (settings patches, deletes, relay counts,
schedule upserts; :meth:`Database.changing`): they read the database plus what the
unit holds already (:meth:`Database.held`), and their write is held with the rest.  A
user's units run one at a time (a per-user lock, held until the unit is committed),
so two steps of one user never both read a count before either writes it.  The lock
is in this process: one bot process per data database (``bot.store.lease``).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import bindparam, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.sql import Executable

from bot.crypto.cells import Field
from bot.store.db import create_sessionmaker, sqlite_path
from bot.store.models import Evidence, Reason, Unsent
from bot.store.sqlite_writer import SqliteWriter
from bot.store.writes import Batch, GroupCommit

#: what a unit holds for a cell it changed: (field, row id) -> the new value
HeldKey = tuple[Field, str]
#: held for a row the unit deletes
DELETED = object()


class _Unit:
    """The group-commit writes of a unit, held until it ends, and the new values of
    the cells it changed (for the reads of the same unit)."""

    def __init__(self, db: Database, user_id: str) -> None:
        self.db = db
        self.user_id = user_id
        self.open = True
        self.writes: Batch = []
        self.held: dict[HeldKey, object] = {}


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
        #: one lock per user with a unit open or waiting (dropped when none refers to it)
        self._user_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._deletes: dict[type[Reason | Evidence | Unsent], Executable] = {}

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
    async def unit(self, user_id: str) -> AsyncIterator[None]:
        """The group-commit writes of this task inside are held and, when the block
        ends, committed together in one transaction (if it raises, none of them is).
        Reads inside do not see them yet, except through :meth:`held`.  The user's
        units run one at a time: this waits for the one open, and the next waits until
        this one is committed.  Units do not nest."""
        if self._unit() is not None:
            raise RuntimeError("a unit inside a unit")
        async with self.alone(user_id):
            unit = _Unit(self, user_id)
            token = _UNIT.set(unit)
            try:
                yield
            finally:
                unit.open = False
                _UNIT.reset(token)
            await self._group.write(unit.writes)

    @asynccontextmanager
    async def alone(self, user_id: str) -> AsyncIterator[None]:
        """No unit of ``user_id`` runs inside: it waits for the one open (and a new one
        waits for this block), e.g. a wipe after a step still being committed."""
        if self._unit() is not None:
            raise RuntimeError("waiting for the user's units inside a unit")
        lock = self._user_locks.get(user_id)
        if lock is None:
            lock = self._user_locks[user_id] = asyncio.Lock()
        async with lock:
            yield

    @asynccontextmanager
    async def changing(self, user_id: str) -> AsyncIterator[None]:
        """For a write that reads what it changes: inside the user's unit (committed with
        it), or, outside any unit, in a unit of its own (committed when the block ends)."""
        unit = self._unit()
        if unit is None:
            async with self.unit(user_id):
                yield
            return
        if unit.user_id != user_id:
            raise RuntimeError("a unit changes one user's data")
        yield

    def held(self, field: Field, row_id: str) -> object | None:
        """The value this task's unit holds for a cell (``DELETED`` for a row it
        deletes), or None."""
        unit = self._unit()
        return None if unit is None else unit.held.get((field, row_id))

    def held_rows(self, field: Field) -> dict[str, object]:
        """Row id -> held value, for every row of ``field`` the unit changed (in the
        order first changed)."""
        unit = self._unit()
        if unit is None:
            return {}
        return {row_id: value for (f, row_id), value in unit.held.items() if f == field}

    def hold(self, field: Field, row_id: str, value: object) -> None:
        """Note the new value of a cell written in this task's unit (see :meth:`changing`)."""
        unit = self._unit()
        if unit is None:
            raise RuntimeError("hold() outside a unit")
        unit.held[(field, row_id)] = value

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
        self, model: type[Reason | Evidence | Unsent], field: Field, user_id: str, row_id: str
    ) -> bool:
        """Delete one of the user's rows with the step's unit (or at once outside one);
        False when there was none (or the unit deleted it already)."""
        async with self.changing(user_id):
            if self.held(field, row_id) is DELETED:
                return False
            async with self.connection() as conn:
                found = await conn.scalar(
                    select(model.id).where(model.id == row_id, model.user_id == user_id)
                )
            # written even when not found: the unit may have added the row itself
            self.hold(field, row_id, DELETED)
            await self.write(self._delete(model), [{"b_id": row_id, "b_user": user_id}])
        return found is not None

    def _delete(self, model: type[Reason | Evidence | Unsent]) -> Executable:
        """One statement per table (the group commit merges by statement)."""
        statement = self._deletes.get(model)
        if statement is None:
            statement = self._deletes[model] = delete(model).where(
                model.id == bindparam("b_id"), model.user_id == bindparam("b_user")
            )
        return statement
