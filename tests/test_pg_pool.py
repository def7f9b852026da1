"""PostgreSQL connections: a pool as large as the bot's concurrency (no connection made
and closed per update once warm), no SSL attempt on a local server unless asked for, and
each statement prepared once per connection.  bench/updates.py --database-url prints the
new connections per update of a real run."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from sqlalchemy import event, text

from bot.config import Settings
from bot.store.db import PREPARED_STATEMENTS, postgres_connect_args
from bot.store.facade import POOL_EXTRA, Store
from tests.conftest import Backend


@pytest.mark.parametrize(
    ("url", "ssl", "expected"),
    [
        ("postgresql+asyncpg://u@127.0.0.1:5432/db", "", False),
        ("postgresql+asyncpg://u@localhost/db", "", False),
        ("postgresql+asyncpg://u@/db?host=/run/postgresql", "", False),
        ("postgresql+asyncpg://u@db.example.org/db", "", None),  # asyncpg's default
        ("postgresql+asyncpg://u@db.example.org/db", "verify-full", "verify-full"),
        ("postgresql+asyncpg://u@127.0.0.1/db", "require", "require"),
        ("postgresql+asyncpg://u@127.0.0.1/db?ssl=require", "", None),  # the URL decides
    ],
)
def test_ssl_is_off_on_a_local_server_unless_asked_for(
    url: str, ssl: str, expected: object
) -> None:
    args = postgres_connect_args(url, ssl)
    assert args.get("ssl") == expected
    assert args["prepared_statement_cache_size"] == PREPARED_STATEMENTS


async def test_the_pool_keeps_its_connections_under_concurrent_load(
    backend: Backend, settings: Settings
) -> None:
    if backend.pg is None:
        pytest.skip("PostgreSQL only")
    settings = replace(settings, concurrent_updates=12)
    store = await Store.open(settings)
    made = 0

    def on_connect(*_: object) -> None:
        nonlocal made
        made += 1

    event.listen(store.engine.sync_engine, "connect", on_connect)
    try:
        pool = store.engine.pool
        assert pool.size() == 12 + POOL_EXTRA
        await store.ensure_user(7_000, 7_000)

        async def read() -> None:
            async with store.connection() as conn:
                await conn.execute(text("SELECT pg_sleep(0.02)"))

        async def one_round() -> None:
            # as many reads at once as the bot can have (the caches are not involved)
            await asyncio.gather(*(read() for _ in range(12 + POOL_EXTRA)))
            await store.count_users()

        await one_round()  # warm-up
        warm = made
        for _ in range(5):
            await one_round()
        assert made == warm, f"{made - warm} connections were made after the warm-up"
    finally:
        await store.close()
