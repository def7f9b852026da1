"""Reaching Telegram at start-up: one plain sentence per failed try, a growing pause
between tries, and a stop only when Telegram refuses the token.

``nocontact run`` calls :func:`reach` before polling.  A network that is down, a proxy or
firewall in the way, or a Bot API server that does not answer is worth waiting for: the
bot tries again (1 s, 2 s, 4 s ... up to a minute apart) until Telegram answers.  A token
Telegram refuses will not start working by waiting: that stops the bot at once.  No
traceback is printed and the HTTP sessions are closed on every way out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from urllib.parse import urlsplit

from telegram import Bot
from telegram.error import InvalidToken, NetworkError, TelegramError, TimedOut

log = logging.getLogger(__name__)

#: The longest pause between two tries, in seconds.
MAX_PAUSE = 60.0

#: Telegram answers 401 (and 404, which PTB reports the same way: ``InvalidToken``) for a
#: token it does not know; a 404 can also mean a base URL that is not a Bot API server.
WRONG_TOKEN = (
    "Telegram refused the bot token. Check TELEGRAM_BOT_TOKEN: copy it again from "
    "@BotFather (it looks like 123456789:AA...); if you set TELEGRAM_API_BASE_URL, check "
    "that it points at a Bot API server."
)
UNREACHABLE = (
    "Cannot reach Telegram at {where} ({why}). Check the internet connection, any proxy "
    "or firewall, and TELEGRAM_API_BASE_URL. Trying again in {pause}."
)
REACHED = "Telegram answered; starting."


def pauses(first: float = 1.0, most: float = MAX_PAUSE) -> Iterator[float]:
    """1, 2, 4, ... seconds, then ``most`` every time."""
    pause = first
    while True:
        yield min(pause, most)
        pause *= 2


def _where(base_url: str) -> str:
    """The Bot API server's host (the path holds nothing useful; the token is not in it)."""
    parts = urlsplit(base_url)
    return parts.netloc or base_url


def _why(exc: TelegramError) -> str:
    """A short reason in plain words, never the request URL."""
    if isinstance(exc, TimedOut):
        return "no answer in time"
    if isinstance(exc, NetworkError) and "Connect" in exc.message.split(":", 1)[0]:
        return "no connection"
    return exc.message.split(":", 1)[0].removeprefix("aiohttp.") or type(exc).__name__


def _seconds(pause: float) -> str:
    whole = round(pause)
    return "1 second" if whole == 1 else f"{whole} seconds"


async def reach(
    bot: Bot,
    base_url: str,
    *,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    waits: Iterator[float] | None = None,
) -> bool:
    """Try ``bot.initialize()`` (its ``getMe``) until Telegram answers: True.  False when
    Telegram refuses the token (the bot's HTTP sessions are then closed).  Cancelling, or
    Ctrl-C, closes the sessions too."""
    waits = waits if waits is not None else pauses()
    reached = False
    try:
        while True:
            try:
                await bot.initialize()
            except InvalidToken:
                return False  # the caller says so (WRONG_TOKEN) and stops
            except TelegramError as exc:  # NetworkError, TimedOut, a 5xx, a 429 ...
                pause = next(waits)
                log.warning(
                    UNREACHABLE.format(where=_where(base_url), why=_why(exc), pause=_seconds(pause))
                )
                await sleep(pause)
                continue
            reached = True
            log.info(REACHED)
            return True
    finally:
        if not reached:
            await bot.shutdown()


class PollingErrors(logging.Filter):
    """Once running, python-telegram-bot logs each failed ``getUpdates`` with a full
    traceback (and retries by itself, up to 30 s apart).  This filter, on PTB's Updater
    logger, turns that record into the same plain sentence, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and str(record.msg).startswith("Exception happened while polling"):
            why = _why(exc) if isinstance(exc, TelegramError) else type(exc).__name__
            record.msg = LOST.format(why=why)
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install_polling_errors() -> None:
    """Put :class:`PollingErrors` first on PTB's Updater logger: it reads the exception,
    which the library-details filter (``bot.logging_setup.WITHHOLD``, on every PTB logger)
    takes off the record."""
    logger = logging.getLogger(UPDATER_LOGGER)
    if not any(isinstance(f, PollingErrors) for f in logger.filters):
        logger.filters.insert(0, PollingErrors())


LOST = (
    "Lost the connection to Telegram ({why}). Check the internet connection, any proxy or "
    "firewall; trying again by itself."
)
#: The logger python-telegram-bot reports polling errors on.
UPDATER_LOGGER = "telegram.ext.Updater"
