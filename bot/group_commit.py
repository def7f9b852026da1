"""Group commit: the hot writes of many concurrent conversation steps (the flow state,
the message ids kept for /hide) are committed together in one transaction.

Each caller still waits until its own write is committed, so nothing is acknowledged
before it is durable; under load, one commit carries many users' writes instead of each
queueing for its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Executable

Transaction = Callable[[], AbstractAsyncContextManager[AsyncConnection]]


class GroupCommit:
    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._pending: list[tuple[Executable, list[dict[str, Any]], asyncio.Future[None]]] = []
        self._runner: asyncio.Task[None] | None = None

    async def write(self, statement: Executable, rows: list[dict[str, Any]]) -> None:
        """Execute ``statement`` for ``rows`` (executemany) in the next group commit and
        return once that commit is done; its error, if any, is raised here."""
        if not rows:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((statement, rows, future))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run())
        await asyncio.shield(future)

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self._transaction() as conn:
                    for statement, rows, _ in _merged(batch):
                        await conn.execute(statement, rows)
            except Exception:
                # one bad write (say, for a user wiped a moment ago) must not fail the
                # others: commit each on its own, and tell only the failing caller
                await self._one_by_one(batch)
            else:
                for _, _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def _one_by_one(
        self, batch: list[tuple[Executable, list[dict[str, Any]], asyncio.Future[None]]]
    ) -> None:
        for statement, rows, future in batch:
            try:
                async with self._transaction() as conn:
                    await conn.execute(statement, rows)
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


def _merged(
    batch: list[tuple[Executable, list[dict[str, Any]], asyncio.Future[None]]],
) -> list[tuple[Executable, list[dict[str, Any]], None]]:
    """Consecutive writes with the same statement become one executemany, in order."""
    out: list[tuple[Executable, list[dict[str, Any]], None]] = []
    for statement, rows, _ in batch:
        if out and out[-1][0] is statement:
            out[-1][1].extend(rows)
        else:
            out.append((statement, list(rows), None))
    return out
