"""Database engines and sessions (SQLite by default, PostgreSQL when the URL says so).

SQLite connections get their pragmas on connect: WAL journal, a busy timeout, foreign
keys, ``secure_delete`` (deleted content is overwritten in the file) and
``synchronous=NORMAL`` (safe with WAL, much faster than FULL).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Engine, delete, event, insert, inspect, select
from sqlalchemy import create_engine as _create_sync_engine
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.ext.asyncio import create_async_engine as _create_async_engine
from sqlalchemy.pool import NullPool

SQLITE_BUSY_TIMEOUT_MS = 5000
#: asyncpg's per-connection cache of prepared statements (the bot uses fewer shapes)
PREPARED_STATEMENTS = 500
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys=ON",
    "PRAGMA secure_delete=ON",
    "PRAGMA synchronous=NORMAL",
)


def is_sqlite(url: str | URL) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_path(url: str | URL) -> Path | None:
    """The file behind a SQLite URL (None for other databases and in-memory SQLite)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def database_file_missing(url: str | URL) -> bool:
    """True when ``url`` is a SQLite file that does not exist yet, or is empty (0 bytes).

    Connecting would create it (or write its header), so read-only checks ask this first.
    """
    path = sqlite_path(url)
    return path is not None and (not path.exists() or path.stat().st_size == 0)


def safe_url(url: str | URL) -> str:
    """The URL for messages: the password is hidden."""
    return make_url(url).render_as_string(hide_password=True)


def describe_error(exc: BaseException) -> str:
    """One line naming a connection/database error (for operator messages)."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _set_sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in _SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def is_local_host(host: str | None) -> bool:
    """A database server on this machine: a Unix socket or a loopback address."""
    return not host or host.startswith("/") or host in LOCAL_HOSTS


def postgres_connect_args(url: str | URL, ssl: str = "") -> dict[str, Any]:
    """asyncpg's connection arguments.  asyncpg tries SSL first by default ("prefer"), an
    extra round trip on every new connection; on a local host there is nothing to protect,
    so it is off there unless ``ssl`` (DATABASE_SSL) or the URL asks for it."""
    parsed = make_url(url)
    args: dict[str, Any] = {"prepared_statement_cache_size": PREPARED_STATEMENTS}
    if "ssl" in parsed.query or "sslmode" in parsed.query:
        return args
    host = parsed.host or parsed.query.get("host")  # ?host=/run/postgresql: a socket
    if ssl:
        args["ssl"] = ssl
    elif is_local_host(host if isinstance(host, str) else None):
        args["ssl"] = False
    return args


def create_engine(
    url: str | URL, *, pool_size: int = 0, ssl: str = "", null_pool: bool = False
) -> AsyncEngine:
    """An async engine for ``url`` (SQLite connections get the pragmas).

    On PostgreSQL: ``pool_size`` connections are kept open and no more are made (0:
    SQLAlchemy's default, 5 plus 10 made and closed as needed), ``null_pool`` opens one
    per use instead; SSL as :func:`postgres_connect_args` says; each connection prepares
    a statement once and reuses it.

    Nothing is created until the first connection; call :func:`prepare_directory` before
    the first write so a SQLite file's directory exists.
    """
    if is_sqlite(url):
        engine = (
            _create_async_engine(url, poolclass=NullPool)
            if null_pool
            else _create_async_engine(url)
        )
        event.listen(engine.sync_engine, "connect", _set_sqlite_pragmas)
        return engine
    kwargs: dict[str, Any] = {"connect_args": postgres_connect_args(url, ssl)}
    if null_pool:
        kwargs["poolclass"] = NullPool
    elif pool_size:
        kwargs.update(pool_size=pool_size, max_overflow=0)
    return _create_async_engine(url, **kwargs)


def create_sqlite_sync_engine(url: str | URL) -> Engine:
    """A plain (thread-bound) engine on the same SQLite file as ``url``, with the same
    pragmas; for a writer thread (see ``bot.store.sqlite_writer``)."""
    engine = _create_sync_engine(make_url(url).set(drivername="sqlite"))
    event.listen(engine, "connect", _set_sqlite_pragmas)
    return engine


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def sqlite_files(url: str | URL) -> list[Path]:
    """The main file of a SQLite database plus its WAL and shared-memory files."""
    path = sqlite_path(url)
    if path is None:
        return []
    return [path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")]


def prepare_directory(url: str | URL) -> None:
    """Make the directory of a SQLite file (mode 0700) if it is missing."""
    path = sqlite_path(url)
    if path is not None:
        ensure_private_dir(path.parent)


def ensure_private_dir(path: Path) -> None:
    """Create ``path`` (mode 0700) if it is missing."""
    if not path.exists():
        os.makedirs(path, mode=0o700, exist_ok=True)


# --------------------------------------------------------------------------- migrations
MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def _alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest schema revision this code knows."""
    heads = ScriptDirectory.from_config(_alembic_config()).get_heads()
    if len(heads) != 1:
        raise RuntimeError(f"the migrations have {len(heads)} heads; merge them")
    return heads[0]


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The schema revision of the database (None when it has never been migrated)."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


def app_version() -> str:
    """This installation's nocontact version ("unknown" when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nocontact-bot")
    except PackageNotFoundError:
        return "unknown"


def _known(revision: str) -> bool:
    try:
        return ScriptDirectory.from_config(_alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


def _upgraded_by(connection: Connection) -> str | None:
    from bot.store.models import SchemaMeta

    if not inspect(connection).has_table(SchemaMeta.__tablename__):
        return None
    value = connection.scalar(select(SchemaMeta.value).where(SchemaMeta.name == "upgraded_by"))
    return None if value is None else str(value)


def newer_schema_problem(connection: Connection, label: str) -> str | None:
    """A plain-words problem when the database's schema is newer than this code knows
    (it was made or upgraded by a newer nocontact), else None."""
    revision = _current(connection)
    if revision is None or _known(revision):
        return None
    by = _upgraded_by(connection)
    needs = f"nocontact {by} or newer" if by else "a newer version of nocontact"
    return (
        f"The database {label} has schema {revision}, made by {needs.removesuffix(' or newer')}; "
        f"this is nocontact {app_version()}, which knows schemas up to {head_revision()}. "
        f"The data needs {needs}: install that version, or restore a backup made before "
        "the upgrade. Nothing was changed."
    )


async def upgrade_database(engine: AsyncEngine) -> None:
    """Bring the data database to the newest revision (a no-op when it is there), and
    record which nocontact version did.  A schema from a newer version is refused with
    a ``ConfigError`` that names the version the data needs."""
    from bot.config import ConfigError
    from bot.store.models import SchemaMeta

    label = safe_url(engine.url)

    def upgrade(connection: Connection) -> None:
        if _current(connection) == head_revision():
            return
        problem = newer_schema_problem(connection, label)
        if problem:
            raise ConfigError(problem)
        command.upgrade(_alembic_config(connection), "head")
        connection.execute(delete(SchemaMeta).where(SchemaMeta.name == "upgraded_by"))
        connection.execute(insert(SchemaMeta).values(name="upgraded_by", value=app_version()))

    async with engine.begin() as conn:
        await conn.run_sync(upgrade)
