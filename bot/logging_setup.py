"""Logging that never shows secrets or what users write.

- python-telegram-bot logs every Bot API call's parameters (message text, chat ids) and
  the API URL (which holds the bot token) at DEBUG: its loggers never go below INFO.
- The HTTP client loggers print request URLs (with the token) at INFO: they stay at
  WARNING.
- The bot's own code logs error types and counts, never message text.
"""

from __future__ import annotations

import logging

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


def configure_logging(settings: Settings) -> None:
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True
    )
    for name, floor in FLOORS.items():
        logging.getLogger(name).setLevel(max(level, floor))
