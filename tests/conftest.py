"""Shared fixtures.

Storage backends: ``backend`` runs a test once on SQLite and once on PostgreSQL (marked
``slow``: the quick loop leaves that one out). The PostgreSQL runs use two temporary
databases (data and key store) made once per test session (so once per xdist worker) and
emptied before every test; they are skipped with a clear reason when 127.0.0.1:5432 is
unreachable.

* ``settings_factory`` - ``make(**changes) -> Settings`` with a private data dir under
  ``tmp_path`` (SQLite by default).
* ``settings`` - settings for the current ``backend``.
* ``store`` - an open :class:`bot.store.facade.Store` on ``settings`` (closed afterwards).
* ``pg`` - the PostgreSQL helper (:class:`PgCluster`); skips when unavailable.
"""

from __future__ import annotations

import hashlib
import socket
import subprocess
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select, table
from sqlalchemy.sql.expression import ColumnClause, column

from bot.config import Settings
from bot.store.db import create_engine, sqlite_files, sqlite_path
from bot.store.facade import Store

PG_HOST = "127.0.0.1"
PG_PORT = 5432
PG_USER = "postgres"
PG_ADMIN_DB = "test"
PSQL = ("psql", "-h", PG_HOST, "-p", str(PG_PORT), "-U", PG_USER)


def _pg_reachable() -> bool:
    try:
        with socket.create_connection((PG_HOST, PG_PORT), timeout=0.5):
            return True
    except OSError:
        return False


class PgCluster:
    """Temporary PostgreSQL databases for tests (driven with psql / pg_dump)."""

    def __init__(self) -> None:
        self.prefix = f"nocontact_test_{uuid.uuid4().hex[:10]}"
        self.created: list[str] = []

    def psql(self, sql: str, database: str = PG_ADMIN_DB) -> str:
        result = subprocess.run(
            [*PSQL, "-d", database, "-v", "ON_ERROR_STOP=1", "-qAtc", sql],
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://{PG_USER}@{PG_HOST}:{PG_PORT}/{database}"

    def _disconnect(self, database: str) -> None:
        self.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{database}' AND pid <> pg_backend_pid()"
        )

    def create(self, suffix: str, template: str | None = None) -> str:
        name = f"{self.prefix}_{suffix}"
        if template is not None:
            self._disconnect(template)
        self.psql(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        self.created.append(name)
        return name

    def drop(self, name: str) -> None:
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if name in self.created:
            self.created.remove(name)

    def reset(self, *names: str) -> None:
        """Empty each database (every other connection to it closed): one psql for all."""
        commands: list[str] = []
        for name in names:
            commands += [
                f"\\c {name}",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()",
                "DROP SCHEMA public CASCADE; CREATE SCHEMA public;",
            ]
        subprocess.run(
            [*PSQL, "-d", PG_ADMIN_DB, "-v", "ON_ERROR_STOP=1", "-qAt"]
            + [arg for command in commands for arg in ("-c", command)],
            capture_output=True,
            text=True,
            check=True,
        )

    def dump(self, name: str) -> bytes:
        return subprocess.run(
            ["pg_dump", "-h", PG_HOST, "-p", str(PG_PORT), "-U", PG_USER, name],
            capture_output=True,
            check=True,
        ).stdout


@dataclass(frozen=True)
class Backend:
    name: str
    #: empty for SQLite (the settings default: files in the data dir)
    database_url: str = ""
    keystore_url: str = ""
    pg: PgCluster | None = None
    data_db: str = ""
    keys_db: str = ""


@pytest.fixture(scope="session")
def pg_available() -> bool:
    return _pg_reachable()


@pytest.fixture(scope="session")
def pg(pg_available: bool) -> Iterator[PgCluster]:
    if not pg_available:
        pytest.skip(f"PostgreSQL is not reachable at {PG_HOST}:{PG_PORT}")
    cluster = PgCluster()
    cluster.create("data")
    cluster.create("keys")
    yield cluster
    for name in list(cluster.created):
        cluster.drop(name)


#: the PostgreSQL runs cost several times the SQLite ones (a server round trip per
#: statement, a fresh schema per test): the quick loop (``-m "not slow"``) runs SQLite only
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite")
    cluster: PgCluster = request.getfixturevalue("pg")
    data_db, keys_db = f"{cluster.prefix}_data", f"{cluster.prefix}_keys"
    cluster.reset(data_db, keys_db)
    return Backend(
        "postgresql",
        database_url=cluster.url(data_db),
        keystore_url=cluster.url(keys_db),
        pg=cluster,
        data_db=data_db,
        keys_db=keys_db,
    )


@pytest.fixture
def settings_factory(tmp_path: Path) -> Callable[..., Settings]:
    def make(**changes: Any) -> Settings:
        changes.setdefault("data_dir", tmp_path / "data")
        return Settings(**changes)

    return make


@pytest.fixture
def settings(settings_factory: Callable[..., Settings], backend: Backend) -> Settings:
    return settings_factory(database_url=backend.database_url, keystore_url=backend.keystore_url)


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[Store]:
    opened = await Store.open(settings)
    try:
        yield opened
    finally:
        await opened.close()


# --------------------------------------------------------------------------- snapshots
async def table_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a database, in a stable order."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            layout = await conn.run_sync(
                lambda sync: {
                    name: [col["name"] for col in inspect(sync).get_columns(name)]
                    for name in inspect(sync).get_table_names()
                }
            )
            rows: dict[str, list[tuple[Any, ...]]] = {}
            for name, columns in sorted(layout.items()):
                cols: list[ColumnClause[Any]] = [column(c) for c in columns]
                result = await conn.execute(select(*cols).select_from(table(name)).order_by(*cols))
                rows[name] = [tuple(row) for row in result]
    finally:
        await engine.dispose()
    return rows


def file_hashes(paths: list[Path]) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.exists()}


async def snapshot(settings: Settings) -> dict[str, Any]:
    """Everything a store has written: SQLite files byte for byte, PostgreSQL rows."""
    shot: dict[str, Any] = {}
    for label, url in (("data", settings.database_url), ("keys", settings.keystore_url)):
        if sqlite_path(url) is not None:
            shot[label] = file_hashes(sqlite_files(url))
        else:
            shot[label] = await table_rows(url)
    shot["master_key_file"] = file_hashes([settings.master_key_file])
    return shot


@pytest.fixture
def take_snapshot() -> Callable[[Settings], Awaitable[dict[str, Any]]]:
    return snapshot
