"""Logging that never shows secrets or what users write.

- python-telegram-bot logs every Bot API call's parameters (message text, chat ids) and
  the API URL (which holds the bot token) at DEBUG: its loggers never go below INFO.
- The HTTP client loggers print request URLs (with the token) at INFO: they stay at
  WARNING.
- The bot's own code logs error types and counts, never message text.
- A second line of defence, at every level: the libraries' loggers (python-telegram-bot,
  httpx, httpcore, aiohttp) carry :class:`Withhold`, which keeps a record's message but
  replaces every argument that is not a number with ``<withheld>`` and an attached
  exception by its type and place.  python-telegram-bot passes raw updates, Bot API
  parameters and answers it could not read as such arguments (and exceptions can quote
  what they failed on), so none of it reaches a log.
"""

from __future__ import annotations

import logging
from enum import Enum

import telegram.ext  # noqa: F401  # PTB makes its loggers on import: guard them all

from bot.config import Settings

#: logger name -> the most verbose level it may ever have
FLOORS: dict[str, int] = {
    "telegram": logging.INFO,
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "aiohttp": logging.WARNING,
    "apscheduler": logging.WARNING,
    "aiosqlite": logging.WARNING,
    "asyncio": logging.WARNING,
    "sqlalchemy": logging.WARNING,
    # webhook mode's server logs every request at INFO
    "tornado": logging.WARNING,
}

#: the libraries whose log records may carry what users wrote
GUARDED = ("telegram", "httpx", "httpcore", "aiohttp")
WITHHELD = "<withheld>"
#: python-telegram-bot's records that are not errors of the bot, by how their message
#: starts -> the level they get: at shutdown the Updater confirms the last updates with
#: one more getUpdates, and logs at ERROR when that call fails (a slow or unreachable
#: Bot API); the updates then come again at the next start, which is not an error
LOWER: dict[str, int] = {"Error while calling `get_updates` one more time": logging.WARNING}


def _plain(value: object) -> bool:
    return value is None or isinstance(value, int | float | Enum)


def place_of(exc: BaseException) -> str:
    """``file:line`` where ``exc`` was raised (what a log may say of an error besides
    its type: its message or traceback can quote what users wrote)."""
    tb = exc.__traceback__
    where = ""
    while tb is not None:
        where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return where


class Withhold(logging.Filter):
    """Numbers pass; every other argument and an attached exception's text do not.
    The records of :data:`LOWER` get their lower level."""

    def filter(self, record: logging.LogRecord) -> bool:
        for start, level in LOWER.items():
            if isinstance(record.msg, str) and record.msg.startswith(start):
                record.levelno, record.levelname = level, logging.getLevelName(level)
        args = record.args
        if isinstance(args, dict):
            record.args = {k: v if _plain(v) else WITHHELD for k, v in args.items()}
        elif args:
            record.args = tuple(v if _plain(v) else WITHHELD for v in args)
        if record.exc_info:
            exc = record.exc_info[1]
            if exc is not None:
                suffix = f" ({type(exc).__name__} at {place_of(exc)})"
                # with arguments the message is %-formatted later
                record.msg = f"{record.msg}{suffix.replace('%', '%%') if record.args else suffix}"
            record.exc_info = None
            record.exc_text = None
        record.stack_info = None
        return True


WITHHOLD = Withhold()


def withhold_library_details() -> None:
    """Put :data:`WITHHOLD` on every logger of :data:`GUARDED` (a filter on a logger sees
    only that logger's own records, so each gets it; all exist once PTB is imported)."""
    names = [
        name
        for name, logger in logging.Logger.manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
        and any(name == root or name.startswith(root + ".") for root in GUARDED)
    ]
    for name in {*GUARDED, *names}:
        logger = logging.getLogger(name)
        if WITHHOLD not in logger.filters:
            logger.addFilter(WITHHOLD)


def configure_logging(settings: Settings) -> None:
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True
    )
    for name, floor in FLOORS.items():
        logging.getLogger(name).setLevel(max(level, floor))
    withhold_library_details()
