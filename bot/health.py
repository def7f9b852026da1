"""``nocontact health``: is a bot process active on this database, and alive?

The active process writes a heartbeat file (``<data dir>/heartbeat.json``) every
``HEARTBEAT_SECONDS`` while its event loop runs and it receives updates (polling or
webhook).  The file holds a time and a process id, nothing about anyone.  ``health`` is
healthy when the heartbeat is fresh and the lease is taken; the exit code suits a
container health check (0 healthy, 1 not).
"""

from __future__ import annotations

import json
import os
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


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Replace the heartbeat file at once (readers never see half a file)."""
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
