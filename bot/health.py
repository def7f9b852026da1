"""``nocontact health``: is a bot process active on this database, and alive?

The active process writes a heartbeat file (``<data dir>/heartbeat.json``) every
``HEARTBEAT_SECONDS`` while its event loop runs and it receives updates (polling or
webhook).  The file holds a time and a process id, nothing about anyone.  A standby
(waiting for the lease) writes its own, ``standby-<host name>.json``, so that in a
container of its own, with a data volume of its own (PostgreSQL), it is not reported
unhealthy and restarted for waiting.  ``health`` is healthy when this host's standby
heartbeat is fresh, or the lease is taken and the active heartbeat is fresh; the exit
code suits a container health check (0 healthy, 1 not).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

from telegram.ext import Application, ContextTypes

from bot.config import Settings
from bot.store.lease import Lease

HEARTBEAT_SECONDS = 5.0
#: a heartbeat older than this means the process is stuck or gone
STALE_SECONDS = 30.0


def heartbeat_file(settings: Settings) -> Path:
    return settings.data_dir / "heartbeat.json"


def standby_file(settings: Settings) -> Path:
    """This host's standby heartbeat (one per host: standbys may share a data volume)."""
    host = "".join(c if c.isalnum() or c in "-_." else "_" for c in socket.gethostname())
    return settings.data_dir / f"standby-{host or 'host'}.json"


async def standby_heartbeat(path: Path) -> None:
    """Write the standby heartbeat now and every HEARTBEAT_SECONDS until cancelled (the
    lease taken, or the process stopping); then remove it."""
    try:
        while True:
            with contextlib.suppress(OSError):  # a full disk must not stop the waiting
                write_heartbeat(path)
            await asyncio.sleep(HEARTBEAT_SECONDS)
    finally:
        _remove(path)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Replace the heartbeat file at once (readers never see half a file)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump({"at": time.time() if now is None else now, "pid": os.getpid()}, handle)
    os.replace(tmp, path)


def start_heartbeat(application: Application[Any, Any, Any, Any, Any, Any], path: Path) -> None:
    """Write the heartbeat now and every HEARTBEAT_SECONDS while updates come in."""

    async def beat(context: ContextTypes.DEFAULT_TYPE) -> None:
        updater = context.application.updater
        if context.application.running and (updater is None or updater.running):
            write_heartbeat(path)

    if application.job_queue is not None:
        application.job_queue.run_repeating(
            beat, interval=HEARTBEAT_SECONDS, first=0.5, name="heartbeat"
        )


def heartbeat_age(path: Path, now: float | None = None) -> float | None:
    """Seconds since the last heartbeat (None: there is none, or it is unreadable)."""
    try:
        at = float(json.loads(path.read_text())["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (time.time() if now is None else now) - at


async def check(settings: Settings) -> tuple[bool, str]:
    """(healthy, one line saying why)."""
    waiting = heartbeat_age(standby_file(settings))
    if waiting is not None and waiting <= STALE_SECONDS:
        return True, f"standing by while another process is active (heartbeat {waiting:.0f} s ago)"
    lease = Lease(settings.database_url, ssl=settings.database_ssl)
    try:
        if await lease.try_acquire():
            return False, "no nocontact process is active on this database"
    except Exception as exc:
        return False, f"cannot reach the database to check the lease: {type(exc).__name__}"
    finally:
        await lease.release()
    age = heartbeat_age(heartbeat_file(settings))
    if age is None:
        return False, "a process holds the lease but has written no heartbeat yet"
    if age > STALE_SECONDS:
        return False, f"the active process's last heartbeat is {age:.0f} s old"
    return True, f"the active process is alive (heartbeat {age:.0f} s ago)"
