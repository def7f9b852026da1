"""Logging that never shows secrets: HTTP client loggers (which print request URLs that
contain the bot token) are kept at WARNING, and nothing logs message text."""

from __future__ import annotations

import logging

from bot.config import Settings

_QUIET = ("httpx", "httpcore", "apscheduler", "aiosqlite", "asyncio")


def configure_logging(settings: Settings) -> None:
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True
    )
    for name in _QUIET:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))
