"""SQLite's group commits on one writer thread.

The async SQLite driver already runs every statement on a thread, with several thread
hops per statement (cursor, execute, close, commit), each waiting for a turn of the busy
event loop.  A whole group-commit batch is instead run here, on one thread with a plain
connection to the same file: one hop per batch.  PostgreSQL needs none of this (its
driver is natively asynchronous).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy.engine import URL

from bot.store.db import create_sqlite_sync_engine
from bot.store.writes import Batch


class SqliteWriter:
    def __init__(self, url: str | URL) -> None:
        self._engine = create_sqlite_sync_engine(url)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")

    def _run(self, batch: Batch) -> None:
        with self._engine.begin() as conn:
            for statement, rows in batch:
                conn.execute(statement, rows)

    async def commit(self, batch: Batch) -> None:
        """Run ``batch`` in one transaction on the writer thread."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self._run, batch)

    def close(self) -> None:
        """Close the connection on the thread that made it, then stop the thread."""
        self._thread.submit(self._engine.dispose).result()
        self._thread.shutdown(wait=True)
