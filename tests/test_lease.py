"""The lease: one active process per data database; a second one waits as a standby.

The real processes (kill -9 and take-over) are in tests/e2e/test_takeover_e2e.py; these
tests drive the lease itself on SQLite (a flock on a file next to the data file) and on
PostgreSQL (an advisory lock on a connection of its own).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config import Settings
from bot.store.lease import Lease, lock_file_for
from tests.conftest import Backend


async def test_a_second_lease_on_the_same_database_waits_until_the_first_is_released(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = Lease(settings.database_url), Lease(settings.database_url, retry_seconds=0.1)
    assert await first.try_acquire()
    assert not await second.try_acquire()
    caplog.set_level(logging.WARNING, "bot.store.lease")
    waiting = asyncio.create_task(second.acquire())
    await asyncio.sleep(0.5)
    assert not waiting.done()  # a standby, not a second active process
    assert "another nocontact process is active" in caplog.text
    await first.release()
    await asyncio.wait_for(waiting, 5)
    assert second.held
    assert not await Lease(settings.database_url).try_acquire()
    await second.release()
    third = Lease(settings.database_url)
    assert await third.try_acquire()
    await third.release()


async def test_leases_on_different_databases_do_not_meet(tmp_path: Path) -> None:
    one = Lease(Settings(data_dir=tmp_path / "one").database_url)
    other = Lease(Settings(data_dir=tmp_path / "other").database_url)
    assert await one.try_acquire() and await other.try_acquire()
    await one.release()
    await other.release()


async def test_the_sqlite_lease_is_a_file_next_to_the_data_file(
    settings_factory: Callable[..., Settings],
) -> None:
    settings = settings_factory()
    path = lock_file_for(settings.database_url)
    assert path is not None and path.parent == settings.data_dir
    assert path.name == "nocontact.db.lock"
    lease = Lease(settings.database_url)
    assert await lease.try_acquire()
    assert path.exists() and path.stat().st_mode & 0o077 == 0
    await lease.release()


async def test_a_dropped_postgresql_connection_ends_the_lease_and_says_so(
    backend: Backend, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    if backend.pg is None:
        pytest.skip("PostgreSQL only: a SQLite lock cannot be taken away from its process")
    lease = Lease(settings.database_url, retry_seconds=0.1)
    assert await lease.try_acquire()
    lost = asyncio.Event()
    lease.watch(lost.set)
    standby = Lease(settings.database_url, retry_seconds=0.1)
    assert not await standby.try_acquire()
    # the server drops the holder's connection (a restart, a network cut, an admin)
    backend.pg.psql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{backend.data_db}' AND pid <> pg_backend_pid()"
    )
    await asyncio.wait_for(lost.wait(), 5)
    assert lease.lost and not lease.held
    assert "was lost" in caplog.text
    assert await standby.try_acquire()
    await standby.release()
    await lease.release()
