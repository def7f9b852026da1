"""Group commit: the hot writes of many concurrent conversation steps (the flow state,
the message ids kept for /hide, events, reasons, unsent messages, evidence) are
committed together in one transaction.

Each caller still waits until its own write is committed, so nothing is acknowledged
before it is durable; under load, one commit carries many users' writes instead of each
queueing for its own.  Within a batch, all rows of one statement go in one executemany,
so a batch costs a handful of statements however many callers it carries, while each
caller's own writes stay in the order it made them.  That is only
right for writes that do not depend on one another's order across callers: inserts of
new rows and updates of one row per caller.  (A caller's own writes never share a batch,
because each waits for its commit before it writes again.)  One caller may hand in
several statements at once (a conversation step's, ``Database.unit``): they are
committed in the same transaction, or, if that batch fails, together on their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.sql import Executable

#: (statement, rows) pairs, each executed as one executemany, in order
Batch = list[tuple[Executable, list[dict[str, Any]]]]
#: runs a batch in one transaction (raising if it could not be committed)
Commit = Callable[[Batch], Awaitable[None]]

#: one caller's writes (committed together, in the same transaction) and its future
_Pending = tuple[Batch, asyncio.Future[None]]


class GroupCommit:
    def __init__(self, commit: Commit) -> None:
        self._commit = commit
        self._pending: list[_Pending] = []
        self._runner: asyncio.Task[None] | None = None

    async def write(self, writes: Batch) -> None:
        """Execute each (statement, rows) of ``writes`` (executemany) in the next group
        commit, all in its one transaction, and return once that commit is done; its
        error, if any, is raised here."""
        writes = [(statement, rows) for statement, rows in writes if rows]
        if not writes:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((writes, future))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run())
        await asyncio.shield(future)

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._commit(merged(batch))
            except Exception:
                # one bad write (say, for a user wiped a moment ago) must not fail the
                # others: commit each caller's on its own, and tell only the failing one
                await self._one_by_one(batch)
            else:
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def _one_by_one(self, batch: list[_Pending]) -> None:
        for writes, future in batch:
            try:
                await self._commit(writes)
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(None)

    async def drain(self) -> None:
        """Wait until everything submitted so far is committed."""
        while self._runner is not None and not self._runner.done():
            await asyncio.shield(self._runner)


def merged(batch: list[_Pending]) -> Batch:
    """All rows of one statement in one executemany where that keeps every caller's own
    order: a caller's write goes into the earliest group of its statement that comes
    no earlier than the group of its previous write, or into a new group at the end.
    (One step may insert a row and then change it, or change a schedule row twice.)
    Rows keep their submission order within a group."""
    groups: Batch = []
    for writes, _ in batch:
        floor = 0
        for statement, rows in writes:
            at = next((n for n in range(floor, len(groups)) if groups[n][0] is statement), None)
            if at is None:
                at = len(groups)
                groups.append((statement, []))
            groups[at][1].extend(rows)
            floor = at
    return groups
