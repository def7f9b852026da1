"""Alembic environment for the data database.

Run from code: ``bot.store.db.upgrade_database`` passes an open connection in
``config.attributes["connection"]`` (it runs inside ``AsyncConnection.run_sync``).
Run from the ``alembic`` command (new revisions): the URL comes from the bot settings.
Batch mode is on so that ALTERs work on SQLite.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy.engine import Connection

from bot.store.models import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata


def _render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Render our UTC timestamp type as the plain column type it stores."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_settings() -> None:
    from bot.config import load_settings
    from bot.store.db import create_engine

    engine = create_engine(load_settings().database_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_configure)
    finally:
        await engine.dispose()


def run() -> None:
    if context.is_offline_mode():
        raise SystemExit("offline (--sql) migrations are not supported; use `nocontact migrate`")
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(_run_from_settings())
    else:
        _configure(connection)


run()
