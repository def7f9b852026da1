"""``python -m tests.e2e.slow_start run``: ``nocontact run`` with one step of its start-up
made slow, for the tests of a stop signal in the middle of it
(tests/e2e/test_stop_at_startup_e2e.py).

``SLOW_AT`` names the step; the first time the bot reaches it, it prints ``SLOW_STEP
STARTS``, takes ``SLOW_SECONDS`` more (a database read: a statement that sleeps, on the
bot's own connection; the model: a pause on its thread), then prints ``SLOW_STEP ENDS``
and goes on as usual.  Nothing else changes.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.pool import Pool

import bot.app
from bot.cli.main import main
from bot.schedule.store import ScheduleStore

STARTS, ENDS = "SLOW_STEP STARTS", "SLOW_STEP ENDS"
#: step -> the scheduler store's method it slows (a database read of start-up)
READS = {"schedule-read": "blocked_users", "recovery": "interrupted", "first-sweep": "due"}
STEPS = ("model", *READS)
SLEEP = {"sqlite": "SELECT nocontact_test_sleep(:s)", "postgresql": "SELECT pg_sleep(:s)"}


def _say(line: str) -> None:
    print(line, flush=True)


def _sqlite_sleep(dbapi_connection: Any, connection_record: Any) -> None:
    """SQLite has no sleep: one for the slow statement (on the driver's thread)."""
    create = getattr(dbapi_connection, "create_function", None)
    if create is not None:
        create("nocontact_test_sleep", 1, time.sleep)


def _slow_read(name: str, seconds: float) -> None:
    real = getattr(ScheduleStore, name)
    done = False

    async def slow(self: ScheduleStore, *args: Any, **kwargs: Any) -> Any:
        nonlocal done
        if not done:
            done = True
            async with self.sessions() as session:
                dialect = session.get_bind().dialect.name
                _say(STARTS)
                await session.execute(text(SLEEP[dialect]), {"s": seconds})
                _say(ENDS)
        return await real(self, *args, **kwargs)

    setattr(ScheduleStore, name, slow)
    event.listen(Pool, "connect", _sqlite_sleep)


def _slow_model(seconds: float) -> None:
    real: Callable[[], object] = bot.app.load_model  # type: ignore[attr-defined]  # bot.app's own

    def slow() -> object:
        _say(STARTS)
        time.sleep(seconds)
        _say(ENDS)
        return real()

    bot.app.load_model = slow  # type: ignore[attr-defined,assignment]  # the same call, slower


def install(step: str, seconds: float) -> None:
    if step == "model":
        _slow_model(seconds)
    else:
        _slow_read(READS[step], seconds)


if __name__ == "__main__":
    install(os.environ["SLOW_AT"], float(os.environ.get("SLOW_SECONDS", "1.5")))
    sys.exit(main(sys.argv[1:]))
